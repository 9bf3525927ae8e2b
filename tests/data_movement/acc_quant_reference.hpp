// Reference pieces for the fixpipe's quantizing forms (TSTORE and TMOV with a pre-quant scalar, TMOV_FP):
// random accumulators, and each output type's rounding written out independently of the engine.
#pragma once

#include <pto/pto-inst.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

namespace dmtest {

template <typename AccT>
void fill_accumulator(AccT& acc, std::mt19937& rng)
{
    std::uniform_real_distribution<float> value(-300.0f, 300.0f);
    for (int r = 0; r < AccT::Rows; ++r) {
        for (int c = 0; c < AccT::Cols; ++c) {
            using E = typename AccT::DType;
            const E v = std::is_same_v<E, float> ? E(value(rng)) : E(int32_t(value(rng) * 1000.0f));
            acc.SetValue(static_cast<uint32_t>(pto::GetTileOffset<AccT>(r, c)), v);
        }
    }
}

template <typename AccT>
typename AccT::DType acc_at(const AccT& acc, int r, int c)
{
    return acc.GetValue(static_cast<uint32_t>(pto::GetTileOffset<AccT>(r, c)));
}

// The word that carries an f32 scale (its low 32 bits; the high bits are ignored).
inline uint64_t pre_quant(float scale, uint64_t high_bits = 0)
{
    return high_bits << 32 | std::bit_cast<uint32_t>(scale);
}

// q rounded to nearest even (the default FP environment), saturated when finite.
template <typename Int>
Int quantized_integer(float q)
{
    if (std::isnan(q)) return 0;
    const double r = std::nearbyint(double(q));
    return Int(std::clamp(r, double(std::numeric_limits<Int>::min()), double(std::numeric_limits<Int>::max())));
}
inline uint16_t quantized_half(float q)
{
    if (std::isfinite(q)) q = std::clamp(q, -65504.0f, 65504.0f);
    const _Float16 h = static_cast<_Float16>(q);
    return std::bit_cast<uint16_t>(h);
}
inline uint16_t quantized_bfloat16(float q)
{
    const uint32_t bits = std::bit_cast<uint32_t>(q);
    if (std::isnan(q)) return uint16_t(bits >> 16 | 0x40);
    return uint16_t((bits + 0x7FFF + (bits >> 16 & 1)) >> 16);
}

}  // namespace dmtest
