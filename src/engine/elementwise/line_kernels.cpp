// The line loops of line_kernels.hpp, written once with Highway and compiled for each SIMD target it
// knows (foreach_target re-includes this file per target); HWY_DYNAMIC_DISPATCH picks the best one the
// running CPU supports.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/elementwise/line_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <type_traits>

#include "engine/elementwise/line_kernels.hpp"
#include "engine/simd/float16_bits-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::elementwise {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using ::pto::engine::HWY_NAMESPACE::BfloatBits;
using ::pto::engine::HWY_NAMESPACE::HalfBits;

// Whole vectors through `vector_op`, the tail of each line through `scalar_op`. Each vector is loaded
// before the result is stored, so a destination line may be the same memory as a source line.
template <typename T, typename VectorOp, typename ScalarOp>
HWY_INLINE void for_each_line(Lines<T> d, Lines<const T> a, Lines<const T> b, LineShape shape, VectorOp vector_op,
                              ScalarOp scalar_op)
{
    const hn::ScalableTag<T> tag;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(tag));
    for (int64_t i = 0; i < shape.count; ++i) {
        T* out = d.line(i);
        const T* x = a.line(i);
        const T* y = b.line(i);
        int64_t j = 0;
        for (; j + lanes <= shape.length; j += lanes) {
            hn::StoreU(vector_op(hn::LoadU(tag, x + j), hn::LoadU(tag, y + j)), tag, out + j);
        }
        for (; j < shape.length; ++j) out[j] = scalar_op(x[j], y[j]);
    }
}

void FloatLines(ArithOp op, Lines<float> d, Lines<const float> a, Lines<const float> b, LineShape shape)
{
    // Vectors and scalars share these lambdas: both spell IEEE arithmetic with the same operators.
    const auto add = [](auto x, auto y) { return x + y; };
    const auto sub = [](auto x, auto y) { return x - y; };
    const auto mul = [](auto x, auto y) { return x * y; };
    const auto div = [](auto x, auto y) { return x / y; };
    switch (op) {
        case ArithOp::Add: return for_each_line(d, a, b, shape, add, add);
        case ArithOp::Sub: return for_each_line(d, a, b, shape, sub, sub);
        case ArithOp::Mul: return for_each_line(d, a, b, shape, mul, mul);
        case ArithOp::Div: return for_each_line(d, a, b, shape, div, div);
    }
}

// Whole vectors widened, computed in float and narrowed in registers; the tail element by element.
template <typename Format, typename Op>
HWY_INLINE void for_each_line_16(Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape,
                                 Op op)
{
    const hn::ScalableTag<float> df;
    const hn::Rebind<uint16_t, decltype(df)> d16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    for (int64_t i = 0; i < shape.count; ++i) {
        uint16_t* out = d.line(i);
        const uint16_t* x = a.line(i);
        const uint16_t* y = b.line(i);
        int64_t j = 0;
        for (; j + lanes <= shape.length; j += lanes) {
            const auto vx = Format::widen(df, hn::LoadU(d16, x + j));
            const auto vy = Format::widen(df, hn::LoadU(d16, y + j));
            hn::StoreU(Format::narrow(df, d16, op(vx, vy)), d16, out + j);
        }
        for (; j < shape.length; ++j) {
            out[j] = Format::scalar_narrow(op(Format::scalar_widen(x[j]), Format::scalar_widen(y[j])));
        }
    }
}

template <typename Format>
HWY_INLINE void float16_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b,
                              LineShape shape)
{
    switch (op) {
        case ArithOp::Add: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x + y; });
        case ArithOp::Sub: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x - y; });
        case ArithOp::Mul: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x * y; });
        case ArithOp::Div: return for_each_line_16<Format>(d, a, b, shape, [](auto x, auto y) { return x / y; });
    }
}

void HalfLines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    float16_lines<HalfBits>(op, d, a, b, shape);
}

void BfloatLines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    float16_lines<BfloatBits>(op, d, a, b, shape);
}

template <typename T>
HWY_INLINE void wrapping_lines(WrapOp op, Lines<T> d, Lines<const T> a, Lines<const T> b, LineShape shape)
{
    // Scalar tails compute in at least `unsigned`, so that promoted 8/16-bit operands cannot overflow int.
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>;
    const auto add = [](T x, T y) { return static_cast<T>(W{x} + W{y}); };
    const auto sub = [](T x, T y) { return static_cast<T>(W{x} - W{y}); };
    const auto mul = [](T x, T y) { return static_cast<T>(W{x} * W{y}); };
    switch (op) {
        case WrapOp::Add: return for_each_line(d, a, b, shape, [](auto x, auto y) { return x + y; }, add);
        case WrapOp::Sub: return for_each_line(d, a, b, shape, [](auto x, auto y) { return x - y; }, sub);
        case WrapOp::Mul:
            if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
                return for_each_line(d, a, b, shape, [](auto x, auto y) { return x * y; }, mul);
            } else {
                // Highway has no 8- or 64-bit lane multiply: plain loops, which the compiler may vectorise.
                for (int64_t i = 0; i < shape.count; ++i) {
                    T* out = d.line(i);
                    const T* x = a.line(i);
                    const T* y = b.line(i);
                    for (int64_t j = 0; j < shape.length; ++j) out[j] = mul(x[j], y[j]);
                }
                return;
            }
    }
}

void U8Lines(WrapOp op, Lines<uint8_t> d, Lines<const uint8_t> a, Lines<const uint8_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}
void U16Lines(WrapOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}
void U32Lines(WrapOp op, Lines<uint32_t> d, Lines<const uint32_t> a, Lines<const uint32_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}
void U64Lines(WrapOp op, Lines<uint64_t> d, Lines<const uint64_t> a, Lines<const uint64_t> b, LineShape shape)
{
    wrapping_lines(op, d, a, b, shape);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::elementwise
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::elementwise {

HWY_EXPORT(FloatLines);
HWY_EXPORT(HalfLines);
HWY_EXPORT(BfloatLines);
HWY_EXPORT(U8Lines);
HWY_EXPORT(U16Lines);
HWY_EXPORT(U32Lines);
HWY_EXPORT(U64Lines);

void float_lines(ArithOp op, Lines<float> d, Lines<const float> a, Lines<const float> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(FloatLines)(op, d, a, b, shape);
}
void half_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(HalfLines)(op, d, a, b, shape);
}
void bfloat16_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(BfloatLines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint8_t> d, Lines<const uint8_t> a, Lines<const uint8_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U8Lines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U16Lines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint32_t> d, Lines<const uint32_t> a, Lines<const uint32_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U32Lines)(op, d, a, b, shape);
}
void uint_lines(WrapOp op, Lines<uint64_t> d, Lines<const uint64_t> a, Lines<const uint64_t> b, LineShape shape)
{
    HWY_DYNAMIC_DISPATCH(U64Lines)(op, d, a, b, shape);
}

}  // namespace pto::engine::elementwise
#endif  // HWY_ONCE
