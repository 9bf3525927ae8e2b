// TINTERLEAVE and TDEINTERLEAVE (two sources, or one): operand checks, the element shuffles and the
// definitions.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/profile/rules_layout.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstdint>
#include <string>
#include <utility>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/source_staging.hpp"
#include "engine/tile_element.hpp"

namespace pto::engine {

namespace {

template <typename U>
U* row_pointer(const TileDesc& t, int r)
{
    return reinterpret_cast<U*>(t.data) + t.offset(r, 0);
}

void check_shuffle(const char* name, std::initializer_list<std::pair<const TileDesc*, const char*>> tiles, LegalitySink& sink)
{
    const TileDesc& first = *tiles.begin()->first;
    for (const auto& [t, operand] : tiles) {
        if (!rules::rearrange_tile_ok(t->loc, t->blayout, t->slayout))
            report(sink, (std::string("LEGAL_") + name + "_LAYOUT").c_str(), operand, std::string(name) + " takes row-major Vec tiles",
                   "a row-major Vec tile", "another tile");
        if (!rules::rearrange_dtype_ok(t->dtype) || t->dtype != first.dtype)
            report(sink, (std::string("LEGAL_") + name + "_DTYPE").c_str(), operand,
                   "one element type in every tile: 8-, 16-, 32-bit integers, f16, bf16 or f32", std::string(dtype_name(first.dtype)),
                   std::string(dtype_name(t->dtype)));
    }
}

// Every tile's valid shape is rows x cols, with cols even.
void check_valid_shapes(std::initializer_list<std::pair<const TileDesc*, const char*>> tiles, int rows, int cols, LegalitySink& sink)
{
    for (const auto& [t, operand] : tiles)
        if (all_known(t->valid_rows, t->valid_cols, rows, cols) && (t->valid_rows != rows || t->valid_cols != cols || cols % 2 != 0))
            report(sink, "RUN_VALID_SHAPE", operand, "every tile has one valid shape with an even number of columns",
                   extent_text(rows, cols) + (cols % 2 ? " (even columns)" : ""), extent_text(t->valid_rows, t->valid_cols));
}

// The two sources, each readable while both destinations are written.
std::pair<TileDesc, TileDesc> readable_pair(const TileDesc& a, const TileDesc* b, const TileDesc& dst0, const TileDesc& dst1)
{
    const TileDesc first = source_apart_from(source_apart_from(a, dst0, 0), dst1, 2);
    const TileDesc second = b ? source_apart_from(source_apart_from(*b, dst0, 1), dst1, 3) : first;
    return {first, second};
}

}  // namespace

void check_tinterleave(const profile::Profile&, const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0,
                       const TileDesc& src1, LegalitySink& sink)
{
    check_shuffle("TINTERLEAVE", {{&dst0, "dst0"}, {&dst1, "dst1"}, {&src0, "src0"}, {&src1, "src1"}}, sink);
    check_valid_shapes({{&dst1, "dst1"}, {&src0, "src0"}, {&src1, "src1"}, {&dst0, "dst0"}}, dst0.valid_rows, dst0.valid_cols, sink);
}

void tinterleave(const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0_tile, const TileDesc& src1_tile)
{
    PTO_HOLD_BACK("TINTERLEAVE", tinterleave, dst0, dst1, src0_tile, src1_tile);
    runtime::InstructionScope scope("TINTERLEAVE");
    StopAtFirstFinding stop;
    check_tinterleave(runtime::active_profile(), dst0, dst1, src0_tile, src1_tile, stop);
    require_written(src0_tile, "src0");
    require_written(src1_tile, "src1");
    const std::pair<TileDesc, TileDesc> sources = readable_pair(src0_tile, &src1_tile, dst0, dst1);
    const TileDesc &src0 = sources.first, &src1 = sources.second;
    const int half = dst0.valid_cols / 2;
    with_element_bits(dst0.element_bits(), [&]<typename U>() {
        for (int r = 0; r < dst0.valid_rows; ++r) {
            const U *a = row_pointer<U>(src0, r), *b = row_pointer<U>(src1, r);
            U *lo = row_pointer<U>(dst0, r), *hi = row_pointer<U>(dst1, r);
            // The stream a0 b0 a1 b1 ...: its first half goes to dst0, its second to dst1.
            for (int k = 0; k < half; ++k) {
                lo[2 * k] = a[k];
                lo[2 * k + 1] = b[k];
                hi[2 * k] = a[half + k];
                hi[2 * k + 1] = b[half + k];
            }
        }
    });
    mark_written(dst0);
    mark_written(dst1);
}

void check_tdeinterleave(const profile::Profile&, const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0,
                         const TileDesc* src1, LegalitySink& sink)
{
    if (src1) {
        check_shuffle("TDEINTERLEAVE", {{&dst0, "dst0"}, {&dst1, "dst1"}, {&src0, "src0"}, {src1, "src1"}}, sink);
        check_valid_shapes({{&dst1, "dst1"}, {&src0, "src0"}, {src1, "src1"}, {&dst0, "dst0"}}, dst0.valid_rows, dst0.valid_cols, sink);
        return;
    }
    check_shuffle("TDEINTERLEAVE", {{&dst0, "dst0"}, {&dst1, "dst1"}, {&src0, "src"}}, sink);
    check_valid_shapes({{&src0, "src"}}, src0.valid_rows, src0.valid_cols, sink);
    for (const auto& [t, operand] : {std::pair{&dst0, "dst0"}, std::pair{&dst1, "dst1"}})
        if (all_known(t->valid_rows, t->valid_cols, src0.valid_rows, src0.valid_cols) &&
            (t->valid_rows != src0.valid_rows || t->valid_cols != src0.valid_cols / 2))
            report(sink, "RUN_VALID_SHAPE", operand, "each destination holds half of every source row",
                   extent_text(src0.valid_rows, src0.valid_cols / 2), extent_text(t->valid_rows, t->valid_cols));
}

void tdeinterleave(const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0_tile, const TileDesc* src1_tile)
{
    PTO_HOLD_BACK("TDEINTERLEAVE", tdeinterleave, dst0, dst1, src0_tile, src1_tile);
    runtime::InstructionScope scope("TDEINTERLEAVE");
    StopAtFirstFinding stop;
    check_tdeinterleave(runtime::active_profile(), dst0, dst1, src0_tile, src1_tile, stop);
    require_written(src0_tile, src1_tile ? "src0" : "src");
    if (src1_tile) require_written(*src1_tile, "src1");
    const std::pair<TileDesc, TileDesc> sources = readable_pair(src0_tile, src1_tile, dst0, dst1);
    const TileDesc &src0 = sources.first, &src1 = sources.second;
    const int cols = dst0.valid_cols;
    with_element_bits(dst0.element_bits(), [&]<typename U>() {
        for (int r = 0; r < dst0.valid_rows; ++r) {
            const U *a = row_pointer<U>(src0, r), *b = row_pointer<U>(src1, r);
            U *even = row_pointer<U>(dst0, r), *odd = row_pointer<U>(dst1, r);
            // The stream is src0's row then src1's (or the one source's row): even positions to dst0,
            // odd ones to dst1.
            const int from_first = src1_tile ? cols / 2 : cols;
            for (int k = 0; k < from_first; ++k) {
                even[k] = a[2 * k];
                odd[k] = a[2 * k + 1];
            }
            for (int k = from_first; k < cols; ++k) {
                even[k] = b[2 * (k - from_first)];
                odd[k] = b[2 * (k - from_first) + 1];
            }
        }
    });
    mark_written(dst0);
    mark_written(dst1);
}

// ---- definitions --------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kTwoSources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr OperandSpec kOneSource[] = {{"src", OperandKind::Tile}};
constexpr OperandSpec kTwoResults[] = {{"dst0", OperandKind::Tile}, {"dst1", OperandKind::Tile}};
constexpr Form kInterleaveForms[] = {{kTwoSources, kTwoResults}};
constexpr Form kDeinterleaveForms[] = {{kTwoSources, kTwoResults}, {kOneSource, kTwoResults}};

const TileDesc* second_source(const Call& c) { return c.sources.size() > 1 ? &c.src(1) : nullptr; }

}  // namespace

constexpr InstrDef definitions::TINTERLEAVE{
    .id = Instr::TINTERLEAVE,
    .mnemonic = "TINTERLEAVE",
    .forms = kInterleaveForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        check_tinterleave(p, c.dst(0), c.dst(1), c.src(0), c.src(1), sink);
    },
    .run = [](const Call& c) { tinterleave(c.dst(0), c.dst(1), c.src(0), c.src(1)); },
};

constexpr InstrDef definitions::TDEINTERLEAVE{
    .id = Instr::TDEINTERLEAVE,
    .mnemonic = "TDEINTERLEAVE",
    .forms = kDeinterleaveForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        check_tdeinterleave(p, c.dst(0), c.dst(1), c.src(0), second_source(c), sink);
    },
    .run = [](const Call& c) { tdeinterleave(c.dst(0), c.dst(1), c.src(0), second_source(c)); },
};

}  // namespace pto::engine
