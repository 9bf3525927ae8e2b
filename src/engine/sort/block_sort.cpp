// Sorting a block by ranking: each key's output position is the number of keys that sort before it.
// For 32 keys that is 32 x 32 comparisons, which SIMD does in a few vector operations per key, without
// the unpredictable branches of a comparison sort, and with ties settled exactly.
//
// A key packs the order (descending value, then ascending index) into one unsigned 64-bit integer:
// the complemented order key of the value in the high 32 bits, the index in the low 32. Equal keys
// (equal value and equal index) keep their source order.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/sort/block_sort.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstring>

#include "engine/sort/block_sort.hpp"
#include "engine/sort/float_order.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::sort32 {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

constexpr int kBlock = 32;

// Flipping the top bit turns unsigned order into signed order, which every target compares natively.
constexpr uint64_t kSignFlip = uint64_t{1} << 63;

// below[i] = number of keys smaller than keys[i], for the n keys of a block (keys has kBlock entries;
// lanes from n on are counted too, and ignored). The counts of a vector of lanes i accumulate over the
// scalar loop on j, so no horizontal sum is needed.
HWY_INLINE void count_smaller(const int64_t* HWY_RESTRICT keys, int n, int64_t* HWY_RESTRICT below)
{
    const hn::ScalableTag<int64_t> d;
    const int lanes = static_cast<int>(hn::Lanes(d));
    for (int v = 0; v * lanes < n; ++v) {
        const auto own = hn::Load(d, keys + v * lanes);
        auto smaller = hn::Zero(d);
        for (int j = 0; j < n; ++j) {
            smaller = hn::Sub(smaller, hn::VecFromMask(d, hn::Lt(hn::Set(d, keys[j]), own)));  // true is -1
        }
        hn::Store(smaller, d, below + v * lanes);
    }
}

// Bits: uint32_t for float values, uint16_t for half. A pair is the value's bits (zero-extended to 32)
// in its low half and the index in its high half: [f32, u32] or [f16, 0, u32] in memory.
template <typename Bits>
HWY_INLINE void sort_rows(const SortRows& job)
{
    using Format = FloatFormat<Bits>;
    HWY_ALIGN int64_t keys[kBlock];
    uint64_t pairs[kBlock];
    HWY_ALIGN int64_t below[kBlock];
    for (int r = 0; r < job.rows; ++r) {
        const std::byte* value_row = job.values + r * job.value_stride;
        const std::byte* index_row = job.indices + r * job.index_stride;
        std::byte* out = job.pairs + r * job.pair_stride;
        for (int start = 0; start < job.cols; start += kBlock) {
            const int n = job.cols - start < kBlock ? job.cols - start : kBlock;
            Bits value[kBlock];
            uint32_t index[kBlock];
            std::memcpy(value, value_row + int64_t(start) * sizeof(Bits), n * sizeof(Bits));
            std::memcpy(index, index_row + int64_t(start) * sizeof(uint32_t), n * sizeof(uint32_t));
            for (int i = 0; i < n; ++i) {
                const uint64_t descending = static_cast<Bits>(~Format::order_key(value[i]));
                keys[i] = static_cast<int64_t>(((descending << 32) | index[i]) ^ kSignFlip);
                pairs[i] = (uint64_t{index[i]} << 32) | value[i];
            }
            for (int i = n; i < kBlock; ++i) keys[i] = 0;  // whole vectors load them; their counts are unused
            count_smaller(keys, n, below);
            // Distinct keys have distinct counts; equal keys share one and take its slots in source order.
            uint8_t taken[kBlock] = {};
            std::byte* block_out = out + int64_t(start) * sizeof(uint64_t);
            for (int i = 0; i < n; ++i) {
                const int64_t slot = below[i] + taken[below[i]]++;
                std::memcpy(block_out + slot * sizeof(uint64_t), &pairs[i], sizeof(uint64_t));
            }
        }
    }
}

void SortF32Rows(const SortRows& job) { sort_rows<uint32_t>(job); }
void SortF16Rows(const SortRows& job) { sort_rows<uint16_t>(job); }

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::sort32
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::sort32 {

HWY_EXPORT(SortF32Rows);
HWY_EXPORT(SortF16Rows);

void sort_f32_rows(const SortRows& job) { HWY_DYNAMIC_DISPATCH(SortF32Rows)(job); }
void sort_f16_rows(const SortRows& job) { HWY_DYNAMIC_DISPATCH(SortF16Rows)(job); }

}  // namespace pto::engine::sort32
#endif
