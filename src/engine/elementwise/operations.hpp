// The element-wise operations, one functor per operation, each the meaning of one element of its
// instructions. The kernels (binary_kernel.hpp, unary_kernel.hpp, scalar_kernel.hpp, ternary_kernel.hpp)
// run them over tiles. An operation is a type with
//   template <typename C> static C apply(C a[, C b[, C c]]);  // one element, on the compute type C
// (Format<T>::Compute: float for float, half and bfloat16, which round the float result once; the
// integer type itself otherwise); its constraint on C names the element types it is defined for. It
// may have
//   static constexpr LineOp kLines;   // its vectorised line loops (line_kernels.hpp)
//   template <typename T> static void check_sources(const TileDesc& a, const TileDesc& b, const char* b_name);
// the latter checking source values before anything is written (a scalar operand comes as a 1x1 tile).
//
// Semantics the ISA pages leave open, decided here (README, "Semantics where the documents disagree"):
// - Integer results wrap (two's complement) wherever they overflow: add, subtract, multiply, negate,
//   absolute value, the three-operand sums, left shifts.
// - Floating-point operations compute in float and round the float result once to the element type; a
//   chain (a * b + c, a + b + c) rounds in float after each step, exactly as separate float
//   instructions would (it is not fused).
// - NaN results of half and bfloat16 are quiet NaNs (the rounding to the 16-bit format quiets them).
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <limits>
#include <string>
#include <type_traits>

#include "engine/elementwise/line_kernels.hpp"

namespace pto::engine::elementwise {

// --- helpers ---------------------------------------------------------------------------------------

// Integer add, subtract and multiply wrap. They compute in an unsigned type at least as wide as
// `unsigned`, since 8- and 16-bit operands would otherwise be promoted to (overflowing) int.
template <std::integral T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <std::integral T>
T wrapping_negation(T a)
{
    return static_cast<T>(WrapType<T>(0) - WrapType<T>(a));
}

// The quotient an exact division followed by a saturating conversion to T gives, which is what a
// vector unit dividing integers in floating point produces: truncated toward zero, INT_MIN / -1 is
// INT_MAX, x / 0 is the type's maximum for x > 0 and its minimum for x < 0 (+-infinity saturated),
// and 0 / 0 is 0 (a NaN converts to 0).
template <std::integral T>
T saturating_quotient(T dividend, T divisor)
{
    using Limits = std::numeric_limits<T>;
    if (divisor == 0) {
        if (dividend == 0) return 0;
        return dividend > 0 ? Limits::max() : Limits::min();
    }
    if constexpr (std::is_signed_v<T>) {
        if (divisor == -1) return dividend == Limits::min() ? Limits::max() : static_cast<T>(-dividend);
    }
    return static_cast<T>(dividend / divisor);
}

// The remainder of the quotient truncated toward zero (C's %, sign of the dividend), made total: x rem 0
// is x (what dividend - quotient * 0 gives whatever the quotient), INT_MIN rem -1 is 0.
template <std::integral T>
T truncated_remainder(T dividend, T divisor)
{
    if (divisor == 0) return dividend;
    if constexpr (std::is_signed_v<T>) {
        if (divisor == -1) return 0;
    }
    return static_cast<T>(dividend % divisor);
}

// Checked mode: RUN_DIV_BY_ZERO at the first zero divisor, in row order.
template <std::integral T>
void require_nonzero_divisors(const TileDesc& divisor, const char* operand)
{
    const T* elements = reinterpret_cast<const T*>(divisor.data);
    for (int r = 0; r < divisor.valid_rows; ++r) {
        for (int c = 0; c < divisor.valid_cols; ++c) {
            if (elements[divisor.offset(r, c)] != 0) continue;
            runtime::fail({"RUN_DIV_BY_ZERO", "", operand,
                           "integer division by zero at element (" + std::to_string(r) + ", " + std::to_string(c) +
                               ") of the valid region",
                           "a nonzero divisor", "0", ""});
        }
    }
}

// Integer divisions and remainders check their divisors in checked mode.
struct ChecksIntegerDivisors {
    template <typename T>
    static void check_sources(const TileDesc& /*dividend*/, const TileDesc& divisor, const char* divisor_name)
    {
        if constexpr (std::is_integral_v<T>) {
            if (runtime::checked()) require_nonzero_divisors<T>(divisor, divisor_name);
        }
    }
};

// The larger of two floats as IEEE 754-2019 maximumNumber orders them: a NaN loses to a number (as the
// MSCATTER max atomics decide), +0 is larger than -0. Equal operands are the same encoding except for
// the zeros, so on a tie the operand with a clear sign bit wins.
template <std::floating_point C>
C maximum_number(C a, C b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

// The smaller, symmetrically: a NaN loses to a number, -0 is smaller than +0.
template <std::floating_point C>
C minimum_number(C a, C b)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

template <typename C>
C relu(C a)
{
    if constexpr (std::is_floating_point_v<C>) return maximum_number(a, C{0});
    else return std::max(a, C{0});
}

template <typename C>
concept Arithmetic = std::integral<C> || std::floating_point<C>;

// --- tile-tile and tile-scalar: two operands ---------------------------------------------------------

struct Add {
    static constexpr LineOp kLines = LineOp::Add;
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return static_cast<C>(WrapType<C>(a) + WrapType<C>(b));
        else return a + b;
    }
};

struct Sub {
    static constexpr LineOp kLines = LineOp::Sub;
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return static_cast<C>(WrapType<C>(a) - WrapType<C>(b));
        else return a - b;
    }
};

