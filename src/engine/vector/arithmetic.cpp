// The element-wise vector instructions (pto.vadd ... pto.vrec): each lane computes what the tile
// instruction of the same name computes for one element, through the same line loops (one line of a
// register's lanes); the mask then clears the inactive lanes.
#include <pto/engine/ops/vector.hpp>

#include <cstring>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/elementwise/math_lines.hpp"

namespace pto::engine::vector {

namespace {

using elementwise::LineOp;
using elementwise::Lines;
using elementwise::LineShape;

bool is_float(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }

void clear_inactive(const Register& mask, Register& dst)
{
    for (int b = 0; b < kRegisterBytes; ++b) dst.bytes[std::size_t(b)] &= mask.bytes[std::size_t(b)];
    dst.lane_bytes = 0;
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
    const bool bitwise = op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor || op == BinaryOp::Shl || op == BinaryOp::Shr;
    if (bitwise && is_float(dtype)) return "integer lanes";
    if (op == BinaryOp::Div && dtype != DType::F32 && dtype != DType::F16) return "f32 or f16 lanes (no integer division)";
    return {};
}

std::string_view unary_problem(UnaryOp op, DType dtype)
{
    switch (op) {
        case UnaryOp::Not: return is_float(dtype) ? "integer lanes" : "";
        case UnaryOp::Exp: case UnaryOp::Ln: case UnaryOp::Sqrt: case UnaryOp::Rsqrt: case UnaryOp::Rec:
            return is_float(dtype) ? "" : "f32, f16 or bf16 lanes";
        default: return {};
    }
}

void binary(BinaryOp op, DType dtype, const Register& a, const Register& b, const Register& mask, Register& dst)
{
    elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
        run_register<T>(line_op(op), dst, {&a, &b});
        return true;
    });
    clear_inactive(mask, dst);
}

void unary(UnaryOp op, DType dtype, const Register& a, const Register& mask, Register& dst)
{
    switch (op) {
        case UnaryOp::Exp: math(elementwise::MathFn::Exp, dtype, a, dst); break;
        case UnaryOp::Ln: math(elementwise::MathFn::Log, dtype, a, dst); break;
        case UnaryOp::Sqrt: math(elementwise::MathFn::Sqrt, dtype, a, dst); break;
        case UnaryOp::Rsqrt: math(elementwise::MathFn::Rsqrt, dtype, a, dst); break;
        case UnaryOp::Rec: math(elementwise::MathFn::Recip, dtype, a, dst); break;
        case UnaryOp::Mov: dst.bytes = a.bytes; break;
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
