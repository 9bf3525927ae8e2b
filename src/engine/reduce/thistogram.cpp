// THISTOGRAM: per-row byte histograms (the radix-sort counting pass), stored as ascending cumulative
// counts; operand checks and the definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/reduce.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <array>
#include <cstring>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {
constexpr int kBins = 256;

// Filter bytes a pass needs above the byte it counts: a u16 source's BYTE_0 pass one per row; a u32
// source's pass k needs 3 - k rows.
int filter_rows(const TileDesc& src, HistByte byte)
{
    return dtype_bits(src.dtype) == 16 ? (byte == HistByte::BYTE_0 ? 1 : 0) : 3 - int(byte);
}
}  // namespace

void check_thistogram(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& idx, HistByte byte,
                      LegalitySink& sink)
{
    if (!rules::thistogram_target_ok(p))
        report(sink, "LEGAL_THISTOGRAM_TARGET", "dst", "THISTOGRAM exists on a5", "a5 or cpu", std::string(p.name));
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}, std::pair{&idx, "idx"}})
        if (t->loc != TileType::Vec)
            report(sink, "LEGAL_THISTOGRAM_LAYOUT", name, "THISTOGRAM takes Vec tiles", "a Vec tile", std::string(profile::location_name(t->loc)));
    if (!rules::thistogram_dtype_ok(dst.dtype, src.dtype, idx.dtype))
        report(sink, "LEGAL_THISTOGRAM_DTYPE", "dst", "u32 bins from a u16 or u32 source with u8 filter bytes", "u32, u16/u32, u8",
               std::string(dtype_name(dst.dtype)) + ", " + std::string(dtype_name(src.dtype)) + ", " + std::string(dtype_name(idx.dtype)));
    if (!rules::thistogram_byte_ok(src.dtype, byte))
        report(sink, "LEGAL_THISTOGRAM_BYTE", "src", "a u16 source has bytes 0 and 1", "BYTE_0 or BYTE_1", "BYTE_" + std::to_string(int(byte)));
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}})
        if (!rules::thistogram_layout_ok(t->blayout, t->slayout))
            report(sink, "LEGAL_THISTOGRAM_LAYOUT", name, "dst and src are row-major", "row-major, unboxed", "another layout");
    if (!rules::thistogram_index_layout_ok(src.dtype, idx.blayout, idx.slayout, idx.cols))
        report(sink, "LEGAL_THISTOGRAM_LAYOUT", "idx",
               dtype_bits(src.dtype) == 16 ? "a u16 source's filter bytes are one DN column" : "a u32 source's filter bytes are row-major",
               dtype_bits(src.dtype) == 16 ? "column-major, one column" : "row-major", "another layout");
    if (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows) && (dst.valid_rows < src.valid_rows || dst.valid_cols < kBins))
        report(sink, "RUN_VALID_SHAPE", "dst", "dst has 256 bins for each valid row of src", "at least " + extent_text(src.valid_rows, kBins),
               extent_text(dst.valid_rows, dst.valid_cols));
    const int need = filter_rows(src, byte) == 0 ? 0 : dtype_bits(src.dtype) == 16 ? src.valid_rows : filter_rows(src, byte);
    if (need > 0 && all_known(idx.valid_rows, need) && idx.valid_rows < need)
        report(sink, "RUN_VALID_SHAPE", "idx", "a filter byte for every byte above the one counted", "at least " + std::to_string(need) + " valid rows",
               std::to_string(idx.valid_rows));
}

void thistogram(const TileDesc& dst, const TileDesc& src_tile, const TileDesc& idx, HistByte byte)
{
    PTO_HOLD_BACK("THISTOGRAM", thistogram, dst, src_tile, idx, byte);
    runtime::InstructionScope scope("THISTOGRAM");
    StopAtFirstFinding stop;
    check_thistogram(runtime::active_profile(), dst, src_tile, idx, byte, stop);
    require_written(src_tile, "src");
    const bool wide = dtype_bits(src_tile.dtype) == 32;
    const int filters = filter_rows(src_tile, byte);
    if (filters > 0) require_written(idx, wide ? filters : src_tile.valid_rows, 1, "idx");
    const TileDesc src = source_apart_from(src_tile, dst, 0);
    const int shift = 8 * int(byte);
    // The u32 passes compare bytes 3, 2, 1 (as many as sit above `byte`) with idx rows 0, 1, 2.
    uint32_t mask = 0, want = 0;
    if (wide)
        for (int f = 0; f < filters; ++f) {
            const int above = 3 - f;
            mask |= 0xFFu << (8 * above);
            want |= uint32_t(std::to_integer<uint8_t>(idx.data[idx.offset(f, 0)])) << (8 * above);
        }
    for (int r = 0; r < src.valid_rows; ++r) {
        std::array<uint32_t, kBins> counts{};
        if (!wide) {
            const uint16_t* row = reinterpret_cast<const uint16_t*>(src.data) + src.offset(r, 0);
            const uint16_t high = filters ? uint16_t(std::to_integer<uint8_t>(idx.data[idx.offset(r, 0)])) : 0;
            for (int c = 0; c < src.valid_cols; ++c)
                if (!filters || (row[c] >> 8) == high) ++counts[(row[c] >> shift) & 0xFFu];
        } else {
            const uint32_t* row = reinterpret_cast<const uint32_t*>(src.data) + src.offset(r, 0);
            for (int c = 0; c < src.valid_cols; ++c)
                if ((row[c] & mask) == want) ++counts[(row[c] >> shift) & 0xFFu];
        }
        uint32_t* out = reinterpret_cast<uint32_t*>(dst.data) + dst.offset(r, 0);
        uint32_t running = 0;
        for (int b = 0; b < kBins; ++b) out[b] = running += counts[size_t(b)];
    }
    mark_written(dst, src.valid_rows, kBins);
}

// ---- definition ---------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kSources[] = {{"src", OperandKind::Tile}, {"idx", OperandKind::Tile}};
constexpr Form kForms[] = {{kSources, kTileDst}};
constexpr std::string_view kByteKeys[] = {"byte", "hist_byte"};
constexpr AttributeValue kByteValues[] = {
    spelling("byte_0", HistByte::BYTE_0), spelling("byte_1", HistByte::BYTE_1), spelling("byte_2", HistByte::BYTE_2),
    spelling("byte_3", HistByte::BYTE_3), spelling("0", HistByte::BYTE_0),      spelling("1", HistByte::BYTE_1),
    spelling("2", HistByte::BYTE_2),      spelling("3", HistByte::BYTE_3),
};
constexpr AttributeSpec kAttributes[] = {{kByteKeys, kByteValues, int32_t(HistByte::BYTE_0)}};

}  // namespace

constexpr InstrDef definitions::THISTOGRAM{
    .id = Instr::THISTOGRAM,
    .mnemonic = "THISTOGRAM",
    .forms = kForms,
    .attributes = kAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        check_thistogram(p, c.dst(), c.src(0), c.src(1), c.attribute<HistByte>(0), sink);
    },
    .run = [](const Call& c) { thistogram(c.dst(), c.src(0), c.src(1), c.attribute<HistByte>(0)); },
};

}  // namespace pto::engine
