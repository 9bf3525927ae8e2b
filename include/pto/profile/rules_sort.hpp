// Legality rules of TSORT32 and TMRGSORT, one constexpr predicate per rule. The intrinsic checks them in
// static_assert for PTO_TARGET; the engine checks the same predicates at run time against the active
// profile and reports the rule's code. A2/A3 and A5 share every rule, and so does the cpu profile.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Elements per sorted block, and blocks one hardware sort call takes.
inline constexpr int kSortBlock = 32;
inline constexpr int kSortBlocksPerCall = 255;

// Destination elements per source element: each value becomes an 8-byte (value, index) pair.
constexpr int tsort32_pair_elements(engine::DType t) { return 64 / engine::dtype_bits(t); }

// Rule LEGAL_TSORT32_DTYPE: the sorter takes half and float values.
constexpr bool tsort32_dtype_ok(const profile::Profile&, engine::DType t)
{
    return t == engine::DType::F16 || t == engine::DType::F32;
}

// Rule LEGAL_TSORT32_SAME_DTYPE: dst (and tmp) hold the element type of src.
constexpr bool tsort32_same_dtype_ok(engine::DType a, engine::DType b) { return a == b; }

// Rule LEGAL_TSORT32_INDEX_DTYPE: indices are uint32.
constexpr bool tsort32_index_dtype_ok(engine::DType t) { return t == engine::DType::U32; }

// Rule LEGAL_TSORT32_LOCATION: every operand is a Vec tile.
constexpr bool tsort32_location_ok(TileType loc) { return loc == TileType::Vec; }

// Rule LEGAL_TSORT32_LAYOUT: every operand is a plain row-major tile.
constexpr bool tsort32_layout_ok(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::NoneBox; }

// Rule LEGAL_TSORT32_COLS: without tmp, each row is a whole number of 32-element blocks.
constexpr bool tsort32_cols_ok(int src_valid_cols) { return src_valid_cols % kSortBlock == 0; }

// Rule LEGAL_TSORT32_TMP_SIZE: a row of tmp holds the row's blocks, padded to 32 elements (one sort
// call's worth at most).
constexpr bool tsort32_tmp_size_ok(int tmp_cols, int src_valid_cols)
{
    const int64_t padded = (int64_t(src_valid_cols) + kSortBlock - 1) / kSortBlock * kSortBlock;
    const int64_t one_call = int64_t(kSortBlock) * kSortBlocksPerCall;
    return tmp_cols >= (padded < one_call ? padded : one_call);
}

// Rule LEGAL_TSORT32_DST_SHAPE: a row of dst holds a pair for every sorted element.
constexpr bool tsort32_dst_cols_ok(int dst_valid_cols, int src_valid_cols, engine::DType t)
{
    return int64_t(dst_valid_cols) >= int64_t(src_valid_cols) * tsort32_pair_elements(t);
}

// Rule LEGAL_TSORT32_SHAPE: src has the rows dst's valid region sorts, and the indices cover every
// sorted element, either per row or as one 1 x C row shared by every row.
constexpr bool tsort32_operand_shape_ok(int rows, int cols, int src_valid_rows, int index_valid_rows,
                                        int index_valid_cols)
{
    const bool index_rows = index_valid_rows == 1 || index_valid_rows >= rows;
    return src_valid_rows >= rows && index_rows && index_valid_cols >= cols;
}

// Rule LEGAL_TMRGSORT_DTYPE: (value, index) pairs of half or float values, one type in every tile.
constexpr bool tmrgsort_dtype_ok(engine::DType t) { return t == engine::DType::F16 || t == engine::DType::F32; }

// Rule LEGAL_TMRGSORT_LAYOUT: every tile is one row-major Vec row (Rows == 1).
constexpr bool tmrgsort_tile_ok(TileType loc, BLayout b, SLayout s, int rows)
{
    return loc == TileType::Vec && b == BLayout::RowMajor && s == SLayout::NoneBox && rows == 1;
}

// Rule LEGAL_TMRGSORT_TMP: tmp's capacity holds every source's valid columns (the device stages the merge
// there). The page states it for the sources' capacities; the public programs merge valid prefixes of
// larger tiles through a tmp of one tile's capacity, which the device accepts.
constexpr bool tmrgsort_tmp_ok(int64_t tmp_cols, int64_t source_valid_cols) { return tmp_cols >= source_valid_cols; }

// Rule LEGAL_TMRGSORT_UB: the sources and tmp (or the source and dst of the one-list form) fit in UB
// together.
constexpr bool tmrgsort_ub_ok(const profile::Profile& p, int64_t bytes)
{
    return uint64_t(bytes) < profile::capacity_of(p, TileType::Vec);
}

// Rule RUN_TMRGSORT_BLOCK (one-list form): blocks of a multiple of 64 elements, the row a whole number
// (1 to 255) of groups of four blocks.
constexpr bool tmrgsort_block_ok(int64_t block_len, int64_t valid_cols)
{
    if (block_len <= 0 || block_len % 64 != 0 || valid_cols % (4 * block_len) != 0) return false;
    const int64_t repeats = valid_cols / (4 * block_len);
    return repeats >= 1 && repeats <= 255;
}

}  // namespace pto::rules
