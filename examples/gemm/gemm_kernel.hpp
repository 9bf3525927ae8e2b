// Tiled GEMM on one core, the way a cube kernel is written: C[m x n] f32 = A[m x k] f16 . B[k x n] f16,
// all three row-major in global memory. For each kTileM x kTileN tile of C, k advances a kPanelK panel at
// a time: TLOAD the A and B panels into Nz Mat tiles (L1), then per kStepK step TEXTRACT the Left and
// Right windows (L0A, L0B) and TMATMUL (first step) or TMATMUL_ACC into the Acc tile (L0C); TSTORE it.
// m, n and k must be multiples of kTileM, kTileN and kPanelK. examples/pto/gemm.pto is the same kernel
// in PTO-AS.
#pragma once

#include <pto/pto-inst.hpp>

#include <cstdint>

namespace gemm {

// The sizes that fit the a2a3 cube's buffers (L1 512 KiB, L0A and L0B 64 KiB, L0C 128 KiB) and give the
// simulator its best speed; the kernel template takes others for tuning.
inline constexpr int kTileM = 128;
inline constexpr int kTileN = 256;
inline constexpr int kPanelK = 512;
inline constexpr int kStepK = 128;

template <int TileM = kTileM, int TileN = kTileN, int PanelK = kPanelK, int StepK = kStepK>
AICORE void gemm_kernel(__gm__ half* a, __gm__ half* b, __gm__ float* c, int m, int n, int k)
{
    using namespace pto;
    static_assert(PanelK % StepK == 0, "a panel is a whole number of k steps");
    using PanelA = Tile<TileType::Mat, half, TileM, PanelK, BLayout::ColMajor, TileM, PanelK, SLayout::RowMajor>;
    using PanelB = Tile<TileType::Mat, half, PanelK, TileN, BLayout::ColMajor, PanelK, TileN, SLayout::RowMajor>;
    using Left = TileLeft<half, TileM, StepK>;
    using Right = TileRight<half, StepK, TileN>;
    using Acc = TileAcc<float, TileM, TileN>;
    using GlobalA = GlobalTensor<half, Shape<1, 1, 1, TileM, PanelK>, Stride<1, 1, 1, DYNAMIC, 1>>;
    using GlobalB = GlobalTensor<half, Shape<1, 1, 1, PanelK, TileN>, Stride<1, 1, 1, DYNAMIC, 1>>;
    using GlobalC = GlobalTensor<float, Shape<1, 1, 1, TileM, TileN>, Stride<1, 1, 1, DYNAMIC, 1>>;
    static_assert(PanelA::SizeInBytes + PanelB::SizeInBytes <= 512 * 1024, "the two panels fit L1");
    static_assert(Left::SizeInBytes <= 64 * 1024 && Right::SizeInBytes <= 64 * 1024, "L0A and L0B");
    static_assert(Acc::SizeInBytes <= 128 * 1024, "L0C");

    PanelA panel_a;
    PanelB panel_b;
    Left left;
    Right right;
    Acc acc;
    TASSIGN(panel_a, 0x0);
    TASSIGN(panel_b, PanelA::SizeInBytes);
    TASSIGN(left, 0x0);
    TASSIGN(right, 0x0);
    TASSIGN(acc, 0x0);

    for (int i = 0; i < m; i += TileM) {
        for (int j = 0; j < n; j += TileN) {
            for (int p = 0; p < k; p += PanelK) {
                GlobalA ga(a + int64_t(i) * k + p, {}, {k});
                GlobalB gb(b + int64_t(p) * n + j, {}, {n});
                TLOAD(panel_a, ga);
                TLOAD(panel_b, gb);
                for (int s = 0; s < PanelK; s += StepK) {
                    TEXTRACT(left, panel_a, 0, uint16_t(s));
                    TEXTRACT(right, panel_b, uint16_t(s), 0);
                    if (p + s == 0) {
                        TMATMUL(acc, left, right);
                    } else {
                        TMATMUL_ACC(acc, acc, left, right);
                    }
                }
            }
            GlobalC gc(c + int64_t(i) * n + j, {}, {n});
            TSTORE(gc, acc);
        }
    }
}

}  // namespace gemm
