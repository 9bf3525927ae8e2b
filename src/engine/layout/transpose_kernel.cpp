// TTRANS's kernel for unboxed row-major tiles: square blocks of one 16-byte vector per row (4 x 4 words,
// 8 x 8 halves, 16 x 16 bytes) transposed in registers by repeated interleaving, two or four such blocks
// at once in a 32- or 64-byte vector where the target has one, the ragged edges one element at a time.
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
// Vectors of up to 64 bytes: 16-byte blocks of n x n elements (n = 16 / sizeof(T)) are transposed each in
// its own part of the vector, and a vector of k blocks takes k blocks that lie one above the other in src,
// so that they come out side by side: each dst row is then written k * 16 bytes at a time.
template <typename T>
using BandTag = hn::CappedTag<T, 64 / sizeof(T)>;

// The n elements at p and, in a wider vector, those of the rows n, 2n, ... below them: one block each.
template <class D, typename T>
HWY_INLINE hn::Vec<D> load_blocks(D d, const T* p, int64_t stride)
{
    constexpr int n = 16 / sizeof(T);
    if constexpr (hn::MaxLanes(d) == n) {
        return hn::LoadU(d, p);
    } else {
        const hn::Half<D> half;
        constexpr int64_t half_rows = hn::MaxLanes(half) / n * n;
        return hn::Combine(d, load_blocks(half, p + half_rows * stride, stride), load_blocks(half, p, stride));
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
    // Strips of 64 bytes of src's columns, top to bottom: each cache line of src is read whole at once,
    // and the strip's dst rows are written in step, whole lines while they are in L1.
    constexpr int kStrip = 64 / sizeof(T);
    for (int c0 = 0; c0 < whole_cols; c0 += kStrip)
        for (int r = first_row; r < end_row; r += band)
            for (int c = c0; c < std::min(c0 + kStrip, whole_cols); c += n)
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
    if constexpr (hn::MaxLanes(BandTag<T>()) > 2 * n) row = transpose_bands(hn::CappedTag<T, 2 * n>(), t, row);
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
