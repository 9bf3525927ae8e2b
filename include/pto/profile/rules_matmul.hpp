// Legality rules of the matrix instructions (TMATMUL, TMATMUL_ACC, TMATMUL_BIAS, TGEMV, TGEMV_ACC,
// TGEMV_BIAS), one constexpr predicate per rule, with its code in the comment above it.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Rule LEGAL_MATMUL_LOCATION: the left operand in L0A (Left), the right one in L0B (Right), the result
// in L0C (Acc), a bias in the bias table (Bias).
constexpr bool matmul_location_ok(TileType c, TileType a, TileType b)
{
    return c == TileType::Acc && a == TileType::Left && b == TileType::Right;
}
constexpr bool matmul_bias_location_ok(TileType bias) { return bias == TileType::Bias; }

// Rule LEGAL_MATMUL_DTYPE: (result; left, right) triples. Every target: (i32; i8, i8), (f32; f16, f16),
// (f32; bf16, bf16), (f32; f32, f32). a5 (and cpu) also f32 from the fp8 pairs (e4m3/e5m2 either
// side) and from hif8 x hif8.
constexpr bool matmul_dtype_ok(const profile::Profile& p, engine::DType c, engine::DType a, engine::DType b)
{
    using enum engine::DType;
    if (c == I32) return a == I8 && b == I8;
    if (c != F32) return false;
    if (a == b && (a == F16 || a == BF16 || a == F32)) return true;
    if (p.target == profile::Target::A2A3) return false;
    const bool fp8_a = a == F8E4M3 || a == F8E5M2, fp8_b = b == F8E4M3 || b == F8E5M2;
    return (fp8_a && fp8_b) || (a == HiF8 && b == HiF8);
}

// Rule LEGAL_MATMUL_LAYOUT: on a5 the cube reads Left as Nz (column-major boxes, row-major inside),
// Right as Zn (row-major boxes, column-major inside) and writes Acc as Nz; a2a3 and cpu take the tiles'
// layouts as they are.
constexpr bool matmul_layout_ok(const profile::Profile& p, TileType loc, BLayout b, SLayout s)
{
    if (p.target != profile::Target::A5) return true;
    if (loc == TileType::Right) return b == BLayout::RowMajor && s == SLayout::ColMajor;
    return b == BLayout::ColMajor && s == SLayout::RowMajor;
}

// Rule LEGAL_MATMUL_SHAPE (a2a3): the capacities chain: Left rows = result rows, Left columns = Right
// rows, Right columns = result columns.
constexpr bool matmul_shape_ok(const profile::Profile& p, int c_rows, int c_cols, int a_rows, int a_cols, int b_rows,
                               int b_cols)
{
    return p.target != profile::Target::A2A3 || (a_rows == c_rows && a_cols == b_rows && b_cols == c_cols);
}

// Rule LEGAL_MATMUL_BIAS: the bias has the result's element type and one row (row-major on a5).
constexpr bool matmul_bias_ok(const profile::Profile& p, engine::DType c, engine::DType bias, int rows, BLayout b)
{
    return bias == c && rows == 1 && (p.target != profile::Target::A5 || b == BLayout::RowMajor);
}

// Rule RUN_MATMUL_EXTENT: m, k and n are 1 to 4095.
constexpr bool matmul_extent_ok(int extent) { return extent >= 1 && extent <= 4095; }


// Rule LEGAL_SETTF32MODE_MODE: a5's cube rounds to TF32 to nearest, ties away (CAST_ROUND) or to even
// (CAST_RINT); a2a3 has no TF32 (the instruction is a no-op there) and cpu takes any mode.
constexpr bool tf32_mode_ok(const profile::Profile& p, RoundMode mode)
{
    return p.target != profile::Target::A5 || mode == RoundMode::CAST_ROUND || mode == RoundMode::CAST_RINT;
}

// --- The MX forms (TMATMUL_MX, TGEMV_MX) -------------------------------------------------------------

// Rule LEGAL_MATMUL_MX_DTYPE: a5 (and cpu) only; f32 from the fp8 pairs (e4m3/e5m2 either side) or
// from the packed fp4 types (e2m1x2/e1m2x2 either side).
constexpr bool matmul_mx_dtype_ok(const profile::Profile& p, engine::DType c, engine::DType a, engine::DType b)
{
    using enum engine::DType;
    if (p.target == profile::Target::A2A3 || c != F32) return false;
    const auto fp8 = [](engine::DType t) { return t == F8E4M3 || t == F8E5M2; };
    const auto fp4 = [](engine::DType t) { return t == F4E2M1x2 || t == F4E1M2x2; };
    return (fp8(a) && fp8(b)) || (fp4(a) && fp4(b));
}

// Rule LEGAL_MATMUL_MX_SCALE: a's scales are a ScaleLeft tile, b's a ScaleRight tile, of E8M0 exponents.
constexpr bool matmul_mx_scale_ok(TileType loc, TileType expected, engine::DType t)
{
    return loc == expected && t == engine::DType::F8E8M0;
}

// The values one MX scale covers, and the scales k values take.
inline constexpr int kMxGroup = 32;
constexpr int64_t mx_groups(int64_t k) { return (k + kMxGroup - 1) / kMxGroup; }

// The MX scale buffers mirror L0A / L0B at a sixteenth of the address: a Left or Right operand's scales
// lie in ScaleLeft / ScaleRight at its byte offset shifted right by this (the public SHIFT_MX_ADDR).
inline constexpr int kMxScaleShift = 4;

// TGET_SCALE_ADDR's MX form: a Left tile's scales as a ScaleLeft tile, a Right tile's as a ScaleRight tile.
constexpr bool get_scale_addr_scales(TileType in, TileType out)
{
    return (in == TileType::Left && out == TileType::ScaleLeft) || (in == TileType::Right && out == TileType::ScaleRight);
}

// Rule LEGAL_GET_SCALE_ADDR: TGET_SCALE_ADDR binds the scales of a Left or Right tile (a5). The cpu profile
// also takes two tiles of one memory and binds dst to src's own bytes, as the CPU simulation does (its
// TGET_SCALE_ADDR makes dst's data src's).
constexpr bool get_scale_addr_ok(const profile::Profile& p, TileType in, TileType out)
{
    if (p.target == profile::Target::A2A3) return false;
    return get_scale_addr_scales(in, out) || (p.target == profile::Target::Cpu && in == out);
}

}  // namespace pto::rules
