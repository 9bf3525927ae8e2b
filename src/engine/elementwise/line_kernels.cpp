// The line loops of line_kernels.hpp, written once with Highway and compiled for each SIMD target it
// knows (foreach_target re-includes this file per target); HWY_DYNAMIC_DISPATCH picks the best one the
// running CPU supports, once per call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/elementwise/line_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <pto/common/numeric.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/simd/float16_bits-inl.hpp"
#include "engine/elementwise/operations.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::elementwise {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using ::pto::engine::HWY_NAMESPACE::BfloatBits;
using ::pto::engine::HWY_NAMESPACE::HalfBits;

// How whole vectors of T are loaded into and stored from the compute type's lanes: float and the
// integers as they are, half and bfloat16 through their bit codecs (engine/simd/float16_bits-inl.hpp).
template <typename T>
struct VectorCodec {
    template <class D>
    static hn::Vec<D> load(D d, const T* p)
    {
        return hn::LoadU(d, p);
    }
    template <class D>
    static void store(D d, hn::Vec<D> v, T* p)
    {
        hn::StoreU(v, d, p);
    }
};

template <typename Bits>
struct Float16Codec {
    template <class D>
    static hn::Vec<D> load(D d, const uint16_t* p)
    {
        return Bits::widen(d, hn::LoadU(hn::Rebind<uint16_t, D>(), p));
    }
    template <class D>
    static void store(D d, hn::Vec<D> v, uint16_t* p)
    {
        const hn::Rebind<uint16_t, D> d16;
        hn::StoreU(Bits::narrow(d, d16, v), d16, p);
    }
};
template <>
struct VectorCodec<half> : Float16Codec<HalfBits> {};
template <>
struct VectorCodec<bfloat16_t> : Float16Codec<BfloatBits> {};

// --- the vector form of each operation, on the compute type's lanes --------------------------------
// `kFor<T>` says for which element types it exists; the others run the functor element by element.

template <typename T>
inline constexpr bool kFloat = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <typename T>
inline constexpr bool kInteger = std::is_integral_v<T>;
template <typename T>
inline constexpr bool kAny = kFloat<T> || kInteger<T>;

template <typename Op>
struct Vector {
    template <typename T>
    static constexpr bool kFor = false;
};

template <>
struct Vector<Add> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        return hn::Add(a, b);
    }
};

template <>
struct Vector<Sub> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        return hn::Sub(a, b);
    }
};

// Highway has no 8- or 64-bit lane multiply.
template <>
struct Vector<Mul> {
    template <typename T>
    static constexpr bool kFor = kFloat<T> || (kInteger<T> && (sizeof(T) == 2 || sizeof(T) == 4));
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        return hn::Mul(a, b);
    }
};

template <>
struct Vector<Div> {
    template <typename T>
    static constexpr bool kFor = kFloat<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        return hn::Div(a, b);
    }
};

// maximum_number / minimum_number: on a tie the bitwise AND (max) or OR (min) of the operands picks +0
// (-0) among zeros and is the common value otherwise; then a NaN operand gives way to the other one.
template <>
struct Vector<Max> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
            V m = hn::IfThenElse(hn::Eq(a, b), hn::And(a, b), hn::Max(a, b));
            m = hn::IfThenElse(hn::IsNaN(b), a, m);
            return hn::IfThenElse(hn::IsNaN(a), b, m);
        } else {
            return hn::Max(a, b);
        }
    }
};

template <>
struct Vector<Min> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
            V m = hn::IfThenElse(hn::Eq(a, b), hn::Or(a, b), hn::Min(a, b));
            m = hn::IfThenElse(hn::IsNaN(b), a, m);
            return hn::IfThenElse(hn::IsNaN(a), b, m);
        } else {
            return hn::Min(a, b);
        }
    }
};

template <>
struct Vector<And> {
    template <typename T>
    static constexpr bool kFor = kInteger<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        return hn::And(a, b);
    }
};

