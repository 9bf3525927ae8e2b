// TRESHAPE and TFILLPAD (Normal, InPlace, Expand): operand checks, the byte copy and the padded copy, and
// TFILLPAD's definitions (in text, pto.treshape is a view: the result aliases the source's bytes).
#include <pto/engine/access.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "engine/hold_back.hpp"
#include "engine/data_movement/pad_value.hpp"
#include "engine/definition.hpp"

namespace pto::engine {

void check_treshape(const profile::Profile&, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    if (!rules::treshape_ok_location(dst.loc, src.loc))
        report(sink, "LEGAL_TRESHAPE_LOCATION", "dst", "a reshape stays in its memory", std::string(profile::location_name(src.loc)),
               std::string(profile::location_name(dst.loc)));
    if (!rules::treshape_size_ok(dst.bytes(), src.bytes()))
        report(sink, "LEGAL_TRESHAPE_SIZE", "dst", "a reshape keeps the tile's bytes", std::to_string(src.bytes()) + " bytes",
               std::to_string(dst.bytes()) + " bytes");
    if (!rules::treshape_layout_ok(dst.slayout, src.slayout))
        report(sink, "LEGAL_TRESHAPE_LAYOUT", "dst", "a reshape does not box or unbox a tile", src.boxed() ? "boxed" : "unboxed",
               dst.boxed() ? "boxed" : "unboxed");
}

void treshape(const TileDesc& dst, const TileDesc& src)
{
    PTO_HOLD_BACK("TRESHAPE", treshape, dst, src);
    runtime::InstructionScope scope("TRESHAPE");
    StopAtFirstFinding stop;
    check_treshape(runtime::active_profile(), dst, src, stop);
    // A view (dst on src's bytes, as both doors bind it) reads nothing: the bytes' written state is
    // theirs whichever tile names them. Only a reshape into other bytes copies.
    if (dst.data == src.data) return;
    require_written(src, "src");
    std::memmove(dst.data, src.data, size_t(src.bytes()));
    mark_written(dst);
}

void check_tfillpad(const profile::Profile&, const TileDesc& dst, const TileDesc& src, TFillPadMode mode, PadValue pad,
                    LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}})
        if (!rules::tfillpad_location_ok(t->loc, t->blayout, t->slayout, pad))
            report(sink, "LEGAL_TFILLPAD_LOCATION", name, "Vec tiles, or Nz Mat tiles padded with zeros", "a Vec tile",
                   std::string(profile::location_name(t->loc)));
    if (!rules::tfillpad_dtype_ok(dst.dtype, src.dtype))
        report(sink, "LEGAL_TFILLPAD_DTYPE", "dst", "1-, 2- or 4-byte elements of one size", std::string(dtype_name(src.dtype)) + "'s size",
               std::string(dtype_name(dst.dtype)));
    if (!rules::tfillpad_pad_ok(pad))
        report(sink, "LEGAL_TFILLPAD_PAD", "dst", "dst's pad value says what fills the padding", "Zero, Max, Min or a custom value", "Null");
    if (!rules::tfillpad_shape_ok(mode, dst.rows, dst.cols, src.rows, src.cols))
        report(sink, "LEGAL_TFILLPAD_SHAPE", "dst",
               mode == TFillPadMode::Expand ? "dst's capacity holds src's" : "dst and src have one capacity",
               extent_text(src.rows, src.cols), extent_text(dst.rows, dst.cols));
}

void tfillpad(const TileDesc& dst, const TileDesc& src_tile, TFillPadMode mode, PadValue pad)
{
    PTO_HOLD_BACK(mode == TFillPadMode::Expand ? "TFILLPAD_EXPAND" : mode == TFillPadMode::InPlace ? "TFILLPAD_INPLACE" : "TFILLPAD", tfillpad, dst, src_tile, mode, pad);
    runtime::InstructionScope scope(mode == TFillPadMode::Expand ? "TFILLPAD_EXPAND" : mode == TFillPadMode::InPlace ? "TFILLPAD_INPLACE" : "TFILLPAD");
    StopAtFirstFinding stop;
    check_tfillpad(runtime::active_profile(), dst, src_tile, mode, pad, stop);
    require_written(src_tile, "src");
    runtime::require_tile_bytes(dst.data, dst.bytes(), "its capacity, which the padding fills,", "dst");
    TileDesc src = src_tile;
    thread_local std::vector<std::byte> staged;
    if (src.data != dst.data || src.rows != dst.rows) {  // another view of the same bytes: read it all first
        staged.assign(src_tile.data, src_tile.data + src_tile.bytes());
        src.data = staged.data();
    }
    const uint64_t bits = data_movement::pad_bits(dst.dtype, pad);
    const size_t bytes = size_t(dst.element_bits() / 8);
    for (int r = 0; r < dst.rows; ++r)
        for (int c = 0; c < dst.cols; ++c) {
            std::byte* out = element_address(dst, dst.offset(r, c));
            if (r < src.valid_rows && c < src.valid_cols) {
                if (out != element_address(src, src.offset(r, c))) std::memcpy(out, element_address(src, src.offset(r, c)), bytes);
            } else {
                std::memcpy(out, &bits, bytes);
            }
        }
    TileDesc whole = dst;
    whole.valid_rows = dst.rows;
    whole.valid_cols = dst.cols;
    mark_written(whole);
}

// ---- definitions --------------------------------------------------------------------------------------

namespace {

constexpr Form kOneSourceForms[] = {{kTileSrc, kTileDst}};

template <TFillPadMode kMode>
constexpr InstrDef fill_pad(Instr id, std::string_view mnemonic)
{
    return {.id = id,
            .mnemonic = mnemonic,
            .forms = kOneSourceForms,
            .pipe = vector_pipe,
            .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
                check_tfillpad(p, c.dst(), c.src(0), kMode, c.dst().pad, sink);
            },
            .run = [](const Call& c) { tfillpad(c.dst(), c.src(0), kMode, c.dst().pad); }};
}

}  // namespace

constexpr InstrDef definitions::TFILLPAD = fill_pad<TFillPadMode::Normal>(Instr::TFILLPAD, "TFILLPAD");
constexpr InstrDef definitions::TFILLPAD_INPLACE = fill_pad<TFillPadMode::InPlace>(Instr::TFILLPAD_INPLACE, "TFILLPAD_INPLACE");
constexpr InstrDef definitions::TFILLPAD_EXPAND = fill_pad<TFillPadMode::Expand>(Instr::TFILLPAD_EXPAND, "TFILLPAD_EXPAND");

}  // namespace pto::engine
