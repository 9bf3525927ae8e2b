// The definition of TGATHER: its index, mask-pattern and comparison forms.
#include <pto/engine/ops/gather.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_gather.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "engine/definition.hpp"
#include "engine/gather/pattern_attribute.hpp"

namespace pto::engine {

namespace {

enum TgatherForm : std::size_t { kIndexForm, kMaskForm, kCompareForm };
enum TgatherAttribute : std::size_t { kMaskPattern, kAxis, kCmpMode, kOffset };

constexpr OperandSpec kIndexSources[] = {
    {"src", OperandKind::Tile}, {"indices", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kCompareSources[] = {
    {"src", OperandKind::Tile}, {"k_value", OperandKind::TileOrScalar}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kCompareDestinations[] = {{"dst", OperandKind::Tile}, {"cdst", OperandKind::Tile}};
constexpr Form kTgatherForms[] = {
    {kIndexSources, kTileDst},
    {kTileSrc, kTileDst, "maskPattern"},
    {kCompareSources, kCompareDestinations},
};

constexpr std::string_view kAxisKeys[] = {"axis", "gatherAxis", "gather_axis"};
constexpr AttributeValue kAxisValues[] = {
    spelling("row", GatherAxis::GATHER_ROW), spelling("gather_row", GatherAxis::GATHER_ROW),
    spelling("col", GatherAxis::GATHER_COL), spelling("gather_col", GatherAxis::GATHER_COL),
};
constexpr std::string_view kCmpKeys[] = {"cmpMode", "cmp_mode"};
constexpr AttributeValue kCmpValues[] = {
    spelling("eq", CmpMode::EQ), spelling("ne", CmpMode::NE), spelling("lt", CmpMode::LT),
    spelling("le", CmpMode::LE), spelling("gt", CmpMode::GT), spelling("ge", CmpMode::GE),
};
constexpr std::string_view kOffsetKeys[] = {"offset"};
constexpr AttributeSpec kTgatherAttributes[] = {
    {gather::kPatternKeys, gather::kPatternValues, int32_t(MaskPattern::P1111)},
    {kAxisKeys, kAxisValues, int32_t(GatherAxis::GATHER_ROW)},
    {kCmpKeys, kCmpValues, int32_t(CmpMode::GT)},
    {kOffsetKeys, {}, 0},
};

// The vector tile the engine reads for a scalar comparison threshold (PTO-AS allows one): one row, an
// element per row of `src` (valid columns = src's valid rows), of the first threshold type the profile
// accepts (int32 on cpu and a2a3, uint32 on a5), as a C++ kernel on that target would declare it.
TileDesc scalar_threshold_tile(const profile::Profile& p, const TileDesc& src)
{
    TileDesc k = src;
    k.data = nullptr;
    k.dtype = rules::tgather_cmp_k_dtype_ok(p, DType::I32) ? DType::I32 : DType::U32;
    k.rows = 1;
    k.cols = (src.rows + 7) / 8 * 8;
    k.valid_rows = 1;
    k.valid_cols = src.valid_rows;
    k.blayout = BLayout::RowMajor;
    k.slayout = SLayout::NoneBox;
    return k;
}

// A scalar threshold as that tile, every element equal. A float scalar is rounded to the nearest integer
// first; one the tile's type cannot hold (a negative threshold on a5, whose thresholds are unsigned) is
// RUN_TGATHER_THRESHOLD, not a clamp.
TileDesc threshold_tile(const TileDesc& src, const ScalarValue& k)
{
    const profile::Profile& p = runtime::active_profile();
    TileDesc tile = scalar_threshold_tile(p, src);
    thread_local std::vector<std::byte> storage;
    storage.resize(std::size_t(tile.bytes()));
    tile.data = storage.data();
    const double value = k.as_double();
    numeric::from_double(tile.dtype, tile.data, 0, value, RoundMode::CAST_RINT, SaturationMode::ON);
    if (numeric::to_double(tile.dtype, tile.data, 0) != std::nearbyint(value))
        runtime::fail({"RUN_TGATHER_THRESHOLD", "TGATHER", "k_value",
                       "the scalar threshold does not fit the threshold type on " + std::string(p.name),
                       "a value of " + std::string(dtype_name(tile.dtype)), std::to_string(value), ""});
    for (int i = 1; i < tile.valid_cols; ++i)  // element 0 is written above
        numeric::from_double(tile.dtype, tile.data, std::size_t(i), value, RoundMode::CAST_RINT, SaturationMode::ON);
    return tile;
}

void check_tgather(const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    switch (c.form) {
        case kIndexForm: return check_tgather_index(p, c.dst(), c.src(0), c.src(1), c.optional_src(2), sink);
        case kMaskForm: return check_tgather_mask(p, c.dst(), c.src(0), c.attribute<GatherAxis>(kAxis), sink);
        default: {
            const TileDesc k = c.sources[1].tile ? c.src(1) : scalar_threshold_tile(p, c.src(0));
            return check_tgather_compare(p, c.dst(0), c.src(0), k, c.dst(1), c.optional_src(2),
                                         c.attribute<CmpMode>(kCmpMode), sink);
        }
    }
}

void run_tgather(const Call& c)
{
    switch (c.form) {
        case kIndexForm: return tgather_index(c.dst(), c.src(0), c.src(1), c.optional_src(2));
        case kMaskForm:
            return tgather_mask(c.dst(), c.src(0), c.attribute<MaskPattern>(kMaskPattern), c.attribute<GatherAxis>(kAxis));
        default: {
            const TileDesc k = c.sources[1].tile ? c.src(1) : threshold_tile(c.src(0), *c.sources[1].scalar);
            return tgather_compare(c.dst(0), c.src(0), k, c.dst(1), c.optional_src(2), c.attribute<CmpMode>(kCmpMode),
                                   uint32_t(c.attributes[kOffset]));
        }
    }
}

}  // namespace

constexpr InstrDef definitions::TGATHER{
    .id = Instr::TGATHER,
    .mnemonic = "TGATHER",
    .forms = kTgatherForms,
    .attributes = kTgatherAttributes,
    .pipe = vector_pipe,
    .check = check_tgather,
    .run = run_tgather,
};

}  // namespace pto::engine
