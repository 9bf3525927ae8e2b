// TPACK: each element of the valid region moved into dst's element type (integers keep their low bytes,
// floats round to nearest even); operand checks and the definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstring>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

void check_tpack(const profile::Profile&, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}})
        if (!rules::rearrange_tile_ok(t->loc, t->blayout, t->slayout))
            report(sink, "LEGAL_TPACK_LAYOUT", name, "TPACK takes row-major Vec tiles", "a row-major Vec tile", "another tile");
    if (!rules::tpack_dtype_ok(dst.dtype, src.dtype))
        report(sink, "LEGAL_TPACK_DTYPE", "dst", "integers into integers or floats into floats (TCVT converts between them)",
               "a " + std::string(dtype_is_float(src.dtype) ? "float" : "integer") + " dst for " + std::string(dtype_name(src.dtype)),
               std::string(dtype_name(dst.dtype)));
    if (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols) &&
        (dst.valid_rows != src.valid_rows || dst.valid_cols != src.valid_cols))
        report(sink, "RUN_VALID_SHAPE", "dst", "dst's valid shape is src's", extent_text(src.valid_rows, src.valid_cols),
               extent_text(dst.valid_rows, dst.valid_cols));
}

void tpack(const TileDesc& dst, const TileDesc& src_tile)
{
    PTO_HOLD_BACK("TPACK", tpack, dst, src_tile);
    runtime::InstructionScope scope("TPACK");
    StopAtFirstFinding stop;
    check_tpack(runtime::active_profile(), dst, src_tile, stop);
    require_written(src_tile, "src");
    const TileDesc src = readable_source(src_tile, dst, 0);
    const size_t out_bytes = size_t(dst.element_bits() / 8);
    const bool floats = dtype_is_float(dst.dtype);
    for (int r = 0; r < dst.valid_rows; ++r)
        for (int c = 0; c < dst.valid_cols; ++c) {
            const int64_t from = src.offset(r, c), to = dst.offset(r, c);
            if (dst.dtype == src.dtype) {
                std::memmove(element_address(dst, to), element_address(src, from), out_bytes);
            } else if (floats) {
                numeric::from_double(dst.dtype, dst.data, size_t(to), numeric::to_double(src.dtype, src.data, size_t(from)),
                                     RoundMode::CAST_RINT, SaturationMode::OFF);
            } else {
                // The value as a two's-complement integer, its low bytes kept (little-endian host).
                const int64_t value = int64_t(numeric::to_double(src.dtype, src.data, size_t(from)));
                std::memcpy(element_address(dst, to), &value, out_bytes);
            }
        }
    mark_written(dst);
}

// ---- definition ---------------------------------------------------------------------------------------

namespace {
constexpr Form kForms[] = {{kTileSrc, kTileDst}};
}  // namespace

constexpr InstrDef definitions::TPACK{
    .id = Instr::TPACK,
    .mnemonic = "TPACK",
    .forms = kForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tpack(p, c.dst(), c.src(0), sink); },
    .run = [](const Call& c) { tpack(c.dst(), c.src(0)); },
};

}  // namespace pto::engine
