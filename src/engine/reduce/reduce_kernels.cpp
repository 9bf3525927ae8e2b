// The reduction loops of reduce_kernels.hpp, written once with Highway and compiled for each SIMD target
// it knows (foreach_target re-includes this file per target); HWY_DYNAMIC_DISPATCH picks the best one the
// running CPU supports, once per call.
//
// Every target computes the same operations in the same order, only more of them at a time:
//   along a line   element j goes into partial result j mod kPartials; a tail shorter than kPartials is
//                  padded with the operation's identity (-0 for a float sum: x + -0 is x for every x,
//                  -0 included); the partial results are then combined pairwise as a halving tree;
//   across lines   each position is combined line after line, from the first.
// Floats combine in float (half and bfloat16 widened exactly) and round once to the element type; a NaN
// result becomes the canonical NaN, as NaN payloads depend on the order of the operands.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/reduce/reduce_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <pto/common/numeric.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/operations.hpp"
#include "engine/reduce/reduce_kernels.hpp"
#include "engine/simd/float16_bits-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::reduce {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using ::pto::engine::HWY_NAMESPACE::BfloatBits;
using ::pto::engine::HWY_NAMESPACE::HalfBits;
using elementwise::Format;

// The partial results of a line: a fixed count, whatever the vector width, so that the order of the
// float additions is the same on every target. 64 keeps eight AVX2 additions in flight.
constexpr std::size_t kPartials = 64;

// Vectors of a column chunk kept in registers while the lines go by.
constexpr std::size_t kColumnVectors = 8;

// --- the operations, on vectors and on single elements of the compute type -------------------------

template <ReduceOp>
struct Combine;

template <>
struct Combine<ReduceOp::Sum> {
    using Element = elementwise::Add;  // integers wrap
    template <typename C>
    static C identity()
    {
        if constexpr (std::is_floating_point_v<C>) return C(-0.0);
        else return C(0);
    }
    template <class V>
    static V apply(V a, V b)
    {
        return hn::Add(a, b);
    }
};

// maximumNumber as TMAX computes it: on a tie the AND of the bits picks +0 among zeros, then a NaN gives
// way to the other operand.
template <>
struct Combine<ReduceOp::Max> {
    using Element = elementwise::Max;
    template <typename C>
    static C identity()
    {
        if constexpr (std::is_floating_point_v<C>) return std::numeric_limits<C>::quiet_NaN();
        else return std::numeric_limits<C>::lowest();
    }
    template <class V>
    static V apply(V a, V b)
    {
        if constexpr (hwy::IsFloat<hn::TFromV<V>>()) {
            V m = hn::IfThenElse(hn::Eq(a, b), hn::And(a, b), hn::Max(a, b));
            m = hn::IfThenElse(hn::IsNaN(b), a, m);
            return hn::IfThenElse(hn::IsNaN(a), b, m);
        } else {
            return hn::Max(a, b);
        }
    }
};

template <>
struct Combine<ReduceOp::Min> {
    using Element = elementwise::Min;
    template <typename C>
    static C identity()
    {
        if constexpr (std::is_floating_point_v<C>) return std::numeric_limits<C>::quiet_NaN();
        else return std::numeric_limits<C>::max();
    }
    template <class V>
    static V apply(V a, V b)
    {
        if constexpr (hwy::IsFloat<hn::TFromV<V>>()) {
            V m = hn::IfThenElse(hn::Eq(a, b), hn::Or(a, b), hn::Min(a, b));
            m = hn::IfThenElse(hn::IsNaN(b), a, m);
            return hn::IfThenElse(hn::IsNaN(a), b, m);
        } else {
            return hn::Min(a, b);
        }
    }
};

// --- loading elements into compute lanes ------------------------------------------------------------

// float and the integers, as stored.
template <typename T>
struct LaneForm {
    using D = hn::ScalableTag<T>;
    static hn::Vec<D> load(D d, const T* p) { return hn::LoadU(d, p); }
};

// half and bfloat16, widened exactly to float, a float vector at a time.
template <>
struct LaneForm<half> {
    using D = hn::ScalableTag<float>;
    static hn::Vec<D> load(D d, const uint16_t* p) { return HalfBits::widen(d, hn::LoadU(hn::Rebind<uint16_t, D>(), p)); }
};

template <>
struct LaneForm<bfloat16_t> {
    using D = hn::ScalableTag<float>;
    static hn::Vec<D> load(D d, const uint16_t* p) { return BfloatBits::widen(d, hn::LoadU(hn::Rebind<uint16_t, D>(), p)); }
};

// A finished result, rounded once to the storage; any NaN becomes the canonical one.
template <typename T, typename C>
typename Format<T>::Storage finish(C result)
{
    if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(result)) result = std::numeric_limits<C>::quiet_NaN();
    }
    return Format<T>::narrow(result);
}

