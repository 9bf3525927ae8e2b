// The fixpipe's quantization modes (QuantMode_t), which the device compiler provides and the CPU
// simulation declares itself. Names and values as PTO Tile Lib's CPU simulation has them; the a5
// fp8/hif8/f32/f16 modes with the device compiler's values (VQF322BF16_PRE shares 36 with
// VQS322BF16_PRE, as in the CPU simulation: the accumulator's element type tells them apart).
#pragma once

#include <pto/common/type.hpp>

namespace pto {

enum QuantMode_t {
    NoQuant = 0,          // no conversion beyond the accumulator's own type
    F322F16 = 1,          // f32 -> f16, no scale
    F322BF16 = 16,        // f32 -> bf16, no scale
    DEQF16 = 5,           // i32 -> f16, scalar scale
    VDEQF16 = 4,          // i32 -> f16, per-column scales
    QF322B8_PRE = 24,     // f32 -> i8/u8, scalar scale
    QF322HIF8_PRE = 25,   // f32 -> hif8, scalar scale (a5)
    QF322FP8_PRE = 26,    // f32 -> e4m3, scalar scale (a5)
    QF322F32_PRE = 27,    // f32 -> f32, scalar scale (a5)
    QF322F16_PRE = 32,    // f32 -> f16, scalar scale
    VQF322F16_PRE = 33,   // f32 -> f16, per-column scales
    QF322BF16_PRE = 34,   // f32 -> bf16, scalar scale
    QS322BF16_PRE = 35,   // i32 -> bf16, scalar scale
    VQF322B8_PRE = 23,    // f32 -> i8/u8, per-column scales
    VQF322HIF8_PRE = 28,  // f32 -> hif8, per-column scales (a5)
    VQS322BF16_PRE = 36,  // i32 -> bf16, per-column scales
    VQF322BF16_PRE = 36,  // f32 -> bf16, per-column scales
    VQF322FP8_PRE = 37,   // f32 -> e4m3, per-column scales (a5)
    VQF322F32_PRE = 38,   // f32 -> f32, per-column scales (a5)
    REQ8 = 3,             // i32 -> i8/u8, scalar scale
    VREQ8 = 2,            // i32 -> i8/u8, per-column scales
    VSHIFTS322S16 = 12,   // i32 -> i16 by a shift, per column
    SHIFTS322S16 = 13,    // i32 -> i16 by a shift
};

}  // namespace pto
