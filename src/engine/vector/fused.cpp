// The fused element-wise instructions (pto.vaddrelu, pto.vsubrelu, pto.vprelu, pto.vexpdif) through the
// tile instructions' line loops and the fused multiply-add pto.vmula.
#include <pto/engine/ops/vector.hpp>
#include <pto/profile/rules_vector.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <pto/numeric/convert.hpp>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/elementwise/math_lines.hpp"
#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

namespace {

using elementwise::LineOp;
using elementwise::Lines;
using elementwise::LineShape;

// One line of the register's lanes through the element-wise loop `op` of type T, in place allowed.
template <typename T>
void line(LineOp op, Register& dst, const Register& a, const Register* b)
{
    using S = typename elementwise::Format<T>::Storage;
    const LineShape shape{1, int64_t(kRegisterBytes / sizeof(S))};
    Lines<const S> in[2] = {{reinterpret_cast<const S*>(a.bytes.data()), 0}, {b ? reinterpret_cast<const S*>(b->bytes.data()) : nullptr, 0}};
    elementwise::run_lines<T, S>(op, {reinterpret_cast<S*>(dst.bytes.data()), 0}, {in, std::size_t(b ? 2 : 1)}, shape);
}

void for_dtype(DType dtype, auto&& run)
{
    elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
        run.template operator()<T>();
        return true;
    });
}

}  // namespace

std::string_view fused_problem(FusedOp, DType dtype)
{
    return rules::vector_lanes_ok(rules::VectorLanes::F32F16, dtype) ? "" : "f16 or f32 lanes";
}

void fused(FusedOp op, DType dtype, const Register& a, const Register& b, const Register& mask, Register& dst)
{
    Register out;
    for_dtype(dtype, [&]<typename T>() {
        switch (op) {
            case FusedOp::AddRelu:  // TADDRELU: the sum rounded, then max with 0
                line<T>(LineOp::Add, out, a, &b);
                line<T>(LineOp::Relu, out, out, nullptr);
                break;
            case FusedOp::SubRelu: line<T>(LineOp::SubRelu, out, a, &b); break;
            case FusedOp::Prelu: line<T>(LineOp::Prelu, out, a, &b); break;
        }
    });
    for (int i = 0; i < kRegisterBytes; ++i) out.bytes[std::size_t(i)] &= mask.bytes[std::size_t(i)];
    dst = out;
}

void multiply_add(DType dtype, const Register& add, const Register& a, const Register& b, const Register& mask, Register& dst)
{
    const int lane_bytes = dtype_bits(dtype) / 8;
    Register out;
    for (int i = 0; i < kRegisterBytes / lane_bytes; ++i) {
        if (!lanes::active(mask, i, lane_bytes)) continue;
        if (dtype == DType::F32) {
            float x, y, z;
            std::memcpy(&x, a.bytes.data() + 4 * i, 4), std::memcpy(&y, b.bytes.data() + 4 * i, 4), std::memcpy(&z, add.bytes.data() + 4 * i, 4);
            const float r = std::fma(x, y, z);
            std::memcpy(out.bytes.data() + 4 * i, &r, 4);
            continue;
        }
        // A half's product is exact in binary64 and the fused sum is rounded there once; it never
        // lands on a half's rounding midpoint unless the exact sum does (a product of two halves has
        // at most 22 significant bits), so rounding it into the half is rounding the exact sum.
        const double x = numeric::to_double(dtype, a.bytes.data(), std::size_t(i));
        const double y = numeric::to_double(dtype, b.bytes.data(), std::size_t(i));
        const double z = numeric::to_double(dtype, add.bytes.data(), std::size_t(i));
        numeric::from_double(dtype, out.bytes.data(), std::size_t(i), std::fma(x, y, z), RoundMode::CAST_RINT, SaturationMode::OFF);
    }
    dst = out;
}

void axpy(DType dtype, double alpha, const Register& x, const Register& y, const Register& mask, Register& dst)
{
    Register broadcast;
    const std::size_t lanes = std::size_t(kRegisterBytes / (dtype_bits(dtype) / 8));
    for (std::size_t i = 0; i < lanes; ++i)
        numeric::from_double(dtype, broadcast.bytes.data(), i, alpha, RoundMode::CAST_RINT, SaturationMode::OFF);
    multiply_add(dtype, y, broadcast, x, mask, dst);
}

void exp_difference(DType dtype, const Register& a, const Register& max, Register& dst)
{
    Register difference;
    for_dtype(dtype, [&]<typename T>() { line<T>(LineOp::Sub, difference, a, &max); });
    const LineShape shape{1, kRegisterBytes / (dtype_bits(dtype) / 8)};
    Register out;
    if (dtype == DType::F32) {
        elementwise::float_math_lines(elementwise::MathFn::Exp, elementwise::MathAccuracy::Default, {reinterpret_cast<float*>(out.bytes.data()), 0},
                                      {reinterpret_cast<const float*>(difference.bytes.data()), 0}, shape);
    } else {
        elementwise::half_math_lines(elementwise::MathFn::Exp, elementwise::MathAccuracy::Default, {reinterpret_cast<uint16_t*>(out.bytes.data()), 0},
                                     {reinterpret_cast<const uint16_t*>(difference.bytes.data()), 0}, shape);
    }
    dst = out;
}

}  // namespace pto::engine::vector
