// TADD, TSUB, TMUL, TDIV: the element-wise tile-tile arithmetic, four operations over the one binary
// kernel (binary_kernel.hpp).
#include <pto/engine/ops/elementwise.hpp>

#include <pto/profile/rules_elementwise.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <concepts>
#include <limits>
#include <string>
#include <type_traits>

#include "engine/elementwise/binary_kernel.hpp"

namespace pto::engine {

namespace {

using namespace elementwise;

// Integer add, subtract and multiply wrap. They compute in an unsigned type at least as wide as
// `unsigned`, since 8- and 16-bit operands would otherwise be promoted to (overflowing) int.
template <std::integral T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

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

struct Add {
    static constexpr ArithOp kIeeeLines = ArithOp::Add;
    static constexpr WrapOp kWrapLines = WrapOp::Add;
    template <typename C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return static_cast<C>(WrapType<C>(a) + WrapType<C>(b));
        else return a + b;
    }
};

struct Sub {
    static constexpr ArithOp kIeeeLines = ArithOp::Sub;
    static constexpr WrapOp kWrapLines = WrapOp::Sub;
    template <typename C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return static_cast<C>(WrapType<C>(a) - WrapType<C>(b));
        else return a - b;
    }
};

struct Mul {
    static constexpr ArithOp kIeeeLines = ArithOp::Mul;
    static constexpr WrapOp kWrapLines = WrapOp::Mul;
    template <typename C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return static_cast<C>(WrapType<C>(a) * WrapType<C>(b));
        else return a * b;
    }
};

// Checked mode: RUN_DIV_BY_ZERO at the first zero divisor, in row order.
template <std::integral T>
void require_nonzero_divisors(const TileDesc& divisor)
{
    const T* elements = reinterpret_cast<const T*>(divisor.data);
    for (int r = 0; r < divisor.valid_rows; ++r) {
        for (int c = 0; c < divisor.valid_cols; ++c) {
            if (elements[divisor.offset(r, c)] != 0) continue;
            runtime::fail({"RUN_DIV_BY_ZERO", "", "src1",
                           "integer division by zero at element (" + std::to_string(r) + ", " + std::to_string(c) +
                               ") of the valid region",
                           "a nonzero divisor", "0", ""});
        }
    }
}

struct Div {
    static constexpr ArithOp kIeeeLines = ArithOp::Div;  // integer quotients have no vector loop
    template <typename C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return saturating_quotient(a, b);
        else return a / b;
    }
    template <typename T>
    static void check_sources(const TileDesc& /*dividend*/, const TileDesc& divisor)
    {
        if constexpr (std::is_integral_v<T>) {
            if (runtime::checked()) require_nonzero_divisors<T>(divisor);
        }
    }
};

}  // namespace

void tadd(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TADD");
    run_binary_instruction<Add, rules::tadd_dtype_ok>("LEGAL_TADD_DTYPE", dst, src0, src1);
}

void tsub(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TSUB");
    run_binary_instruction<Sub, rules::tsub_dtype_ok>("LEGAL_TSUB_DTYPE", dst, src0, src1);
}

void tmul(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TMUL");
    run_binary_instruction<Mul, rules::tmul_dtype_ok>("LEGAL_TMUL_DTYPE", dst, src0, src1);
}

void tdiv(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, DivAlgorithm /*algorithm*/)
{
    // Both algorithms yield the correctly rounded IEEE quotient here; the device's DEFAULT algorithm
    // trades accuracy for speed in an undocumented way that a simulator cannot reproduce.
    runtime::InstructionScope scope("TDIV");
    run_binary_instruction<Div, rules::tdiv_dtype_ok>("LEGAL_TDIV_DTYPE", dst, src0, src1);
}

}  // namespace pto::engine
