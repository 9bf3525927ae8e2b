// The line loops of line_kernels.hpp, written once with Highway and compiled for each SIMD target it
// knows (foreach_target re-includes this file per target); HWY_DYNAMIC_DISPATCH picks the best one the
// running CPU supports, once per call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/elementwise/line_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <pto/common/numeric.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
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

// The operations that only choose an operand or change its sign (max, min, relu, abs, neg, expand) also
// have a form on the bit patterns of half and bfloat16, `on_bits<Bits>`, over int16_t lanes: no widening
// and no rounding, only the NaN they give made quiet, as the rounding to 16 bits would.

template <class Bits, class D>
hn::Vec<D> quiet(D d, hn::Vec<D> bits)
{
    const auto is_nan = hn::Gt(hn::And(bits, hn::Set(d, 0x7fff)), hn::Set(d, Bits::kInfinity));
    return hn::IfThenElse(is_nan, hn::Or(bits, hn::Set(d, Bits::kQuiet)), bits);
}

// 16-bit float patterns as signed integers in the order of their values (-0 just below +0), with every
// NaN at `nan_rank`.
template <class Bits, class D>
hn::Vec<D> value_rank(D d, hn::Vec<D> bits, int16_t nan_rank)
{
    const auto is_nan = hn::Gt(hn::And(bits, hn::Set(d, 0x7fff)), hn::Set(d, Bits::kInfinity));
    const auto rank = hn::Xor(bits, hn::And(hn::ShiftRight<15>(bits), hn::Set(d, 0x7fff)));
    return hn::IfThenElse(is_nan, hn::Set(d, nan_rank), rank);
}

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

// Integer quotients as Div's functor defines them (saturating_quotient): the exact quotient of the
// operands widened to floating point, truncated by a saturating conversion. The widened quotient is
// never off by enough to cross an integer: 16-bit operands divide in float, 32-bit ones in double,
// each with more than twice the operands' bits. A zero divisor gives an infinity, which saturates to
// the dividend's end; 0 / 0 is a NaN, set to 0 here. Not on the one-lane target, which has no halves.
#if HWY_TARGET != HWY_SCALAR
template <class D, class V>
HWY_INLINE V saturated_quotient(D d, V a, V b)
{
    const hn::Half<D> dh;
    const auto half_quotient = [](auto dh, auto a, auto b) HWY_ATTR {
        if constexpr (sizeof(hn::TFromD<decltype(dh)>) == 4) {
            const hn::Rebind<double, decltype(dh)> dd;
            return hn::DemoteTo(dh, hn::Div(hn::PromoteTo(dd, a), hn::PromoteTo(dd, b)));
        } else {
            const hn::Rebind<int32_t, decltype(dh)> di;
            const hn::Rebind<float, decltype(dh)> df;
            const auto wide = [&](auto x) HWY_ATTR { return hn::ConvertTo(df, hn::PromoteTo(di, x)); };
            return hn::DemoteTo(dh, hn::ConvertTo(di, hn::Div(wide(a), wide(b))));
        }
    };
    const auto q = hn::Combine(d, half_quotient(dh, hn::UpperHalf(dh, a), hn::UpperHalf(dh, b)),
                               half_quotient(dh, hn::LowerHalf(dh, a), hn::LowerHalf(dh, b)));
    const auto zero = hn::Zero(d);
    return hn::IfThenZeroElse(hn::And(hn::Eq(a, zero), hn::Eq(b, zero)), q);
}
#endif

