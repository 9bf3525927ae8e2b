// The MX forms' operands as the f32 kernel reads them: every value decoded and multiplied by its E8M0
// block scale (pto/engine/ops/matmul.hpp has the rule), into a row-major panel.
#pragma once

#include <pto/engine/descriptor.hpp>

#include "engine/matmul/operand_panels.hpp"

namespace pto::engine::matmul {

// m x k values of a, scaled by a_scale(i, k / 32).
Words scaled_left_panel(const TileDesc& a, const TileDesc& a_scale, int m, int k);

// k x n values of b, scaled by b_scale(k / 32, j).
Words scaled_right_panel(const TileDesc& b, const TileDesc& b_scale, int k, int n);

}  // namespace pto::engine::matmul
