// The vector-scalar instructions (pto.vadds ... pto.vlrelu) and the carry chains (pto.vaddcs,
// pto.vsubcs). A vector-scalar lane computes what the tile-scalar instruction of the same name (TADDS,
// TMAXS, TSHLS, TLRELU, ...) computes for one element: the register is one line of the element-wise
// loops, the scalar their broadcast operand; the mask then clears the inactive lanes.
#include <pto/common/numeric.hpp>
#include <pto/engine/ops/vector.hpp>

#include <bit>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

namespace {

using elementwise::LineOp;
using elementwise::Lines;

LineOp line_op(ScalarOp op)
{
    switch (op) {
        case ScalarOp::Add: return LineOp::Add;
        case ScalarOp::Sub: return LineOp::Sub;
        case ScalarOp::Mul: return LineOp::Mul;
        case ScalarOp::Max: return LineOp::Max;
        case ScalarOp::Min: return LineOp::Min;
        case ScalarOp::And: return LineOp::And;
        case ScalarOp::Or: return LineOp::Or;
        case ScalarOp::Xor: return LineOp::Xor;
        case ScalarOp::Shl: return LineOp::Shl;
        case ScalarOp::Shr: return LineOp::Shr;
        case ScalarOp::LeakyRelu: return LineOp::Prelu;  // TLRELU's line op: a > 0 ? a : a * slope
    }
    return LineOp::Add;
}

}  // namespace

std::string_view scalar_problem(ScalarOp op, DType dtype)
{
    switch (op) {
        case ScalarOp::And: case ScalarOp::Or: case ScalarOp::Xor: case ScalarOp::Shl: case ScalarOp::Shr:
            return lanes::is_float(dtype) ? "integer lanes" : "";
        case ScalarOp::LeakyRelu: return dtype == DType::F32 || dtype == DType::F16 ? "" : "f32 or f16 lanes";
        default: return {};
    }
}

uint64_t float_lane_bits(DType dtype, double value)
{
    switch (dtype) {
        case DType::F32: return std::bit_cast<uint32_t>(static_cast<float>(value));
        case DType::F16: return half(value).bits;
        case DType::BF16: return bfloat16_t(value).bits;
        default: return 0;
    }
}

void binary_scalar(ScalarOp op, DType dtype, const Register& a, uint64_t scalar_bits, const Register& mask, Register& dst)
{
    elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
        using S = typename elementwise::Format<T>::Storage;
        const S scalar = elementwise::storage_from_bits<T>(scalar_bits);
        const Lines<const S> sources[] = {{reinterpret_cast<const S*>(a.bytes.data()), 0}, Lines<const S>::broadcast(&scalar)};
        elementwise::run_lines<T, S>(line_op(op), {reinterpret_cast<S*>(dst.bytes.data()), 0}, sources,
                                     {1, int64_t(kRegisterBytes / sizeof(S))});
        return true;
    });
    for (int b = 0; b < kRegisterBytes; ++b) dst.bytes[std::size_t(b)] &= mask.bytes[std::size_t(b)];
    lanes::finish_data(dst);
}

std::string_view carry_problem(DType dtype) { return lanes::is_float(dtype) ? "integer lanes" : ""; }

namespace {

// One lane's chain on its unsigned bits: the result wraps, the carry (borrow) is the bit past the width.
template <typename U>
void chain(CarryOp op, int lane_bytes, const Register& a, const Register& b, const Register& carry_in, const Register& mask,
           Register& dst, Register& carry_out)
{
    constexpr int kLanes = kRegisterBytes / int(sizeof(U));
    for (int i = 0; i < kLanes; ++i) {
        const bool on = lanes::active(mask, i, lane_bytes);
        const U x = lanes::get<U>(a, i), y = lanes::get<U>(b, i);
        const U in = lanes::active(carry_in, i, lane_bytes) ? 1 : 0;
        U r = 0;
        bool out = false;
        if (op == CarryOp::Add) {
            const U partial = U(x + y);
            r = U(partial + in);
            out = partial < x || r < partial;
        } else {
            r = U(x - y - in);
            out = x < y || (x == y && in);
        }
        lanes::set<U>(dst, i, on ? r : U(0));
        lanes::set_active(carry_out, i, lane_bytes, on && out);
    }
}

}  // namespace

void carry_chain(CarryOp op, int lane_bytes, const Register& a, const Register& b, const Register& carry_in, const Register& mask,
                 Register& dst, Register& carry_out)
{
    switch (lane_bytes) {
        case 1: chain<uint8_t>(op, lane_bytes, a, b, carry_in, mask, dst, carry_out); break;
        case 2: chain<uint16_t>(op, lane_bytes, a, b, carry_in, mask, dst, carry_out); break;
        case 4: chain<uint32_t>(op, lane_bytes, a, b, carry_in, mask, dst, carry_out); break;
        default: chain<uint64_t>(op, lane_bytes, a, b, carry_in, mask, dst, carry_out); break;
    }
    lanes::finish_data(dst);
    lanes::finish_mask(carry_out, lanes::mask_width(lane_bytes));
}

}  // namespace pto::engine::vector
