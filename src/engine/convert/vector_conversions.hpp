// The conversions TCVT vectorises, bit for bit as numeric::convert computes them. They are compiled once
// per SIMD target and the best one for the running CPU is picked at run time, so the library runs on
// any x86-64, with or without AVX-512 or F16C.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>

namespace pto::engine::convert {

enum class VectorPair : uint8_t { F16ToF32, Bf16ToF32, F32ToF16, F32ToBf16, F32ToI32, I32ToF32 };

struct VectorConversion {
    VectorPair pair;
    RoundMode mode;  // never CAST_NONE: numeric::effective_round_mode has resolved it
    bool saturate;   // whether out-of-range values and NaN saturate (numeric's policy for the pair and sat)
};

// The vectorised form of converting src to dst under `mode` and `sat`, if there is one:
//   f16 -> f32, bf16 -> f32   every mode, both saturation modes (exact, NaN made quiet)
//   f32 -> f16, f32 -> bf16   RINT, both saturation modes
//   f32 -> i32                RINT, ROUND, FLOOR, CEIL, TRUNC, ODD; both modes saturate (NaN -> 0)
//   i32 -> f32                RINT
std::optional<VectorConversion> vector_conversion(DType dst, DType src, RoundMode mode, SaturationMode sat);

// Converts the longest prefix of `count` elements that fills whole vectors and returns its length; the
// caller converts the rest. dst may be src itself, but must not overlap it otherwise.
std::size_t convert_whole_vectors(const VectorConversion& c, void* dst, const void* src, std::size_t count);

}  // namespace pto::engine::convert
