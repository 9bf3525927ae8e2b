// TTRANS's kernel for unboxed row-major tiles: square blocks of one 16-byte vector per row (4 x 4 words,
// 8 x 8 halves, 16 x 16 bytes) transposed in registers by repeated interleaving, the ragged edges one
// element at a time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/layout/transpose_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "engine/layout/transpose_kernel.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::layout {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

template <typename T>
HWY_INLINE void transpose_scalar(const Transpose& t, int r0, int r1, int c0, int c1)
{
    const T* src = static_cast<const T*>(t.src);
    T* dst = static_cast<T*>(t.dst);
    for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) dst[int64_t(c) * t.dst_stride + r] = src[int64_t(r) * t.src_stride + c];
}

#if HWY_TARGET != HWY_SCALAR
// One block of n x n elements, n = the lanes of a 16-byte vector. Interleaving row k with row k + n/2
// into rows 2k and 2k + 1, log2(n) times over, leaves column i of the block in row i.
template <typename T>
HWY_INLINE void transpose_block(const T* src, int64_t src_stride, T* dst, int64_t dst_stride)
{
    const hn::Full128<T> d;
    constexpr int n = 16 / sizeof(T);
    hn::Vec<decltype(d)> rows[n], next[n];
    for (int i = 0; i < n; ++i) rows[i] = hn::LoadU(d, src + i * src_stride);
    for (int stage = 1; stage < n; stage *= 2) {
        for (int k = 0; k < n / 2; ++k) {
            next[2 * k] = hn::InterleaveLower(d, rows[k], rows[k + n / 2]);
            next[2 * k + 1] = hn::InterleaveUpper(d, rows[k], rows[k + n / 2]);
        }
        for (int i = 0; i < n; ++i) rows[i] = next[i];
    }
    for (int i = 0; i < n; ++i) hn::StoreU(rows[i], d, dst + i * dst_stride);
}
#endif

template <typename T>
HWY_INLINE void transpose(const Transpose& t)
{
#if HWY_TARGET == HWY_SCALAR
    transpose_scalar<T>(t, 0, t.rows, 0, t.cols);
#else
    constexpr int n = 16 / sizeof(T);
    const T* src = static_cast<const T*>(t.src);
    T* dst = static_cast<T*>(t.dst);
    const int whole_rows = t.rows / n * n, whole_cols = t.cols / n * n;
    // Blocks in squares of 64 bytes a side, so that each cache line of dst is written whole while it
    // is in L1.
    constexpr int kSquare = 64 / sizeof(T);
    for (int r0 = 0; r0 < whole_rows; r0 += kSquare)
        for (int c0 = 0; c0 < whole_cols; c0 += kSquare)
            for (int c = c0; c < std::min(c0 + kSquare, whole_cols); c += n)
                for (int r = r0; r < std::min(r0 + kSquare, whole_rows); r += n)
                    transpose_block<T>(src + int64_t(r) * t.src_stride + c, t.src_stride, dst + int64_t(c) * t.dst_stride + r,
                                       t.dst_stride);
    transpose_scalar<T>(t, 0, whole_rows, whole_cols, t.cols);
    transpose_scalar<T>(t, whole_rows, t.rows, 0, t.cols);
#endif
}

void TransposeRows(int element_bytes, const Transpose& t)
{
    switch (element_bytes) {
        case 1: return transpose<uint8_t>(t);
        case 2: return transpose<uint16_t>(t);
        default: return transpose<uint32_t>(t);
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::layout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::layout {

HWY_EXPORT(TransposeRows);

void transpose_rows(int element_bytes, const Transpose& t) { HWY_DYNAMIC_DISPATCH(TransposeRows)(element_bytes, t); }

}  // namespace pto::engine::layout
#endif
