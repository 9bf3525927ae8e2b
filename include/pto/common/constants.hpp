// Architectural constants and the custom pad-value helpers kernels use.
#pragma once

#include <bit>
#include <cstdint>

#include <pto/common/type.hpp>

namespace pto {

constexpr int DYNAMIC = -1;

constexpr int REPEAT_BYTE = 256;
constexpr int REPEAT_MAX = 255;
constexpr int BLOCK_BYTE_SIZE = 32;
constexpr int FIXP_BURST_UNIT_LEN = 64;
constexpr int REPEAT_STRIDE_MAX = 255;
constexpr uint64_t BLOCK_MAX_PER_REPEAT = 8;
constexpr uint64_t MASK_LEN = 64;
constexpr int BLOCK_LEN = 16;
constexpr int CUBE_BLOCK_SIZE = 512;
constexpr int C0_SIZE_BYTE = 32;       // bytes in one row of a fractal box
constexpr int FRACTAL_NZ_ROW = 16;     // rows in one fractal box
constexpr int ACC_C0_SIZE = 16;
constexpr uint32_t B4_C0_SIZE = 64;
constexpr int MX_COL_LEN = 2;
constexpr int MX_ROW_LEN = 16;
constexpr int MX_BLOCK_SIZE = 32;
constexpr int HIF4_COL_LEN = 4;
constexpr int HIF4_ROW_LEN = 16;
constexpr int HIF4_BLOCK_SIZE = 64;
constexpr int FRACTAL_ZZ_ROW = 16;

// Named small numbers of the public library's kernels.
constexpr int NUM_1 = 1;
constexpr int NUM_4 = 4;
constexpr int NUM_8 = 8;
constexpr int NUM_12 = 12;
constexpr int NUM_16 = 16;
constexpr int NUM_32 = 32;
constexpr int NUM_64 = 64;
constexpr int NUM_77 = 77;
constexpr int NUM_96 = 96;
constexpr int NUM_128 = 128;
constexpr int NUM_256 = 256;
constexpr int NUM_512 = 512;

namespace TileConfig {
constexpr int alignedSize = 32;
constexpr int fixedRowSize = 16;
constexpr int fixedColSize = 16;
constexpr int fixedMxRowSize = 16;
constexpr int fixedMxColSize = 2;
constexpr int fractalABSize = 512;
constexpr int fractalCSize = 1024;
constexpr int fractalMxSize = 32;
}  // namespace TileConfig

// A custom PadValue keeps a 32-bit payload in bits 0..31 with the CustomBase bit set.
constexpr bool isCustomPadValue(PadValue pv)
{
    return static_cast<uint64_t>(pv) >= static_cast<uint64_t>(PadValue::CustomBase);
}

constexpr uint32_t getCustomPadBits(PadValue pv)
{
    return static_cast<uint32_t>(static_cast<uint64_t>(pv) & 0xFFFFFFFFull);
}

namespace detail {
template <auto V>
constexpr uint32_t pad_payload()
{
    using T = decltype(V);
    if constexpr (std::is_same_v<T, float>) {
        return std::bit_cast<uint32_t>(V);
    } else if constexpr (std::is_same_v<T, double>) {
        return std::bit_cast<uint32_t>(static_cast<float>(V));
    } else {
        static_assert(std::is_integral_v<T>, "PadCustom takes a float, double or integer constant");
        return static_cast<uint32_t>(V);
    }
}
}  // namespace detail

// PadCustom<-1.0f>, PadCustom<42>: a compile-time custom pad value.
template <auto V>
inline constexpr PadValue PadCustom =
    static_cast<PadValue>(static_cast<uint64_t>(PadValue::CustomBase) | detail::pad_payload<V>());

constexpr PadValue PadValueCustom(float value)
{
    return static_cast<PadValue>(static_cast<uint64_t>(PadValue::CustomBase) | std::bit_cast<uint32_t>(value));
}

// For 16-bit tiles: the raw half/bfloat16 bit pattern.
constexpr PadValue PadValueCustom16(uint16_t bits16)
{
    return static_cast<PadValue>(static_cast<uint64_t>(PadValue::CustomBase) | bits16);
}

constexpr PadValue PadValueCustom(half value) { return PadValueCustom16(value.bits); }
constexpr PadValue PadValueCustom(bfloat16_t value) { return PadValueCustom16(value.bits); }

}  // namespace pto
