// GELU (tanh approximation) over a rows x cols float tensor, tile by tile, written against the public
// PTO API only:
//     gelu(x) = x * sigmoid(2 * sqrt(2 / pi) * (x + 0.044715 * x^3))
//             = x / (1 + exp(-1.5957691216 * (x + 0.044715 * x^3)))
// with seven element-wise instructions (TMUL, TMULS, TADD, TMINS, TEXP, TADDS, TDIV) between a TLOAD and
// a TSTORE. Block b handles every block_num-th band of tile rows.
#pragma once

#include <pto/pto-inst.hpp>

#include <algorithm>
#include <cmath>

namespace gelu {

inline constexpr int kTileRows = 32;
inline constexpr int kTileCols = 256;
inline constexpr float kScale = -1.5957691216057308f;  // -2 * sqrt(2 / pi)
inline constexpr float kCubic = 0.044715f;
// exp's argument is clamped here: past it x / (1 + exp(t)) is 0 to within float's precision anyway.
inline constexpr float kExpLimit = 80.0f;

AICORE inline void gelu_kernel(__gm__ float* x, __gm__ float* y, int rows, int cols)
{
    using namespace pto;
    using TileT = Tile<TileType::Vec, float, kTileRows, kTileCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Global = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;

    TileT in(kTileRows, kTileCols), t(kTileRows, kTileCols), out(kTileRows, kTileCols);
    TASSIGN(in, 0x0);
    TASSIGN(t, 0x8000);
    TASSIGN(out, 0x10000);

    const int bands = (rows + kTileRows - 1) / kTileRows;
    for (int band = static_cast<int>(get_block_idx()); band < bands; band += static_cast<int>(get_block_num())) {
        const int r0 = band * kTileRows;
        const int h = rows - r0 < kTileRows ? rows - r0 : kTileRows;
        for (int c0 = 0; c0 < cols; c0 += kTileCols) {
            const int w = cols - c0 < kTileCols ? cols - c0 : kTileCols;
            const size_t at = size_t(r0) * cols + c0;
            Global gx(x + at, {h, w}, {cols}), gy(y + at, {h, w}, {cols});
            in.SetValidShape(h, w);
            t.SetValidShape(h, w);
            out.SetValidShape(h, w);

            TLOAD(in, gx);
            TMUL(t, in, in);        // x^2
            TMUL(t, t, in);         // x^3
            TMULS(t, t, kCubic);    // 0.044715 x^3
            TADD(t, t, in);         // x + 0.044715 x^3
            TMULS(t, t, kScale);    // -2 sqrt(2/pi) (...)
            TMINS(t, t, kExpLimit);
            TEXP(t, t);
            TADDS(t, t, 1.0f);      // 1 + exp(...)
            TDIV(out, in, t);       // x / (1 + exp(...))
            TSTORE(gy, out);
        }
    }
}

// The reference: the same formula in double precision.
inline double reference(double x)
{
    return x / (1.0 + std::exp(std::min(double(kScale) * (x + double(kCubic) * x * x * x), double(kExpLimit))));
}

}  // namespace gelu
