// TGATHER index-form rows, in one of two ways chosen per CPU at run time (gather_rows):
// - on vectors, where the CPU has a gather instruction that pays off (x86 with AVX2 or AVX-512, not AMD):
//   each vector of indices is clamped to the extent with one unsigned Min, which is exactly the
//   out-of-range rule, and its elements are fetched by one hardware gather (vpgatherdd), with neither a
//   separate pass over the indices nor a branch. 8- and 16-bit elements have no gather of their own:
//   the 32-bit word starting at the element is gathered (for src's last elements, the word ending at
//   it, so that no read leaves src), shifted and narrowed. On Sapphire Rapids this runs at 0.7-0.9
//   times the scalar loop's time, not less: both are bound by the random reads of src, one load per
//   element either way, and by L1 misses once src outgrows L1 (README, Benchmarks).
// - scalar elsewhere: on AMD Zen 3 vpgatherdd was slower than scalar loads (Zen 4 and 5 are unmeasured
//   and take this path too), and targets below AVX2 have no gather instruction. The indices are
//   compared with the extent once, on vectors, so that the scalar loop needs no per-element clamp when
//   none is out of range. This loop is compiled for the baseline target only, where the compiler
//   cannot turn it into vpgatherdd.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/gather/index_gather.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <type_traits>

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

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2  // targets with a gather instruction (lower is better)

// One lane per element: the element's index widened to 32 bits, clamped to `last`.
template <typename Index, class D32>
HWY_INLINE hn::Vec<D32> clamped_indices(D32 d32, const Index* index, hn::Vec<D32> last)
{
    if constexpr (sizeof(Index) == 4) {
        return hn::Min(hn::LoadU(d32, index), last);
    } else {
        return hn::Min(hn::PromoteTo(d32, hn::LoadU(hn::Rebind<Index, D32>(), index)), last);
    }
}

template <typename T, typename Index>
void gather_rows_on_vectors(const IndexGatherRows& job)
{
    // Measured on Sapphire Rapids: 32-bit elements gather faster 8 at a time than 16; narrow ones, 16 at a
    // time where the target has 16 lanes.
    using Words = std::conditional_t<sizeof(T) == 4, hn::CappedTag<uint32_t, 8>, hn::ScalableTag<uint32_t>>;
    const Words d32;
    const hn::RebindToSigned<decltype(d32)> offsets;
    const hn::Rebind<T, decltype(d32)> dt;
    const int lanes = static_cast<int>(hn::Lanes(d32));
    constexpr int kShift = sizeof(T) == 1 ? 0 : (sizeof(T) == 2 ? 1 : 2);  // log2 of the element's bytes
    const auto last = hn::Set(d32, job.last);
    // The first element of src's last 32-bit word: a narrow element past it is read from that word.
    const auto last_word = hn::Set(d32, job.last - (4 / sizeof(T) - 1));
    const auto* src_words = reinterpret_cast<const uint32_t*>(job.src);
    const T* src = reinterpret_cast<const T*>(job.src);
    const int cols = job.cols;  // not reloaded after each store to dst, which might alias `job`
    for (int r = 0; r < job.rows; ++r) {
        T* out = reinterpret_cast<T*>(job.dst) + r * job.dst_stride;
        const Index* index = reinterpret_cast<const Index*>(job.indices) + r * job.index_stride;
        int c = 0;
        for (; c + lanes <= cols; c += lanes) {
            const auto k = clamped_indices(d32, index + c, last);
            if constexpr (sizeof(T) == 4) {
                hn::StoreU(hn::GatherIndex(d32, src_words, hn::BitCast(offsets, k)), d32, out + c);
            } else {
                const auto word = hn::Min(k, last_word);
                const auto words = hn::GatherOffset(d32, src_words, hn::BitCast(offsets, hn::ShiftLeft<kShift>(word)));
                const auto bits_below = hn::ShiftLeft<kShift + 3>(hn::Sub(k, word));
                hn::StoreU(hn::TruncateTo(dt, hn::Shr(words, bits_below)), dt, out + c);
            }
        }
        for (; c < cols; ++c) out[c] = src[std::min<uint32_t>(index[c], job.last)];
    }
}

template <typename T>
void gather_rows_on_vectors(int index_bits, const IndexGatherRows& job)
{
    return index_bits == 32 ? gather_rows_on_vectors<T, uint32_t>(job) : gather_rows_on_vectors<T, uint16_t>(job);
}

// False where the job is left to the scalar loop: src smaller than one 32-bit word, byte offsets past the
// gather's signed 32-bit range, or bytes on a target where gathering them does not pay off.
bool GatherRowsOnVectors(int data_bits, int index_bits, const IndexGatherRows& job)
{
    const int64_t src_bytes = (int64_t{job.last} + 1) * data_bits / 8;
    if (src_bytes < 4 || src_bytes > INT32_MAX) return false;
    // Bytes narrowed from 8 words at a time (AVX2) were slower than scalar loads; 16 at a time, faster.
    if (data_bits == 8 && hn::Lanes(hn::ScalableTag<uint32_t>()) < 16) return false;
    if (data_bits == 32) {
        gather_rows_on_vectors<uint32_t>(index_bits, job);
    } else if (data_bits == 16) {
        gather_rows_on_vectors<uint16_t>(index_bits, job);
    } else {
        gather_rows_on_vectors<uint8_t>(index_bits, job);
    }
    return true;
}

#else

// Without a gather instruction Highway would emulate one lane by lane: the scalar loop is used instead.
bool GatherRowsOnVectors(int, int, const IndexGatherRows&) { return false; }

#endif

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::gather
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::gather {

HWY_EXPORT(LargestIndex);
HWY_EXPORT(GatherRowsOnVectors);

namespace {

// Whether a vector gather beats scalar loads on this CPU, as measured on the CPUs at hand: yes on Intel
// (Sapphire Rapids), no on AMD (Zen 3).
bool vector_gathers_pay_off()
{
#if HWY_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
    static const bool amd = [] {
        __builtin_cpu_init();
        return __builtin_cpu_is("amd") != 0;
    }();
    return !amd;
#else
    return false;
#endif
}

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
    if (vector_gathers_pay_off() && HWY_DYNAMIC_DISPATCH(GatherRowsOnVectors)(data_bits, index_bits, job)) return;
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
