// The PTO tile instruction set on the CPU: include this from a kernel.
#pragma once

#include <pto/common/constants.hpp>
#include <pto/common/event.hpp>
#include <pto/common/global_tensor.hpp>
#include <pto/common/kernel.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/intrinsics/assign.hpp>
#include <pto/intrinsics/col_expand.hpp>
#include <pto/intrinsics/compare_select.hpp>
#include <pto/intrinsics/convert.hpp>
#include <pto/intrinsics/data_movement.hpp>
#include <pto/intrinsics/elementwise.hpp>
#include <pto/intrinsics/gather.hpp>
#include <pto/intrinsics/memory_gather.hpp>
#include <pto/intrinsics/quant.hpp>
#include <pto/intrinsics/reduce.hpp>
#include <pto/intrinsics/sort.hpp>
#include <pto/profile/target.hpp>
#include <pto/runtime/diagnostic.hpp>
