// What the reduction tests share: the reference results, random sources with special values, and the
// check of a destination after a reduction.
#pragma once

#include "elementwise/support.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace reducetest {

using namespace ewtest;
using pto::rules::ReduceOp;

template <typename T>
inline constexpr bool kFloat16 = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <typename T>
using Storage = typename Elem<T>::Storage;

// An element's value, exactly.
template <typename T>
double value_of(Storage<T> s)
{
    if constexpr (std::is_same_v<T, half>) return decode16(kHalf, s);
    else if constexpr (std::is_same_v<T, bfloat16_t>) return decode16(kBfloat16, s);
    else return double(s);
}

// The canonical NaN every NaN result is.
template <typename T>
Storage<T> canonical_nan()
{
    if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(0x7fc00000u);
    else if constexpr (std::is_same_v<T, half>) return 0x7e00;
    else return 0x7fc0;
}

// A float result rounded to T (the float itself for float).
template <typename T>
Storage<T> round_float(float x)
{
    if (std::isnan(x)) return canonical_nan<T>();
    if constexpr (std::is_same_v<T, float>) return x;
    else if constexpr (std::is_same_v<T, half>) return half_rounder().round(double(x));
    else return bfloat16_rounder().round(double(x));
}

inline float combined(ReduceOp op, float a, float b) { return op == ReduceOp::Sum ? a + b : a * b; }

// The documented order of a float sum (product), step by step: element j into partial result j mod 64
// (from -0, resp. 1), then the pairwise halving tree over the 64 partial results, all in float, rounded
// once to T.
template <typename T>
Storage<T> ordered_float(ReduceOp op, const std::vector<Storage<T>>& xs)
{
    float partial[64];
    for (float& p : partial) p = op == ReduceOp::Sum ? -0.0f : 1.0f;
    for (std::size_t j = 0; j < xs.size(); ++j) partial[j % 64] = combined(op, partial[j % 64], float(value_of<T>(xs[j])));
    for (int width = 64; width > 1; width /= 2)
        for (int k = 0; k < width / 2; ++k) partial[k] = combined(op, partial[k], partial[k + width / 2]);
    return round_float<T>(partial[0]);
}

// A float sum (product) top to bottom (a column), in float, rounded once to T.
template <typename T>
Storage<T> sequential_float(ReduceOp op, const std::vector<Storage<T>>& xs)
{
    float result = float(value_of<T>(xs[0]));
    for (std::size_t i = 1; i < xs.size(); ++i) result = combined(op, result, float(value_of<T>(xs[i])));
    return round_float<T>(result);
}

// Integer sums and products wrap: the exact result's low bits (which arithmetic modulo 2^128 keeps).
template <typename T>
T wrapped(ReduceOp op, const std::vector<T>& xs)
{
    unsigned __int128 result = op == ReduceOp::Sum ? 0 : 1;
    for (T x : xs) {
        const auto wide = static_cast<unsigned __int128>(static_cast<__int128>(x));
        result = op == ReduceOp::Sum ? result + wide : result * wide;
    }
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(result));
}
template <typename T>
T wrapped_sum(const std::vector<T>& xs)
{
    return wrapped(ReduceOp::Sum, xs);
}

// The maximum (minimum) in double: a NaN loses to any number, -0 < +0; NaNs only give the canonical NaN.
template <typename T>
Storage<T> extreme(ReduceOp op, const std::vector<Storage<T>>& xs)
{
    if constexpr (std::is_integral_v<T>) {
        T best = xs[0];
        for (T x : xs) best = op == ReduceOp::Max ? std::max(best, x) : std::min(best, x);
        return best;
    } else {
        const Storage<T>* best = nullptr;
        const auto better = [op](double v, double b) {
            if (v == b && v == 0) return op == ReduceOp::Max ? std::signbit(b) && !std::signbit(v) : !std::signbit(b) && std::signbit(v);
            return op == ReduceOp::Max ? v > b : v < b;
        };
        for (const Storage<T>& x : xs) {
            const double v = value_of<T>(x);
            if (std::isnan(v)) continue;
            if (!best || better(v, value_of<T>(*best))) best = &x;
        }
        return best ? *best : canonical_nan<T>();
    }
}

// The bits a reduction of `xs` must give. Along a row float sums and products take the documented
// order; across rows (a column), top to bottom.
template <typename T>
Storage<T> expected(ReduceOp op, const std::vector<Storage<T>>& xs, bool along_row)
{
    if (op == ReduceOp::Max || op == ReduceOp::Min) return extreme<T>(op, xs);
    if constexpr (std::is_integral_v<T>) return wrapped(op, xs);
    else return along_row ? ordered_float<T>(op, xs) : sequential_float<T>(op, xs);
}

