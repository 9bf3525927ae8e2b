// The element-wise vector instructions (pto.vadd ... pto.vrec): each lane computes what the tile
// instruction of the same name computes for one element, through the same line loops (one line of a
// register's lanes); the mask then clears the inactive lanes.
#include <pto/engine/ops/vector.hpp>
#include <pto/profile/rules_vector.hpp>

#include <bit>
#include <cstring>
#include <type_traits>

#include "engine/elementwise/element_format.hpp"
#include "engine/vector/register_variants.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/elementwise/math_lines.hpp"
#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

namespace {

using elementwise::LineOp;
using elementwise::Lines;
using elementwise::LineShape;

void clear_inactive(const Register& mask, Register& dst)
{
    if (!mask.all_active)
        for (int b = 0; b < kRegisterBytes; ++b) dst.bytes[std::size_t(b)] &= mask.bytes[std::size_t(b)];
}

LineOp line_op(BinaryOp op)
{
    switch (op) {
        case BinaryOp::Add: return LineOp::Add;
        case BinaryOp::Sub: return LineOp::Sub;
        case BinaryOp::Mul: return LineOp::Mul;
        case BinaryOp::Div: return LineOp::Div;
        case BinaryOp::Max: return LineOp::Max;
        case BinaryOp::Min: return LineOp::Min;
        case BinaryOp::And: return LineOp::And;
        case BinaryOp::Or: return LineOp::Or;
        case BinaryOp::Xor: return LineOp::Xor;
        case BinaryOp::Shl: return LineOp::Shl;
        case BinaryOp::Shr: return LineOp::Shr;
    }
    return LineOp::Add;
}

// The operations whose meaning is the plain C++ operation on the lane (wrapping for integers, IEEE for
// float): a loop of fixed length over the registers, which the compiler vectorises, without the
// element-wise loops' dispatch (at 256 bytes, the dispatch would cost more than the arithmetic).
template <typename T>
[[gnu::always_inline]] inline bool plain_binary(BinaryOp op, const Register& a, const Register& b, Register& dst)
{
    constexpr std::size_t n = kRegisterBytes / sizeof(T);
    const T* x = reinterpret_cast<const T*>(a.bytes.data());
    const T* y = reinterpret_cast<const T*>(b.bytes.data());
    T* d = reinterpret_cast<T*>(dst.bytes.data());
    auto each = [&](auto fn) {
        for (std::size_t i = 0; i < n; ++i) d[i] = fn(x[i], y[i]);
        return true;
    };
    if constexpr (std::is_floating_point_v<T>) {
        switch (op) {
            case BinaryOp::Add: return each([](T p, T q) { return p + q; });
            case BinaryOp::Sub: return each([](T p, T q) { return p - q; });
            case BinaryOp::Mul: return each([](T p, T q) { return p * q; });
            case BinaryOp::Div: return each([](T p, T q) { return p / q; });
            default: return false;
        }
    } else {
        using U = std::make_unsigned_t<T>;  // wraps where T would overflow
        switch (op) {
            case BinaryOp::Add: return each([](T p, T q) { return T(U(p) + U(q)); });
            case BinaryOp::Sub: return each([](T p, T q) { return T(U(p) - U(q)); });
            case BinaryOp::And: return each([](T p, T q) { return T(p & q); });
            case BinaryOp::Or: return each([](T p, T q) { return T(p | q); });
            case BinaryOp::Xor: return each([](T p, T q) { return T(p ^ q); });
            default: return false;
        }
    }
}

// One line of the register's lanes through the element-wise loops of type T.
template <typename T>
void run_register(LineOp op, Register& dst, std::initializer_list<const Register*> sources)
{
    using S = typename elementwise::Format<T>::Storage;
    const LineShape shape{1, int64_t(kRegisterBytes / sizeof(S))};
    Lines<const S> in[3];
    std::size_t n = 0;
    for (const Register* r : sources) in[n++] = {reinterpret_cast<const S*>(r->bytes.data()), 0};
    elementwise::run_lines<T, S>(op, {reinterpret_cast<S*>(dst.bytes.data()), 0}, {in, n}, shape);
}

void math(elementwise::MathFn fn, DType dtype, const Register& a, Register& dst)
{
    using elementwise::MathAccuracy;
    const LineShape shape{1, kRegisterBytes / dtype_bits(dtype) * 8};
    if (dtype == DType::F32) {
        elementwise::float_math_lines(fn, MathAccuracy::Default, {reinterpret_cast<float*>(dst.bytes.data()), 0},
                                      {reinterpret_cast<const float*>(a.bytes.data()), 0}, shape);
        return;
    }
    const Lines<uint16_t> d{reinterpret_cast<uint16_t*>(dst.bytes.data()), 0};
    const Lines<const uint16_t> s{reinterpret_cast<const uint16_t*>(a.bytes.data()), 0};
    if (dtype == DType::F16) elementwise::half_math_lines(fn, MathAccuracy::Default, d, s, shape);
    else elementwise::bfloat16_math_lines(fn, MathAccuracy::Default, d, s, shape);
}

}  // namespace