template <>
struct Vector<Or> {
    template <typename T>
    static constexpr bool kFor = kInteger<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        return hn::Or(a, b);
    }
};

template <>
struct Vector<Xor> {
    template <typename T>
    static constexpr bool kFor = kInteger<T>;
    template <class D, class V>
    static V apply(D, V a, V b)
    {
        return hn::Xor(a, b);
    }
};

// Per-lane shift counts, read as unsigned; Highway leaves counts past the width undefined, so they are
// clamped to width - 1 and the lanes whose count reached the width are then set as Shl / Shr define.
// Highway 1.0.3 has no 8-bit lane shifts, and its 16-bit ones on SSSE3 use an SSE4 instruction.
template <typename T>
inline constexpr bool kVariableShift = kInteger<T> && (sizeof(T) >= 4 || (sizeof(T) == 2 && HWY_TARGET != HWY_SSSE3));

template <class D, class V>
auto clamped_count(D d, V count)
{
    const hn::RebindToUnsigned<D> du;
    constexpr int kWidth = sizeof(hn::TFromD<D>) * 8;
    const auto n = hn::BitCast(du, count);
    return std::pair{hn::BitCast(d, hn::Min(n, hn::Set(du, kWidth - 1))),
                     hn::RebindMask(d, hn::Lt(n, hn::Set(du, kWidth)))};
}

template <>
struct Vector<Shl> {
    template <typename T>
    static constexpr bool kFor = kVariableShift<T>;
    template <class D, class V>
    static V apply(D d, V a, V count)
    {
        const auto [n, within] = clamped_count(d, count);
        return hn::IfThenElseZero(within, hn::Shl(a, n));
    }
};

template <>
struct Vector<Shr> {
    template <typename T>
    static constexpr bool kFor = kVariableShift<T>;
    template <class D, class V>
    static V apply(D d, V a, V count)
    {
        const auto [n, within] = clamped_count(d, count);
        if constexpr (hwy::IsSigned<hn::TFromD<D>>()) return hn::Shr(a, n);  // width - 1 is the sign fill
        else return hn::IfThenElseZero(within, hn::Shr(a, n));
    }
};

template <>
struct Vector<Prelu> {
    template <typename T>
    static constexpr bool kFor = kFloat<T>;
    template <class D, class V>
    static V apply(D d, V a, V slope)
    {
        return hn::IfThenElse(hn::Gt(a, hn::Zero(d)), a, hn::Mul(a, slope));
    }
};

template <>
struct Vector<Relu> {
    template <typename T>
    static constexpr bool kFor = kFloat<T> || (kInteger<T> && std::is_signed_v<T>);
    template <class D, class V>
    static V apply(D d, V a)
    {
        return Vector<Max>::apply(d, a, hn::Zero(d));
    }
};

template <>
struct Vector<SubRelu> {
    template <typename T>
    static constexpr bool kFor = kFloat<T>;
    template <class D, class V>
    static V apply(D d, V a, V b)
    {
        return Vector<Relu>::apply(d, hn::Sub(a, b));
    }
};

template <>
struct Vector<Expand> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D, V /*ignored*/, V scalar)
    {
        return scalar;
    }
};

template <>
struct Vector<Abs> {
    template <typename T>
    static constexpr bool kFor = kFloat<T> || (kInteger<T> && std::is_signed_v<T>);
    template <class D, class V>
    static V apply(D, V a)
    {
        return hn::Abs(a);  // integer lanes wrap: |INT_MIN| is INT_MIN, as Abs decides
    }
};

template <>
struct Vector<Neg> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D d, V a)
    {
        if constexpr (hwy::IsFloat<hn::TFromD<D>>()) return hn::Neg(a);
        else return hn::Sub(hn::Zero(d), a);
    }
};

template <>
struct Vector<Not> {
    template <typename T>
    static constexpr bool kFor = kInteger<T>;
    template <class D, class V>
    static V apply(D, V a)
    {
        return hn::Not(a);
    }
};

