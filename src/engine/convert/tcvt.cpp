// TCVT: operand validation against the active profile, the checked-mode bookkeeping, the staging of an
// aliasing source, and the conversion kernel.
#include <pto/engine/ops/convert.hpp>

#include <string>

#include <pto/engine/access.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/rules_convert.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"
#include "engine/convert/tile_conversion.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {

struct Operand {
    const TileDesc& tile;
    const char* name;
};

std::string name(DType t) { return std::string(dtype_name(t)); }
std::string shape(int64_t rows, int64_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

std::string layout_text(const TileDesc& t)
{
    std::string text = t.blayout == BLayout::RowMajor ? "row-major" : "col-major";
    if (t.boxed()) text += t.slayout == SLayout::RowMajor ? " with row-major boxes" : " with col-major boxes";
    return text;
}

// The destination types the profile converts `src` into, as a list for a diagnostic.
std::string destinations(const profile::Profile& p, DType src)
{
    std::string list;
    for (int i = 0; i < kDTypeCount; ++i) {
        const auto t = static_cast<DType>(i);
        if (!rules::tcvt_pair_ok(p, t, src)) continue;
        list += list.empty() ? "" : ", ";
        list += name(t);
    }
    return list.empty() ? "no conversion from " + name(src) + " on " + std::string(p.name)
                        : "dst one of " + list;
}

}  // namespace

void check_tcvt(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    const Operand operands[] = {{dst, "dst"}, {src, "src"}};
    // Descriptors from the PTO-AS interpreter have not been through Tile's own checks.
    for (const Operand& op : operands) {
        const TileDesc& t = op.tile;
        const bool rows_beyond = known(t.valid_rows) && (t.valid_rows < 0 || t.valid_rows > t.rows);
        const bool cols_beyond = known(t.valid_cols) && (t.valid_cols < 0 || t.valid_cols > t.cols);
        if (rows_beyond || cols_beyond) {
            report(sink, "RUN_VALID_SHAPE", op.name, "valid region exceeds the tile's capacity",
                   "at most " + shape(t.rows, t.cols), shape(t.valid_rows, t.valid_cols));
        }
    }
    if (!rules::tcvt_pair_ok(p, dst.dtype, src.dtype)) {
        report(sink, "LEGAL_TCVT_PAIR", "dst",
               "the " + std::string(p.name) + " profile does not convert " + name(src.dtype) + " to " + name(dst.dtype),
               destinations(p, src.dtype), name(src.dtype) + " -> " + name(dst.dtype));
    }
    for (const Operand& op : operands) {
        if (!rules::tcvt_location_ok(op.tile.loc)) {
            report(sink, "LEGAL_TCVT_LOCATION", op.name, "TCVT converts tiles in UB only", "a Vec tile (UB)",
                   "a " + std::string(profile::location_name(op.tile.loc)) + " tile (" +
                       std::string(profile::memory_name(op.tile.loc)) + ")");
        }
    }
    for (const Operand& op : operands) {
        if (!rules::tcvt_layout_ok(p, op.tile.blayout, op.tile.slayout)) {
            report(sink, "LEGAL_TCVT_LAYOUT", op.name,
                   "tile layout is not supported on the " + std::string(p.name) + " profile", "row-major, unboxed",
                   layout_text(op.tile));
        }
    }
    if (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols) &&
        !rules::tcvt_valid_shape_ok(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols)) {
        report(sink, "RUN_VALID_SHAPE", "src", "valid shape differs from dst's", shape(dst.valid_rows, dst.valid_cols),
               shape(src.valid_rows, src.valid_cols));
    }
}

void tcvt(const TileDesc& dst, const TileDesc& src, RoundMode mode, SaturationMode sat)
{
    PTO_HOLD_BACK("TCVT", tcvt, dst, src, mode, sat);
    runtime::InstructionScope scope("TCVT");
    StopAtFirstFinding stop;
    check_tcvt(runtime::active_profile(), dst, src, stop);
    warn_if_cpu_only(runtime::active_profile(),
                     [&](const profile::Profile& p, LegalitySink& sink) { check_tcvt(p, dst, src, sink); });
    if (dst.valid_rows == 0 || dst.valid_cols == 0) return;
    require_written(src, "src");
    convert::convert_tile(dst, readable_source(src, dst, 0), mode, sat);
    mark_written(dst);
}

}  // namespace pto::engine
