// Runtime element-type tags shared by the engine, the C++ front door and the PTO-AS interpreter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pto::engine {

enum class DType : uint8_t {
    F32,
    F16,
    BF16,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F8E4M3,
    F8E5M2,
    F8E8M0,
    HiF8,
    F4E2M1x2,  // packed: two 4-bit e2m1 elements per byte, the even one in the low nibble
    F4E1M2x2,  // packed: two 4-bit e1m2 elements per byte, the even one in the low nibble
    I4,        // packed: two signed 4-bit elements per byte, the even one in the low nibble
};

inline constexpr int kDTypeCount = static_cast<int>(DType::I4) + 1;

// Storage bits of one tile element. The packed 4-bit types count values: a shape, an index or a stride
// of their tiles and tensors counts 4-bit elements, two to a byte (the C++ element type names the byte).
constexpr int dtype_bits(DType t)
{
    switch (t) {
        case DType::F32: case DType::I32: case DType::U32: return 32;
        case DType::F16: case DType::BF16: case DType::I16: case DType::U16: return 16;
        case DType::I64: case DType::U64: return 64;
        case DType::I4: case DType::F4E2M1x2: case DType::F4E1M2x2: return 4;
        default: return 8;
    }
}

// Name as PTO-AS spells the element type.
constexpr std::string_view dtype_name(DType t)
{
    switch (t) {
        case DType::F32: return "f32";
        case DType::F16: return "f16";
        case DType::BF16: return "bf16";
        case DType::I8: return "i8";
        case DType::I16: return "i16";
        case DType::I32: return "i32";
        case DType::I64: return "i64";
        case DType::U8: return "u8";
        case DType::U16: return "u16";
        case DType::U32: return "u32";
        case DType::U64: return "u64";
        case DType::F8E4M3: return "f8e4m3";
        case DType::F8E5M2: return "f8e5m2";
        case DType::F8E8M0: return "f8e8m0";
        case DType::HiF8: return "hif8";
        case DType::F4E2M1x2: return "f4e2m1x2";
        case DType::F4E1M2x2: return "f4e1m2x2";
        case DType::I4: return "i4";
    }
    return "?";
}

constexpr bool dtype_is_float(DType t)
{
    switch (t) {
        case DType::F32: case DType::F16: case DType::BF16: case DType::F8E4M3: case DType::F8E5M2:
        case DType::F8E8M0: case DType::HiF8: case DType::F4E2M1x2: case DType::F4E1M2x2: return true;
        default: return false;
    }
}

constexpr bool dtype_is_signed_int(DType t)
{
    return t == DType::I8 || t == DType::I16 || t == DType::I32 || t == DType::I64 || t == DType::I4;
}

}  // namespace pto::engine