// A float sum's distance from the exact (double) sum is within what float accumulation of n terms and
// one rounding to T allow.
template <typename T>
bool close_to_exact_sum(Storage<T> result, const std::vector<Storage<T>>& xs)
{
    double exact = 0, magnitude = 0;
    for (const Storage<T>& x : xs) exact += value_of<T>(x), magnitude += std::fabs(value_of<T>(x));
    if (!std::isfinite(exact)) return true;  // specials: the bits are checked against the order
    const double got = value_of<T>(result);
    const int precision = std::is_same_v<T, float> ? 24 : std::is_same_v<T, half> ? 11 : 8;
    const double smallest = std::is_same_v<T, float> ? 0x1p-149 : std::is_same_v<T, half> ? 0x1p-24 : 0x1p-133;
    const double accumulated = magnitude * double(xs.size()) * 0x1p-24;
    const double bound = accumulated + (std::fabs(exact) + accumulated) * std::ldexp(1.0, -precision) + smallest;
    return std::fabs(got - exact) <= bound || (std::isinf(got) && std::fabs(exact) > 6e4);
}

// A random element, one in `special_rate` a special value: NaN, +-inf, +-0, a subnormal, the largest
// finite value, an integer's ends.
template <typename T>
Storage<T> random_element(std::mt19937& rng, int special_rate = 12)
{
    if (rng() % special_rate != 0) return random_value<T>(rng);
    if constexpr (std::is_integral_v<T>) {
        const T ends[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1)};
        return ends[rng() % 4];
    } else {
        using L = std::numeric_limits<float>;
        const float specials[] = {L::quiet_NaN(), L::infinity(), -L::infinity(), 0.0f, -0.0f, 1e-40f, -3e-39f, 6e-8f, 60000.0f};
        const float pick = specials[rng() % std::size(specials)];
        if constexpr (std::is_same_v<T, float>) return pick;
        else if constexpr (std::is_same_v<T, half>) return std::isnan(pick) ? Storage<T>(0x7e01) : half(pick).bits;
        else return std::isnan(pick) ? Storage<T>(0xffc1) : bfloat16_t(pick).bits;
    }
}

// Equal bits (a float compared by its bits, so -0 and the canonical NaN count).
template <typename T>
bool same_bits(Storage<T> a, Storage<T> b)
{
    if constexpr (std::is_same_v<T, float>) return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
    else return a == b;
}

template <typename T>
std::string text_of(Storage<T> s)
{
    if constexpr (std::is_same_v<T, float>) return std::to_string(s) + " (0x" + std::to_string(std::bit_cast<uint32_t>(s)) + ")";
    else if constexpr (kFloat16<T>) return std::to_string(value_of<T>(s)) + " (bits " + std::to_string(s) + ")";
    else return std::to_string(+s);
}

// Runs `reduce` on a src of random elements (valid region rows x cols inside a larger capacity) and a
// dst of random bits, then checks every result against `expected` and every other dst element for
// being untouched. Row reductions: dst is ND (`dst_cols` columns) or DN with one column.
template <typename T, typename Reduce>
void check_reduction(std::mt19937& rng, ReduceOp op, bool along_rows, int rows, int cols, int dst_cols, bool dn_dst,
                     Reduce&& reduce, const std::string& context)
{
    const int cap_rows = rows + int(rng() % 3), cap_cols = cols + int(rng() % 5);
    HostTile<T> src(cap_rows, cap_cols, rows, cols, kRowMajor, rng);
    for (auto& e : src.storage()) e = random_element<T>(rng);
    const int dst_rows = along_rows ? rows + int(rng() % 2) : 1 + int(rng() % 2);
    const int dst_capacity_cols = along_rows ? (dn_dst ? 1 : dst_cols) : cols + int(rng() % 4);
    HostTile<T> dst(dst_rows, dst_capacity_cols, along_rows ? rows : 1, along_rows ? dst_capacity_cols : cols,
                    dn_dst ? kColMajor : kRowMajor, rng);
    const std::vector<Storage<T>> before = dst.storage();
    reduce(dst.desc(), src.desc());

    std::vector<bool> result(before.size(), false);
    const int results = along_rows ? rows : cols;
    for (int k = 0; k < results; ++k) {
        std::vector<Storage<T>> xs;
        for (int i = 0; i < (along_rows ? cols : rows); ++i) xs.push_back(along_rows ? src.at(k, i) : src.at(i, k));
        const int r = along_rows ? k : 0, c = along_rows ? 0 : k;
        result[std::size_t(dst.desc().offset(r, c))] = true;
        const Storage<T> got = dst.at(r, c), want = expected<T>(op, xs, along_rows);
        ASSERT_TRUE(same_bits<T>(want, got)) << context << ": result " << k << " of " << rows << "x" << cols << ": want "
                                             << text_of<T>(want) << ", got " << text_of<T>(got);
        if constexpr (!std::is_integral_v<T>) {
            if (op == ReduceOp::Sum) {
                ASSERT_TRUE(close_to_exact_sum<T>(got, xs)) << context << ": result " << k << " is far from the exact sum";
            }
        }
    }
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (result[i]) continue;
        ASSERT_TRUE(same_bits<T>(before[i], dst.storage()[i])) << context << ": dst element " << i << " was written";
    }
}

}  // namespace reducetest
