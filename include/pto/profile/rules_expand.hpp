// Legality rules of the broadcast instructions of the reduce-and-expand family: TROWEXPAND, the
// row-broadcast binary instructions TROWEXPANDADD/SUB/MUL/DIV/MAX/MIN/EXPDIF and the column-broadcast
// ones TCOLEXPANDADD/SUB/MUL/DIV/MAX/MIN/EXPDIF. One constexpr predicate per rule; the intrinsics check
// them in static_assert for PTO_TARGET, the engine again at run time against the active profile. On the
// cpu profile a rule holds when it holds on either real target.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// The operation of a broadcast binary instruction.
enum class ExpandOp { Add, Sub, Mul, Div, Max, Min, ExpDif };

// Rule LEGAL_<INSTR>_DTYPE of the broadcast binary instructions: ADD/SUB/MUL/DIV/MAX/MIN take half,
// float, int16 and int32 on every target, uint16 and uint32 on A5 too; EXPDIF half and float. The cpu
// profile also multiplies uint8, as the public CPU simulation does (no real target does).
constexpr bool expand_dtype_ok(ExpandOp op, const profile::Profile& p, engine::DType t)
{
    using engine::DType;
    if (op == ExpandOp::ExpDif) return t == DType::F16 || t == DType::F32;
    const bool everywhere = t == DType::F16 || t == DType::F32 || t == DType::I16 || t == DType::I32;
    const bool a5 = t == DType::U16 || t == DType::U32;
    const bool cpu = op == ExpandOp::Mul && t == DType::U8;
    switch (p.target) {
        case profile::Target::A2A3: return everywhere;
        case profile::Target::A5: return everywhere || a5;
        case profile::Target::Cpu: break;
    }
    return everywhere || a5 || cpu;
}

// Rule LEGAL_TROWEXPAND_DTYPE: 8-, 16- and 32-bit integers, half, bfloat16 and float.
constexpr bool trowexpand_dtype_ok(const profile::Profile&, engine::DType t)
{
    using engine::DType;
    switch (t) {
        case DType::I8: case DType::U8: case DType::I16: case DType::U16: case DType::I32: case DType::U32:
        case DType::F16: case DType::BF16: case DType::F32: return true;
        default: return false;
    }
}

// Rule LEGAL_EXPAND_SAME_DTYPE: every operand has dst's element type.
constexpr bool expand_same_dtype_ok(engine::DType dst, engine::DType src) { return dst == src; }

// Rule LEGAL_EXPAND_LOCATION: every operand is a Vec tile.
constexpr bool expand_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_EXPAND_LAYOUT (dst and full-size operands): plain row-major.
constexpr bool expand_row_major_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }

// How a row-broadcast operand gives each row its values: one value (column-major, one valid column) or
// a 32-byte block repeated along the row (row-major, 32 bytes of valid columns).
enum class RowBroadcast { Scalar, Block, Invalid };

constexpr RowBroadcast row_broadcast_of(BLayout b, SLayout s, int valid_cols, int element_bits)
{
    if (s != SLayout::NoneBox) return RowBroadcast::Invalid;
    if (b == BLayout::ColMajor && valid_cols == 1) return RowBroadcast::Scalar;
    if (b == BLayout::RowMajor && valid_cols * element_bits == 256) return RowBroadcast::Block;
    return RowBroadcast::Invalid;
}

}  // namespace pto::rules