template <>
struct Vector<AddC> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D, V a, V b, V c)
    {
        return hn::Add(hn::Add(a, b), c);
    }
};

template <>
struct Vector<SubC> {
    template <typename T>
    static constexpr bool kFor = kAny<T>;
    template <class D, class V>
    static V apply(D, V a, V b, V c)
    {
        return hn::Add(hn::Sub(a, b), c);
    }
};

// A multiply, then an add: never hn::MulAdd, which fuses on some targets and not on others.
template <>
struct Vector<MulAdd> {
    template <typename T>
    static constexpr bool kFor = kFloat<T>;
    template <class D, class V>
    static V apply(D, V a, V b, V c)
    {
        return hn::Add(hn::Mul(a, b), c);
    }
};

template <>
struct Vector<MulAddRelu> {
    template <typename T>
    static constexpr bool kFor = kFloat<T>;
    template <class D, class V>
    static V apply(D d, V a, V b, V c)
    {
        return Vector<Relu>::apply(d, hn::Add(hn::Mul(a, b), c));
    }
};

// --- the loops --------------------------------------------------------------------------------------

// One element exactly as the kernels compute it: widened, applied, rounded once.
template <typename Op, typename T, typename... S>
HWY_INLINE typename Format<T>::Storage element(S... x)
{
    using F = Format<T>;
    return F::narrow(Op::template apply<typename F::Compute>(F::widen(x)...));
}

// Whole vectors through the operation's vector form, the tail of each line through `element`. Every
// source vector is loaded before the result is stored, so a destination line may be a source line.
template <typename Op, typename T, std::size_t... K>
HWY_INLINE void vector_lines(Lines<typename Format<T>::Storage> d,
                             std::span<const Lines<const typename Format<T>::Storage>> sources, LineShape shape,
                             std::index_sequence<K...>)
{
    using S = typename Format<T>::Storage;
    using Codec = VectorCodec<T>;
    const hn::ScalableTag<typename Format<T>::Compute> tag;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(tag));
    for (int64_t i = 0; i < shape.count; ++i) {
        S* out = d.line(i);
        const S* in[] = {sources[K].line(i)...};
        int64_t j = 0;
        for (; j + lanes <= shape.length; j += lanes) {
            Codec::store(tag, Vector<Op>::apply(tag, Codec::load(tag, in[K] + j)...), out + j);
        }
        for (; j < shape.length; ++j) out[j] = element<Op, T>(in[K][j]...);
    }
}

template <typename Op, typename T, std::size_t... K>
HWY_INLINE void element_lines(Lines<typename Format<T>::Storage> d,
                              std::span<const Lines<const typename Format<T>::Storage>> sources, LineShape shape,
                              std::index_sequence<K...>)
{
    using S = typename Format<T>::Storage;
    for (int64_t i = 0; i < shape.count; ++i) {
        S* out = d.line(i);
        const S* in[] = {sources[K].line(i)...};
        for (int64_t j = 0; j < shape.length; ++j) out[j] = element<Op, T>(in[K][j]...);
    }
}

// Whether the functor is defined for compute type C with N operands (its constraint on C says).
template <typename Op, typename C, std::size_t N>
constexpr bool applies()
{
    if constexpr (N == 1) return requires(C c) { Op::template apply<C>(c); };
    else if constexpr (N == 2) return requires(C c) { Op::template apply<C>(c, c); };
    else return requires(C c) { Op::template apply<C>(c, c, c); };
}

template <typename Op, typename T, std::size_t N>
HWY_INLINE void lines_of(Lines<typename Format<T>::Storage> d,
                         std::span<const Lines<const typename Format<T>::Storage>> sources, LineShape shape)
{
    if constexpr (!applies<Op, typename Format<T>::Compute, N>()) {
        HWY_ABORT("no line loop: the operation is not defined for this element type");
    } else if constexpr (Vector<Op>::template kFor<T>) {
        vector_lines<Op, T>(d, sources, shape, std::make_index_sequence<N>());
    } else {
        element_lines<Op, T>(d, sources, shape, std::make_index_sequence<N>());
    }
}

