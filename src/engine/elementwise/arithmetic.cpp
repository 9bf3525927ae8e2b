// The element-wise tile-tile instructions: one operation functor each, over the one binary kernel
// (binary_kernel.hpp); their entry points and definitions come from their rows in
// pto/isa/instructions.def.
#include <pto/engine/ops/elementwise.hpp>

#include <pto/profile/rules_elementwise.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <concepts>
#include <limits>
#include <string>
#include <type_traits>

#include "engine/definition.hpp"
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

// The operands and attributes every binary row shares.
constexpr OperandSpec kBinarySources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr OperandSpec kDestination[] = {{"dst", OperandKind::Tile}};
constexpr Form kBinaryForms[] = {{kBinarySources, kDestination}};

constexpr std::string_view kPrecisionKeys[] = {"precision", "algorithm", "precisionType"};
constexpr AttributeValue kPrecisionValues[] = {{"default", 0}, {"high_precision", 1}, {"high", 1}};
constexpr AttributeSpec kPrecisionAttributes[] = {{kPrecisionKeys, kPrecisionValues, 0}};

}  // namespace

// Per row: the entry point (the instruction's scope, its rules, the kernel of its functor), and its
// definition.
#define PTO_DETAIL_BINARY_DEFINE_ENTRY_Plain(NAME, entry, Op, Precision)                              \
    void entry(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)                \
    {                                                                                          \
        runtime::InstructionScope scope(#NAME);                                                \
        run_binary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src0, src1); \
    }
// Both precisions yield the correctly rounded IEEE result here: the device's DEFAULT algorithms trade
// accuracy for speed in undocumented ways that a simulator cannot reproduce.
#define PTO_DETAIL_BINARY_DEFINE_ENTRY_WithPrecision(NAME, entry, Op, Precision)                      \
    void entry(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, Precision)     \
    {                                                                                          \
        runtime::InstructionScope scope(#NAME);                                                \
        run_binary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src0, src1); \
    }
#define PTO_DETAIL_BINARY_RUN_Plain(entry, Precision) [](const Call& c) { entry(c.dst(), c.src(0), c.src(1)); }
#define PTO_DETAIL_BINARY_RUN_WithPrecision(entry, Precision) \
    [](const Call& c) { entry(c.dst(), c.src(0), c.src(1), c.attribute<Precision>(0)); }
#define PTO_DETAIL_BINARY_ATTRIBUTES_Plain std::span<const AttributeSpec>{}
#define PTO_DETAIL_BINARY_ATTRIBUTES_WithPrecision kPrecisionAttributes

#define PTO_ELEMENTWISE_BINARY(NAME, entry, Op, Shape, Precision, A2A3_DTYPES, A5_DTYPES)                   \
    PTO_DETAIL_BINARY_DEFINE_ENTRY_##Shape(NAME, entry, Op, Precision)                                            \
    constexpr InstrDef definitions::NAME{                                                                  \
        .id = Instr::NAME,                                                                                 \
        .mnemonic = #NAME,                                                                                 \
        .forms = kBinaryForms,                                                                             \
        .attributes = PTO_DETAIL_BINARY_ATTRIBUTES_##Shape,                                                \
        .pipe = vector_pipe,                                                                               \
        .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {                        \
            check_binary_operands(p, {"LEGAL_" #NAME "_DTYPE", rules::entry##_dtype_ok}, c.dst(), c.src(0), \
                                  c.src(1), sink);                                                         \
        },                                                                                                 \
        .run = PTO_DETAIL_BINARY_RUN_##Shape(entry, Precision),                                            \
    };
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE_BINARY
#undef PTO_DETAIL_BINARY_DEFINE_ENTRY_Plain
#undef PTO_DETAIL_BINARY_DEFINE_ENTRY_WithPrecision
#undef PTO_DETAIL_BINARY_RUN_Plain
#undef PTO_DETAIL_BINARY_RUN_WithPrecision
#undef PTO_DETAIL_BINARY_ATTRIBUTES_Plain
#undef PTO_DETAIL_BINARY_ATTRIBUTES_WithPrecision

}  // namespace pto::engine
