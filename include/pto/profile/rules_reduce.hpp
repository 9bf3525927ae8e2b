// Legality rules of the row and column reductions (TROWSUM TROWMAX TROWMIN TROWPROD, TCOLSUM TCOLMAX
// TCOLMIN TCOLPROD), one constexpr predicate per rule. The codes carry the instruction's name (LEGAL_TROWSUM_DTYPE, ...); the
// intrinsics check the predicates in static_assert for PTO_TARGET, the engine at run time against the
// active profile. On the cpu profile a rule holds when it holds on either real target.
#pragma once

#include <cstdint>
#include <initializer_list>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// What a reduction computes; the dtype rule differs by instruction.
enum class ReduceOp : uint8_t { Sum, Max, Min, Prod };

namespace detail {

constexpr bool one_of(engine::DType t, std::initializer_list<engine::DType> types)
{
    for (engine::DType u : types)
        if (u == t) return true;
    return false;
}

using profile::on_profile;

}  // namespace detail

// Rule LEGAL_<NAME>_DTYPE of the row reductions. A2/A3: half, float, int32, int16. A5: TROWSUM adds
// int64 and uint64; TROWMAX and TROWMIN add those and int8, uint8; TROWPROD adds nothing.
constexpr bool row_reduce_dtype_ok(const profile::Profile& p, ReduceOp op, engine::DType t)
{
    using enum engine::DType;
    const bool a2a3 = detail::one_of(t, {F16, F32, I32, I16});
    const bool wide = op != ReduceOp::Prod && detail::one_of(t, {I64, U64});
    const bool bytes = (op == ReduceOp::Max || op == ReduceOp::Min) && detail::one_of(t, {I8, U8});
    return detail::on_profile(p, a2a3, a2a3 || wide || bytes);
}

// Rule LEGAL_<NAME>_DTYPE of the column reductions. A2/A3: half, float, int16, int32. A5: every integer
// of 8 to 64 bits, half, bfloat16, float; TCOLPROD only the 16- and 32-bit ones.
constexpr bool col_reduce_dtype_ok(const profile::Profile& p, ReduceOp op, engine::DType t)
{
    using enum engine::DType;
    const bool a2a3 = detail::one_of(t, {F16, F32, I16, I32});
    const bool a5 = op == ReduceOp::Prod ? detail::one_of(t, {F16, BF16, F32, I16, U16, I32, U32})
                                         : detail::one_of(t, {F16, BF16, F32, I8, U8, I16, U16, I32, U32, I64, U64});
    return detail::on_profile(p, a2a3, a5);
}

// Rule LEGAL_<NAME>_SAME_DTYPE: dst (and TCOLSUM's tmp) has src's element type.
constexpr bool reduce_same_dtype_ok(engine::DType dst, engine::DType src) { return dst == src; }

// Rule LEGAL_<NAME>_LOCATION: every operand is a Vec tile (UB).
constexpr bool reduce_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_<NAME>_LAYOUT: src (and dst of a column reduction, TCOLSUM's tmp) is row-major and
// unboxed (ND).
constexpr bool reduce_nd_layout_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }

// Rule LEGAL_<NAME>_LAYOUT for dst of a row reduction: ND, or column-major (DN) with one column.
constexpr bool row_reduce_dst_layout_ok(BLayout b, SLayout s, int cols)
{
    return s == SLayout::NoneBox && (b == BLayout::RowMajor || cols == 1);
}

// Rule LEGAL_TCOLSUM_TMP: on A2/A3, TCOLSUM's tmp is an ND Vec tile of src's element type (A5 and the cpu
// profile accept any tile).
constexpr bool tcolsum_tmp_ok(const profile::Profile& p, TileType loc, BLayout b, SLayout s, engine::DType tmp,
                              engine::DType src)
{
    const bool a2a3 = reduce_location_ok(loc) && reduce_nd_layout_ok(b, s) && tmp == src;
    return detail::on_profile(p, a2a3, true);
}

// ---- TROWARGMAX TROWARGMIN TCOLARGMAX TCOLARGMIN --------------------------------------------------

