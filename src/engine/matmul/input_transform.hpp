// What the cube does to float inputs before it multiplies, when a mode asks: TF32 rounding
// (SETTF32MODE, pto.mad's tf32_mode) and saturation of infinities and NaN (pto.mad's sat). The tile
// keeps what was loaded; the multiply reads a transformed copy.
#pragma once

#include <memory>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/matmul.hpp>

namespace pto::engine::matmul {

// The rounding the multiply applies to f32 inputs: the modes' own, else the core's SETTF32MODE register
// on a5.
Tf32Rounding tf32_rounding(const MultiplyModes& modes);

// A copy of `tile` (its whole storage) whose valid rows x cols float elements are rounded to TF32
// (f32 only) and, with `saturate`, have infinities replaced by the type's largest finite value and NaN
// by 0.
class TransformedInput {
public:
    TransformedInput(const TileDesc& tile, int rows, int cols, Tf32Rounding tf32, bool saturate);
    const TileDesc& tile() const { return tile_; }

private:
    std::unique_ptr<std::byte[]> storage_;
    TileDesc tile_;
};

// `saturate`: the result's infinities in its valid m x n become f32's largest finite value.
void saturate_result(const TileDesc& c, int m, int n);

}  // namespace pto::engine::matmul
