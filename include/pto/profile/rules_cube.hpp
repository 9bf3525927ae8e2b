// Legality rules of the cube micro-instructions (PTO-AS `pto.mad*`, `pto.mte_*`), one constexpr
// predicate per rule, with its code in the comment above it. The matrix multiply itself follows the
// matrix instructions' rules (rules_matmul.hpp).
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// The fractal layout each cube memory holds (the cube pages' NZ table): L1 operands and L0A in Nz
// (column-major boxes, row-major inside; L0A in Zz, row-major boxes, on a2a3), L0B in Zn (row-major
// boxes, column-major inside, k innermost), L0C in Nz.
struct CubeLayout {
    BLayout blayout;
    SLayout slayout;
};
constexpr CubeLayout cube_layout(const profile::Profile& p, TileType loc)
{
    if (loc == TileType::Right) return {BLayout::RowMajor, SLayout::ColMajor};
    if (loc == TileType::Left && p.target == profile::Target::A2A3) return {BLayout::RowMajor, SLayout::RowMajor};
    return {BLayout::ColMajor, SLayout::RowMajor};
}

// Rule LEGAL_MTE_DTYPE: a move between cube tiles keeps its element type.
constexpr bool cube_move_dtype_ok(engine::DType src, engine::DType dst) { return src == dst; }

// Rule LEGAL_MTE_BT_DTYPE: the bias table loads f32 -> f32, i32 -> i32, f16 -> f32 and bf16 -> f32.
constexpr bool bias_load_dtype_ok(engine::DType src, engine::DType dst)
{
    using enum engine::DType;
    return (src == dst && (src == F32 || src == I32)) || (dst == F32 && (src == F16 || src == BF16));
}

// Rule LEGAL_MAD_TF32: tf32_mode(...) needs f32 inputs and result.
constexpr bool mad_tf32_ok(engine::DType a, engine::DType b, engine::DType c)
{
    return a == engine::DType::F32 && b == engine::DType::F32 && c == engine::DType::F32;
}

// Rule LEGAL_MAD_SAT: sat / nosat apply to floating multiplies only.
constexpr bool mad_saturation_ok(engine::DType c) { return c == engine::DType::F32; }

// Rule RUN_MAD_MX_K: a5's MX cube consumes k in multiples of 64 values (two scale groups); cpu takes any k.
constexpr bool mad_mx_k_ok(const profile::Profile& p, int64_t k) { return p.target != profile::Target::A5 || k % 64 == 0; }

// Rule LEGAL_FIXPIPE_DTYPE: the fixpipe reads an f32 or i32 accumulator; an f32 one leaves as f32, f16
// or bf16, and with a pre_quant also as the 8-bit integers and i16; an i32 one as i32, or quantized
// into f16, bf16, the 8-bit integers or i16.
constexpr bool fixpipe_dtype_ok(engine::DType acc, engine::DType out, bool quantized)
{
    using enum engine::DType;
    const bool narrow = out == I8 || out == U8 || out == I16;
    if (acc == F32) return out == F32 || out == F16 || out == BF16 || (quantized && narrow);
    if (acc == I32) return out == I32 || (quantized && (out == F16 || out == BF16 || narrow));
    return false;
}

// Rule RUN_FIXPIPE_STRIDE: the accumulator's 16-column box columns lie a whole number of 16-row boxes
// apart, at least as many rows as the writeback reads.
constexpr bool fixpipe_src_stride_ok(int64_t rows_apart, int64_t rows_read) { return rows_apart % 16 == 0 && rows_apart >= rows_read; }

// The accumulator rows an m-row writeback spans: nz2dn reads result row r from accumulator row
// r * loop0_src_stride (1 for every other layout).
constexpr int64_t fixpipe_rows_read(int64_t m, int64_t loop0_src_stride) { return (m - 1) * loop0_src_stride + 1; }

// Rule RUN_FIXPIPE_LOOP0: nz2dn's loop0 source stride is at least 1, and 1 when unit_flag is given.
constexpr bool fixpipe_loop0_ok(int64_t stride, bool unit_flag) { return stride >= 1 && (stride == 1 || !unit_flag); }

// Rule RUN_FIXPIPE_SUB_BLOCK: dst_mode(%sub_blockid) names UB sub-block 0 or 1.
constexpr bool fixpipe_sub_block_ok(int64_t sub) { return sub == 0 || sub == 1; }

// Rule RUN_FIXPIPE_SPLIT: dst_mode(split_m) halves an even m, dst_mode(split_n) an n that is a
// multiple of 32.
constexpr bool fixpipe_split_m_ok(int64_t m) { return m % 2 == 0; }
constexpr bool fixpipe_split_n_ok(int64_t n) { return n % 32 == 0; }

// Rule LEGAL_FIXPIPE_DUAL: a dual-destination (split) writeback only converts: no pre_quant, no
// pre_relu, and the layout is Nz (no clause) or nz2nd.
constexpr bool fixpipe_dual_ok(bool pre_quant, bool pre_relu, bool nz_or_nd) { return !pre_quant && !pre_relu && nz_or_nd; }

// Rule LEGAL_FIXPIPE_NZ2NZ: the nz2nz writeback produces f32 and takes no loop3.
constexpr bool fixpipe_nz2nz_ok(engine::DType out, bool loop3) { return out == engine::DType::F32 && !loop3; }

// Rule LEGAL_FIXPIPE_ATOMIC: atomic(type = T, ...) names the destination's type, one of f32, f16, bf16,
// s32, s16, s8, and op is add, max or min.
constexpr bool fixpipe_atomic_type_ok(engine::DType t)
{
    using enum engine::DType;
    return t == F32 || t == F16 || t == BF16 || t == I32 || t == I16 || t == I8;
}

}  // namespace pto::rules
