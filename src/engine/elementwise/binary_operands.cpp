#include "engine/elementwise/binary_operands.hpp"

#include <pto/profile/rules_elementwise.hpp>
#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstdint>
#include <string>

namespace pto::engine::elementwise {

namespace {

std::string layout_text(const TileDesc& t)
{
    std::string text = t.blayout == BLayout::RowMajor ? "row-major" : "col-major";
    if (t.boxed()) text += t.slayout == SLayout::RowMajor ? " with row-major boxes" : " with col-major boxes";
    return text;
}

std::string allowed_dtypes(const BinaryRules& rules, const profile::Profile& prof)
{
    std::string list;
    for (int i = 0; i < kDTypeCount; ++i) {
        const auto t = static_cast<DType>(i);
        if (!rules.dtype_ok(prof, t)) continue;
        if (!list.empty()) list += ", ";
        list += dtype_name(t);
    }
    return "one of " + list;
}

}  // namespace

void check_elementwise_operands(const profile::Profile& prof, const BinaryRules& rules, const TileDesc& dst,
                                std::span<const NamedTile> sources, LegalitySink& sink)
{
    // Every operand, dst first.
    auto for_each_operand = [&](auto&& fn) {
        fn(NamedTile{dst, "dst"});
        for (const NamedTile& src : sources) fn(src);
    };

    // Descriptors from the PTO-AS interpreter have not been through Tile's own checks.
    for_each_operand([&](const NamedTile& op) {
        const TileDesc& t = op.tile;
        if (all_known(t.valid_rows, t.valid_cols) &&
            (t.valid_rows < 0 || t.valid_rows > t.rows || t.valid_cols < 0 || t.valid_cols > t.cols)) {
            report(sink, "RUN_VALID_SHAPE", op.name, "valid region exceeds the tile's capacity",
                   "at most " + extent_text(t.rows, t.cols), extent_text(t.valid_rows, t.valid_cols));
        }
    });
    for (const NamedTile& src : sources) {
        if (!rules.source_dtype_ok(dst.dtype, src.tile.dtype)) {
            report(sink, "LEGAL_ELEMWISE_DTYPE", src.name, "element type differs from dst's",
                   std::string(dtype_name(dst.dtype)), std::string(dtype_name(src.tile.dtype)));
        }
    }
    if (!rules.dtype_ok(prof, dst.dtype)) {
        report(sink, rules.dtype_code, "dst",
               "element type " + std::string(dtype_name(dst.dtype)) + " is not supported on the " +
                   std::string(prof.name) + " profile",
               allowed_dtypes(rules, prof), std::string(dtype_name(dst.dtype)));
    }
    for_each_operand([&](const NamedTile& op) {
        if (!rules::elementwise_location_ok(op.tile.loc)) {
            report(sink, "LEGAL_ELEMWISE_LOCATION", op.name, "element-wise arithmetic takes tiles in UB only",
                   "a Vec tile (UB)",
                   "a " + std::string(profile::location_name(op.tile.loc)) + " tile (" +
                       std::string(profile::memory_name(op.tile.loc)) + ")");
        }
    });
    for_each_operand([&](const NamedTile& op) {
        if (!rules::elementwise_layout_ok(prof, op.tile.blayout, op.tile.slayout)) {
            report(sink, "LEGAL_ELEMWISE_LAYOUT", op.name,
                   "tile layout is not supported on the " + std::string(prof.name) + " profile", "row-major, unboxed",
                   layout_text(op.tile));
        }
    });
    for (const NamedTile& src : sources) {
        const bool rows_ok = !all_known(dst.valid_rows, src.tile.valid_rows) ||
                             rules::elementwise_valid_extent_ok(dst.valid_rows, src.tile.valid_rows);
        const bool cols_ok = !all_known(dst.valid_cols, src.tile.valid_cols) ||
                             rules::elementwise_valid_extent_ok(dst.valid_cols, src.tile.valid_cols);
        if (!rows_ok || !cols_ok) {
            report(sink, "RUN_VALID_SHAPE", src.name, "valid shape differs from dst's",
                   extent_text(dst.valid_rows, dst.valid_cols), extent_text(src.tile.valid_rows, src.tile.valid_cols));
        }
    }
}

void fail_no_kernel(const BinaryRules& rules, DType dtype)
{
    runtime::fail({rules.dtype_code, "", "dst",
                   "the engine has no kernel for element type " + std::string(dtype_name(dtype)), "", "", ""});
}

}  // namespace pto::engine::elementwise
