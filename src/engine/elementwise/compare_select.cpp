// TCMP, TCMPS, TSEL, TSELS: comparisons into a packed predicate mask, and selections by one (the mask
// layout is described in pto/engine/ops/compare_select.hpp); their entry points and definitions.
#include <pto/engine/ops/compare_select.hpp>

#include <pto/engine/access.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_compare_select.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/source_staging.hpp"
#include "engine/tile_element.hpp"

namespace pto::engine {

namespace {

void check_vec_row_major(const profile::Profile& p, const TileDesc& t, const char* operand, LegalitySink& sink)
{
    if (!rules::elementwise_location_ok(t.loc))
        report(sink, "LEGAL_ELEMWISE_LOCATION", operand, "comparison and selection take tiles in UB only", "a Vec tile (UB)",
               std::string(profile::location_name(t.loc)));
    if (!rules::elementwise_layout_ok(p, t.blayout, t.slayout))
        report(sink, "LEGAL_ELEMWISE_LAYOUT", operand, "tile layout is not supported on the " + std::string(p.name) + " profile",
               "row-major, unboxed", t.boxed() ? "boxed" : "col-major");
}

// The mask is read and written as rows of bytes, so it must keep its rows contiguous on every profile.
void check_mask(const TileDesc& mask, int rows, int cols, LegalitySink& sink)
{
    if (!mask.rows_contiguous())
        report(sink, "LEGAL_PREDICATE_MASK_LAYOUT", "mask", "a predicate mask is an unboxed row-major tile", "row-major, unboxed",
               mask.boxed() ? "boxed" : "col-major");
    if (!all_known(mask.valid_rows, mask.valid_cols, rows, cols)) return;
    const int words = rules::predicate_words(cols, mask.element_bits());
    if (mask.valid_rows < rows || mask.valid_cols < words)
        report(sink, "RUN_VALID_SHAPE", "mask", "the mask's valid region does not hold a bit per element",
               "at least " + extent_text(rows, words) + " (" + std::to_string(mask.element_bits()) + " predicates per element)",
               extent_text(mask.valid_rows, mask.valid_cols));
}

void check_same_region(const TileDesc& dst, const TileDesc& src, const char* operand, LegalitySink& sink)
{
    if (!all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols)) return;
    if (dst.valid_rows != src.valid_rows || dst.valid_cols != src.valid_cols)
        report(sink, "RUN_VALID_SHAPE", operand, "valid shape differs from the iteration domain's",
               extent_text(dst.valid_rows, dst.valid_cols), extent_text(src.valid_rows, src.valid_cols));
}

void check_same_dtype(const TileDesc& dst, const TileDesc& src, const char* operand, LegalitySink& sink)
{
    if (dst.dtype != src.dtype)
        report(sink, "LEGAL_ELEMWISE_DTYPE", operand, "element type differs", std::string(dtype_name(dst.dtype)),
               std::string(dtype_name(src.dtype)));
}

template <typename C>
bool compare(C a, C b, CmpMode mode)
{
    switch (mode) {
        case CmpMode::EQ: return a == b;
        case CmpMode::NE: return a != b;
        case CmpMode::LT: return a < b;
        case CmpMode::LE: return a <= b;
        case CmpMode::GT: return a > b;
        case CmpMode::GE: return a >= b;
    }
    return false;
}

// Packs the comparison of each row into the mask. `rhs(r, c)` is the right operand's storage.
template <typename T, typename Rhs>
void pack_comparisons(const TileDesc& mask, const TileDesc& src0, CmpMode mode, Rhs rhs)
{
    using F = elementwise::Format<T>;
    using S = typename F::Storage;
    const int rows = src0.valid_rows, cols = src0.valid_cols;
    const std::size_t row_bytes = std::size_t(rules::predicate_words(cols, mask.element_bits())) * mask.element_bits() / 8;
    std::vector<uint8_t> bits(row_bytes);
    const S* a = reinterpret_cast<const S*>(src0.data);
    for (int r = 0; r < rows; ++r) {
        std::fill(bits.begin(), bits.end(), uint8_t{0});
        for (int c = 0; c < cols; ++c)
            if (compare(F::widen(a[src0.offset(r, c)]), F::widen(rhs(r, c)), mode)) bits[std::size_t(c) / 8] |= uint8_t(1u << (c % 8));
        std::memcpy(element_address(mask, mask.offset(r, 0)), bits.data(), row_bytes);
    }
    mark_written(mask, rows, rules::predicate_words(cols, mask.element_bits()));
}

bool predicate(const TileDesc& mask, int r, int c)
{
    const auto* row = reinterpret_cast<const uint8_t*>(element_address(mask, mask.offset(r, 0)));
    return (row[c / 8] >> (c % 8)) & 1u;
}

// dst(r, c) = mask(r, c) ? lhs(r, c) : rhs(r, c), as bit patterns of the element size.
template <typename Bits, typename Lhs, typename Rhs>
void select(const TileDesc& dst, const TileDesc& mask, Lhs lhs, Rhs rhs)
{
    Bits* out = reinterpret_cast<Bits*>(dst.data);
    for (int r = 0; r < dst.valid_rows; ++r)
        for (int c = 0; c < dst.valid_cols; ++c) out[dst.offset(r, c)] = predicate(mask, r, c) ? lhs(r, c) : rhs(r, c);
}

template <typename Bits>
Bits element_at(const TileDesc& t, int r, int c)
{
    return reinterpret_cast<const Bits*>(t.data)[t.offset(r, c)];
}

void run_compare(const TileDesc& mask, const TileDesc& left, const TileDesc* right, ScalarBits scalar, CmpMode mode)
{
    require_written(left, "src0");
    if (right) require_written(*right, "src1");
    // Sources are read in full before the mask is written, so it may alias either of them.
    const TileDesc src0 = readable_source(left, mask, 0);
    const TileDesc copy = right ? readable_source(*right, mask, 1) : TileDesc{};
    const TileDesc* src1 = right ? &copy : nullptr;
    elementwise::visit_arithmetic_type(src0.dtype, [&]<typename T>() {
        using S = typename elementwise::Format<T>::Storage;
        S value;
        std::memcpy(&value, &scalar, sizeof(S));
        if (src1)
            pack_comparisons<T>(mask, src0, mode, [&](int r, int c) { return element_at<S>(*src1, r, c); });
        else
            pack_comparisons<T>(mask, src0, mode, [&](int, int) { return value; });
        return true;
    });
}

void run_select(const TileDesc& dst, const TileDesc& mask, const TileDesc& src0, const TileDesc* src1, ScalarBits scalar)
{
    require_written(mask, dst.valid_rows, rules::predicate_words(dst.valid_cols, mask.element_bits()), "mask");
    require_written(src0, "src0");
    if (src1) require_written(*src1, "src1");
    // Sources are read in full before dst is written, so dst may alias any of them.
    const TileDesc a = readable_source(src0, dst, 0);
    const TileDesc b = src1 ? readable_source(*src1, dst, 1) : TileDesc{};
    with_element_bits(dst.element_bits(), [&]<typename Bits>() {
        Bits value;
        std::memcpy(&value, &scalar, sizeof(Bits));
        const auto lhs = [&](int r, int c) { return element_at<Bits>(a, r, c); };
        if (src1)
            select<Bits>(dst, mask, lhs, [&](int r, int c) { return element_at<Bits>(b, r, c); });
        else
            select<Bits>(dst, mask, lhs, [&](int, int) { return value; });
    });
    mark_written(dst);
}

}  // namespace

