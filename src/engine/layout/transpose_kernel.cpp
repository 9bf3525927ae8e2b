// TTRANS's kernel for unboxed row-major tiles: square blocks of one 16-byte vector per row (4 x 4 words,
// 8 x 8 halves, 16 x 16 bytes) transposed in registers by repeated interleaving, two such blocks at once
// in a 32-byte vector where the target has one, the ragged edges one element at a time.
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
// Vectors of up to 32 bytes: 16-byte blocks of n x n elements (n = 16 / sizeof(T)) are transposed each in
// its own part of the vector, and a 32-byte vector takes two blocks that lie one above the other in src, so
// that they come out side by side: each dst row is then written 32 bytes at a time.
template <typename T>
using BandTag = hn::CappedTag<T, 32 / sizeof(T)>;

// The n elements at p and, in a 32-byte vector, the n elements of the row n below them: one block each.
template <class D, typename T>
HWY_INLINE hn::Vec<D> load_blocks(D d, const T* p, int64_t stride)
{
    constexpr int n = 16 / sizeof(T);
    if constexpr (hn::MaxLanes(d) == n) {
        return hn::LoadU(d, p);
    } else {
        static_assert(hn::MaxLanes(d) == 2 * n, "one or two 16-byte blocks per vector");
        const hn::Half<D> half;
        return hn::Combine(d, hn::LoadU(half, p + n * stride), hn::LoadU(half, p));
    }
}

// The n columns at src's (r, c) of a band of MaxLanes(d) rows, written as n rows of dst from (c, r).
// Interleaving row k with row k + n/2 into rows 2k and 2k + 1, log2(n) times over, leaves column i of each
// block in row i.
template <class D, typename T>
HWY_INLINE void transpose_band_columns(D d, const T* src, int64_t src_stride, T* dst, int64_t dst_stride)
{
    constexpr int n = 16 / sizeof(T);
    hn::Vec<D> rows[n], next[n];
    for (int i = 0; i < n; ++i) rows[i] = load_blocks(d, src + i * src_stride, src_stride);
    for (int stage = 1; stage < n; stage *= 2) {
        for (int k = 0; k < n / 2; ++k) {
            next[2 * k] = hn::InterleaveLower(d, rows[k], rows[k + n / 2]);
            next[2 * k + 1] = hn::InterleaveUpper(d, rows[k], rows[k + n / 2]);
        }
        for (int i = 0; i < n; ++i) rows[i] = next[i];
    }
    for (int i = 0; i < n; ++i) hn::StoreU(rows[i], d, dst + i * dst_stride);
}

// Bands of MaxLanes(d) rows from first_row, over the whole groups of n columns; returns the first row left.
template <class D>
HWY_INLINE int transpose_bands(D d, const Transpose& t, int first_row)
{
    using T = hn::TFromD<D>;
    constexpr int n = 16 / sizeof(T), band = int(hn::MaxLanes(d));
    const T* src = static_cast<const T*>(t.src);
    T* dst = static_cast<T*>(t.dst);
    const int end_row = first_row + (t.rows - first_row) / band * band, whole_cols = t.cols / n * n;
    // Squares of 64 bytes a side, so that each cache line of dst is written whole while it is in L1.
    constexpr int kSquare = 64 / sizeof(T);
    for (int r0 = first_row; r0 < end_row; r0 += kSquare)
        for (int c0 = 0; c0 < whole_cols; c0 += kSquare)
            for (int c = c0; c < std::min(c0 + kSquare, whole_cols); c += n)
                for (int r = r0; r < std::min(r0 + kSquare, end_row); r += band)
                    transpose_band_columns(d, src + int64_t(r) * t.src_stride + c, t.src_stride, dst + int64_t(c) * t.dst_stride + r,
                                           t.dst_stride);
    return end_row;
}
#endif

template <typename T>
HWY_INLINE void transpose(const Transpose& t)
{
#if HWY_TARGET == HWY_SCALAR
    transpose_scalar<T>(t, 0, t.rows, 0, t.cols);
#else
    constexpr int n = 16 / sizeof(T);
    int row = transpose_bands(BandTag<T>(), t, 0);
    if constexpr (hn::MaxLanes(BandTag<T>()) > n) row = transpose_bands(hn::Full128<T>(), t, row);
    transpose_scalar<T>(t, 0, row, t.cols / n * n, t.cols);
    transpose_scalar<T>(t, row, t.rows, 0, t.cols);
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
