// TADD, TSUB, TMUL, TDIV: the element-wise tile-tile arithmetic. Four operations over one binary kernel;
// each entry point checks its operands, then runs the kernel of the element type chosen once per call.
#include <pto/engine/ops/elementwise.hpp>

#include <pto/engine/access.hpp>
#include <pto/engine/dtype_of.hpp>
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

template <std::integral T>
T wrap(WrapType<T> exact_modulo) { return static_cast<T>(exact_modulo); }

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
        if constexpr (std::is_integral_v<C>) return wrap<C>(WrapType<C>(a) + WrapType<C>(b));
        else return a + b;
    }
};

struct Sub {
    static constexpr ArithOp kIeeeLines = ArithOp::Sub;
    static constexpr WrapOp kWrapLines = WrapOp::Sub;
    template <typename C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return wrap<C>(WrapType<C>(a) - WrapType<C>(b));
        else return a - b;
    }
};

struct Mul {
    static constexpr ArithOp kIeeeLines = ArithOp::Mul;
    static constexpr WrapOp kWrapLines = WrapOp::Mul;
    template <typename C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return wrap<C>(WrapType<C>(a) * WrapType<C>(b));
        else return a * b;
    }
};

struct Div {
    static constexpr ArithOp kIeeeLines = ArithOp::Div;  // integer quotients have no vector loop
    template <typename C>
    static C apply(C a, C b)
    {
        if constexpr (std::is_integral_v<C>) return saturating_quotient(a, b);
        else return a / b;
    }
};

// Checked mode: RUN_DIV_BY_ZERO at the first zero divisor, in row order, before anything is written.
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

// Calls fn.template operator()<T>() with the C++ element type of `dtype`, for the types the binary
// kernels compute; false for any other type.
template <typename Fn>
bool visit_arithmetic_type(DType dtype, Fn&& fn)
{
    switch (dtype) {
        case DType::F32: return fn.template operator()<float>();
        case DType::F16: return fn.template operator()<half>();
        case DType::BF16: return fn.template operator()<bfloat16_t>();
        case DType::I8: return fn.template operator()<int8_t>();
        case DType::I16: return fn.template operator()<int16_t>();
        case DType::I32: return fn.template operator()<int32_t>();
        case DType::I64: return fn.template operator()<int64_t>();
        case DType::U8: return fn.template operator()<uint8_t>();
        case DType::U16: return fn.template operator()<uint16_t>();
        case DType::U32: return fn.template operator()<uint32_t>();
        case DType::U64: return fn.template operator()<uint64_t>();
        default: return false;
    }
}

// One binary instruction from its checked operands to its written destination. `DTypeOk` is the
// instruction's element-type rule; only the types the cpu profile allows get a kernel instantiated.
template <typename Op, bool (*DTypeOk)(const profile::Profile&, DType)>
void run_binary(const char* dtype_code, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    const BinaryRules rules{dtype_code, DTypeOk};
    check_binary_operands(rules, dst, src0, src1);
    require_written(src0, "src0");
    require_written(src1, "src1");
    const bool ran = visit_arithmetic_type(dst.dtype, [&]<typename T>() {
        if constexpr (DTypeOk(profile::kCpu, dtype_of<T>)) {
            if constexpr (std::is_same_v<Op, Div> && std::is_integral_v<T>) {
                if (runtime::checked()) require_nonzero_divisors<T>(src1);
            }
            BinaryKernel<Op, T>::run(dst, src0, src1);
            return true;
        } else {
            return false;
        }
    });
    if (!ran) fail_no_kernel(rules, dst.dtype);
    mark_written(dst);
}

}  // namespace

void tadd(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TADD");
    run_binary<Add, rules::tadd_dtype_ok>("LEGAL_TADD_DTYPE", dst, src0, src1);
}

void tsub(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TSUB");
    run_binary<Sub, rules::tsub_dtype_ok>("LEGAL_TSUB_DTYPE", dst, src0, src1);
}

void tmul(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    runtime::InstructionScope scope("TMUL");
    run_binary<Mul, rules::tmul_dtype_ok>("LEGAL_TMUL_DTYPE", dst, src0, src1);
}

void tdiv(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, DivAlgorithm /*algorithm*/)
{
    // Both algorithms yield the correctly rounded IEEE quotient here; the device's DEFAULT algorithm
    // trades accuracy for speed in an undocumented way that a simulator cannot reproduce.
    runtime::InstructionScope scope("TDIV");
    run_binary<Div, rules::tdiv_dtype_ok>("LEGAL_TDIV_DTYPE", dst, src0, src1);
}

}  // namespace pto::engine
