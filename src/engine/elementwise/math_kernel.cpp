#include "engine/elementwise/math_kernel.hpp"

#include <cmath>
#include <concepts>
#include <cstring>
#include <type_traits>
#include <vector>

#include <pto/engine/dtype_of.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/operations.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine::elementwise {

namespace {

// Unboxed operands sharing one major order have contiguous lines.
bool contiguous(const TileDesc& dst, const TileDesc& a, const TileDesc* b)
{
    auto same = [&](const TileDesc& t) { return !t.boxed() && t.blayout == dst.blayout; };
    return !dst.boxed() && same(a) && (!b || same(*b));
}

LineShape line_shape(const TileDesc& dst)
{
    return dst.blayout == BLayout::RowMajor ? LineShape{dst.valid_rows, dst.valid_cols} : LineShape{dst.valid_cols, dst.valid_rows};
}

template <typename P>
Lines<P> lines_of(const TileDesc& t)
{
    return {reinterpret_cast<P*>(t.data), t.blayout == BLayout::RowMajor ? t.cols : t.rows};
}

template <typename S, typename Element>
void each_element(const TileDesc& dst, const TileDesc& a, Element element)
{
    S* out = reinterpret_cast<S*>(dst.data);
    const S* in = reinterpret_cast<const S*>(a.data);
    for (int r = 0; r < dst.valid_rows; ++r)
        for (int c = 0; c < dst.valid_cols; ++c) out[dst.offset(r, c)] = element(in[a.offset(r, c)], r, c);
}

template <std::integral T>
T integer_power(T base, T exponent)
{
    using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>>;
    if constexpr (std::is_signed_v<T>) {
        if (exponent < 0) {
            if (base == 1) return 1;
            if (base == -1) return (exponent % 2 == 0) ? 1 : -1;
            return 0;
        }
    }
    U result = 1, factor = U(base);
    for (auto e = std::make_unsigned_t<T>(exponent); e != 0; e >>= 1) {
        if (e & 1) result *= factor;
        factor *= factor;
    }
    return T(result);
}

// fn of an integer element in double, converted back as math_kernel says.
template <std::integral T>
T integer_math_element(MathFn fn, T x)
{
    const double v = static_cast<double>(x);
    double y = 0;
    switch (fn) {
        case MathFn::Exp: y = std::exp(v); break;
        case MathFn::Log: y = std::log(v); break;
        case MathFn::Sqrt: y = std::sqrt(v); break;
        case MathFn::Rsqrt: y = 1.0 / std::sqrt(v); break;
        case MathFn::Recip: y = 1.0 / v; break;
    }
    T result;
    numeric::from_double(dtype_of<T>, &result, 0, y, RoundMode::CAST_TRUNC, SaturationMode::ON);
    return result;
}

}  // namespace

void math_kernel(MathFn fn, MathAccuracy accuracy, const TileDesc& dst, const TileDesc& source)
{
    const TileDesc src = readable_source(source, dst, 0);
    const bool lines = contiguous(dst, src, nullptr);
    switch (dst.dtype) {
        case DType::F32:
            if (lines) return float_math_lines(fn, accuracy, lines_of<float>(dst), lines_of<const float>(src), line_shape(dst));
            return each_element<float>(dst, src, [&](float x, int, int) { return math_element(fn, accuracy, x); });
        case DType::F16:
            if (lines) return half_math_lines(fn, accuracy, lines_of<uint16_t>(dst), lines_of<const uint16_t>(src), line_shape(dst));
            return each_element<uint16_t>(dst, src, [&](uint16_t x, int, int) { return half_math_element(fn, accuracy, x); });
        case DType::BF16:
            if (lines) return bfloat16_math_lines(fn, accuracy, lines_of<uint16_t>(dst), lines_of<const uint16_t>(src), line_shape(dst));
            return each_element<uint16_t>(dst, src, [&](uint16_t x, int, int) { return bfloat16_math_element(fn, accuracy, x); });
        default:
            visit_arithmetic_type(dst.dtype, [&]<typename T>() {
                if constexpr (std::is_integral_v<T>) {
                    if (fn == MathFn::Recip && runtime::checked()) require_nonzero_divisors<T>(src, "src");
                    each_element<T>(dst, src, [&](T x, int, int) { return integer_math_element<T>(fn, x); });
                }
                return true;
            });
    }
}

void pow_kernel(MathAccuracy accuracy, const TileDesc& dst, const TileDesc& base_tile, const TileDesc* exponent_tile,
                ScalarBits scalar)
{
    const TileDesc base = readable_source(base_tile, dst, 0);
    // A scalar exponent is a line of its value repeated, read with stride 0 by every line.
    TileDesc exponent;
    thread_local std::vector<std::byte> repeated;
    if (exponent_tile) {
        exponent = readable_source(*exponent_tile, dst, 1);
    } else {
        const int length = dst.blayout == BLayout::RowMajor ? dst.valid_cols : dst.valid_rows;
        const std::size_t element_bytes = std::size_t(dst.element_bits() / 8);
        repeated.resize(std::size_t(length) * element_bytes);
        for (int i = 0; i < length; ++i) std::memcpy(repeated.data() + std::size_t(i) * element_bytes, &scalar, element_bytes);
        exponent = dst;
        exponent.data = repeated.data();
        exponent.slayout = SLayout::NoneBox;
    }
    const bool lines = contiguous(dst, base, &exponent);
    auto exponent_lines = [&]<typename P>() {
        Lines<const P> l = lines_of<const P>(exponent);
        if (!exponent_tile) l.stride = 0;
        return l;
    };
    auto exponent_at = [&]<typename S>(int r, int c) {
        if (!exponent_tile) {
            S v;
            std::memcpy(&v, &scalar, sizeof(S));
            return v;
        }
        return reinterpret_cast<const S*>(exponent.data)[exponent.offset(r, c)];
    };
    const LineShape shape = line_shape(dst);
    switch (dst.dtype) {
        case DType::F32:
            if (lines) return float_pow_lines(accuracy, lines_of<float>(dst), lines_of<const float>(base), exponent_lines.template operator()<float>(), shape);
            return each_element<float>(dst, base, [&](float x, int r, int c) { return pow_element(accuracy, x, exponent_at.template operator()<float>(r, c)); });
        case DType::F16:
            if (lines) return half_pow_lines(accuracy, lines_of<uint16_t>(dst), lines_of<const uint16_t>(base), exponent_lines.template operator()<uint16_t>(), shape);
            return each_element<uint16_t>(dst, base, [&](uint16_t x, int r, int c) { return half_pow_element(accuracy, x, exponent_at.template operator()<uint16_t>(r, c)); });
        case DType::BF16:
            if (lines) return bfloat16_pow_lines(accuracy, lines_of<uint16_t>(dst), lines_of<const uint16_t>(base), exponent_lines.template operator()<uint16_t>(), shape);
            return each_element<uint16_t>(dst, base, [&](uint16_t x, int r, int c) { return bfloat16_pow_element(accuracy, x, exponent_at.template operator()<uint16_t>(r, c)); });
        default:
            visit_arithmetic_type(dst.dtype, [&]<typename T>() {
                if constexpr (std::is_integral_v<T>)
                    each_element<T>(dst, base, [&](T x, int r, int c) { return integer_power<T>(x, exponent_at.template operator()<T>(r, c)); });
                return true;
            });
    }
}

}  // namespace pto::engine::elementwise
