// TSCATTER, the inverse of TGATHER's index and mask-pattern forms: operand checks, the scatters and the
// definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/gather.hpp>
#include <pto/profile/rules_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/gather/pattern_attribute.hpp"
#include "engine/gather/mask_gather.hpp"
#include "engine/source_staging.hpp"
#include "engine/tile_element.hpp"

namespace pto::engine {

namespace {

void check_tiles(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc* indices, LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}, std::pair{indices, "indices"}})
        if (t && !rules::tscatter_tile_ok(t->loc, t->blayout, t->slayout))
            report(sink, "LEGAL_TSCATTER_LAYOUT", name, "TSCATTER takes row-major Vec tiles", "a row-major Vec tile", "another tile");
    if (!rules::tscatter_dtype_ok(p, dst.dtype) || src.dtype != dst.dtype)
        report(sink, "LEGAL_TSCATTER_DTYPE", "dst", "dst and src have one element type the target scatters",
               p.target == profile::Target::A2A3 ? "8-, 16-, 32-bit integers, f16, bf16 or f32" : "8- to 64-bit integers, f16, bf16 or f32",
               std::string(dtype_name(dst.dtype)) + " and " + std::string(dtype_name(src.dtype)));
}

// The count of positions in [0, extent) a pattern keeps.
int kept_count(gather::MaskSelection keep, int extent) { return extent > keep.first ? (extent - keep.first + keep.step - 1) / keep.step : 0; }

// Every element of dst's capacity set to zero (the device clears the whole buffer first).
void clear_capacity(const TileDesc& dst)
{
    runtime::require_tile_bytes(dst.data, dst.bytes(), "its capacity, which TSCATTER clears,", "dst");
    std::memset(dst.data, 0, size_t(dst.bytes()));
    TileDesc whole = dst;
    whole.valid_rows = dst.rows;
    whole.valid_cols = dst.cols;
    mark_written(whole);
}

}  // namespace

void check_tscatter_index(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& indices,
                          LegalitySink& sink)
{
    check_tiles(p, dst, src, &indices, sink);
    if (!rules::tscatter_indices_dtype_ok(p, dst.dtype, indices.dtype))
        report(sink, "LEGAL_TSCATTER_INDICES_DTYPE", "indices", "indices of the width the data asks for",
               dtype_bits(dst.dtype) >= 32 ? "i32 or u32" : "i16 or u16", std::string(dtype_name(indices.dtype)));
    if (all_known(src.valid_rows, src.valid_cols, indices.valid_rows, indices.valid_cols) &&
        (src.valid_rows < indices.valid_rows || src.valid_cols < indices.valid_cols))
        report(sink, "RUN_VALID_SHAPE", "src", "src holds an element for every index", "at least " + extent_text(indices.valid_rows, indices.valid_cols),
               extent_text(src.valid_rows, src.valid_cols));
}

void tscatter_index(const TileDesc& dst, const TileDesc& src_tile, const TileDesc& indices_tile)
{
    PTO_HOLD_BACK("TSCATTER", tscatter_index, dst, src_tile, indices_tile);
    runtime::InstructionScope scope("TSCATTER");
    StopAtFirstFinding stop;
    check_tscatter_index(runtime::active_profile(), dst, src_tile, indices_tile, stop);
    warn_if_cpu_only(runtime::active_profile(),
                     [&](const profile::Profile& p, LegalitySink& s) { check_tscatter_index(p, dst, src_tile, indices_tile, s); });
    require_written(indices_tile, "indices");
    require_written(src_tile, indices_tile.valid_rows, indices_tile.valid_cols, "src");
    const TileDesc src = source_apart_from(src_tile, dst, 0), indices = source_apart_from(indices_tile, dst, 1);
    clear_capacity(dst);
    const int64_t extent = dst.elements();
    const int index_bytes = indices.element_bits() / 8;
    // Row-major over the indices' valid region: of two equal indices, the later element wins.
    for (int i = 0; i < indices.valid_rows; ++i)
        for (int j = 0; j < indices.valid_cols; ++j) {
            uint32_t k = 0;  // read as unsigned, as the device does
            std::memcpy(&k, element_address(indices, indices.offset(i, j)), size_t(index_bytes));
            if (int64_t(k) >= extent)
                runtime::fail({"RUN_SCATTER_INDEX", "TSCATTER", "indices",
                               "index " + std::to_string(k) + " of element (" + std::to_string(i) + ", " + std::to_string(j) +
                                   ") is outside dst, whose capacity holds " + std::to_string(extent) + " elements",
                               "an index in [0, " + std::to_string(extent - 1) + "]", std::to_string(k), ""});
            copy_element(dst.data, dst.offset(int64_t(k) / dst.cols, int64_t(k) % dst.cols), src.data, src.offset(i, j), dst.element_bits());
        }
}