struct Mul {
    static constexpr LineOp kLines = LineOp::Mul;
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return static_cast<C>(WrapType<C>(a) * WrapType<C>(b));
        else return a * b;
    }
};

// TDIV, TDIVS (either operand order). Integers: saturating_quotient.
struct Div : ChecksIntegerDivisors {
    static constexpr LineOp kLines = LineOp::Div;
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return saturating_quotient(a, b);
        else return a / b;
    }
};

// TMAX, TMAXS. Floats: maximum_number (a NaN loses to a number, +0 > -0).
struct Max {
    static constexpr LineOp kLines = LineOp::Max;
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return std::max(a, b);
        else return maximum_number(a, b);
    }
};

// TMIN, TMINS. Floats: minimum_number (a NaN loses to a number, -0 < +0).
struct Min {
    static constexpr LineOp kLines = LineOp::Min;
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return std::min(a, b);
        else return minimum_number(a, b);
    }
};

struct And {
    static constexpr LineOp kLines = LineOp::And;
    template <std::integral C>
    static C apply(C a, C b)
    {
        return static_cast<C>(a & b);
    }
};

struct Or {
    static constexpr LineOp kLines = LineOp::Or;
    template <std::integral C>
    static C apply(C a, C b)
    {
        return static_cast<C>(a | b);
    }
};

struct Xor {
    static constexpr LineOp kLines = LineOp::Xor;
    template <std::integral C>
    static C apply(C a, C b)
    {
        return static_cast<C>(a ^ b);
    }
};

// TSHL, TSHLS. The count is read as an unsigned number of the element's width (a negative count is a
// huge one); a count at or past the width shifts every bit out, giving 0.
struct Shl {
    static constexpr LineOp kLines = LineOp::Shl;
    template <std::integral C>
    static C apply(C a, C count)
    {
        const auto n = static_cast<std::make_unsigned_t<C>>(count);
        if (n >= std::numeric_limits<std::make_unsigned_t<C>>::digits) return 0;
        return static_cast<C>(WrapType<C>(a) << n);
    }
};

// TSHR, TSHRS: arithmetic for signed types (the sign fills in), logical for unsigned ones. The count is
// read as in Shl; at or past the width the result is the fill alone: 0, or -1 for a negative signed value.
struct Shr {
    static constexpr LineOp kLines = LineOp::Shr;
    template <std::integral C>
    static C apply(C a, C count)
    {
        const auto n = static_cast<std::make_unsigned_t<C>>(count);
        constexpr int kWidth = std::numeric_limits<std::make_unsigned_t<C>>::digits;
        if constexpr (std::is_signed_v<C>) return static_cast<C>(a >> (n >= kWidth ? kWidth - 1 : int(n)));
        else return n >= kWidth ? C{0} : static_cast<C>(a >> n);
    }
};

// TREM, TREMS: the floor remainder a - floor(a / b) * b, which takes the divisor's sign (Python's %).
// It is the truncated remainder plus b when that one is nonzero and its sign differs from b's. Floats:
// the truncated remainder (fmod) is exact and the correction b is added with one rounding; a zero
// remainder takes b's sign; x rem 0 and inf rem y are NaN, x rem +-inf is x, or +-inf when x is nonzero
// with the other sign. Integers: x rem 0 is x (RUN_DIV_BY_ZERO in checked mode), INT_MIN rem -1 is 0.
struct Rem : ChecksIntegerDivisors {
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) {
            const C r = truncated_remainder(a, b);
            const bool differ = r != 0 && (r < 0) != (b < 0);  // never for unsigned types
            return differ ? Add::apply(r, b) : r;
        } else {
            const C r = std::fmod(a, b);
            if (r == 0) return std::copysign(C{0}, b);
            return std::signbit(r) != std::signbit(b) ? r + b : r;
        }
    }
};