template <typename T>
void AnyLines(LineOp op, Lines<typename Format<T>::Storage> d,
              std::span<const Lines<const typename Format<T>::Storage>> sources, LineShape shape)
{
    switch (op) {
        case LineOp::Add: return lines_of<Add, T, 2>(d, sources, shape);
        case LineOp::Sub: return lines_of<Sub, T, 2>(d, sources, shape);
        case LineOp::Mul: return lines_of<Mul, T, 2>(d, sources, shape);
        case LineOp::Div: return lines_of<Div, T, 2>(d, sources, shape);
        case LineOp::Max: return lines_of<Max, T, 2>(d, sources, shape);
        case LineOp::Min: return lines_of<Min, T, 2>(d, sources, shape);
        case LineOp::And: return lines_of<And, T, 2>(d, sources, shape);
        case LineOp::Or: return lines_of<Or, T, 2>(d, sources, shape);
        case LineOp::Xor: return lines_of<Xor, T, 2>(d, sources, shape);
        case LineOp::Shl: return lines_of<Shl, T, 2>(d, sources, shape);
        case LineOp::Shr: return lines_of<Shr, T, 2>(d, sources, shape);
        case LineOp::Prelu: return lines_of<Prelu, T, 2>(d, sources, shape);
        case LineOp::SubRelu: return lines_of<SubRelu, T, 2>(d, sources, shape);
        case LineOp::Expand: return lines_of<Expand, T, 2>(d, sources, shape);
        case LineOp::Abs: return lines_of<Abs, T, 1>(d, sources, shape);
        case LineOp::Neg: return lines_of<Neg, T, 1>(d, sources, shape);
        case LineOp::Not: return lines_of<Not, T, 1>(d, sources, shape);
        case LineOp::Relu: return lines_of<Relu, T, 1>(d, sources, shape);
        case LineOp::AddC: return lines_of<AddC, T, 3>(d, sources, shape);
        case LineOp::SubC: return lines_of<SubC, T, 3>(d, sources, shape);
        case LineOp::MulAdd: return lines_of<MulAdd, T, 3>(d, sources, shape);
        case LineOp::MulAddRelu: return lines_of<MulAddRelu, T, 3>(d, sources, shape);
    }
}

