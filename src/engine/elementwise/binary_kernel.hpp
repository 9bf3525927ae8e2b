// The kernel every element-wise binary instruction runs: dst(r, c) = Op(src0(r, c), src1(r, c)) over
// dst's valid region, for one element type T, chosen once per call by the caller.
//
// An operation is a type with
//   template <typename C> static C apply(C a, C b);    // one element, for every compute type C
// and optionally the vectorised loop computing the same over whole lines:
//   static constexpr ArithOp kIeeeLines;               // for float, half and bfloat16
//   static constexpr WrapOp kWrapLines;                // for the integer types
// (without one, lines run a scalar loop over `apply`), and run-time checks of the source values made
// before anything is written:
//   template <typename T> static void check_sources(const TileDesc& src0, const TileDesc& src1);
//
// Included by the .cpp of each instruction family, which instantiates it: no kernel lives in a
// public header.
#pragma once

#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/profile/profile.hpp>

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "engine/elementwise/binary_operands.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine::elementwise {

// How the kernels hold and compute each element type: the storage of one element, the type `apply`
// computes in, the exact widening into it, and the single rounding of a result back to the storage.
// half and bfloat16 use the conversions of pto/common/numeric.hpp, so they round exactly as the C++
// element types and TCVT do.
template <typename T>
struct Format;

template <>
struct Format<float> {
    using Storage = float;
    using Compute = float;
    static Compute widen(Storage v) { return v; }
    static Storage narrow(Compute result) { return result; }
};

// One rounding of the float result is the correctly rounded half result for +, -, *, /: float has
// 24 >= 2*11+2 significand bits, and every such result of halves is a normal float.
template <>
struct Format<half> {
    using Storage = uint16_t;
    using Compute = float;
    static Compute widen(Storage v) { return static_cast<float>(half::from_bits(v)); }
    static Storage narrow(Compute result) { return half(result).bits; }
};

// bfloat16 results of +, -, * are correctly rounded from float as well: the float result is exact
// wherever float is short of bits (a sum of bfloat16 subnormals is a multiple of 2^-133; a product has
// at most 16 significant bits, exact in float down to 2^-134, and below that rounds to 0 in bfloat16
// either way), and elsewhere float has 24 >= 2*8+2 bits. A bfloat16 quotient in float's subnormal
// range would need double; no target divides bfloat16 tiles.
template <>
struct Format<bfloat16_t> {
    using Storage = uint16_t;
    using Compute = float;
    static Compute widen(Storage v) { return static_cast<float>(bfloat16_t::from_bits(v)); }
    static Storage narrow(Compute result) { return bfloat16_t(result).bits; }
};

template <std::integral T>
struct Format<T> {
    using Storage = T;
    using Compute = T;
    static Compute widen(Storage v) { return v; }
    static Storage narrow(Compute result) { return result; }
};

template <typename Op>
concept HasIeeeLines = requires { Op::kIeeeLines; };
template <typename Op>
concept HasWrapLines = requires { Op::kWrapLines; };
template <typename Op, typename T>
concept ChecksSources = requires(const TileDesc& t) { Op::template check_sources<T>(t, t); };

template <typename Op, typename T>
void check_sources(const TileDesc& src0, const TileDesc& src1)
{
    if constexpr (ChecksSources<Op, T>) Op::template check_sources<T>(src0, src1);
}

template <typename Op, typename T>
struct BinaryKernel {
    using F = Format<T>;
    using S = typename F::Storage;
    using C = typename F::Compute;

    static S element(S a, S b) { return F::narrow(Op::template apply<C>(F::widen(a), F::widen(b))); }

    static void scalar_lines(Lines<S> d, Lines<const S> a, Lines<const S> b, LineShape shape)
    {
        for (int64_t i = 0; i < shape.count; ++i) {
            S* out = d.line(i);
            const S* x = a.line(i);
            const S* y = b.line(i);
            for (int64_t j = 0; j < shape.length; ++j) out[j] = element(x[j], y[j]);
        }
    }