void check_tcmp(const profile::Profile& p, const TileDesc& mask, const TileDesc& src0, const TileDesc* src1, CmpMode mode,
                bool scalar_form, LegalitySink& sink)
{
    const bool dtype_ok = scalar_form ? rules::tcmps_dtype_ok(p, src0.dtype) : rules::tcmp_dtype_ok(p, src0.dtype);
    if (!dtype_ok)
        report(sink, scalar_form ? "LEGAL_TCMPS_DTYPE" : "LEGAL_TCMP_DTYPE", "src0",
               "element type " + std::string(dtype_name(src0.dtype)) + " is not compared on the " + std::string(p.name) + " profile",
               "a supported element type", std::string(dtype_name(src0.dtype)));
    if (!rules::predicate_mask_dtype_ok(p, mask.dtype))
        report(sink, "LEGAL_PREDICATE_MASK_DTYPE", "mask", "the predicate mask's element type on the " + std::string(p.name) + " profile",
               p.target == profile::Target::A2A3 ? "u8" : p.target == profile::Target::A5 ? "u32" : "u8 or u32",
               std::string(dtype_name(mask.dtype)));
    if (!rules::int32_compare_mode_ok(p, src0.dtype, mode))
        report(sink, "LEGAL_TCMP_INT32_MODE", "src0", "a2a3 compares int32 tiles for equality only", "CmpMode::EQ",
               "another mode");
    check_vec_row_major(p, src0, "src0", sink);
    check_vec_row_major(p, mask, "mask", sink);
    if (src1) {
        check_vec_row_major(p, *src1, "src1", sink);
        check_same_dtype(src0, *src1, "src1", sink);
        if (!scalar_form) check_same_region(src0, *src1, "src1", sink);
    }
    check_mask(mask, src0.valid_rows, src0.valid_cols, sink);
}

