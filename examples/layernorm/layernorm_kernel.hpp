// Layer normalisation over the rows of a rows x cols float tensor (cols up to kMaxCols), with a scale
// and a shift per column, a band of rows per tile, written against the public PTO API only, with the
// tile layouts every target takes (the per-row statistics as ND row vectors, broadcast back as 32-byte
// blocks):
//     mean_i = sum_j x(i, j) / C,  var_i = sum_j (x(i, j) - mean_i)^2 / C
//     y(i, j) = (x(i, j) - mean_i) / sqrt(var_i + eps) * gamma_j + beta_j
// TLOAD, TMULS, TROWSUM, TROWEXPAND, TROWEXPANDSUB, TMUL, TADDS, TRSQRT, TROWEXPANDMUL, TCOLEXPANDMUL,
// TCOLEXPANDADD, TSTORE. Block b handles every block_num-th band.
#pragma once

#include <pto/pto-inst.hpp>

#include <cmath>
#include <vector>

namespace layernorm {

inline constexpr int kTileRows = 16;
inline constexpr int kMaxCols = 1024;
inline constexpr float kEpsilon = 1e-5f;

AICORE inline void layernorm_kernel(__gm__ float* x, __gm__ float* gamma, __gm__ float* beta, __gm__ float* y, int rows,
                                    int cols)
{
    using namespace pto;
    using TileT = Tile<TileType::Vec, float, kTileRows, kMaxCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using RowT = Tile<TileType::Vec, float, 1, kMaxCols, BLayout::RowMajor, 1, DYNAMIC>;
    // One statistic per row (valid column 0), and the same broadcast to a 32-byte block per row.
    using StatT = Tile<TileType::Vec, float, kTileRows, 8, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Global = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;

    TileT in(kTileRows, cols), d(kTileRows, cols), t(kTileRows, cols);
    RowT g(cols), b(cols);
    StatT stat(kTileRows, 1), block(kTileRows, 8);
    TASSIGN(in, 0x0);
    TASSIGN(d, TileT::SizeInBytes);
    TASSIGN(t, 2 * TileT::SizeInBytes);
    TASSIGN(g, 3 * TileT::SizeInBytes);
    TASSIGN(b, 3 * TileT::SizeInBytes + RowT::SizeInBytes);
    TASSIGN(stat, 3 * TileT::SizeInBytes + 2 * RowT::SizeInBytes);
    TASSIGN(block, 3 * TileT::SizeInBytes + 2 * RowT::SizeInBytes + StatT::SizeInBytes);

    Global gg(gamma, {1, cols}, {cols}), gb(beta, {1, cols}, {cols});
    TLOAD(g, gg);
    TLOAD(b, gb);
    const float inverse_cols = 1.0f / float(cols);
    const int bands = (rows + kTileRows - 1) / kTileRows;
    for (int band = static_cast<int>(get_block_idx()); band < bands; band += static_cast<int>(get_block_num())) {
        const int r0 = band * kTileRows;
        const int h = rows - r0 < kTileRows ? rows - r0 : kTileRows;
        Global gx(x + size_t(r0) * cols, {h, cols}, {cols}), gy(y + size_t(r0) * cols, {h, cols}, {cols});
        in.SetValidRow(h);
        d.SetValidRow(h);
        t.SetValidRow(h);
        stat.SetValidRow(h);
        block.SetValidRow(h);

        TLOAD(in, gx);
        TMULS(t, in, inverse_cols);
        TROWSUM(stat, t, d);           // mean_i (d is the tmp tile here)
        TROWEXPAND(block, stat);
        TROWEXPANDSUB(d, in, block);   // x - mean_i
        TMUL(t, d, d);
        TMULS(t, t, inverse_cols);
        TROWSUM(stat, t, in);          // var_i
        TADDS(stat, stat, kEpsilon);
        TRSQRT(stat, stat);            // 1 / sqrt(var_i + eps)
        TROWEXPAND(block, stat);
        TROWEXPANDMUL(d, d, block);
        TCOLEXPANDMUL(d, d, g);
        TCOLEXPANDADD(d, d, b);
        TSTORE(gy, d);
    }
}

// The reference of one row, in double precision.
inline std::vector<double> reference(const float* row, const float* gamma, const float* beta, int cols)
{
    double mean = 0, var = 0;
    for (int j = 0; j < cols; ++j) mean += row[j];
    mean /= cols;
    for (int j = 0; j < cols; ++j) var += (row[j] - mean) * (row[j] - mean);
    var /= cols;
    const double scale = 1.0 / std::sqrt(var + double(kEpsilon));
    std::vector<double> out(static_cast<std::size_t>(cols));
    for (int j = 0; j < cols; ++j) out[j] = (row[j] - mean) * scale * gamma[j] + beta[j];
    return out;
}

}  // namespace layernorm
