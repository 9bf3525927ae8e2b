// TSUBVIEW and TALIAS: the rules of a tile that views another tile's bytes (no data moves; both front
// doors rebind the view themselves).
#include <pto/engine/ops/layout.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <string>

namespace pto::engine {

void check_tsubview(const profile::Profile&, const TileDesc& dst, const TileDesc& src, int64_t row, int64_t col, LegalitySink& sink)
{
    if (!rules::subview_tiles_ok(dst.loc, src.loc, dst.rows, dst.cols, src.rows, src.cols, dst.blayout, src.blayout, dst.slayout,
                                 src.slayout))
        report(sink, "LEGAL_TSUBVIEW_TILE", "dst", "a subview has its source's memory, capacity and layout",
               std::string(profile::location_name(src.loc)) + " " + extent_text(src.rows, src.cols),
               std::string(profile::location_name(dst.loc)) + " " + extent_text(dst.rows, dst.cols) +
                   (dst.blayout != src.blayout || dst.slayout != src.slayout ? " in another layout" : ""));
    if (row < 0 || col < 0 ||
        (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols) &&
         (row + dst.valid_rows > src.valid_rows || col + dst.valid_cols > src.valid_cols)))
        report(sink, "RUN_SUBVIEW_RANGE", "dst", "the subview's valid region lies inside the source's",
               "within " + extent_text(src.valid_rows, src.valid_cols),
               extent_text(dst.valid_rows, dst.valid_cols) + " at [" + std::to_string(row) + ", " + std::to_string(col) + "]");
    // A boxed tile's view starts on a box: only then is the view's layout the source's, shifted.
    if (src.boxed() && (row % src.box_rows() != 0 || col % src.box_cols() != 0))
        report(sink, "RUN_SUBVIEW_ALIGN", "dst", "a subview of a boxed tile starts on a fractal box",
               "multiples of " + extent_text(src.box_rows(), src.box_cols()), "[" + std::to_string(row) + ", " + std::to_string(col) + "]");
}

int64_t subview_byte_offset(const TileDesc& dst, const TileDesc& src, int64_t row, int64_t col)
{
    runtime::InstructionScope scope("TSUBVIEW");
    StopAtFirstFinding stop;
    check_tsubview(runtime::active_profile(), dst, src, row, col, stop);
    return src.offset(row, col) * src.element_bits() / 8;
}

void check_talias(const profile::Profile&, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    if (dst.loc != src.loc)
        report(sink, "LEGAL_TALIAS_LOCATION", "dst", "an alias stays in its source's memory", std::string(profile::location_name(src.loc)),
               std::string(profile::location_name(dst.loc)));
    if (!rules::talias_size_ok(dst.bytes(), src.bytes()))
        report(sink, "LEGAL_TALIAS_SIZE", "dst", "an alias fits in its source's bytes", "at most " + std::to_string(src.bytes()) + " bytes",
               std::to_string(dst.bytes()) + " bytes");
}

void require_talias(const TileDesc& dst, const TileDesc& src)
{
    runtime::InstructionScope scope("TALIAS");
    StopAtFirstFinding stop;
    check_talias(runtime::active_profile(), dst, src, stop);
}

}  // namespace pto::engine