// --- along lines ------------------------------------------------------------------------------------

// Combines kPartials elements at p into the partial results.
template <typename T, class Op, class D, class V, typename S>
HWY_INLINE void accumulate_block(D d, V* partials, const S* p)
{
    constexpr std::size_t N = hn::MaxLanes(D());
    for (std::size_t v = 0; v < kPartials / N; ++v) partials[v] = Op::apply(partials[v], LaneForm<T>::load(d, p + v * N));
}

template <typename T, ReduceOp kOp>
void reduce_along(const ReduceJob<typename Format<T>::Storage>& job)
{
    using S = typename Format<T>::Storage;
    using C = typename Format<T>::Compute;
    using Op = Combine<kOp>;
    using D = typename LaneForm<T>::D;
    const D d;
    constexpr std::size_t N = hn::MaxLanes(D());
    static_assert(kPartials % N == 0, "a vector holds a whole number of partial results");
    constexpr std::size_t kVectors = kPartials / N;

    const int64_t length = job.shape.length;
    const int64_t full = length - length % int64_t(kPartials);
    const S padding = Format<T>::narrow(Op::template identity<C>());
    for (int64_t i = 0; i < job.shape.count; ++i) {
        const S* line = job.src.line(i);
        hn::Vec<D> partials[kVectors];
        for (auto& v : partials) v = hn::Set(d, Op::template identity<C>());
        for (int64_t j = 0; j < full; j += int64_t(kPartials)) accumulate_block<T, Op>(d, partials, line + j);
        if (full < length) {
            HWY_ALIGN S tail[kPartials];
            std::fill(std::copy(line + full, line + length, tail), tail + kPartials, padding);
            accumulate_block<T, Op>(d, partials, tail);
        }
        // The halving tree: partial k with partial k + width / 2, first across vectors, then within one.
        for (std::size_t width = kVectors; width > 1; width /= 2)
            for (std::size_t v = 0; v < width / 2; ++v) partials[v] = Op::apply(partials[v], partials[v + width / 2]);
        HWY_ALIGN C lanes[N];
        hn::Store(partials[0], d, lanes);
        for (std::size_t width = N; width > 1; width /= 2)
            for (std::size_t k = 0; k < width / 2; ++k) lanes[k] = Op::Element::apply(lanes[k], lanes[k + width / 2]);
        job.out[i * job.out_stride] = finish<T>(lanes[0]);
    }
}

// --- across lines -----------------------------------------------------------------------------------

// Positions [first, first + kCount * N) of every line, in registers.
template <typename T, class Op, std::size_t kCount>
void reduce_across_chunk(const ReduceJob<typename Format<T>::Storage>& job, int64_t first)
{
    using C = typename Format<T>::Compute;
    using D = typename LaneForm<T>::D;
    const D d;
    constexpr std::size_t N = hn::MaxLanes(D());
    hn::Vec<D> acc[kCount];
    for (std::size_t v = 0; v < kCount; ++v) acc[v] = LaneForm<T>::load(d, job.src.line(0) + first + v * N);
    for (int64_t i = 1; i < job.shape.count; ++i) {
        const auto* line = job.src.line(i) + first;
        for (std::size_t v = 0; v < kCount; ++v) acc[v] = Op::apply(acc[v], LaneForm<T>::load(d, line + v * N));
    }
    HWY_ALIGN C lanes[kCount * N];
    for (std::size_t v = 0; v < kCount; ++v) hn::Store(acc[v], d, lanes + v * N);
    for (std::size_t k = 0; k < kCount * N; ++k) job.out[(first + int64_t(k)) * job.out_stride] = finish<T>(lanes[k]);
}

template <typename T, ReduceOp kOp>
void reduce_across(const ReduceJob<typename Format<T>::Storage>& job)
{
    using F = Format<T>;
    using Op = Combine<kOp>;
    constexpr int64_t N = int64_t(hn::MaxLanes(typename LaneForm<T>::D()));
    constexpr int64_t kChunk = int64_t(kColumnVectors) * N;
    const int64_t length = job.shape.length;
    int64_t j = 0;
    for (; j + kChunk <= length; j += kChunk) reduce_across_chunk<T, Op, kColumnVectors>(job, j);
    for (; j + N <= length; j += N) reduce_across_chunk<T, Op, 1>(job, j);
    for (; j < length; ++j) {
        typename F::Compute acc = F::widen(job.src.line(0)[j]);
        for (int64_t i = 1; i < job.shape.count; ++i) acc = Op::Element::apply(acc, F::widen(job.src.line(i)[j]));
        job.out[j * job.out_stride] = finish<T>(acc);
    }
}

