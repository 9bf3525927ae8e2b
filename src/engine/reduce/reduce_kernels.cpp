// The reduction loops of reduce_kernels.hpp, written once with Highway and compiled for each SIMD target
// it knows (foreach_target re-includes this file per target); HWY_DYNAMIC_DISPATCH picks the best one the
// running CPU supports, once per call.
//
// Every target computes the same operations in the same order, only more of them at a time:
//   along a line   element j goes into partial result j mod kPartials; a tail shorter than kPartials is
//                  padded with the operation's identity (-0 for a float sum: x + -0 is x for every x,
//                  -0 included; 1 for a product); the partial results are then combined pairwise as a
//                  halving tree;
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
    template <typename C>
    static constexpr bool kWatchesNaN = false;
    using Element = elementwise::Add;  // integers wrap
    template <typename C>
    static C identity()
    {
        if constexpr (std::is_floating_point_v<C>) return C(-0.0);
        else return C(0);
    }
    template <typename C>
    static bool settled(C)
    {
        return true;
    }
    template <class V>
    static V apply(V a, V b)
    {
        return hn::Add(a, b);
    }
    template <class V>
    static V apply_to_numbers(V a, V b)
    {
        return apply(a, b);
    }
};

// Integer products wrap. Highway has no 8- or 64-bit lane multiply; no profile multiplies those types,
// and they run one element at a time.
template <typename T>
inline constexpr bool kVectorMultiply = !std::is_integral_v<T> || sizeof(T) == 2 || sizeof(T) == 4;

template <>
struct Combine<ReduceOp::Prod> {
    template <typename C>
    static constexpr bool kWatchesNaN = false;
    using Element = elementwise::Mul;
    template <typename C>
    static C identity()
    {
        return C(1);
    }
    template <typename C>
    static bool settled(C)
    {
        return true;
    }
    template <class V>
    static V apply(V a, V b)
    {
        return hn::Mul(a, b);
    }
    template <class V>
    static V apply_to_numbers(V a, V b)
    {
        return apply(a, b);
    }
};

// Max and min run fast in the loops and settle the rare cases afterwards. Along lines the plain vector
// max / min meets every element, and a NaN watch (reduce_along) sends a line that may hold a NaN to the
// fold below; across lines a NaN element gives way to the accumulator (never a NaN: it starts at -inf,
// resp. +inf). Either way the vector max / min only decides between numbers; it may pick either zero of a
// tie between -0 and +0. A result that is a zero or the starting infinity (a line of NaNs and infinities)
// is therefore not settled either: the line is then folded again one element at a time with TMAX's
// maximumNumber (TMIN's minimumNumber), which decides the zero's sign and NaNs exactly.
template <bool kMax>
struct Extreme {
    using Element = std::conditional_t<kMax, elementwise::Max, elementwise::Min>;
    template <typename C>
    static C identity()
    {
        if constexpr (std::is_floating_point_v<C>) return kMax ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
        else return kMax ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max();
    }
    template <typename C>
    static bool settled(C result)
    {
        if constexpr (std::is_floating_point_v<C>) return result != 0 && result != identity<C>();
        else return true;
    }
    template <typename C>
    static constexpr bool kWatchesNaN = std::is_floating_point_v<C>;
    template <class V>
    static V apply_to_numbers(V acc, V x)
    {
        return kMax ? hn::Max(acc, x) : hn::Min(acc, x);
    }
    template <class V>
    static V apply(V acc, V x)
    {
        if constexpr (hwy::IsFloat<hn::TFromV<V>>()) x = hn::IfThenElse(hn::IsNaN(x), acc, x);
        return apply_to_numbers(acc, x);
    }
};

template <>
struct Combine<ReduceOp::Max> : Extreme<true> {};
template <>
struct Combine<ReduceOp::Min> : Extreme<false> {};

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

// `count` elements `stride` apart combined one at a time, from the first, exactly as Op's element
// functor does.
template <typename T, class Op>
typename Format<T>::Compute fold(const typename Format<T>::Storage* first, int64_t count, int64_t stride)
{
    using F = Format<T>;
    typename F::Compute acc = F::widen(first[0]);
    for (int64_t k = 1; k < count; ++k) acc = Op::Element::apply(acc, F::widen(first[k * stride]));
    return acc;
}

// --- along lines ------------------------------------------------------------------------------------

// The lanes of v combined as a halving tree: lane k with lane k + width / 2, the width halved each time.
template <class Op, class D>
HWY_INLINE hn::TFromD<D> halving_tree(D, hn::Vec<D> v)
{
#if HWY_TARGET != HWY_SCALAR  // one lane: nothing to halve
    if constexpr (hn::MaxLanes(D()) > 1) {
        const hn::Half<D> half_d;
        return halving_tree<Op>(half_d, Op::apply_to_numbers(hn::LowerHalf(half_d, v), hn::UpperHalf(half_d, v)));
    }
#endif
    return hn::GetLane(v);
}