void check_tsel(const profile::Profile& p, const TileDesc& dst, const TileDesc& mask, const TileDesc& src0,
                const TileDesc* src1, LegalitySink& sink)
{
    const bool scalar_form = src1 == nullptr;
    const bool dtype_ok = scalar_form ? rules::tsels_dtype_ok(p, dst.dtype) : rules::tsel_dtype_ok(p, dst.dtype);
    if (!dtype_ok)
        report(sink, scalar_form ? "LEGAL_TSELS_DTYPE" : "LEGAL_TSEL_DTYPE", "dst",
               "element type " + std::string(dtype_name(dst.dtype)) + " is not selected on the " + std::string(p.name) + " profile",
               "a supported element type", std::string(dtype_name(dst.dtype)));
    if (!rules::selection_mask_dtype_ok(mask.dtype))
        report(sink, "LEGAL_PREDICATE_MASK_DTYPE", "mask", "a predicate mask is read as unsigned words", "u8, u16 or u32",
               std::string(dtype_name(mask.dtype)));
    check_vec_row_major(p, dst, "dst", sink);
    check_vec_row_major(p, mask, "mask", sink);
    check_vec_row_major(p, src0, "src0", sink);
    check_same_dtype(dst, src0, "src0", sink);
    check_same_region(dst, src0, "src0", sink);
    if (src1) {
        check_vec_row_major(p, *src1, "src1", sink);
        check_same_dtype(dst, *src1, "src1", sink);
        check_same_region(dst, *src1, "src1", sink);
    }
    check_mask(mask, dst.valid_rows, dst.valid_cols, sink);
}

void tcmp(const TileDesc& mask, const TileDesc& src0, const TileDesc& src1, CmpMode mode)
{
    PTO_HOLD_BACK("TCMP", tcmp, mask, src0, src1, mode);
    runtime::InstructionScope scope("TCMP");
    StopAtFirstFinding stop;
    check_tcmp(runtime::active_profile(), mask, src0, &src1, mode, false, stop);
    run_compare(mask, src0, &src1, 0, mode);
}

void tcmps(const TileDesc& mask, const TileDesc& src0, ScalarBits scalar, CmpMode mode)
{
    PTO_HOLD_BACK("TCMPS", tcmps, mask, src0, scalar, mode);
    runtime::InstructionScope scope("TCMPS");
    StopAtFirstFinding stop;
    check_tcmp(runtime::active_profile(), mask, src0, nullptr, mode, true, stop);
    run_compare(mask, src0, nullptr, scalar, mode);
}

void tcmps(const TileDesc& mask, const TileDesc& src0, const TileDesc& src1, CmpMode mode)
{
    PTO_HOLD_BACK("TCMPS", tcmps, mask, src0, src1, mode);
    runtime::InstructionScope scope("TCMPS");
    StopAtFirstFinding stop;
    check_tcmp(runtime::active_profile(), mask, src0, &src1, mode, true, stop);
    require_written(src1, 1, 1, "src1");
    ScalarBits first = 0;
    std::memcpy(&first, src1.data, std::size_t(src1.element_bits() / 8));
    run_compare(mask, src0, nullptr, first, mode);
}

void tsel(const TileDesc& dst, const TileDesc& mask, const TileDesc& src0, const TileDesc& src1)
{
    PTO_HOLD_BACK("TSEL", tsel, dst, mask, src0, src1);
    runtime::InstructionScope scope("TSEL");
    StopAtFirstFinding stop;
    check_tsel(runtime::active_profile(), dst, mask, src0, &src1, stop);
    run_select(dst, mask, src0, &src1, 0);
}