std::string_view binary_problem(BinaryOp op, DType dtype)
{
    using rules::VectorLanes;
    const bool bitwise = op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor || op == BinaryOp::Shl || op == BinaryOp::Shr;
    if (bitwise && !rules::vector_lanes_ok(VectorLanes::Integer, dtype)) return "integer lanes";
    if (op == BinaryOp::Div && !rules::vector_lanes_ok(VectorLanes::F32F16, dtype)) return "f32 or f16 lanes (no integer division)";
    return {};
}

std::string_view unary_problem(UnaryOp op, DType dtype)
{
    switch (op) {
        case UnaryOp::Not: case UnaryOp::PopCount: case UnaryOp::LeadingSign:
            return rules::vector_lanes_ok(rules::VectorLanes::Integer, dtype) ? "" : "integer lanes";
        case UnaryOp::Exp: case UnaryOp::Ln: case UnaryOp::Sqrt: case UnaryOp::Rsqrt: case UnaryOp::Rec:
            return rules::vector_lanes_ok(rules::VectorLanes::Float, dtype) ? "" : "f32, f16 or bf16 lanes";
        default: return {};
    }
}

namespace {

// Each kernel in its three variants (register_variants.hpp); the plain loop inlines into each.
template <BinaryOp Op, typename T>
[[gnu::always_inline]] inline void binary_lanes(const Register& a, const Register& b, const Register& mask, Register& dst)
{
    constexpr bool plain = std::is_same_v<T, float> || std::is_integral_v<T>;
    bool done = false;
    if constexpr (plain) done = plain_binary<T>(Op, a, b, dst);
    if (!done) run_register<T>(line_op(Op), dst, {&a, &b});
    clear_inactive(mask, dst);
}

template <BinaryOp Op, typename T>
void binary_of(const Register& a, const Register& b, const Register& mask, Register& dst)
{
    binary_lanes<Op, T>(a, b, mask, dst);
}

template <BinaryOp Op, typename T>
PTO_AVX2_VARIANT void binary_of_avx2(const Register& a, const Register& b, const Register& mask, Register& dst)
{
    binary_lanes<Op, T>(a, b, mask, dst);
}

template <BinaryOp Op, typename T>
PTO_AVX512_VARIANT void binary_of_avx512(const Register& a, const Register& b, const Register& mask, Register& dst)
{
    binary_lanes<Op, T>(a, b, mask, dst);
}

template <BinaryOp Op, typename T>
BinaryKernel variant_of(RegisterVariant variant)
{
    return pick_variant<BinaryKernel>(variant, &binary_of<Op, T>, &binary_of_avx2<Op, T>, &binary_of_avx512<Op, T>);
}

template <typename T>
BinaryKernel binary_kernel_of(BinaryOp op, RegisterVariant variant)
{
    switch (op) {
        case BinaryOp::Add: return variant_of<BinaryOp::Add, T>(variant);
        case BinaryOp::Sub: return variant_of<BinaryOp::Sub, T>(variant);
        case BinaryOp::Mul: return variant_of<BinaryOp::Mul, T>(variant);
        case BinaryOp::Div: return variant_of<BinaryOp::Div, T>(variant);
        case BinaryOp::Max: return variant_of<BinaryOp::Max, T>(variant);
        case BinaryOp::Min: return variant_of<BinaryOp::Min, T>(variant);
        case BinaryOp::And: return variant_of<BinaryOp::And, T>(variant);
        case BinaryOp::Or: return variant_of<BinaryOp::Or, T>(variant);
        case BinaryOp::Xor: return variant_of<BinaryOp::Xor, T>(variant);
        case BinaryOp::Shl: return variant_of<BinaryOp::Shl, T>(variant);
        case BinaryOp::Shr: return variant_of<BinaryOp::Shr, T>(variant);
    }
    return nullptr;
}

}  // namespace