template <typename T>
void reduce(const ReduceJob<typename Format<T>::Storage>& job)
{
    const bool along = job.axis == Axis::AlongLines;
    switch (job.op) {
        case ReduceOp::Sum: return along ? reduce_along<T, ReduceOp::Sum>(job) : reduce_across<T, ReduceOp::Sum>(job);
        case ReduceOp::Max: return along ? reduce_along<T, ReduceOp::Max>(job) : reduce_across<T, ReduceOp::Max>(job);
        case ReduceOp::Min: return along ? reduce_along<T, ReduceOp::Min>(job) : reduce_across<T, ReduceOp::Min>(job);
    }
}

void FloatReduce(const ReduceJob<float>& job) { reduce<float>(job); }
void HalfReduce(const ReduceJob<uint16_t>& job) { reduce<half>(job); }
void BfloatReduce(const ReduceJob<uint16_t>& job) { reduce<bfloat16_t>(job); }
void I8Reduce(const ReduceJob<int8_t>& job) { reduce<int8_t>(job); }
void U8Reduce(const ReduceJob<uint8_t>& job) { reduce<uint8_t>(job); }
void I16Reduce(const ReduceJob<int16_t>& job) { reduce<int16_t>(job); }
void U16Reduce(const ReduceJob<uint16_t>& job) { reduce<uint16_t>(job); }
void I32Reduce(const ReduceJob<int32_t>& job) { reduce<int32_t>(job); }
void U32Reduce(const ReduceJob<uint32_t>& job) { reduce<uint32_t>(job); }
void I64Reduce(const ReduceJob<int64_t>& job) { reduce<int64_t>(job); }
void U64Reduce(const ReduceJob<uint64_t>& job) { reduce<uint64_t>(job); }

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::reduce
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::reduce {

HWY_EXPORT(FloatReduce);
HWY_EXPORT(HalfReduce);
HWY_EXPORT(BfloatReduce);
HWY_EXPORT(I8Reduce);
HWY_EXPORT(U8Reduce);
HWY_EXPORT(I16Reduce);
HWY_EXPORT(U16Reduce);
HWY_EXPORT(I32Reduce);
HWY_EXPORT(U32Reduce);
HWY_EXPORT(I64Reduce);
HWY_EXPORT(U64Reduce);

template <typename T, typename S>
void run_reduce(const ReduceJob<S>& job)
{
    if constexpr (std::is_same_v<T, float>) HWY_DYNAMIC_DISPATCH(FloatReduce)(job);
    else if constexpr (std::is_same_v<T, half>) HWY_DYNAMIC_DISPATCH(HalfReduce)(job);
    else if constexpr (std::is_same_v<T, bfloat16_t>) HWY_DYNAMIC_DISPATCH(BfloatReduce)(job);
    else if constexpr (std::is_same_v<T, int8_t>) HWY_DYNAMIC_DISPATCH(I8Reduce)(job);
    else if constexpr (std::is_same_v<T, uint8_t>) HWY_DYNAMIC_DISPATCH(U8Reduce)(job);
    else if constexpr (std::is_same_v<T, int16_t>) HWY_DYNAMIC_DISPATCH(I16Reduce)(job);
    else if constexpr (std::is_same_v<T, uint16_t>) HWY_DYNAMIC_DISPATCH(U16Reduce)(job);
    else if constexpr (std::is_same_v<T, int32_t>) HWY_DYNAMIC_DISPATCH(I32Reduce)(job);
    else if constexpr (std::is_same_v<T, uint32_t>) HWY_DYNAMIC_DISPATCH(U32Reduce)(job);
    else if constexpr (std::is_same_v<T, int64_t>) HWY_DYNAMIC_DISPATCH(I64Reduce)(job);
    else HWY_DYNAMIC_DISPATCH(U64Reduce)(job);
}

template void run_reduce<float>(const ReduceJob<float>&);
template void run_reduce<half>(const ReduceJob<uint16_t>&);
template void run_reduce<bfloat16_t>(const ReduceJob<uint16_t>&);
template void run_reduce<int8_t>(const ReduceJob<int8_t>&);
template void run_reduce<uint8_t>(const ReduceJob<uint8_t>&);
template void run_reduce<int16_t>(const ReduceJob<int16_t>&);
template void run_reduce<uint16_t>(const ReduceJob<uint16_t>&);
template void run_reduce<int32_t>(const ReduceJob<int32_t>&);
template void run_reduce<uint32_t>(const ReduceJob<uint32_t>&);
template void run_reduce<int64_t>(const ReduceJob<int64_t>&);
template void run_reduce<uint64_t>(const ReduceJob<uint64_t>&);

}  // namespace pto::engine::reduce
#endif  // HWY_ONCE
