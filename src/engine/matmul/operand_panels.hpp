// TMATMUL's operands as the kernels read them (matmul::Panel, 32-bit words of the working type f32 or
// i32, into which every input type widens exactly). The cube's layouts (Left Nz, Right Zn, Acc Nz) take
// fast paths: Nz tiles are read and written in place (or widened whole, keeping their layout), Zn boxes
// are transposed into strips of 16 columns; any other layout goes through a row-major panel.
#pragma once

#include <cstdint>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/matmul.hpp>

#include "engine/matmul/gemm_kernel.hpp"

namespace pto::engine::matmul {

using Words = Panel<const uint32_t>;

// m x k of a.
Words left_panel(const TileDesc& a, int m, int k, DType work);

// k x n of b.
Words right_panel(const TileDesc& b, int k, int n, DType work);

// The initial value of c's m x n: c_in, the bias row repeated, or none (data null: zeros).
Words initial_panel(const MatmulOperands& o, int m, int n, DType work);

// Where the kernel writes c's m x n: the tile itself, or a row-major panel that finish_result copies in.
Panel<uint32_t> result_panel(const TileDesc& c, int m, int n);
void finish_result(const Panel<uint32_t>& result, const TileDesc& c, int m, int n);

}  // namespace pto::engine::matmul
