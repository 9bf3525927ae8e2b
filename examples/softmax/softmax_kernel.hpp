// Row softmax over a rows x cols float tensor (cols up to kMaxCols), a band of rows per tile, written
// against the public PTO API only:
//     y(i, j) = exp(x(i, j) - max_j x(i, j)) / sum_j exp(x(i, j) - max_j x(i, j))
// TLOAD, TROWMAX into a column vector, TROWEXPANDEXPDIF, TROWSUM, TROWEXPANDDIV, TSTORE. Block b handles
// every block_num-th band.
#pragma once

#include <pto/pto-inst.hpp>

#include <cmath>
#include <vector>

namespace softmax {

inline constexpr int kTileRows = 16;
inline constexpr int kMaxCols = 1024;

AICORE inline void softmax_kernel(__gm__ float* x, __gm__ float* y, int rows, int cols)
{
    using namespace pto;
    using TileT = Tile<TileType::Vec, float, kTileRows, kMaxCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Column = Tile<TileType::Vec, float, kTileRows, 1, BLayout::ColMajor, DYNAMIC, 1>;
    using Global = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;

    TileT in(kTileRows, cols), e(kTileRows, cols), tmp(kTileRows, cols);
    Column maxima(kTileRows), sums(kTileRows);
    TASSIGN(in, 0x0);
    TASSIGN(e, TileT::SizeInBytes);
    TASSIGN(tmp, 2 * TileT::SizeInBytes);
    TASSIGN(maxima, 3 * TileT::SizeInBytes);
    TASSIGN(sums, 3 * TileT::SizeInBytes + Column::SizeInBytes);

    const int bands = (rows + kTileRows - 1) / kTileRows;
    for (int band = static_cast<int>(get_block_idx()); band < bands; band += static_cast<int>(get_block_num())) {
        const int r0 = band * kTileRows;
        const int h = rows - r0 < kTileRows ? rows - r0 : kTileRows;
        Global gx(x + size_t(r0) * cols, {h, cols}, {cols}), gy(y + size_t(r0) * cols, {h, cols}, {cols});
        in.SetValidShape(h, cols);
        e.SetValidShape(h, cols);
        tmp.SetValidShape(h, cols);
        maxima.SetValidRow(h);
        sums.SetValidRow(h);

        TLOAD(in, gx);
        TROWMAX(maxima, in, tmp);           // m_i
        TROWEXPANDEXPDIF(e, in, maxima);    // exp(x - m_i)
        TROWSUM(sums, e, tmp);              // s_i
        TROWEXPANDDIV(e, e, sums);          // exp(x - m_i) / s_i
        TSTORE(gy, e);
    }
}

// The reference of one row, in double precision.
inline std::vector<double> reference(const float* row, int cols)
{
    double m = -INFINITY;
    for (int j = 0; j < cols; ++j) m = std::fmax(m, double(row[j]));
    std::vector<double> out(static_cast<std::size_t>(cols));
    double s = 0;
    for (int j = 0; j < cols; ++j) s += out[j] = std::exp(double(row[j]) - m);
    for (double& v : out) v /= s;
    return out;
}

}  // namespace softmax