// Integers: int16, uint16 and int32 (Highway 1.0.3 widens no uint32 to double), on targets with more
// than one lane.
template <>
struct Vector<Div> {
    template <typename T>
    static constexpr bool kFor =
        kFloat<T> || (HWY_TARGET != HWY_SCALAR &&
                      (std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t>));
    template <class D, class V>
    static V apply([[maybe_unused]] D d, V a, V b)
    {
        if constexpr (hwy::IsFloat<hn::TFromD<D>>()) return hn::Div(a, b);
#if HWY_TARGET != HWY_SCALAR
        else return saturated_quotient(d, a, b);
#endif
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
    // A NaN ranks below every number; on a tie (one value, or two NaNs) b, as maximum_number.
    template <class Bits, class D, class V>
    static V on_bits(D d, V a, V b)
    {
        constexpr int16_t kLowest = std::numeric_limits<int16_t>::min();
        const auto larger_a = hn::Lt(value_rank<Bits>(d, b, kLowest), value_rank<Bits>(d, a, kLowest));
        return quiet<Bits>(d, hn::IfThenElse(larger_a, a, b));
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
    template <class Bits, class D, class V>
    static V on_bits(D d, V a, V b)
    {
        constexpr int16_t kHighest = std::numeric_limits<int16_t>::max();
        const auto smaller_a = hn::Gt(value_rank<Bits>(d, b, kHighest), value_rank<Bits>(d, a, kHighest));
        return quiet<Bits>(d, hn::IfThenElse(smaller_a, a, b));
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
    static constexpr bool kFor = Vector<Mul>::kFor<T>;
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
    template <class Bits, class D, class V>
    static V on_bits(D d, V a)
    {
        return Vector<Max>::on_bits<Bits>(d, a, hn::Zero(d));
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
    template <class Bits, class D, class V>
    static V on_bits(D d, V /*ignored*/, V scalar)
    {
        return quiet<Bits>(d, scalar);
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
    template <class Bits, class D, class V>
    static V on_bits(D d, V a)
    {
        return quiet<Bits>(d, hn::And(a, hn::Set(d, 0x7fff)));
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
    template <class Bits, class D, class V>
    static V on_bits(D d, V a)
    {
        return quiet<Bits>(d, hn::Xor(a, hn::Set(d, std::numeric_limits<int16_t>::min())));
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

// --- how the loops hold a step of stored elements in registers ----------------------------------------
// A form has a tag D of the lanes the operation computes in, and
//   step(d)                  how many stored elements one step holds
//   load(d, p), splat(d, s)  a step read from p, or a step of one stored element s, as a Held value
//   store(d, held, p)        the step, rounded to storage, written to p
//   apply<Op>(d, held...)    the operation's vector form on Held values

// The forms holding a step in one vector of the compute type.
template <class Tag>
struct OneVector {
    using D = Tag;
    using Held = hn::Vec<D>;

    static int64_t step(D d) { return static_cast<int64_t>(hn::Lanes(d)); }
    template <typename Op, class... V>
    static Held apply(D d, V... v)
    {
        return Vector<Op>::apply(d, v...);
    }
};

// float and the integers, as stored.
template <typename S>
struct PlainForm : OneVector<hn::ScalableTag<S>> {
    using D = hn::ScalableTag<S>;
    static hn::Vec<D> load(D d, const S* p) { return hn::LoadU(d, p); }
    static hn::Vec<D> splat(D d, S value) { return hn::Set(d, value); }
    static void store(D d, hn::Vec<D> v, S* p) { hn::StoreU(v, d, p); }
};

// half widened a float vector at a time: F16C converts exactly that many in one instruction.
struct HalfForm : OneVector<hn::ScalableTag<float>> {
    static Held load(D d, const uint16_t* p) { return HalfBits::widen(d, hn::LoadU(hn::Rebind<uint16_t, D>(), p)); }
    static Held splat(D d, uint16_t bits) { return hn::Set(d, HalfBits::scalar_widen(bits)); }
    static void store(D d, Held v, uint16_t* p)
    {
        const hn::Rebind<uint16_t, D> d16;
        hn::StoreU(HalfBits::narrow(d, d16, v), d16, p);
    }
};

#if HWY_TARGET == HWY_SCALAR
// One element per vector: nothing to split, the conversions of Format.
struct BfloatForm : OneVector<hn::ScalableTag<float>> {
    static int64_t step(D) { return 1; }
    static Held load(D d, const uint16_t* p) { return splat(d, *p); }
    static Held splat(D d, uint16_t bits) { return hn::Set(d, BfloatBits::scalar_widen(bits)); }
    static void store(D, Held v, uint16_t* p) { *p = Format<bfloat16_t>::narrow(hn::GetLane(v)); }
};
#else
// bfloat16 a whole vector of 16-bit elements at a time, as two float vectors: the elements in the low
// halves of the 32-bit lanes (shifted up) and those in the high halves (in place). Lane order does not
// matter to an element-wise operation, and the halves go back where they came from.
struct BfloatForm {
    using D = hn::ScalableTag<float>;
    struct Held {
        hn::Vec<D> low, high;
    };

    static int64_t step(D d) { return 2 * static_cast<int64_t>(hn::Lanes(d)); }
    static Held load(D d, const uint16_t* p)
    {
        const hn::RebindToUnsigned<D> du;
        const auto pairs = hn::BitCast(du, hn::LoadU(hn::Repartition<uint16_t, D>(), p));
        return {hn::BitCast(d, hn::ShiftLeft<16>(pairs)), hn::BitCast(d, hn::And(pairs, hn::Set(du, 0xffff0000u)))};
    }
    static Held splat(D d, uint16_t bits)
    {
        const auto v = hn::Set(d, BfloatBits::scalar_widen(bits));
        return {v, v};
    }
    static void store(D d, Held v, uint16_t* p)
    {
        const hn::RebindToUnsigned<D> du;
        const hn::Repartition<uint16_t, D> d16;
        const auto low = BfloatBits::round_to_high_half(d, v.low), high = BfloatBits::round_to_high_half(d, v.high);
        const auto pairs = hn::Or(hn::ShiftRight<16>(low), hn::And(high, hn::Set(du, 0xffff0000u)));
        hn::StoreU(hn::BitCast(d16, pairs), d16, p);
    }
    template <typename Op, class... H>
    static Held apply(D d, H... h)
    {
        return {Vector<Op>::apply(d, h.low...), Vector<Op>::apply(d, h.high...)};
    }
};
#endif

// half or bfloat16 as stored, for the operations with a form on bit patterns.
template <class Bits>
struct BitsForm {
    using D = hn::ScalableTag<int16_t>;
    using Held = hn::Vec<D>;

    static int64_t step(D d) { return static_cast<int64_t>(hn::Lanes(d)); }
    static Held load(D d, const uint16_t* p) { return hn::BitCast(d, hn::LoadU(hn::RebindToUnsigned<D>(), p)); }
    static Held splat(D d, uint16_t bits) { return hn::Set(d, static_cast<int16_t>(bits)); }
    static void store(D, Held v, uint16_t* p)
    {
        const hn::RebindToUnsigned<D> du;
        hn::StoreU(hn::BitCast(du, v), du, p);
    }
    template <typename Op, class... V>
    static Held apply(D d, V... v)
    {
        return Vector<Op>::template on_bits<Bits>(d, v...);
    }
};

// Whether Op has a form on 16-bit float bit patterns for N operands.
template <typename Op, std::size_t N>
constexpr bool has_bits_form()
{
    using D = hn::ScalableTag<int16_t>;
    using V = hn::Vec<D>;
    if constexpr (N == 1) return requires(D d, V v) { Vector<Op>::template on_bits<HalfBits>(d, v); };
    else if constexpr (N == 2) return requires(D d, V v) { Vector<Op>::template on_bits<HalfBits>(d, v, v); };
    else return requires(D d, V v) { Vector<Op>::template on_bits<HalfBits>(d, v, v, v); };
}

template <typename Op, typename T, std::size_t N>
auto form_of()
{
    if constexpr (std::is_same_v<T, half>) {
        if constexpr (has_bits_form<Op, N>()) return BitsForm<HalfBits>{};
        else return HalfForm{};
    } else if constexpr (std::is_same_v<T, bfloat16_t>) {
        if constexpr (has_bits_form<Op, N>()) return BitsForm<BfloatBits>{};
        else return BfloatForm{};
    } else {
        return PlainForm<T>{};
    }
}

// --- the loops --------------------------------------------------------------------------------------

// One element exactly as the kernels compute it: widened, applied, rounded once.
template <typename Op, typename T, typename... S>
HWY_INLINE typename Format<T>::Storage element(S... x)
{
    using F = Format<T>;
    return F::narrow(Op::template apply<typename F::Compute>(F::widen(x)...));
}

// Asks for the destination's cache line 4 KiB ahead of a store: tiles live in L2, and without the line in
// L1 beforehand each store waits for its read for ownership, which backs up the store buffer (and with
// it every load whose address matches a pending store's low 12 bits).
HWY_INLINE void prefetch_ahead(const void* store)
{
    constexpr uintptr_t kAhead = 4096;
    hwy::Prefetch(reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(store) + kAhead));
}

// Whole steps through the operation's vector form, the tail of each line through `element`. Source
// kScalar (none when it is N) is the scalar, held in a register for the whole call or, one per line,
// for each line. Every source step is
// loaded before the result is stored, so a destination line may be a source line.
template <typename Op, typename T, class Form, std::size_t kScalar, std::size_t... K>
HWY_INLINE void vector_lines(Lines<typename Format<T>::Storage> d,
                             std::span<const Lines<const typename Format<T>::Storage>> sources, LineShape shape,
                             std::index_sequence<K...>)
{
    using S = typename Format<T>::Storage;
    const typename Form::D tag;
    const int64_t step = Form::step(tag);
    S scalar{};
    auto held_scalar = Form::splat(tag, scalar);
    for (int64_t i = 0; i < shape.count; ++i) {
        if constexpr (kScalar < sizeof...(K)) {
            if (i == 0 || sources[kScalar].stride != 0) held_scalar = Form::splat(tag, scalar = *sources[kScalar].line(i));
        }
        S* out = d.line(i);
        const S* in[] = {sources[K].line(i)...};
        int64_t j = 0;
        for (; j + step <= shape.length; j += step) {
            const auto result =
                Form::template apply<Op>(tag, (K == kScalar ? held_scalar : Form::load(tag, in[K] + j))...);
            prefetch_ahead(out + j);
            Form::store(tag, result, out + j);
        }
        for (; j < shape.length; ++j) out[j] = element<Op, T>((K == kScalar ? scalar : in[K][j])...);
    }
}

template <typename Op, typename T, std::size_t... K>
HWY_INLINE void element_lines(Lines<typename Format<T>::Storage> d,
                              std::span<const Lines<const typename Format<T>::Storage>> sources, LineShape shape,
                              std::index_sequence<K...>)
{
    for (int64_t i = 0; i < shape.count; ++i) {
        auto* out = d.line(i);
        for (int64_t j = 0; j < shape.length; ++j) out[j] = element<Op, T>(sources[K].at(i, j)...);
    }
}

// The vector loop for where the scalar source is, if there is one.
template <typename Op, typename T, std::size_t N>
HWY_INLINE void vector_lines_of(Lines<typename Format<T>::Storage> d,
                                std::span<const Lines<const typename Format<T>::Storage>> sources, LineShape shape)
{
    using Form = decltype(form_of<Op, T, N>());
    std::size_t scalars = 0, scalar_at = N;
    for (std::size_t k = 0; k < N; ++k) {
        if (sources[k].scalar) ++scalars, scalar_at = k;
    }
    if (scalars > 1) return element_lines<Op, T>(d, sources, shape, std::make_index_sequence<N>());
    [&]<std::size_t... kAt>(std::index_sequence<kAt...>) {
        ((scalar_at == kAt ? vector_lines<Op, T, Form, kAt>(d, sources, shape, std::make_index_sequence<N>()) : void()),
         ...);
    }(std::make_index_sequence<N + 1>());
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
        vector_lines_of<Op, T, N>(d, sources, shape);
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

namespace {

// Lines that follow one another without a gap, in dst and in every source that is not a scalar, as one
// long line: the loops then have no per-line work.
template <typename S>
LineShape joined(Lines<S> d, std::span<const Lines<const S>> sources, LineShape shape)
{
    if (d.stride != shape.length) return shape;
    for (const Lines<const S>& source : sources) {
        if (source.stride != (source.scalar ? 0 : shape.length)) return shape;
    }
    return {1, shape.count * shape.length};
}

}  // namespace

template <typename T, typename S>
void run_lines(LineOp op, Lines<S> d, std::span<const Lines<const S>> sources, LineShape shape)
{
    shape = joined(d, sources, shape);
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
