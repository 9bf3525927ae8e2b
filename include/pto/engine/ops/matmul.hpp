// Engine entry points of the matrix instructions (TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and the TGEMV forms)
// with their operand checks, and TGET_SCALE_ADDR's check.
#pragma once

#include <optional>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// One matrix instruction: c = init + a . b over m x n, k terms, where
//   TMATMUL:  m, k = a's valid rows and columns, n = b's valid columns; init = 0
//   TGEMV:    m = 1, k = b's valid rows (a's first row), n = b's valid columns
//   *_ACC:    init = c_in (which may be c itself);  *_BIAS: init(i, j) = bias(0, j)
// Numerics: each result element starts from its init and adds the products a(i, k) . b(k, j) for
// k = 0, 1, ... in that order, each with one fused multiply-add in the result type (f32: every 16- and
// 8-bit product is exact, so the sum rounds once per step; i32: exact, wrapping); the same bits on
// every CPU, with or without SIMD.
//
// The MX forms (TMATMUL_MX, TGEMV_MX) take a's and b's E8M0 block scales: value a(i, k) counts as
// a(i, k) * 2^(a_scale(i, k / 32) - 127) and b(k, j) as b(k, j) * 2^(b_scale(k / 32, j) - 127), each
// rounded once to f32 (exact unless it leaves f32's normal range; exponent 255 is NaN), then summed
// as above. The packed fp4 types count values: a Left or Right tile of them holds one 4-bit value per
// element, where its layout puts it (two to a byte, the even one in the low nibble).
//
// TF32: with f32 inputs, each is first rounded to TF32's 10 fraction bits (NearestEven: ties to even;
// HalfAway: ties away from zero; infinities and NaN unchanged). `tf32` unset: the core's SETTF32MODE
// register decides on a5 (CAST_RINT NearestEven, CAST_ROUND HalfAway); a2a3 and cpu have no TF32.
// `saturate` (pto.mad's `sat`): input infinities become the input type's largest finite value and NaN
// 0, result infinities f32's largest finite value. Both act on copies of the inputs.
enum class Tf32Rounding : uint8_t { Off, NearestEven, HalfAway };
struct MatmulOperands {
    const TileDesc& c;
    const TileDesc& a;
    const TileDesc& b;
    const TileDesc* c_in = nullptr;
    const TileDesc* bias = nullptr;
    bool gemv = false;
    const TileDesc* a_scale = nullptr;  // the MX forms: both scales
    const TileDesc* b_scale = nullptr;
};
// The multiply's float modes (pto.mad's clauses); by default TF32 as the core's register says, no saturation.
struct MultiplyModes {
    std::optional<Tf32Rounding> tf32;
    bool saturate = false;
};
void tmatmul(const MatmulOperands& operands, const MultiplyModes& modes = {});

// SETTF32MODE, SETHF32MODE: load the calling core's TF32 / HF32 multiply mode (LEGAL_SETTF32MODE_MODE).
// TF32 changes the f32 multiplies of a5 (see Tf32Rounding); HF32's format is not public, and ptosim
// keeps its mode without changing any result.
void settf32mode(bool enable, RoundMode mode);
void sethf32mode(bool enable, RoundMode mode);

// Locations, element types, layouts, shapes (pto/profile/rules_matmul.hpp) and valid shapes
// (RUN_VALID_SHAPE, RUN_MATMUL_EXTENT); for the MX forms LEGAL_MATMUL_MX_DTYPE, LEGAL_MATMUL_MX_SCALE and
// the scales' valid shapes.
void check_tmatmul(const profile::Profile& p, const MatmulOperands& operands, LegalitySink& sink);

// TGET_SCALE_ADDR's run-time check of the locations it binds between (LEGAL_GET_SCALE_ADDR; checked mode
// warns WARN_CPU_ONLY for the cpu profile's aliasing form). The intrinsic binds the tile itself.
void tget_scale_addr(TileType dst, TileType src);

}  // namespace pto::engine