BinaryKernel binary_kernel(BinaryOp op, DType dtype)
{
    BinaryKernel kernel = nullptr;
    const RegisterVariant variant = register_variant();
    elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
        kernel = binary_kernel_of<T>(op, variant);
        return true;
    });
    return kernel;
}

void binary(BinaryOp op, DType dtype, const Register& a, const Register& b, const Register& mask, Register& dst)
{
    binary_kernel(op, dtype)(a, b, mask, dst);
}

namespace {

// vbcnt, vcls on the lanes' bits (signedness does not change them): the top bit of a lane is its sign.
template <typename U>
void count_bits_of(UnaryOp op, const Register& a, Register& dst)
{
    constexpr int bits = int(sizeof(U)) * 8;
    for (int i = 0; i < kRegisterBytes / int(sizeof(U)); ++i) {
        const U v = lanes::get<U>(a, i);
        const U same = (v >> (bits - 1)) ? U(~v) : v;  // the run of sign bits becomes a run of zeros
        const int n = op == UnaryOp::PopCount ? std::popcount(v) : std::countl_zero(same);
        lanes::set<U>(dst, i, U(n));
    }
}

void count_bits(UnaryOp op, DType dtype, const Register& a, Register& dst)
{
    switch (dtype_bits(dtype)) {
        case 8: return count_bits_of<uint8_t>(op, a, dst);
        case 16: return count_bits_of<uint16_t>(op, a, dst);
        case 32: return count_bits_of<uint32_t>(op, a, dst);
        default: return count_bits_of<uint64_t>(op, a, dst);
    }
}

}  // namespace

void unary(UnaryOp op, DType dtype, const Register& a, const Register& mask, Register& dst)
{
    switch (op) {
        case UnaryOp::Exp: math(elementwise::MathFn::Exp, dtype, a, dst); break;
        case UnaryOp::Ln: math(elementwise::MathFn::Log, dtype, a, dst); break;
        case UnaryOp::Sqrt: math(elementwise::MathFn::Sqrt, dtype, a, dst); break;
        case UnaryOp::Rsqrt: math(elementwise::MathFn::Rsqrt, dtype, a, dst); break;
        case UnaryOp::Rec: math(elementwise::MathFn::Recip, dtype, a, dst); break;
        case UnaryOp::Mov: dst.bytes = a.bytes; break;
        case UnaryOp::PopCount: case UnaryOp::LeadingSign: count_bits(op, dtype, a, dst); break;
        default: {
            const LineOp line = op == UnaryOp::Abs ? LineOp::Abs : op == UnaryOp::Neg ? LineOp::Neg : op == UnaryOp::Not ? LineOp::Not : LineOp::Relu;
            elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
                run_register<T>(line, dst, {&a});
                return true;
            });
        }
    }
    clear_inactive(mask, dst);
}

}  // namespace pto::engine::vector
