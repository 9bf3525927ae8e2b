// TCONCAT (whole valid regions, or per-row lengths in bytes from length tiles): operand checks, the row
// copies and the definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstring>
#include <algorithm>
#include <string>
#include <tuple>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/layout/row_copy.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

void check_tconcat(const profile::Profile&, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1,
                   const ConcatLengths* lengths, LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src0, "src0"}, std::pair{&src1, "src1"}})
        if (!rules::rearrange_tile_ok(t->loc, t->blayout, t->slayout))
            report(sink, "LEGAL_TCONCAT_LAYOUT", name, "TCONCAT takes row-major Vec tiles", "a row-major Vec tile", "another tile");
    if (!rules::rearrange_dtype_ok(dst.dtype) || src0.dtype != dst.dtype || src1.dtype != dst.dtype)
        report(sink, "LEGAL_TCONCAT_DTYPE", "dst", "dst, src0 and src1 have one element type: 8-, 16-, 32-bit integers, f16, bf16 or f32",
               std::string(dtype_name(dst.dtype)), std::string(dtype_name(src0.dtype)) + ", " + std::string(dtype_name(src1.dtype)));
    if (lengths) {
        for (const auto& [t, name] : {std::pair{lengths->dst, "dstIdx"}, std::pair{lengths->src0, "src0Idx"}, std::pair{lengths->src1, "src1Idx"}}) {
            if (!t) continue;
            if (t->loc != TileType::Vec)
                report(sink, "LEGAL_TCONCAT_LAYOUT", name, "TCONCAT's length tiles are Vec tiles", "a Vec tile",
                       std::string(profile::location_name(t->loc)));
            if (!rules::concat_index_dtype_ok(t->dtype) || t->dtype != lengths->src0->dtype)
                report(sink, "LEGAL_TCONCAT_INDEX_DTYPE", name, "the length tiles hold one 8-, 16- or 32-bit integer type",
                       std::string(dtype_name(lengths->src0->dtype)), std::string(dtype_name(t->dtype)));
        }
    }
    if (all_known(dst.valid_rows, src0.valid_rows, src1.valid_rows) &&
        (src0.valid_rows != dst.valid_rows || src1.valid_rows != dst.valid_rows))
        report(sink, "RUN_VALID_SHAPE", "src0", "dst, src0 and src1 have one number of valid rows", std::to_string(dst.valid_rows),
               std::to_string(src0.valid_rows) + " and " + std::to_string(src1.valid_rows));
    if (!lengths && all_known(dst.valid_cols, src0.valid_cols, src1.valid_cols) && dst.valid_cols != src0.valid_cols + src1.valid_cols)
        report(sink, "RUN_VALID_SHAPE", "dst", "dst's valid columns are src0's and src1's together",
               std::to_string(src0.valid_cols + src1.valid_cols), std::to_string(dst.valid_cols));
    if (lengths)
        for (const auto& [t, name] : {std::pair{lengths->dst, "dstIdx"}, std::pair{lengths->src0, "src0Idx"}, std::pair{lengths->src1, "src1Idx"}})
            if (t && all_known(t->valid_rows, t->valid_cols, dst.valid_rows) && (t->valid_rows < dst.valid_rows || t->valid_cols < 1))
                report(sink, "RUN_VALID_SHAPE", name, "a length tile holds one length per row of dst in its first column",
                       "at least " + extent_text(dst.valid_rows, 1), extent_text(t->valid_rows, t->valid_cols));
}