// Sums of a line's elements kept beside the float max / min partial results, four to keep four additions
// in flight: a NaN element makes its sum NaN for good (infinities of both signs, or an overflow met by
// one, make one too, and only cost a fold), so the partial results need only the plain vector max / min.
constexpr std::size_t kNaNWatches = 4;

// Combines kPartials elements at p into the partial results (and into the NaN watch when Op keeps one).
template <typename T, class Op, class D, class V, typename S>
HWY_INLINE void accumulate_block(D d, V* partials, V* nan_watch, const S* p)
{
    constexpr std::size_t N = hn::MaxLanes(D());
    for (std::size_t v = 0; v < kPartials / N; ++v) {
        const V x = LaneForm<T>::load(d, p + v * N);
        partials[v] = Op::apply_to_numbers(partials[v], x);
        if constexpr (Op::template kWatchesNaN<hn::TFromD<D>>) nan_watch[v % kNaNWatches] = hn::Add(nan_watch[v % kNaNWatches], x);
    }
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
        hn::Vec<D> nan_watch[kNaNWatches];
        for (auto& v : nan_watch) v = hn::Zero(d);
        for (auto& v : partials) v = hn::Set(d, Op::template identity<C>());
        for (int64_t j = 0; j < full; j += int64_t(kPartials)) accumulate_block<T, Op>(d, partials, nan_watch, line + j);
        if (full < length) {
            HWY_ALIGN S tail[kPartials];
            std::fill(std::copy(line + full, line + length, tail), tail + kPartials, padding);
            accumulate_block<T, Op>(d, partials, nan_watch, tail);
        }
        bool may_hold_nan = false;
        if constexpr (Op::template kWatchesNaN<C>) {
            for (std::size_t v = 1; v < kNaNWatches; ++v) nan_watch[0] = hn::Add(nan_watch[0], nan_watch[v]);
            may_hold_nan = !hn::AllFalse(d, hn::IsNaN(nan_watch[0]));
        }
        // The halving tree over the partial results: across vectors, then within the last one.
        for (std::size_t width = kVectors; width > 1; width /= 2)
            for (std::size_t v = 0; v < width / 2; ++v) partials[v] = Op::apply_to_numbers(partials[v], partials[v + width / 2]);
        const C result = halving_tree<Op>(d, partials[0]);
        job.out[i * job.out_stride] = finish<T>(!may_hold_nan && Op::settled(result) ? result : fold<T, Op>(line, length, 1));
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
    for (std::size_t k = 0; k < kCount * N; ++k) {
        const int64_t j = first + int64_t(k);
        const C result = Op::settled(lanes[k]) ? lanes[k] : fold<T, Op>(job.src.line(0) + j, job.shape.count, job.src.stride);
        job.out[j * job.out_stride] = finish<T>(result);
    }
}

template <typename T, ReduceOp kOp>
void reduce_across(const ReduceJob<typename Format<T>::Storage>& job)
{
    using Op = Combine<kOp>;
    constexpr int64_t N = int64_t(hn::MaxLanes(typename LaneForm<T>::D()));
    constexpr int64_t kChunk = int64_t(kColumnVectors) * N;
    const int64_t length = job.shape.length;
    int64_t j = 0;
    for (; j + kChunk <= length; j += kChunk) reduce_across_chunk<T, Op, kColumnVectors>(job, j);
    for (; j + N <= length; j += N) reduce_across_chunk<T, Op, 1>(job, j);
    for (; j < length; ++j) job.out[j * job.out_stride] = finish<T>(fold<T, Op>(job.src.line(0) + j, job.shape.count, job.src.stride));
}

// Each result folded one element at a time (the integer products without a vector multiply, where the
// order does not matter).
template <typename T, ReduceOp kOp>
void reduce_by_folds(const ReduceJob<typename Format<T>::Storage>& job)
{
    const bool along = job.axis == Axis::AlongLines;
    const int64_t results = along ? job.shape.count : job.shape.length;
    for (int64_t k = 0; k < results; ++k) {
        const auto* first = along ? job.src.line(k) : job.src.line(0) + k;
        const auto result = along ? fold<T, Combine<kOp>>(first, job.shape.length, 1)
                                  : fold<T, Combine<kOp>>(first, job.shape.count, job.src.stride);
        job.out[k * job.out_stride] = finish<T>(result);
    }
}

template <typename T, ReduceOp kOp>
void reduce_as(const ReduceJob<typename Format<T>::Storage>& job)
{
    if constexpr (kOp == ReduceOp::Prod && !kVectorMultiply<T>) reduce_by_folds<T, kOp>(job);
    else if (job.axis == Axis::AlongLines) reduce_along<T, kOp>(job);
    else reduce_across<T, kOp>(job);
}

template <typename T>
void reduce(const ReduceJob<typename Format<T>::Storage>& job)
{
    switch (job.op) {
        case ReduceOp::Sum: return reduce_as<T, ReduceOp::Sum>(job);
        case ReduceOp::Max: return reduce_as<T, ReduceOp::Max>(job);
        case ReduceOp::Min: return reduce_as<T, ReduceOp::Min>(job);
        case ReduceOp::Prod: return reduce_as<T, ReduceOp::Prod>(job);
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
