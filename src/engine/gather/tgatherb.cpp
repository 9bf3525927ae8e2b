// TGATHERB: 32-byte blocks of src at byte offsets; operand checks, the block copies and the definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/gather.hpp>
#include <pto/profile/rules_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {
constexpr int kBlockBytes = 32;
}  // namespace

void check_tgatherb(const profile::Profile&, const TileDesc& dst, const TileDesc& src, const TileDesc& offsets, LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}, std::pair{&offsets, "offset"}})
        if (t->loc != TileType::Vec)
            report(sink, "LEGAL_TGATHERB_LOCATION", name, "TGATHERB takes Vec tiles", "a Vec tile", std::string(profile::location_name(t->loc)));
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&offsets, "offset"}})
        if (!rules::tgather_layout_ok(t->blayout, t->slayout))
            report(sink, "LEGAL_TGATHERB_LAYOUT", name, "dst and the offsets are row-major", "row-major, unboxed", "another layout");
    if (!rules::tgatherb_dtype_ok(dst.dtype, src.dtype))
        report(sink, "LEGAL_TGATHERB_DTYPE", "dst", "8-, 16-, 32-bit integers, f16, bf16 or f32, one size in dst and src",
               std::string(dtype_name(src.dtype)) + "'s size", std::string(dtype_name(dst.dtype)));
    if (!rules::tgatherb_offset_dtype_ok(offsets.dtype))
        report(sink, "LEGAL_TGATHERB_OFFSET_DTYPE", "offset", "the offsets are 32-bit byte offsets", "u32",
               std::string(dtype_name(offsets.dtype)));
    if (!all_known(dst.valid_rows, dst.valid_cols)) return;
    const int64_t row_bytes = int64_t(dst.valid_cols) * dst.element_bits() / 8;
    if (row_bytes % kBlockBytes != 0)
        report(sink, "RUN_VALID_SHAPE", "dst", "dst's valid rows are whole 32-byte blocks", "a multiple of 32 bytes",
               std::to_string(row_bytes) + " bytes");
    const int blocks = int(row_bytes / kBlockBytes);
    if (all_known(offsets.valid_rows, offsets.valid_cols) && (offsets.valid_rows < dst.valid_rows || offsets.valid_cols < blocks))
        report(sink, "RUN_VALID_SHAPE", "offset", "an offset for every 32-byte block of dst's valid region",
               "at least " + extent_text(dst.valid_rows, blocks), extent_text(offsets.valid_rows, offsets.valid_cols));
}

void tgatherb(const TileDesc& dst, const TileDesc& src_tile, const TileDesc& offsets_tile)
{
    PTO_HOLD_BACK("TGATHERB", tgatherb, dst, src_tile, offsets_tile);
    runtime::InstructionScope scope("TGATHERB");
    StopAtFirstFinding stop;
    check_tgatherb(runtime::active_profile(), dst, src_tile, offsets_tile, stop);
    const int blocks = int(int64_t(dst.valid_cols) * dst.element_bits() / 8 / kBlockBytes);
    require_written(offsets_tile, dst.valid_rows, blocks, "offset");
    const int64_t src_bytes = src_tile.bytes();
    runtime::require_tile_bytes(src_tile.data, src_bytes, "its capacity, which the offsets address,", "src");
    const TileDesc src = source_apart_from(src_tile, dst, 0), offsets = source_apart_from(offsets_tile, dst, 1);
    for (int r = 0; r < dst.valid_rows; ++r)
        for (int b = 0; b < blocks; ++b) {
            uint32_t at = 0;
            std::memcpy(&at, element_address(offsets, offsets.offset(r, b)), sizeof at);
            if (int64_t(at) + kBlockBytes > src_bytes)
                runtime::fail({"RUN_GATHERB_OFFSET", "TGATHERB", "offset",
                               "block " + std::to_string(b) + " of row " + std::to_string(r) + " reads past the end of src (" +
                                   std::to_string(src_bytes) + " bytes)",
                               "an offset in [0, " + std::to_string(src_bytes - kBlockBytes) + "]", std::to_string(at), ""});
            // Checked mode: the block's bytes were written (src_tile: the staged copy keeps no shadow).
            if (runtime::first_unwritten(src_tile.data + at, kBlockBytes) >= 0)
                runtime::fail({"RUN_UNINIT_READ", "TGATHERB", "src",
                               "block " + std::to_string(b) + " of row " + std::to_string(r) + " reads bytes " + std::to_string(at) + ".." +
                                   std::to_string(at + kBlockBytes - 1) + " of src, which nothing has written",
                               "initialised data", "never-written bytes", ""});
            std::memcpy(element_address(dst, dst.offset(r, 0)) + int64_t(b) * kBlockBytes, src.data + at, kBlockBytes);
        }
    mark_written(dst);
}

// ---- definition ---------------------------------------------------------------------------------------

namespace {
constexpr OperandSpec kSources[] = {{"src", OperandKind::Tile}, {"offset", OperandKind::Tile}};
constexpr Form kForms[] = {{kSources, kTileDst}};
}  // namespace

constexpr InstrDef definitions::TGATHERB{
    .id = Instr::TGATHERB,
    .mnemonic = "TGATHERB",
    .forms = kForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tgatherb(p, c.dst(), c.src(0), c.src(1), sink); },
    .run = [](const Call& c) { tgatherb(c.dst(), c.src(0), c.src(1)); },
};

}  // namespace pto::engine
