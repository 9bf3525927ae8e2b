// The SFU register operations: the widening multiply pto.vmull, and the converting fused operations
// pto.vaddreluconv and pto.vmulconv, whose result lanes have another type than their sources.
#include <pto/engine/ops/vector.hpp>

#include <cstring>

#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_elementwise.hpp>
#include <pto/profile/rules_vector.hpp>

#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

std::string_view widening_multiply_problem(DType dtype) { return rules::widening_multiply_ok(dtype) ? "" : "i32 or u32 lanes"; }

void widening_multiply(DType dtype, const Register& a, const Register& b, const Register& mask, Register& low, Register& high)
{
    const bool is_signed = dtype == DType::I32;
    Register lo, hi;  // a result may be an operand's register
    for (int i = 0; i < kRegisterBytes / 4; ++i) {
        if (!lanes::active(mask, i, 4)) continue;
        const uint32_t x = lanes::get<uint32_t>(a, i), y = lanes::get<uint32_t>(b, i);
        const uint64_t product = is_signed ? uint64_t(int64_t(int32_t(x)) * int64_t(int32_t(y))) : uint64_t(x) * uint64_t(y);
        lanes::set<uint32_t>(lo, i, uint32_t(product));
        lanes::set<uint32_t>(hi, i, uint32_t(product >> 32));
    }
    low = lo;
    high = hi;
}

std::string_view converting_problem(ConvertingOp op, DType from, DType to)
{
    if (op == ConvertingOp::AddRelu) return rules::relu_conversion_pair_ok(to, from) ? "" : "f32 -> f16, f16 -> i8 or i16 -> i8";
    return rules::mul_conversion_pair_ok(from, to) ? "" : "f16 -> i8";
}

void converting(ConvertingOp op, DType from, DType to, const Register& a, const Register& b, const Register& mask, Register& dst)
{
    const int from_bytes = dtype_bits(from) / 8;
    Register out;
    for (int i = 0; i < kRegisterBytes / from_bytes; ++i) {
        if (!lanes::active(mask, i, from_bytes)) continue;
        const double x = numeric::to_double(from, a.bytes.data(), std::size_t(i));
        const double y = numeric::to_double(from, b.bytes.data(), std::size_t(i));
        double v = 0;
        if (op == ConvertingOp::Mul) {
            v = x * y;  // f16 products are exact in double: one rounding, at the conversion
        } else {
            // TADDRELUCONV: an f32 sum rounded in float (f16 and i16 sums are exact), then the ReLU
            // (NaN and -0 give +0).
            const double sum = from == DType::F32 ? double(float(x) + float(y)) : x + y;
            v = sum > 0 ? sum : 0.0;
        }
        numeric::from_double(to, out.bytes.data(), std::size_t(i), v, RoundMode::CAST_RINT, SaturationMode::ON);
    }
    dst = out;
    lanes::finish_data(dst);
}

}  // namespace pto::engine::vector