void tsels(const TileDesc& dst, const TileDesc& mask, const TileDesc& src, ScalarBits scalar)
{
    PTO_HOLD_BACK("TSELS", tsels, dst, mask, src, scalar);
    runtime::InstructionScope scope("TSELS");
    StopAtFirstFinding stop;
    check_tsel(runtime::active_profile(), dst, mask, src, nullptr, stop);
    run_select(dst, mask, src, nullptr, scalar);
}

namespace {

enum CompareAttribute : std::size_t { kMode };
constexpr std::string_view kCmpKeys[] = {"cmpMode", "cmp_mode"};
constexpr AttributeValue kCmpValues[] = {
    spelling("eq", CmpMode::EQ), spelling("ne", CmpMode::NE), spelling("lt", CmpMode::LT),
    spelling("le", CmpMode::LE), spelling("gt", CmpMode::GT), spelling("ge", CmpMode::GE),
};
constexpr AttributeSpec kCompareAttributes[] = {{kCmpKeys, kCmpValues, int32_t(CmpMode::EQ)}};

constexpr OperandSpec kMaskDst[] = {{"mask", OperandKind::Tile}};
constexpr OperandSpec kTwoTiles[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr OperandSpec kTileAndScalar[] = {{"src0", OperandKind::Tile}, {"scalar", OperandKind::TileOrScalar}};
constexpr Form kTcmpForms[] = {{kTwoTiles, kMaskDst}};
constexpr Form kTcmpsForms[] = {{kTileAndScalar, kMaskDst}};

// TSEL (mask, src0, src1[, tmp]); TSELS (mask, src, scalar) or, as the C++ form orders them, (mask,
// src, tmp, scalar). The tmp tile is accepted and not touched.
constexpr OperandSpec kSelSources[] = {
    {"mask", OperandKind::Tile}, {"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kSelsSources[] = {{"mask", OperandKind::Tile}, {"src", OperandKind::Tile}, {"scalar", OperandKind::Scalar}};
constexpr OperandSpec kSelsTmpSources[] = {
    {"mask", OperandKind::Tile}, {"src", OperandKind::Tile}, {"tmp", OperandKind::Tile}, {"scalar", OperandKind::Scalar}};
constexpr Form kTselForms[] = {{kSelSources, kTileDst}};
constexpr Form kTselsForms[] = {{kSelsSources, kTileDst}, {kSelsTmpSources, kTileDst}};

}  // namespace

constexpr InstrDef definitions::TCMP{
    .id = Instr::TCMP,
    .mnemonic = "TCMP",
    .forms = kTcmpForms,
    .attributes = kCompareAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_tcmp(p, c.dst(), c.src(0), &c.src(1), c.attribute<CmpMode>(kMode), false, sink); },
    .run = [](const Call& c) { tcmp(c.dst(), c.src(0), c.src(1), c.attribute<CmpMode>(kMode)); },
};

constexpr InstrDef definitions::TCMPS{
    .id = Instr::TCMPS,
    .mnemonic = "TCMPS",
    .forms = kTcmpsForms,
    .attributes = kCompareAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_tcmp(p, c.dst(), c.src(0), c.optional_src(1), c.attribute<CmpMode>(kMode), true, sink); },
    .run =
        [](const Call& c) {
            if (c.sources[1].tile) return tcmps(c.dst(), c.src(0), c.src(1), c.attribute<CmpMode>(kMode));
            tcmps(c.dst(), c.src(0), encode_scalar(c.src(0).dtype, *c.sources[1].scalar), c.attribute<CmpMode>(kMode));
        },
};

constexpr InstrDef definitions::TSEL{
    .id = Instr::TSEL,
    .mnemonic = "TSEL",
    .forms = kTselForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_tsel(p, c.dst(), c.src(0), c.src(1), &c.src(2), sink); },
    .run = [](const Call& c) { tsel(c.dst(), c.src(0), c.src(1), c.src(2)); },
};

constexpr InstrDef definitions::TSELS{
    .id = Instr::TSELS,
    .mnemonic = "TSELS",
    .forms = kTselsForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_tsel(p, c.dst(), c.src(0), c.src(1), nullptr, sink); },
    .run = [](const Call& c) { tsels(c.dst(), c.src(0), c.src(1), encode_scalar(c.dst().dtype, *c.sources.back().scalar)); },
};

}  // namespace pto::engine