void tconcat(const TileDesc& dst, const TileDesc& src0_tile, const TileDesc& src1_tile, const ConcatLengths* lengths)
{
    PTO_HOLD_BACK("TCONCAT", tconcat, dst, src0_tile, src1_tile, lengths);
    runtime::InstructionScope scope("TCONCAT");
    StopAtFirstFinding stop;
    check_tconcat(runtime::active_profile(), dst, src0_tile, src1_tile, lengths, stop);
    const int rows = dst.valid_rows;
    // Each row's column counts: the valid columns, or the lengths (bytes) in column 0 of the length tiles.
    std::vector<std::pair<int, int>> counts(size_t(rows), {src0_tile.valid_cols, src1_tile.valid_cols});
    if (lengths) {
        require_written(*lengths->src0, rows, 1, "src0Idx");
        require_written(*lengths->src1, rows, 1, "src1Idx");
        // A length counts units of the index type's size (as the targets divide it); the row takes as
        // many of src0's elements as dst's valid columns allow, then as many of src1's as remain.
        const int unit = lengths->src0->element_bits() / 8;
        const auto length = [&](const TileDesc& t, int r) {
            uint32_t value = 0;
            std::memcpy(&value, element_address(t, t.offset(r, 0)), size_t(unit));
            return int64_t(value / uint32_t(unit));
        };
        for (int r = 0; r < rows; ++r) {
            const int n0 = int(std::min<int64_t>(length(*lengths->src0, r), dst.valid_cols));
            const int n1 = int(std::min<int64_t>(length(*lengths->src1, r), dst.valid_cols - n0));
            for (const auto& [n, src, name] : {std::tuple{n0, &src0_tile, "src0Idx"}, std::tuple{n1, &src1_tile, "src1Idx"}})
                if (n > src->cols)
                    runtime::fail({"RUN_TCONCAT_LENGTH", "TCONCAT", name,
                                   "row " + std::to_string(r) + " would take " + std::to_string(n) + " elements from a source row of " +
                                       std::to_string(src->cols),
                                   "at most " + std::to_string(src->cols) + " elements", std::to_string(n) + " elements", ""});
            counts[size_t(r)] = {n0, n1};
        }
    }
    for (int r = 0; r < rows; ++r) {
        require_written(layout::row_of(src0_tile, r), 1, counts[size_t(r)].first, "src0");
        require_written(layout::row_of(src1_tile, r), 1, counts[size_t(r)].second, "src1");
    }
    const TileDesc src0 = source_apart_from(src0_tile, dst, 0), src1 = source_apart_from(src1_tile, dst, 1);
    for (int r = 0; r < rows; ++r) {
        const auto [cols0, cols1] = counts[size_t(r)];
        layout::copy_row_span(dst, r, 0, src0, r, 0, cols0);
        layout::copy_row_span(dst, r, cols0, src1, r, 0, cols1);
        mark_written(layout::row_of(dst, r), 1, cols0 + cols1);
        if (lengths && lengths->dst) {
            const TileDesc& out = *lengths->dst;
            const int64_t total = int64_t(cols0 + cols1) * (out.element_bits() / 8);  // in the same units
            std::memcpy(element_address(out, out.offset(r, 0)), &total, size_t(out.element_bits() / 8));  // little-endian low bytes
        }
    }
    if (lengths && lengths->dst) mark_written(*lengths->dst, rows, 1);
}

// ---- definition ---------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kSources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr OperandSpec kSourcesAndLengths[] = {
    {"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}, {"src0Idx", OperandKind::Tile}, {"src1Idx", OperandKind::Tile}};
constexpr OperandSpec kResultAndLength[] = {{"dst", OperandKind::Tile}, {"dstIdx", OperandKind::Tile}};
constexpr Form kForms[] = {{kSources, kTileDst}, {kSourcesAndLengths, kTileDst}, {kSourcesAndLengths, kResultAndLength}};

// The length tiles of a call, when its form has them.
bool lengths_of(const Call& c, ConcatLengths& out)
{
    if (c.form == 0) return false;
    out = {c.destinations.size() > 1 ? &c.dst(1) : nullptr, &c.src(2), &c.src(3)};
    return true;
}

}  // namespace

constexpr InstrDef definitions::TCONCAT{
    .id = Instr::TCONCAT,
    .mnemonic = "TCONCAT",
    .forms = kForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        ConcatLengths lengths;
        check_tconcat(p, c.dst(), c.src(0), c.src(1), lengths_of(c, lengths) ? &lengths : nullptr, sink);
    },
    .run = [](const Call& c) {
        ConcatLengths lengths;
        tconcat(c.dst(), c.src(0), c.src(1), lengths_of(c, lengths) ? &lengths : nullptr);
    },
};

}  // namespace pto::engine
