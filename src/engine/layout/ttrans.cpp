// TTRANS: operand checks, the transpose (a register-blocked kernel for row-major tiles, element by element
// otherwise) and its definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/layout/transpose_kernel.hpp"

namespace pto::engine {

namespace {

bool overlaps(const TileDesc& a, const TileDesc& b)
{
    return a.data < b.data + b.bytes() && b.data < a.data + a.bytes();
}

}  // namespace

void check_ttrans(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc* tmp, LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}, std::pair{tmp, "tmp"}})
        if (t && !rules::ttrans_location_ok(t->loc))
            report(sink, "LEGAL_TTRANS_LOCATION", name, "TTRANS takes Vec tiles (UB) only", "a Vec tile",
                   std::string(profile::location_name(t->loc)));
    if (!rules::ttrans_dtype_ok(dst.dtype, src.dtype))
        report(sink, "LEGAL_TTRANS_DTYPE", "dst", "1-, 2- or 4-byte elements of one size", std::string(dtype_name(src.dtype)) + "'s size",
               std::string(dtype_name(dst.dtype)) + " <- " + std::string(dtype_name(src.dtype)));
    if (!rules::ttrans_layout_ok(p, src.blayout))
        report(sink, "LEGAL_TTRANS_LAYOUT", "src", "on a2a3 src is row-major", "row-major", "column-major");
    if (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols) &&
        (src.valid_cols < dst.valid_rows || src.valid_rows < dst.valid_cols))
        report(sink, "RUN_VALID_SHAPE", "src", "src's valid region covers dst's, transposed",
               "at least " + extent_text(dst.valid_cols, dst.valid_rows), extent_text(src.valid_rows, src.valid_cols));
}

void ttrans(const TileDesc& dst, const TileDesc& src_tile, const TileDesc* tmp)
{
    PTO_HOLD_BACK("TTRANS", ttrans, dst, src_tile, tmp);
    runtime::InstructionScope scope("TTRANS");
    StopAtFirstFinding stop;
    check_ttrans(runtime::active_profile(), dst, src_tile, tmp, stop);
    const int rows = dst.valid_cols, cols = dst.valid_rows;  // the part of src that moves
    require_written(src_tile, rows, cols, "src");
    TileDesc src = src_tile;
    thread_local std::vector<std::byte> staged;
    if (overlaps(src_tile, dst)) {  // every element is read before any is written
        staged.assign(src_tile.data, src_tile.data + src_tile.bytes());
        src.data = staged.data();
    }
    const int bytes = src.element_bits() / 8;
    if (src.rows_contiguous() && dst.rows_contiguous()) {
        layout::transpose_rows(bytes, {src.data, src.cols, dst.data, dst.cols, rows, cols});
    } else {
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                std::memcpy(element_address(dst, dst.offset(c, r)), element_address(src, src.offset(r, c)), size_t(bytes));
    }
    mark_written(dst);
}

namespace {

constexpr OperandSpec kSourceAndTmp[] = {{"src", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
// A convolution tile's format change (ttrans_conv); tmp, as in C++, is not used.
constexpr OperandSpec kConvSourceAndTmp[] = {{"src", OperandKind::ConvTile}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kConvDst[] = {{"dst", OperandKind::ConvTile}};
constexpr Form kTtransForms[] = {{kSourceAndTmp, kTileDst}, {kConvSourceAndTmp, kConvDst}};

}  // namespace

constexpr InstrDef definitions::TTRANS{
    .id = Instr::TTRANS,
    .mnemonic = "TTRANS",
    .forms = kTtransForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        if (const ConvTileDesc* src = c.sources[0].conv) return check_ttrans_conv(p, *c.destinations[0].conv, *src, sink);
        check_ttrans(p, c.dst(), c.src(0), c.optional_src(1), sink);
    },
    .run = [](const Call& c) {
        if (const ConvTileDesc* src = c.sources[0].conv) return ttrans_conv(*c.destinations[0].conv, *src);
        ttrans(c.dst(), c.src(0), c.optional_src(1));
    },
};

}  // namespace pto::engine
