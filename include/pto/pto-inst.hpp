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
#include <pto/intrinsics/expand.hpp>
#include <pto/intrinsics/fixpipe_config.hpp>
#include <pto/intrinsics/gather.hpp>
#include <pto/intrinsics/generate.hpp>
#include <pto/intrinsics/img2col.hpp>
#include <pto/intrinsics/inspect.hpp>
#include <pto/intrinsics/layout.hpp>
#include <pto/intrinsics/matmul.hpp>
#include <pto/intrinsics/memory_gather.hpp>
#include <pto/intrinsics/partial.hpp>
#include <pto/intrinsics/quant.hpp>
#include <pto/intrinsics/reduce.hpp>
#include <pto/intrinsics/sort.hpp>
#include <pto/intrinsics/syncall.hpp>
#include <pto/intrinsics/tile_pipe.hpp>
#include <pto/intrinsics/vector.hpp>
#include <pto/intrinsics/window_moves.hpp>
#include <pto/profile/target.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <pto/common/pto_tile.hpp>
#include <pto/cpu/TAssign.hpp>
#include <pto/cpu/NPUMemoryModel.hpp>
#if defined(__CPU_SIM)
// The public library's CPU simulation adds the host runtime and the execution context.
#include <pto/common/cpu_stub.hpp>
#endif
