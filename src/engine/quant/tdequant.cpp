// TDEQUANT: its entry point, operand check and definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/quant.hpp>
#include <pto/profile/rules_quant.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstdint>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {

template <typename T>
void dequantize(const TileDesc& dst, const TileDesc& src, const TileDesc& scale, const TileDesc& offset)
{
    float* out = reinterpret_cast<float*>(dst.data);
    const T* in = reinterpret_cast<const T*>(src.data);
    const float* scales = reinterpret_cast<const float*>(scale.data);
    const float* offsets = reinterpret_cast<const float*>(offset.data);
    for (int r = 0; r < dst.valid_rows; ++r) {
        const float s = scales[scale.offset(r, 0)], o = offsets[offset.offset(r, 0)];
        for (int c = 0; c < dst.valid_cols; ++c) {
            const float shifted = float(in[src.offset(r, c)]) - o;
            out[dst.offset(r, c)] = shifted * s;
        }
    }
}

}  // namespace

void check_tdequant(const profile::Profile&, const TileDesc& dst, const TileDesc& src, const TileDesc& scale,
                    const TileDesc& offset, LegalitySink& sink)
{
    if (!rules::tdequant_dtype_ok(dst.dtype, src.dtype, scale.dtype) || offset.dtype != scale.dtype)
        report(sink, "LEGAL_TDEQUANT_DTYPE", "src", "TDEQUANT turns int8 or int16 into f32 with f32 scale and offset",
               "f32 <- i8/i16, f32 parameters",
               std::string(dtype_name(dst.dtype)) + " <- " + std::string(dtype_name(src.dtype)) + ", " +
                   std::string(dtype_name(scale.dtype)) + "/" + std::string(dtype_name(offset.dtype)) + " parameters");
    const std::pair<const TileDesc*, const char*> operands[] = {{&dst, "dst"}, {&src, "src"}, {&scale, "scale"}, {&offset, "offset"}};
    for (const auto& [t, name] : operands)
        if (!rules::tdequant_location_ok(t->loc))
            report(sink, "LEGAL_TDEQUANT_LOCATION", name, "TDEQUANT takes Vec tiles (UB) only", "a Vec tile",
                   std::string(profile::location_name(t->loc)));
    for (const auto& [t, name] : {operands[0], operands[1]})
        if (!rules::tdequant_layout_ok(t->blayout, t->slayout))
            report(sink, "LEGAL_TDEQUANT_LAYOUT", name, "dst and src are row-major, unboxed", "row-major", "another layout");
    for (const auto& [t, name] : {operands[2], operands[3]})
        if (!rules::tdequant_param_layout_ok(t->slayout))
            report(sink, "LEGAL_TDEQUANT_LAYOUT", name, "scale and offset are unboxed", "unboxed", "boxed");
    if (!all_known(dst.valid_rows, dst.valid_cols)) return;
    if (all_known(src.valid_rows, src.valid_cols) && (src.valid_rows != dst.valid_rows || src.valid_cols != dst.valid_cols))
        report(sink, "RUN_VALID_SHAPE", "src", "valid shape differs from dst's", extent_text(dst.valid_rows, dst.valid_cols),
               extent_text(src.valid_rows, src.valid_cols));
    for (const auto& [t, name] : {operands[2], operands[3]})
        if (all_known(t->valid_rows, t->valid_cols) && (t->valid_rows < dst.valid_rows || t->valid_cols < 1))
            report(sink, "RUN_VALID_SHAPE", name, "a parameter for each of dst's valid rows",
                   "at least " + extent_text(dst.valid_rows, 1), extent_text(t->valid_rows, t->valid_cols));
}

void tdequant(const TileDesc& dst, const TileDesc& src_tile, const TileDesc& scale_tile, const TileDesc& offset_tile)
{
    PTO_HOLD_BACK("TDEQUANT", tdequant, dst, src_tile, scale_tile, offset_tile);
    runtime::InstructionScope scope("TDEQUANT");
    StopAtFirstFinding stop;
    check_tdequant(runtime::active_profile(), dst, src_tile, scale_tile, offset_tile, stop);
    require_written(src_tile, "src");
    require_written(scale_tile, dst.valid_rows, 1, "scale");
    require_written(offset_tile, dst.valid_rows, 1, "offset");
    // Sources are read in full before dst is written, so dst may alias any of them.
    const TileDesc src = readable_source(src_tile, dst, 0);
    TileDesc scale = scale_tile, offset = offset_tile;
    scale.valid_rows = offset.valid_rows = dst.valid_rows;
    scale.valid_cols = offset.valid_cols = 1;
    scale = readable_source(scale, dst, 1);
    offset = readable_source(offset, dst, 2);
    if (src.dtype == DType::I8) dequantize<int8_t>(dst, src, scale, offset);
    else dequantize<int16_t>(dst, src, scale, offset);
    mark_written(dst);
}

namespace {

constexpr OperandSpec kDequantSources[] = {
    {"src", OperandKind::Tile}, {"scale", OperandKind::Tile}, {"offset", OperandKind::Tile}};
constexpr Form kDequantForms[] = {{kDequantSources, kTileDst}};

}  // namespace

constexpr InstrDef definitions::TDEQUANT{
    .id = Instr::TDEQUANT,
    .mnemonic = "TDEQUANT",
    .forms = kDequantForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_tdequant(p, c.dst(), c.src(0), c.src(1), c.src(2), sink); },
    .run = [](const Call& c) { tdequant(c.dst(), c.src(0), c.src(1), c.src(2)); },
};

}  // namespace pto::engine