// Rule LEGAL_<NAME>_DTYPE of the argument reductions (src). Rows: half or float on every target.
// Columns: A2/A3 half, float, uint16, uint32; A5 also the 8-, 16- and 32-bit integers; with the value
// output no 8-bit type. The cpu profile also searches, in either direction and form, every type the
// public CPU simulation searches that a double holds exactly (its test program searches int32 rows):
// half, bfloat16, float and the 8-, 16- and 32-bit integers.
constexpr bool cpu_arg_dtype_ok(const profile::Profile& p, engine::DType src)
{
    using enum engine::DType;
    return p.target == profile::Target::Cpu && detail::one_of(src, {F16, BF16, F32, I8, U8, I16, U16, I32, U32});
}
constexpr bool row_arg_dtype_ok(const profile::Profile& p, engine::DType src)
{
    return src == engine::DType::F16 || src == engine::DType::F32 || cpu_arg_dtype_ok(p, src);
}
constexpr bool col_arg_dtype_ok(const profile::Profile& p, engine::DType src, bool with_value)
{
    using enum engine::DType;
    const bool a2a3 = detail::one_of(src, {F16, F32, U16, U32});
    const bool a5 = detail::one_of(src, {F16, F32, I16, U16, I32, U32}) || (!with_value && detail::one_of(src, {I8, U8}));
    return detail::on_profile(p, a2a3, a5) || cpu_arg_dtype_ok(p, src);
}

// Rule LEGAL_<NAME>_INDEX_DTYPE: indices are uint32 or int32; a column's value-and-index form of a
// 16-bit source takes uint16 or int16 indices instead. The cpu profile takes any of the four, as the
// public CPU simulation (whose program searches half columns with int32 indices) does.
constexpr bool arg_index_dtype_ok(const profile::Profile& p, engine::DType index, engine::DType src, bool column_with_value)
{
    using enum engine::DType;
    const bool narrow = index == U16 || index == I16, wide = index == U32 || index == I32;
    if (p.target == profile::Target::Cpu) return narrow || wide;
    return column_with_value && engine::dtype_bits(src) == 16 ? narrow : wide;
}

// Rule LEGAL_TCOLARGMAX_TMP / LEGAL_TCOLARGMIN_TMP: on A2/A3 tmp is scratch of src's element type (A5
// and the cpu profile accept any tile).
constexpr bool col_arg_tmp_ok(const profile::Profile& p, engine::DType tmp, engine::DType src)
{
    return detail::on_profile(p, tmp == src, true);
}

// Rule LEGAL_THISTOGRAM_TARGET: THISTOGRAM exists on a5 (and the cpu profile), not on a2a3.
constexpr bool thistogram_target_ok(const profile::Profile& p) { return p.target != profile::Target::A2A3; }

// Rule LEGAL_THISTOGRAM_DTYPE: u32 bins from u16 or u32 sources, u8 filter bytes.
constexpr bool thistogram_dtype_ok(engine::DType dst, engine::DType src, engine::DType idx)
{
    using enum engine::DType;
    return dst == U32 && (src == U16 || src == U32) && idx == U8;
}

// Rule LEGAL_THISTOGRAM_BYTE: a u16 source has bytes 0 and 1 only.
constexpr bool thistogram_byte_ok(engine::DType src, HistByte byte)
{
    return engine::dtype_bits(src) == 32 || byte == HistByte::BYTE_0 || byte == HistByte::BYTE_1;
}

// Rule LEGAL_THISTOGRAM_LAYOUT: dst and src row-major; the filter bytes of a u16 source one DN column
// (column-major, unboxed, one column), those of a u32 source row-major.
constexpr bool thistogram_layout_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }
constexpr bool thistogram_index_layout_ok(engine::DType src, BLayout b, SLayout s, int cols)
{
    if (engine::dtype_bits(src) == 16) return b == BLayout::ColMajor && s == SLayout::NoneBox && cols == 1;
    return thistogram_layout_ok(b, s);
}

}  // namespace pto::rules
