// Flash attention, forward pass, written against the public PTO API the way a kernel author writes it
// for the cube and vector units: for each head and each block of kBlock query rows,
//     O = softmax(scale * Q K^T [+ causal mask]) V
// computed over blocks of kBlock keys with the online softmax, so that the seq x seq score matrix never
// exists: a running row maximum m, a running row sum l and an unnormalised output O, rescaled by
// exp(m_old - m_new) whenever a block raises the maximum. Q, K, V are [heads, seq, D] half, row-major;
// O is [heads, seq, D] float. Products of halves are exact in float and accumulate in float (TMATMUL);
// the probabilities go back to half for the second product, as on the device.
//
// Data path per key block: TLOAD K and V into L1 (Mat, Nz), TMOV them into the cube's Right buffer (the
// Nz bytes of K are the Zn bytes of K^T, so K^T costs nothing), TMATMUL S = Q K^T into an accumulator,
// TMOV it to the vector unit, TROWMAX / TROWEXPANDSUB / TEXP / TROWSUM for the block's probabilities,
// TCVT them to half and TMOV them back through L1 into the Left buffer, TMATMUL P V, and fold that into
// O with TROWEXPANDMUL and TADD. Block b handles every block_num-th (head, query block) pair.
#pragma once

#include <pto/pto-inst.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace flash_attention {

inline constexpr int kBlock = 64;  // query rows and keys per block

struct Problem {
    int heads = 1;
    int seq = 1024;   // a multiple of kBlock
    bool causal = false;
};