    static void lines(Lines<S> d, Lines<const S> a, Lines<const S> b, LineShape shape)
    {
        if constexpr (std::is_same_v<T, float> && HasIeeeLines<Op>) {
            float_lines(Op::kIeeeLines, d, a, b, shape);
        } else if constexpr (std::is_same_v<T, half> && HasIeeeLines<Op>) {
            half_lines(Op::kIeeeLines, d, a, b, shape);
        } else if constexpr (std::is_same_v<T, bfloat16_t> && HasIeeeLines<Op>) {
            bfloat16_lines(Op::kIeeeLines, d, a, b, shape);
        } else if constexpr (std::is_integral_v<T> && HasWrapLines<Op>) {
            using U = std::make_unsigned_t<T>;  // same bits for add, sub and mul in two's complement
            uint_lines(Op::kWrapLines, {reinterpret_cast<U*>(d.data), d.stride},
                       {reinterpret_cast<const U*>(a.data), a.stride}, {reinterpret_cast<const U*>(b.data), b.stride},
                       shape);
        } else {
            scalar_lines(d, a, b, shape);
        }
    }

    // Unboxed operands sharing one major order have contiguous lines: rows of row-major tiles, columns of
    // column-major ones.
    static bool contiguous(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
    {
        return !dst.boxed() && !src0.boxed() && !src1.boxed() && src0.blayout == dst.blayout &&
               src1.blayout == dst.blayout;
    }

    template <typename P>
    static Lines<P> lines_of(const TileDesc& t)
    {
        return {reinterpret_cast<P*>(t.data), t.blayout == BLayout::RowMajor ? t.cols : t.rows};
    }

    static void run(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
    {
        const TileDesc a = readable_source(src0, dst, 0);
        const TileDesc b = readable_source(src1, dst, 1);
        if (contiguous(dst, a, b)) {
            const LineShape shape = dst.blayout == BLayout::RowMajor ? LineShape{dst.valid_rows, dst.valid_cols}
                                                                     : LineShape{dst.valid_cols, dst.valid_rows};
            lines(lines_of<S>(dst), lines_of<const S>(a), lines_of<const S>(b), shape);
            return;
        }
        // Boxed or mixed layouts: every element through its layout's storage offset.
        S* out = reinterpret_cast<S*>(dst.data);
        const S* x = reinterpret_cast<const S*>(a.data);
        const S* y = reinterpret_cast<const S*>(b.data);
        for (int r = 0; r < dst.valid_rows; ++r) {
            for (int c = 0; c < dst.valid_cols; ++c) {
                out[dst.offset(r, c)] = element(x[a.offset(r, c)], y[b.offset(r, c)]);
            }
        }
    }
};

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

// A binary instruction from its operands to its written destination: the operand checks, the checked-mode
// bookkeeping, the element type chosen once, the kernel. `DTypeOk` is the instruction's element-type
// rule (reported as `dtype_code`); only the types the cpu profile allows get a kernel instantiated.
// The caller opens the runtime::InstructionScope naming the instruction.
template <typename Op, bool (*DTypeOk)(const profile::Profile&, DType)>
void run_binary_instruction(const char* dtype_code, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    const BinaryRules rules{dtype_code, DTypeOk};
    check_binary_operands(rules, dst, src0, src1);
    require_written(src0, "src0");
    require_written(src1, "src1");
    const bool ran = visit_arithmetic_type(dst.dtype, [&]<typename T>() {
        if constexpr (DTypeOk(profile::kCpu, dtype_of<T>)) {
            check_sources<Op, T>(src0, src1);
            BinaryKernel<Op, T>::run(dst, src0, src1);
            return true;
        } else {
            return false;
        }
    });
    if (!ran) fail_no_kernel(rules, dst.dtype);
    mark_written(dst);
}

}  // namespace pto::engine::elementwise
