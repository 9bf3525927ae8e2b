// The MX forms' scaled panels. fp8 and fp4 values are decoded through a table of every encoding (built
// once by the bit-exact conversion), the E8M0 scales as exact powers of two.
#include "engine/matmul/mx_panels.hpp"

#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_matmul.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace pto::engine::matmul {

namespace {

// The f32 value of every encoding of an 8- or 4-bit float, indexed by the encoding.
struct Decoded {
    std::array<float, 256> value;
};

Decoded decode_table(DType t)
{
    Decoded d{};
    std::array<uint8_t, 256> encodings;
    const bool nibbles = dtype_bits(t) == 4;  // 16 encodings, two to a byte
    for (int i = 0; i < 256; ++i) encodings[size_t(i)] = uint8_t(nibbles ? ((2 * i) & 0xF) | ((2 * i + 1) & 0xF) << 4 : i);
    numeric::convert(DType::F32, d.value.data(), t, encodings.data(), nibbles ? 16 : 256, RoundMode::CAST_NONE,
                     SaturationMode::OFF);
    return d;
}

const Decoded& decoded(DType t)
{
    static const Decoded e4m3 = decode_table(DType::F8E4M3), e5m2 = decode_table(DType::F8E5M2),
                         e2m1 = decode_table(DType::F4E2M1x2), e1m2 = decode_table(DType::F4E1M2x2);
    switch (t) {
        case DType::F8E4M3: return e4m3;
        case DType::F8E5M2: return e5m2;
        case DType::F4E2M1x2: return e2m1;
        default: return e1m2;
    }
}

// 2^(e - 127); exponent 255 is NaN.
float scale_of(const TileDesc& scales, int r, int c)
{
    const auto e = uint8_t(scales.data[scales.offset(r, c)]);
    return e == 0xFF ? std::numeric_limits<float>::quiet_NaN() : std::ldexp(1.0f, int(e) - 127);
}

// Value (r, c) of `t` (a 4-bit one from its nibble, the even element in the low one).
float value_at(const TileDesc& t, const Decoded& d, int r, int c)
{
    const int64_t at = t.offset(r, c);
    if (t.element_bits() == 8) return d.value[uint8_t(t.data[at])];
    return d.value[(uint8_t(t.data[at / 2]) >> (at % 2 * 4)) & 0xFu];
}

float* scratch(int which, int64_t words)
{
    thread_local std::vector<float> buffers[2];
    if (int64_t(buffers[which].size()) < words) buffers[which].resize(size_t(words));
    return buffers[which].data();
}

}  // namespace

Words scaled_left_panel(const TileDesc& a, const TileDesc& a_scale, int m, int k)
{
    const Decoded& d = decoded(a.dtype);
    float* panel = scratch(0, int64_t(m) * k);
    for (int i = 0; i < m; ++i)
        for (int kk = 0; kk < k; ++kk)
            panel[int64_t(i) * k + kk] = value_at(a, d, i, kk) * scale_of(a_scale, i, kk / rules::kMxGroup);
    return {reinterpret_cast<const uint32_t*>(panel), k, k, 0};
}

Words scaled_right_panel(const TileDesc& b, const TileDesc& b_scale, int k, int n)
{
    const Decoded& d = decoded(b.dtype);
    float* panel = scratch(1, int64_t(k) * n);
    for (int kk = 0; kk < k; ++kk)
        for (int j = 0; j < n; ++j)
            panel[int64_t(kk) * n + j] = value_at(b, d, kk, j) * scale_of(b_scale, kk / rules::kMxGroup, j);
    return {reinterpret_cast<const uint32_t*>(panel), n, n, 0};
}

}  // namespace pto::engine::matmul