// HWY_EXPORT takes a plain name: one per element type.
void FloatLines(LineOp op, Lines<float> d, std::span<const Lines<const float>> s, LineShape shape)
{
    AnyLines<float>(op, d, s, shape);
}
void HalfLines(LineOp op, Lines<uint16_t> d, std::span<const Lines<const uint16_t>> s, LineShape shape)
{
    AnyLines<half>(op, d, s, shape);
}
void BfloatLines(LineOp op, Lines<uint16_t> d, std::span<const Lines<const uint16_t>> s, LineShape shape)
{
    AnyLines<bfloat16_t>(op, d, s, shape);
}
void I8Lines(LineOp op, Lines<int8_t> d, std::span<const Lines<const int8_t>> s, LineShape shape)
{
    AnyLines<int8_t>(op, d, s, shape);
}
void U8Lines(LineOp op, Lines<uint8_t> d, std::span<const Lines<const uint8_t>> s, LineShape shape)
{
    AnyLines<uint8_t>(op, d, s, shape);
}
void I16Lines(LineOp op, Lines<int16_t> d, std::span<const Lines<const int16_t>> s, LineShape shape)
{
    AnyLines<int16_t>(op, d, s, shape);
}
void U16Lines(LineOp op, Lines<uint16_t> d, std::span<const Lines<const uint16_t>> s, LineShape shape)
{
    AnyLines<uint16_t>(op, d, s, shape);
}
void I32Lines(LineOp op, Lines<int32_t> d, std::span<const Lines<const int32_t>> s, LineShape shape)
{
    AnyLines<int32_t>(op, d, s, shape);
}
void U32Lines(LineOp op, Lines<uint32_t> d, std::span<const Lines<const uint32_t>> s, LineShape shape)
{
    AnyLines<uint32_t>(op, d, s, shape);
}
void I64Lines(LineOp op, Lines<int64_t> d, std::span<const Lines<const int64_t>> s, LineShape shape)
{
    AnyLines<int64_t>(op, d, s, shape);
}
void U64Lines(LineOp op, Lines<uint64_t> d, std::span<const Lines<const uint64_t>> s, LineShape shape)
{
    AnyLines<uint64_t>(op, d, s, shape);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::elementwise
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::elementwise {

HWY_EXPORT(FloatLines);
HWY_EXPORT(HalfLines);
HWY_EXPORT(BfloatLines);
HWY_EXPORT(I8Lines);
HWY_EXPORT(U8Lines);
HWY_EXPORT(I16Lines);
HWY_EXPORT(U16Lines);
HWY_EXPORT(I32Lines);
HWY_EXPORT(U32Lines);
HWY_EXPORT(I64Lines);
HWY_EXPORT(U64Lines);

template <typename T, typename S>
void run_lines(LineOp op, Lines<S> d, std::span<const Lines<const S>> sources, LineShape shape)
{
    if constexpr (std::is_same_v<T, float>) HWY_DYNAMIC_DISPATCH(FloatLines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, half>) HWY_DYNAMIC_DISPATCH(HalfLines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, bfloat16_t>) HWY_DYNAMIC_DISPATCH(BfloatLines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, int8_t>) HWY_DYNAMIC_DISPATCH(I8Lines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, uint8_t>) HWY_DYNAMIC_DISPATCH(U8Lines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, int16_t>) HWY_DYNAMIC_DISPATCH(I16Lines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, uint16_t>) HWY_DYNAMIC_DISPATCH(U16Lines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, int32_t>) HWY_DYNAMIC_DISPATCH(I32Lines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, uint32_t>) HWY_DYNAMIC_DISPATCH(U32Lines)(op, d, sources, shape);
    else if constexpr (std::is_same_v<T, int64_t>) HWY_DYNAMIC_DISPATCH(I64Lines)(op, d, sources, shape);
    else HWY_DYNAMIC_DISPATCH(U64Lines)(op, d, sources, shape);
}

template void run_lines<float>(LineOp, Lines<float>, std::span<const Lines<const float>>, LineShape);
template void run_lines<half>(LineOp, Lines<uint16_t>, std::span<const Lines<const uint16_t>>, LineShape);
template void run_lines<bfloat16_t>(LineOp, Lines<uint16_t>, std::span<const Lines<const uint16_t>>, LineShape);
template void run_lines<int8_t>(LineOp, Lines<int8_t>, std::span<const Lines<const int8_t>>, LineShape);
template void run_lines<uint8_t>(LineOp, Lines<uint8_t>, std::span<const Lines<const uint8_t>>, LineShape);
template void run_lines<int16_t>(LineOp, Lines<int16_t>, std::span<const Lines<const int16_t>>, LineShape);
template void run_lines<uint16_t>(LineOp, Lines<uint16_t>, std::span<const Lines<const uint16_t>>, LineShape);
template void run_lines<int32_t>(LineOp, Lines<int32_t>, std::span<const Lines<const int32_t>>, LineShape);
template void run_lines<uint32_t>(LineOp, Lines<uint32_t>, std::span<const Lines<const uint32_t>>, LineShape);
template void run_lines<int64_t>(LineOp, Lines<int64_t>, std::span<const Lines<const int64_t>>, LineShape);
template void run_lines<uint64_t>(LineOp, Lines<uint64_t>, std::span<const Lines<const uint64_t>>, LineShape);

}  // namespace pto::engine::elementwise
#endif  // HWY_ONCE
