// Attention probabilities P = softmax(Q K^T / sqrt(D)) as a mixed kernel: the cube core multiplies,
// the two vector cores take the softmax, and the score tiles cross between them through a TPipe.
// Q is [rows, D] half, K is [kKeys, D] half, P is [rows, kKeys] float; rows is a multiple of kRows.
//
// Each block takes every block_num-th band of kRows queries. Its cube core loads the band of Q,
// multiplies it by K^T into an accumulator and pushes the kRows x kKeys scores (TPUSH, split
// TILE_UP_DOWN); each vector core pops its half of the rows (TPOP), scales them, takes the row
// softmax (TROWMAX, TROWEXPANDSUB, TEXP, TROWSUM, TROWEXPANDDIV) and stores its rows of P. The pipe
// has two slots in the block's part of `fifo` (2 * kRows * kKeys floats per block), so the cube core
// runs up to two bands ahead of the vector cores.
#pragma once

#include <pto/pto-inst.hpp>

#include <cmath>
#include <cstddef>

namespace attention_scores {

inline constexpr int kRows = 64;   // queries per band
inline constexpr int kKeys = 64;   // keys (the width of a score row)
inline constexpr int kDim = 128;   // D
inline constexpr int kSlots = 2;
inline constexpr size_t kFifoFloatsPerBlock = size_t(kSlots) * kRows * kKeys;

using ScorePipe = pto::TPipe<0, pto::DIR_C2V, kRows * kKeys * sizeof(float), kSlots>;

// The cube core's part: S = Q K^T for each of its bands, pushed into the pipe.
AICORE inline void cube_part(__gm__ half* q, __gm__ half* k, __gm__ float* fifo, int rows)
{
    using namespace pto;
    using QMat = Tile<TileType::Mat, half, kRows, kDim, BLayout::ColMajor, kRows, kDim, SLayout::RowMajor>;   // Nz
    using KMat = Tile<TileType::Mat, half, kKeys, kDim, BLayout::ColMajor, kKeys, kDim, SLayout::RowMajor>;
    using KtMat = Tile<TileType::Mat, half, kDim, kKeys, BLayout::RowMajor, kDim, kKeys, SLayout::ColMajor>;  // Zn of K^T
    using QGlobal = GlobalTensor<half, Shape<1, 1, 1, kRows, kDim>, Stride<1, 1, 1, kDim, 1>>;
    using KGlobal = GlobalTensor<half, Shape<1, 1, 1, kKeys, kDim>, Stride<1, 1, 1, kDim, 1>>;

    ScorePipe pipe(fifo + get_block_idx() * kFifoFloatsPerBlock, 0x0, 0x0);
    QMat q_mat;
    KMat k_mat;
    KtMat kt_mat;
    TileLeft<half, kRows, kDim> q_left;
    TileRight<half, kDim, kKeys> kt_right;
    TileAcc<float, kRows, kKeys> scores;
    TASSIGN(k_mat, 0x0);
    TRESHAPE(kt_mat, k_mat);  // the bytes of K, read as K^T
    TASSIGN(q_mat, KMat::SizeInBytes);
    TASSIGN(q_left, 0x0);
    TASSIGN(kt_right, 0x0);
    TASSIGN(scores, 0x0);

    KGlobal gk(k);
    TLOAD(k_mat, gk);
    TMOV(kt_right, kt_mat);
    for (int band = int(get_block_idx()); band < rows / kRows; band += int(get_block_num())) {
        QGlobal gq(q + size_t(band) * kRows * kDim);
        TLOAD(q_mat, gq);
        TMOV(q_left, q_mat);
        TMATMUL(scores, q_left, kt_right);
        TPUSH<ScorePipe, TileAcc<float, kRows, kKeys>, TILE_UP_DOWN>(pipe, scores);
    }
}

// A vector core's part: the softmax of its half of each band's score rows.
AICORE inline void vector_part(__gm__ float* p, __gm__ float* fifo, int rows)
{
    using namespace pto;
    constexpr int kHalf = kRows / 2;
    using Scores = Tile<TileType::Vec, float, kHalf, kKeys>;
    using Column = Tile<TileType::Vec, float, kHalf, 1, BLayout::ColMajor>;
    using PGlobal = GlobalTensor<float, Shape<1, 1, 1, kHalf, kKeys>, Stride<1, 1, 1, kKeys, 1>>;

    ScorePipe pipe(fifo + get_block_idx() * kFifoFloatsPerBlock, 0x0, 0x0);
    Scores s, e, tmp;
    Column maxima, sums;
    TASSIGN(s, 0x0);
    TASSIGN(e, Scores::SizeInBytes);
    TASSIGN(tmp, 2 * Scores::SizeInBytes);
    TASSIGN(maxima, 3 * Scores::SizeInBytes);
    TASSIGN(sums, 3 * Scores::SizeInBytes + Column::SizeInBytes);

    const float scale = 1.0f / std::sqrt(float(kDim));
    for (int band = int(get_block_idx()); band < rows / kRows; band += int(get_block_num())) {
        TPOP<ScorePipe, Scores, TILE_UP_DOWN>(pipe, s);
        TMULS(s, s, scale);
        TROWMAX(maxima, s, tmp);
        TROWEXPANDSUB(e, s, maxima);
        TEXP(e, e);
        TROWSUM(sums, e, tmp);
        TROWEXPANDDIV(e, e, sums);
        PGlobal gp(p + (size_t(band) * kRows + size_t(get_subblockid()) * kHalf) * kKeys);
        TSTORE(gp, e);
    }
}

// The kernel as the device runs it, one body on every core of a mixed launch
// (pto::sim::launch_mixed(blocks, attention_scores_kernel, attention_scores_kernel, ...)).
AICORE inline void attention_scores_kernel(__gm__ half* q, __gm__ half* k, __gm__ float* p, __gm__ float* fifo, int rows)
{
    if (pto::sim::is_cube_core()) {
        cube_part(q, k, fifo, rows);
    } else {
        vector_part(p, fifo, rows);
    }
}

}  // namespace attention_scores