template <int D>
AICORE void flash_attention_kernel(__gm__ half* q, __gm__ half* k, __gm__ half* v, __gm__ float* o, Problem p)
{
    using namespace pto;
    constexpr int B = kBlock;
    using HalfMat = Tile<TileType::Mat, half, B, D, BLayout::ColMajor, B, D, SLayout::RowMajor>;    // Nz
    using KtMat = Tile<TileType::Mat, half, D, B, BLayout::RowMajor, D, B, SLayout::ColMajor>;      // Zn of K^T
    using PMat = Tile<TileType::Mat, half, B, B, BLayout::ColMajor, B, B, SLayout::RowMajor>;
    using QLeft = TileLeft<half, B, D>;
    using PLeft = TileLeft<half, B, B>;
    using KtRight = TileRight<half, D, B>;
    using VRight = TileRight<half, B, D>;
    using ScoreAcc = TileAcc<float, B, B>;
    using OutAcc = TileAcc<float, B, D>;
    using Scores = Tile<TileType::Vec, float, B, B>;
    using HalfScores = Tile<TileType::Vec, half, B, B>;
    using Out = Tile<TileType::Vec, float, B, D>;
    // Per-row statistics: a column for the row reductions and broadcasts, viewed (TRESHAPE) as a row
    // for the element-wise arithmetic, which the vector unit does on row-major tiles.
    using Column = Tile<TileType::Vec, float, B, 1, BLayout::ColMajor>;
    using Row = Tile<TileType::Vec, float, 1, B>;
    using HalfRows = GlobalTensor<half, Shape<1, 1, 1, B, D>, Stride<1, 1, 1, D, 1>>;
    using FloatRows = GlobalTensor<float, Shape<1, 1, 1, B, D>, Stride<1, 1, 1, D, 1>>;

    // Each memory's tiles one after another from its address 0.
    uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, ub = 0;
    const auto place = [](auto& tile, uint64_t& next) {
        TASSIGN(tile, next);
        next += std::decay_t<decltype(tile)>::SizeInBytes;
    };
    HalfMat q_mat, k_mat, v_mat;
    KtMat kt_mat;
    PMat p_mat;
    place(k_mat, l1);
    TRESHAPE(kt_mat, k_mat);  // the bytes of K, read as K^T
    place(q_mat, l1);
    place(v_mat, l1);
    place(p_mat, l1);
    QLeft q_left;
    PLeft p_left;
    KtRight kt_right;
    VRight v_right;
    ScoreAcc s_acc;
    OutAcc o_acc;
    place(q_left, l0a);
    place(p_left, l0a);
    place(kt_right, l0b);
    place(v_right, l0b);
    place(s_acc, l0c);
    place(o_acc, l0c);
    Scores s, prob, tmp, mask;
    HalfScores prob_half;
    Out out, pv;
    Column m, m_new, m_block, alpha, l, l_block;
    for (Scores* t : {&s, &prob, &tmp, &mask}) place(*t, ub);
    place(prob_half, ub);
    place(out, ub);
    place(pv, ub);
    for (Column* t : {&m, &m_new, &m_block, &alpha, &l, &l_block}) place(*t, ub);
    Row m_row, m_new_row, m_block_row, alpha_row, l_row, l_block_row;
    TRESHAPE(m_row, m);
    TRESHAPE(m_new_row, m_new);
    TRESHAPE(m_block_row, m_block);
    TRESHAPE(alpha_row, alpha);
    TRESHAPE(l_row, l);
    TRESHAPE(l_block_row, l_block);

    const float scale = 1.0f / std::sqrt(float(D));
    if (p.causal) {
        TTRI<Scores, 1>(tmp, 1);         // 1 strictly above the diagonal: keys after the query
        TMULS(mask, tmp, -1.0e30f);      // added to a diagonal block's scores, their exponentials are 0
    }

    const int blocks = p.seq / B;
    for (int job = int(get_block_idx()); job < p.heads * blocks; job += int(get_block_num())) {
        const int head = job / blocks, qb = job % blocks;
        const size_t head_offset = size_t(head) * size_t(p.seq) * D;
        HalfRows gq(q + head_offset + size_t(qb) * B * D);
        TLOAD(q_mat, gq);
        TMOV(q_left, q_mat);
        TEXPANDS(m_row, -INFINITY);
        TEXPANDS(l_row, 0.0f);
        TEXPANDS(out, 0.0f);

        const int key_blocks = p.causal ? qb + 1 : blocks;
        for (int kb = 0; kb < key_blocks; ++kb) {
            HalfRows gk(k + head_offset + size_t(kb) * B * D), gv(v + head_offset + size_t(kb) * B * D);
            TLOAD(k_mat, gk);
            TMOV(kt_right, kt_mat);
            TMATMUL(s_acc, q_left, kt_right);  // S = Q K^T
            TMOV(s, s_acc);
            TMULS(s, s, scale);
            if (p.causal && kb == qb) TADD(s, s, mask);

            // Online softmax: the block's maxima raise the running maxima; what was summed so far is
            // rescaled by alpha = exp(m_old - m_new).
            TROWMAX(m_block, s, tmp);
            TMAX(m_new_row, m_row, m_block_row);
            TSUB(alpha_row, m_row, m_new_row);
            TEXP(alpha_row, alpha_row);
            TROWEXPANDSUB(prob, s, m_new);
            TEXP(prob, prob);
            TROWSUM(l_block, prob, tmp);
            TMUL(l_row, l_row, alpha_row);
            TADD(l_row, l_row, l_block_row);
            TMOV(m_row, m_new_row);

            // O = alpha O + P V, with P in half on its way back to the cube.
            TCVT(prob_half, prob, RoundMode::CAST_RINT);
            TMOV(p_mat, prob_half);
            TMOV(p_left, p_mat);
            TLOAD(v_mat, gv);
            TMOV(v_right, v_mat);
            TMATMUL(o_acc, p_left, v_right);
            TMOV(pv, o_acc);
            TROWEXPANDMUL(out, out, alpha);
            TADD(out, out, pv);
        }
        TROWEXPANDDIV(out, out, l);
        FloatRows go(o + head_offset + size_t(qb) * B * D);
        TSTORE(go, out);
    }
}

// Row i of one head's attention in double precision from the same half inputs: the golden reference.
inline std::vector<double> reference_row(const half* q, const half* k, const half* v, int seq, int d, bool causal, int i)
{
    const int keys = causal ? i + 1 : seq;
    std::vector<double> out(static_cast<size_t>(d), 0.0);
    std::vector<double> score(static_cast<size_t>(keys));
    double top = -INFINITY;
    for (int j = 0; j < keys; ++j) {
        double dot = 0;
        for (int c = 0; c < d; ++c) dot += double(float(q[size_t(i) * d + c])) * double(float(k[size_t(j) * d + c]));
        score[size_t(j)] = dot / std::sqrt(double(d));
        top = std::fmax(top, score[size_t(j)]);
    }
    double sum = 0;
    for (double& x : score) sum += x = std::exp(x - top);
    for (int j = 0; j < keys; ++j)
        for (int c = 0; c < d; ++c) out[size_t(c)] += score[size_t(j)] / sum * double(float(v[size_t(j) * d + c]));
    return out;
}

// All rows of one head.
inline std::vector<double> reference_head(const half* q, const half* k, const half* v, int seq, int d, bool causal)
{
    std::vector<double> out;
    out.reserve(size_t(seq) * d);
    for (int i = 0; i < seq; ++i) {
        const std::vector<double> row = reference_row(q, k, v, seq, d, causal, i);
        out.insert(out.end(), row.begin(), row.end());
    }
    return out;
}

}  // namespace flash_attention
