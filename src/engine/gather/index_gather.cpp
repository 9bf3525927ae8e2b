// TGATHER index-form rows. The indices are compared with the source's extent once, on vectors (compiled
// for every SIMD target Highway knows; the best one the running CPU supports is picked at run time), so
// that the gather loop itself needs no per-element clamp when none is out of range. The gather loop is
// scalar, compiled for the baseline target only: the vector gather instruction (vpgatherdd) was slower
// than scalar loads on the development machine (AMD Zen 3), and a compiler given AVX2 would emit it.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/gather/index_gather.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "engine/gather/index_gather.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::gather {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

template <typename Index>
HWY_INLINE uint32_t largest_index(const Index* indices, int64_t stride, int rows, int cols)
{
    const hn::ScalableTag<Index> d;
    const int lanes = static_cast<int>(hn::Lanes(d));
    auto largest = hn::Zero(d);
    uint32_t largest_in_tails = 0;
    for (int r = 0; r < rows; ++r) {
        const Index* row = indices + r * stride;
        int c = 0;
        for (; c + lanes <= cols; c += lanes) largest = hn::Max(largest, hn::LoadU(d, row + c));
        for (; c < cols; ++c) largest_in_tails = std::max<uint32_t>(largest_in_tails, row[c]);
    }
    return std::max<uint32_t>(hn::GetLane(hn::MaxOfLanes(d, largest)), largest_in_tails);
}

// The largest of the job's indices, read as unsigned.
uint32_t LargestIndex(int index_bits, const IndexGatherRows& job)
{
    if (index_bits == 32) {
        return largest_index(reinterpret_cast<const uint32_t*>(job.indices), job.index_stride, job.rows, job.cols);
    }
    return largest_index(reinterpret_cast<const uint16_t*>(job.indices), job.index_stride, job.rows, job.cols);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::gather
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::gather {

HWY_EXPORT(LargestIndex);

namespace {

// One row. Four loads come before their four stores, which the compiler joins into one vector store:
// fewer stores in flight hold up the random loads less. Without kClamp, every index is known to be at
// most `last`.
template <typename T, typename Index, bool kClamp>
void gather_row(T* out, const T* src, const Index* index, int cols, uint32_t last)
{
    const auto element = [&](uint32_t k) { return src[kClamp && k > last ? last : k]; };
    int c = 0;
    for (; c + 4 <= cols; c += 4) {
        const T a = element(index[c]), b = element(index[c + 1]), d = element(index[c + 2]),
                e = element(index[c + 3]);
        out[c] = a;
        out[c + 1] = b;
        out[c + 2] = d;
        out[c + 3] = e;
    }
    for (; c < cols; ++c) out[c] = element(index[c]);
}

template <typename T, typename Index, bool kClamp>
void gather_rows_of(const IndexGatherRows& job)
{
    const T* src = reinterpret_cast<const T*>(job.src);
    for (int r = 0; r < job.rows; ++r) {
        gather_row<T, Index, kClamp>(reinterpret_cast<T*>(job.dst) + r * job.dst_stride, src,
                                     reinterpret_cast<const Index*>(job.indices) + r * job.index_stride, job.cols,
                                     job.last);
    }
}

// All indices are checked on vectors first (one pass over them costs less than a clamp per element); only
// a job holding an index past the extent clamps element by element.
template <typename T, typename Index>
void gather_rows_of(const IndexGatherRows& job)
{
    if (HWY_DYNAMIC_DISPATCH(LargestIndex)(int(sizeof(Index) * 8), job) <= job.last) {
        return gather_rows_of<T, Index, false>(job);
    }
    return gather_rows_of<T, Index, true>(job);
}

template <typename T>
void gather_rows_of(int index_bits, const IndexGatherRows& job)
{
    return index_bits == 32 ? gather_rows_of<T, uint32_t>(job) : gather_rows_of<T, uint16_t>(job);
}

template <typename T, typename Index>
void gather_elements(const TileDesc& dst, const TileDesc& src, const TileDesc& indices, uint32_t last)
{
    for (int i = 0; i < dst.valid_rows; ++i) {
        for (int j = 0; j < dst.valid_cols; ++j) {
            Index raw;
            std::memcpy(&raw, indices.data + indices.offset(i, j) * sizeof(Index), sizeof raw);
            const uint32_t k = raw < last ? raw : last;
            const int64_t from = src.offset(k / src.cols, k % src.cols);
            std::memcpy(dst.data + dst.offset(i, j) * sizeof(T), src.data + from * sizeof(T), sizeof(T));
        }
    }
}

}  // namespace

void gather_rows(int data_bits, int index_bits, const IndexGatherRows& job)
{
    if (data_bits == 32) return gather_rows_of<uint32_t>(index_bits, job);
    if (data_bits == 8) return gather_rows_of<uint8_t>(index_bits, job);
    return gather_rows_of<uint16_t>(index_bits, job);
}

void gather_tiles(const TileDesc& dst, const TileDesc& src, const TileDesc& indices, uint32_t last)
{
    const bool wide_data = dst.element_bits() == 32, wide_index = indices.element_bits() == 32;
    if (wide_data) {
        return wide_index ? gather_elements<uint32_t, uint32_t>(dst, src, indices, last)
                          : gather_elements<uint32_t, uint16_t>(dst, src, indices, last);
    }
    if (dst.element_bits() == 8) {
        return wide_index ? gather_elements<uint8_t, uint32_t>(dst, src, indices, last)
                          : gather_elements<uint8_t, uint16_t>(dst, src, indices, last);
    }
    return wide_index ? gather_elements<uint16_t, uint32_t>(dst, src, indices, last)
                      : gather_elements<uint16_t, uint16_t>(dst, src, indices, last);
}

}  // namespace pto::engine::gather
#endif
