// TGATHER index-form rows. 32-bit elements use the vector gather of the target; 16-bit elements have
// none, so their loop is scalar (and branch-free: the clamp is a min).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/gather/index_gather.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstring>

#include "engine/gather/index_gather.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::gather {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

template <typename T, typename Index>
HWY_INLINE void scalar_rows(const IndexGatherRows& job)
{
    const T* src = reinterpret_cast<const T*>(job.src);
    for (int r = 0; r < job.rows; ++r) {
        T* out = reinterpret_cast<T*>(job.dst) + r * job.dst_stride;
        const Index* index = reinterpret_cast<const Index*>(job.indices) + r * job.index_stride;
        for (int c = 0; c < job.cols; ++c) {
            const uint32_t k = index[c];
            out[c] = src[k < job.last ? k : job.last];
        }
    }
}

// Indices widened to 32-bit lanes.
template <class D>
HWY_INLINE hn::Vec<D> load_indices(D d, const uint32_t* p)
{
    return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE hn::Vec<D> load_indices(D d, const uint16_t* p)
{
    return hn::PromoteTo(d, hn::LoadU(hn::Rebind<uint16_t, D>(), p));
}

template <typename Index>
HWY_INLINE void vector_rows32(const IndexGatherRows& job)
{
    const hn::ScalableTag<uint32_t> d;
    const hn::RebindToSigned<decltype(d)> di;
    const int lanes = static_cast<int>(hn::Lanes(d));
    const uint32_t* src = reinterpret_cast<const uint32_t*>(job.src);
    const auto last = hn::Set(d, job.last);
    for (int r = 0; r < job.rows; ++r) {
        uint32_t* out = reinterpret_cast<uint32_t*>(job.dst) + r * job.dst_stride;
        const Index* index = reinterpret_cast<const Index*>(job.indices) + r * job.index_stride;
        int c = 0;
        for (; c + lanes <= job.cols; c += lanes) {
            const auto clamped = hn::Min(load_indices(d, index + c), last);
            hn::StoreU(hn::GatherIndex(d, src, hn::BitCast(di, clamped)), d, out + c);
        }
        for (; c < job.cols; ++c) {
            const uint32_t k = index[c];
            out[c] = src[k < job.last ? k : job.last];
        }
    }
}

void GatherRows(int data_bits, int index_bits, const IndexGatherRows& job)
{
    if (data_bits == 32) { return index_bits == 32 ? vector_rows32<uint32_t>(job) : vector_rows32<uint16_t>(job); }
    if (data_bits == 8) { return index_bits == 32 ? scalar_rows<uint8_t, uint32_t>(job) : scalar_rows<uint8_t, uint16_t>(job); }
    return index_bits == 32 ? scalar_rows<uint16_t, uint32_t>(job) : scalar_rows<uint16_t, uint16_t>(job);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::gather
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::gather {

HWY_EXPORT(GatherRows);

void gather_rows(int data_bits, int index_bits, const IndexGatherRows& job)
{
    HWY_DYNAMIC_DISPATCH(GatherRows)(data_bits, index_bits, job);
}

namespace {

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
