#include "engine/data_movement/pad_value.hpp"

#include <pto/common/constants.hpp>
#include <pto/numeric/convert.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace pto::engine::data_movement {

namespace {

// The bits of one element holding `value`.
uint64_t float_element(DType t, double value)
{
    uint64_t bits = 0;
    numeric::from_double(t, &bits, 0, value, RoundMode::CAST_RINT, SaturationMode::OFF);
    return bits;
}

// +inf (or -inf) of a float format, or, for a format without infinities, its largest (most negative)
// finite value, found by reading every bit pattern of one lane.
uint64_t float_extreme(DType t, bool largest)
{
    const double infinity = largest ? HUGE_VAL : -HUGE_VAL;
    const uint64_t with_infinity = float_element(t, infinity);
    if (numeric::to_double(t, &with_infinity, 0) == infinity) return with_infinity;

    uint64_t best_bits = 0;
    double best = largest ? -HUGE_VAL : HUGE_VAL;
    for (uint64_t pattern = 0; pattern < (uint64_t{1} << dtype_bits(t)); ++pattern) {
        const double v = numeric::to_double(t, &pattern, 0);
        if (!std::isfinite(v)) continue;
        if (largest ? v > best : v < best) {
            best = v;
            best_bits = pattern;
        }
    }
    return best_bits;
}

// The extremes of every float type, worked out once.
uint64_t cached_float_extreme(DType t, bool largest)
{
    static const auto table = [] {
        std::array<std::array<uint64_t, 2>, kDTypeCount> extremes{};
        for (int i = 0; i < kDTypeCount; ++i) {
            const auto type = static_cast<DType>(i);
            if (!dtype_is_float(type)) continue;
            extremes[i] = {float_extreme(type, false), float_extreme(type, true)};
        }
        return extremes;
    }();
    return table[static_cast<int>(t)][largest ? 1 : 0];
}

uint64_t integer_extreme(DType t, bool largest)
{
    const int bits = dtype_bits(t);
    const uint64_t all = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    if (!dtype_is_signed_int(t)) return largest ? all : 0;
    const uint64_t sign = uint64_t{1} << (bits - 1);
    return largest ? sign - 1 : sign;
}

uint64_t custom_float(DType t, uint32_t payload)
{
    if (t == DType::F32) return payload;
    if (dtype_bits(t) == 16 && (payload >> 16) == 0) return payload;
    return float_element(t, static_cast<double>(std::bit_cast<float>(payload)));
}

uint64_t custom_integer(DType t, uint32_t payload)
{
    const int bits = dtype_bits(t);
    if (bits == 64) {
        return t == DType::I64 ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(payload))) : payload;
    }
    return payload & ((uint64_t{1} << bits) - 1);
}

template <typename Unit>
void fill_elements(std::byte* data, int64_t count, uint64_t bits)
{
    const Unit value = static_cast<Unit>(bits);
    for (int64_t i = 0; i < count; ++i)
        std::memcpy(data + i * int64_t(sizeof(Unit)), &value, sizeof(Unit));
}

}  // namespace

uint64_t pad_bits(DType dtype, PadValue pad)
{
    if (isCustomPadValue(pad)) {
        const uint32_t payload = getCustomPadBits(pad);
        return dtype_is_float(dtype) ? custom_float(dtype, payload) : custom_integer(dtype, payload);
    }
    if (pad == PadValue::Max || pad == PadValue::Min) {
        const bool largest = pad == PadValue::Max;
        return dtype_is_float(dtype) ? cached_float_extreme(dtype, largest) : integer_extreme(dtype, largest);
    }
    return 0;
}

void fill_tile(const TileDesc& t, uint64_t bits)
{
    switch (t.element_bits()) {
        case 4: std::memset(t.data, int((bits & 0xFu) * 0x11u), std::size_t(t.bytes())); break;
        case 8: fill_elements<uint8_t>(t.data, t.elements(), bits); break;
        case 16: fill_elements<uint16_t>(t.data, t.elements(), bits); break;
        case 32: fill_elements<uint32_t>(t.data, t.elements(), bits); break;
        default: fill_elements<uint64_t>(t.data, t.elements(), bits); break;
    }
}

}  // namespace pto::engine::data_movement