// TFMOD, TFMODS: the truncated remainder, which takes the dividend's sign (C's fmod and %). Floats:
// std::fmod, exact; x fmod 0 is NaN. Integers: truncated_remainder (x fmod 0 is x, RUN_DIV_BY_ZERO in
// checked mode).
struct Fmod : ChecksIntegerDivisors {
    template <Arithmetic C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return truncated_remainder(a, b);
        else return std::fmod(a, b);
    }
};

// TPRELU (per-element slope), TLRELU (scalar slope): a > 0 ? a : a * slope. A NaN is not > 0 and stays
// NaN; -0 stays -0 times the slope. Integers (the cpu profile's): the product wraps, as Mul's.
struct Prelu {
    static constexpr LineOp kLines = LineOp::Prelu;
    template <Arithmetic C>
    static C apply(C a, C slope)
    {
        return a > 0 ? a : Mul::apply(a, slope);
    }
};

// TSUBRELU: relu(a - b), relu as in Relu.
struct SubRelu {
    static constexpr LineOp kLines = LineOp::SubRelu;
    template <std::floating_point C>
    static C apply(C a, C b)
    {
        return relu(a - b);
    }
};

// TEXPANDS: every element becomes the scalar, given as the second operand (the first is ignored).
struct Expand {
    static constexpr LineOp kLines = LineOp::Expand;
    template <Arithmetic C>
    static C apply(C /*ignored*/, C scalar)
    {
        return scalar;
    }
};

// --- unary ------------------------------------------------------------------------------------------

// TABS. Integers wrap: |INT_MIN| is INT_MIN. Floats clear the sign (of a NaN too).
struct Abs {
    static constexpr LineOp kLines = LineOp::Abs;
    template <Arithmetic C>
    static C apply(C a)
    {
        if constexpr (std::is_integral_v<C>) return a < 0 ? wrapping_negation(a) : a;
        else return std::fabs(a);
    }
};

// TNEG. Integers wrap: -INT_MIN is INT_MIN, and an unsigned x becomes 2^n - x (TMULS by -1, which is
// how the targets compute it). Floats flip the sign (of zeros and NaNs too).
struct Neg {
    static constexpr LineOp kLines = LineOp::Neg;
    template <Arithmetic C>
    static C apply(C a)
    {
        if constexpr (std::is_integral_v<C>) return wrapping_negation(a);
        else return -a;
    }
};

struct Not {
    static constexpr LineOp kLines = LineOp::Not;
    template <std::integral C>
    static C apply(C a)
    {
        return static_cast<C>(~a);
    }
};

// TRELU: max(a, 0) as Max orders it: a NaN becomes 0 (it loses to the number 0), -0 becomes +0.
struct Relu {
    static constexpr LineOp kLines = LineOp::Relu;
    template <Arithmetic C>
    static C apply(C a)
    {
        return relu(a);
    }
};

// --- three operands ---------------------------------------------------------------------------------

// TADDC (a + b + c), TADDSC (src0 + scalar + src1): added left to right, each sum rounded in float.
struct AddC {
    static constexpr LineOp kLines = LineOp::AddC;
    template <Arithmetic C>
    static C apply(C a, C b, C c)
    {
        return Add::apply(Add::apply(a, b), c);
    }
};

// TSUBC (a - b + c), TSUBSC (src0 - scalar + src1).
struct SubC {
    static constexpr LineOp kLines = LineOp::SubC;
    template <Arithmetic C>
    static C apply(C a, C b, C c)
    {
        return Add::apply(Sub::apply(a, b), c);
    }
};

// a * b + c with the product rounded before the sum (the library is compiled with -ffp-contract=off, so
// no compiler fuses them): TMULADDDST (src0 * src1 + dst), TFUSEDMULADD (src0 * dst + src1),
// TAXPY (src0 * scalar + dst).
struct MulAdd {
    static constexpr LineOp kLines = LineOp::MulAdd;
    template <std::floating_point C>
    static C apply(C a, C b, C c)
    {
        return a * b + c;
    }
};

// TFUSEDMULADDRELU: relu(a * b + c).
struct MulAddRelu {
    static constexpr LineOp kLines = LineOp::MulAddRelu;
    template <std::floating_point C>
    static C apply(C a, C b, C c)
    {
        return relu(MulAdd::apply(a, b, c));
    }
};

}  // namespace pto::engine::elementwise
