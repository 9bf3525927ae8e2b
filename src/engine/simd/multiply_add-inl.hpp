// a * b + c for float lanes, rounded once on every SIMD target: the FMA instruction where the target has
// one, an exact emulation in double elsewhere. What makes the engine's float kernels (TEXP, TLOG, the
// matrix instructions) give the same bits on every CPU.
//
// A per-target header: a foreach_target translation unit includes it after <hwy/highway.h>, once for
// each SIMD target.
#if defined(PTOSIM_ENGINE_SIMD_MULTIPLY_ADD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTOSIM_ENGINE_SIMD_MULTIPLY_ADD_INL_H_
#undef PTOSIM_ENGINE_SIMD_MULTIPLY_ADD_INL_H_
#else
#define PTOSIM_ENGINE_SIMD_MULTIPLY_ADD_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace pto::engine::HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Double lanes rounded to float ones. Highway's portable targets saturate a value beyond the float
// range to the largest float instead of rounding it to infinity; a C++ conversion rounds as the
// hardware one does.
template <class DF>
HWY_INLINE hn::Vec<DF> round_to_float(DF df, hn::Vec<hn::Rebind<double, DF>> v)
{
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
    const hn::Rebind<double, DF> dd;
    double wide[HWY_MAX_BYTES / sizeof(double)];
    float narrow[HWY_MAX_BYTES / sizeof(double)];
    hn::StoreU(v, dd, wide);
    for (size_t i = 0; i < hn::Lanes(dd); ++i) narrow[i] = static_cast<float>(wide[i]);
    return hn::LoadU(df, narrow);
#else
    return hn::DemoteTo(df, v);
#endif
}

// a * b + c of floats widened to double, rounded once to float: the product is exact in double, the
// sum is rounded to odd (an inexact sum gets the neighbour whose last bit is set, found from its exact
// error), and rounding that to float is then correct, as 53 bits are more than 24 + 1.
template <class DF>
HWY_INLINE hn::Vec<DF> fused_in_double(DF df, hn::Vec<DF> a, hn::Vec<DF> b, hn::Vec<DF> c)
{
    const hn::Rebind<double, DF> dd;
    const hn::RebindToSigned<decltype(dd)> di;
    const auto product = hn::Mul(hn::PromoteTo(dd, a), hn::PromoteTo(dd, b));
    const auto addend = hn::PromoteTo(dd, c);
    const auto sum = hn::Add(product, addend);
    const auto moved = hn::Sub(sum, product);
    const auto error = hn::Add(hn::Sub(product, hn::Sub(sum, moved)), hn::Sub(addend, moved));
    const auto sum_bits = hn::BitCast(di, sum);
    const auto inexact_even = hn::And(hn::And(hn::Ne(error, hn::Zero(dd)), hn::IsFinite(error)),
                                      hn::RebindMask(dd, hn::Eq(hn::And(sum_bits, hn::Set(di, 1)), hn::Zero(di))));
    // One step away from zero when the error has the sum's sign, towards it otherwise.
    const auto same_sign = hn::Eq(hn::CopySign(error, sum), error);
    const auto step = hn::IfThenElse(hn::RebindMask(di, same_sign), hn::Set(di, 1), hn::Set(di, -1));
    const auto odd = hn::BitCast(dd, hn::Add(sum_bits, step));
    const auto fused = round_to_float(df, hn::IfThenElse(inexact_even, odd, sum));
    // A NaN addend is the result, quieted, as the FMA instruction gives it when the accumulator is the
    // NaN operand it looks at first: the sum in double could instead keep the default NaN of an
    // invalid product (inf * 0), depending on the order the compiler gives the addition's operands.
    const hn::RebindToUnsigned<DF> du;
    const auto quiet_c = hn::BitCast(df, hn::Or(hn::BitCast(du, c), hn::Set(du, 0x00400000u)));
    return hn::IfThenElse(hn::IsNaN(c), quiet_c, fused);
}

// a * b + c. Float lanes fuse, rounding once: the FMA instruction where the target has one, the same
// result through double elsewhere. Double lanes multiply, then add.
template <class D>
HWY_INLINE hn::Vec<D> multiply_add(D d, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c)
{
    if constexpr (!std::is_same_v<hn::TFromD<D>, float>) {
        return hn::Add(hn::Mul(a, b), c);
    } else if constexpr (HWY_NATIVE_FMA) {
        return hn::MulAdd(a, b, c);
    } else {
#if HWY_TARGET == HWY_SCALAR
        return fused_in_double(d, a, b, c);
#else
        const hn::Half<D> dh;
        return hn::Combine(d, fused_in_double(dh, hn::UpperHalf(dh, a), hn::UpperHalf(dh, b), hn::UpperHalf(dh, c)),
                           fused_in_double(dh, hn::LowerHalf(dh, a), hn::LowerHalf(dh, b), hn::LowerHalf(dh, c)));
#endif
    }
}

}  // namespace pto::engine::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif
