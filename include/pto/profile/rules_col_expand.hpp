// Legality rules of TCOLEXPAND, one constexpr predicate per rule. The intrinsic checks them in
// static_assert for PTO_TARGET; the engine checks the same predicates at run time against the active
// profile and reports the rule's code. On the cpu profile a rule holds when it holds on either real
// target.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Rule LEGAL_TCOLEXPAND_DTYPE: A2/A3 broadcasts 8/16/32-bit integers, half and float; A5 any element
// of 1, 2 or 4 bytes.
constexpr bool tcolexpand_dtype_ok(const profile::Profile& p, engine::DType t)
{
    using engine::DType;
    bool a2a3 = false;
    switch (t) {
        case DType::I8:
        case DType::U8:
        case DType::I16:
        case DType::U16:
        case DType::I32:
        case DType::U32:
        case DType::F16:
        case DType::F32: a2a3 = true; break;
        default: break;
    }
    const int bits = engine::dtype_bits(t);
    const bool a5 = bits == 8 || bits == 16 || bits == 32;
    switch (p.target) {
        case profile::Target::A2A3: return a2a3;
        case profile::Target::A5: return a5;
        case profile::Target::Cpu: break;
    }
    return a2a3 || a5;
}

// Rule LEGAL_TCOLEXPAND_SAME_DTYPE: dst and src have one element type.
constexpr bool tcolexpand_same_dtype_ok(engine::DType dst, engine::DType src) { return dst == src; }

// Rule LEGAL_TCOLEXPAND_LOCATION: both operands are Vec tiles.
constexpr bool tcolexpand_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_TCOLEXPAND_LAYOUT: both operands are plain row-major tiles.
constexpr bool tcolexpand_layout_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }

// Rule LEGAL_TCOLEXPAND_SHAPE: src has dst's valid columns, and a first row to broadcast unless dst's
// valid region is empty.
constexpr bool tcolexpand_shape_ok(int dst_valid_rows, int dst_valid_cols, int src_valid_rows, int src_valid_cols)
{
    const bool dst_empty = dst_valid_rows == 0 || dst_valid_cols == 0;
    return src_valid_cols == dst_valid_cols && (src_valid_rows >= 1 || dst_empty);
}

}  // namespace pto::rules
