#include "engine/matmul/input_transform.hpp"

#include <pto/numeric/convert.hpp>
#include <pto/profile/profile.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/registers.hpp>

#include <cmath>
#include <cstring>

#include "engine/saturation.hpp"

namespace pto::engine::matmul {

namespace {

float round_to_tf32(float v, Tf32Rounding rounding)
{
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    if ((bits & 0x7F800000u) == 0x7F800000u) return v;  // infinities and NaN as they are
    constexpr uint32_t kHalf = 0x1000u, kDropped = 0x1FFFu;  // the 13 fraction bits TF32 does not keep
    bits += rounding == Tf32Rounding::HalfAway ? kHalf : kHalf - 1 + ((bits >> 13) & 1u);
    bits &= ~kDropped;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

// Replaces every valid element x of `t` by f(x), through double.
template <typename F>
void transform(const TileDesc& t, int rows, int cols, F&& f)
{
    const int bytes = t.element_bits() / 8;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            std::byte* at = t.data + t.offset(r, c) * bytes;
            numeric::from_double(t.dtype, at, 0, f(numeric::to_double(t.dtype, at, 0)), RoundMode::CAST_RINT, SaturationMode::OFF);
        }
}

}  // namespace

Tf32Rounding tf32_rounding(const MultiplyModes& modes)
{
    if (modes.tf32) return *modes.tf32;
    const runtime::Fp32MultiplyMode& mode = runtime::core_registers().tf32;
    if (runtime::active_target() != profile::Target::A5 || !mode.enabled) return Tf32Rounding::Off;
    return mode.rounding == RoundMode::CAST_RINT ? Tf32Rounding::NearestEven : Tf32Rounding::HalfAway;
}

TransformedInput::TransformedInput(const TileDesc& tile, int rows, int cols, Tf32Rounding tf32, bool saturate)
    : storage_(new std::byte[std::size_t(tile.bytes())]), tile_(tile)
{
    std::memcpy(storage_.get(), tile.data, std::size_t(tile.bytes()));
    tile_.data = storage_.get();
    const bool round = tf32 != Tf32Rounding::Off && tile.dtype == DType::F32;
    transform(tile_, rows, cols, [&](double v) {
        if (saturate) v = saturated(v, tile_.dtype);
        return round ? double(round_to_tf32(float(v), tf32)) : v;
    });
}

void saturate_result(const TileDesc& c, int m, int n)
{
    transform(c, m, n, [&](double v) { return std::isinf(v) ? saturated(v, c.dtype) : v; });
}

}  // namespace pto::engine::matmul