void check_tscatter_mask(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, MaskPattern pattern, ScatterAxis axis,
                         LegalitySink& sink)
{
    check_tiles(p, dst, src, nullptr, sink);
    if (!all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols)) return;
    const gather::MaskSelection keep = gather::selection_of(pattern);
    const bool rows = axis == ScatterAxis::SCATTER_ROW;
    const int want_rows = rows ? dst.valid_rows : kept_count(keep, dst.valid_rows);
    const int want_cols = rows ? kept_count(keep, dst.valid_cols) : dst.valid_cols;
    if (src.valid_rows != want_rows || src.valid_cols != want_cols)
        report(sink, "RUN_VALID_SHAPE", "src", rows ? "src holds the kept columns of dst's valid rows" : "src holds the kept rows of dst's valid region",
               extent_text(want_rows, want_cols), extent_text(src.valid_rows, src.valid_cols));
}

void tscatter_mask(const TileDesc& dst, const TileDesc& src_tile, MaskPattern pattern, ScatterAxis axis)
{
    PTO_HOLD_BACK("TSCATTER", tscatter_mask, dst, src_tile, pattern, axis);
    runtime::InstructionScope scope("TSCATTER");
    StopAtFirstFinding stop;
    check_tscatter_mask(runtime::active_profile(), dst, src_tile, pattern, axis, stop);
    require_written(src_tile, "src");
    const TileDesc src = source_apart_from(src_tile, dst, 0);
    clear_capacity(dst);
    const gather::MaskSelection keep = gather::selection_of(pattern);
    const int bits = dst.element_bits();
    if (axis == ScatterAxis::SCATTER_ROW) {
        // dst(r, first + step * j) = src(r, j).
        for (int r = 0; r < src.valid_rows; ++r)
            for (int j = 0; j < src.valid_cols; ++j)
                copy_element(dst.data, dst.offset(r, keep.first + keep.step * j), src.data, src.offset(r, j), bits);
    } else {
        // dst(first + step * i, c) = src(i, c).
        for (int i = 0; i < src.valid_rows; ++i)
            for (int c = 0; c < src.valid_cols; ++c)
                copy_element(dst.data, dst.offset(keep.first + keep.step * i, c), src.data, src.offset(i, c), bits);
    }
}

// ---- definition ---------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kIndexSources[] = {{"src", OperandKind::Tile}, {"indices", OperandKind::Tile}};
constexpr Form kForms[] = {{kIndexSources, kTileDst}, {kTileSrc, kTileDst}};

constexpr std::string_view kAxisKeys[] = {"axis", "scatterAxis", "scatter_axis", "ScatterType"};
constexpr AttributeValue kAxisValues[] = {
    spelling("row", ScatterAxis::SCATTER_ROW), spelling("scatter_row", ScatterAxis::SCATTER_ROW),
    spelling("col", ScatterAxis::SCATTER_COL), spelling("scatter_col", ScatterAxis::SCATTER_COL),
};
constexpr AttributeSpec kAttributes[] = {
    {gather::kPatternKeys, gather::kPatternValues, int32_t(MaskPattern::P1111)},
    {kAxisKeys, kAxisValues, int32_t(ScatterAxis::SCATTER_ROW)},
};

}  // namespace

constexpr InstrDef definitions::TSCATTER{
    .id = Instr::TSCATTER,
    .mnemonic = "TSCATTER",
    .forms = kForms,
    .attributes = kAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        if (c.form == 0) check_tscatter_index(p, c.dst(), c.src(0), c.src(1), sink);
        else check_tscatter_mask(p, c.dst(), c.src(0), c.attribute<MaskPattern>(0), c.attribute<ScatterAxis>(1), sink);
    },
    .run = [](const Call& c) {
        if (c.form == 0) tscatter_index(c.dst(), c.src(0), c.src(1));
        else tscatter_mask(c.dst(), c.src(0), c.attribute<MaskPattern>(0), c.attribute<ScatterAxis>(1));
    },
};

}  // namespace pto::engine
