// The tile and global-tensor types under the public library's header name.
#pragma once

#include <pto/common/conv_tile.hpp>
#include <pto/common/global_tensor.hpp>
#include <pto/common/shape2d.hpp>
#include <pto/common/tile.hpp>
#include <pto/cpu/MXTypes.hpp>
#include <pto/cpu/tile_offsets.hpp>
