// TQUANT: its entry points (MX formats and int8), operand checks and definition.
#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>
#include <pto/engine/ops/quant.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_quant.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "engine/hold_back.hpp"
#include "engine/convert/vector_conversions.hpp"
#include "engine/definition.hpp"
#include "engine/quant/zz_order.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {

constexpr int kGroup = 32;
constexpr uint8_t kE8m0Nan = 0xFF;

int groups_in(int extent) { return (extent + kGroup - 1) / kGroup; }

std::string dtype_text(DType t) { return std::string(dtype_name(t)); }

// An MX data format: how its values are stored, its largest exponent and its largest value.
struct MxFormat {
    DType storage;
    int emax;
    float vmax;
};

MxFormat format_of(MxQuantAlg alg)
{
    return rules::mx_alg_is_fp4(alg) ? MxFormat{DType::F4E2M1x2, 2, 6.0f} : MxFormat{DType::F8E4M3, 8, 448.0f};
}

// The E8M0 exponent of a group whose largest magnitude is m (NaN when a value of the group is NaN), read
// off the bits of m (OCP) or of m / Vmax computed in f32 (NV), never through log or floor.
uint8_t shared_exponent(float m, const MxFormat& format, bool nv)
{
    if (std::isnan(m)) return kE8m0Nan;
    if (!nv) {
        const int biased = int(std::bit_cast<uint32_t>(m) >> 23);  // m >= 0; infinity reads as 255
        return uint8_t(std::max(biased - format.emax, 0));
    }
    if (m == 0.0f) return 0;
    const uint32_t bits = std::bit_cast<uint32_t>(m * (1.0f / format.vmax));
    const uint32_t biased = bits >> 23, mantissa = bits & 0x7FFFFFu;
    if (biased == 0xFF) return 0xFE;                    // m infinite: the largest scale
    if (biased == 0) return mantissa > 0x400000u ? 1 : 0;  // subnormal: 2^-126 covers it unless it is at most 2^-127
    return uint8_t(biased + (mantissa != 0 && biased < 0xFE ? 1 : 0));  // round up to a power of two
}

// The factor that brings a group with exponent e into the format's range: 2^(127 - e), exact in f32
// (2^-127 is subnormal), NaN for the NaN exponent.
float scaling_of(uint8_t e)
{
    return e == kE8m0Nan ? std::numeric_limits<float>::quiet_NaN() : std::ldexp(1.0f, 127 - int(e));
}

// Where group (i, j) of a group tile lives: at its element (i, j), or flat at i * width + j when the tile
// has one row.
int64_t group_offset(const TileDesc& t, int i, int j, int width) { return t.rows == 1 ? int64_t(i) * width + j : t.offset(i, j); }

// The group grid of an MX call over src's valid region: rows x cols groups, `width` per row when flat.
struct GroupGrid {
    int rows, cols, width;
};

GroupGrid group_grid(const TileDesc& src, int grp_axis)
{
    return grp_axis == 1 ? GroupGrid{src.valid_rows, groups_in(src.valid_cols), src.cols / kGroup}
                         : GroupGrid{groups_in(src.valid_rows), src.valid_cols, src.cols};
}

// Where the exponents of a grid go: the grid itself, or, interleaved, its row-group pairs side by side.
GroupGrid exponent_grid(const GroupGrid& g, bool interleave)
{
    return interleave ? GroupGrid{(g.rows + 1) / 2, 2 * g.cols, 2 * g.width} : g;
}

bool holds_grid(const TileDesc& t, const GroupGrid& g)
{
    if (g.rows == 0 || g.cols == 0) return true;
    return t.rows == 1 ? int64_t(g.rows - 1) * g.width + g.cols <= t.cols : g.rows <= t.rows && g.cols <= t.cols;
}

// Records as written the part of a group tile an MX call fills.
void mark_grid_written(const TileDesc& t, const GroupGrid& g)
{
    if (g.rows == 0 || g.cols == 0) return;
    if (t.rows == 1) mark_written(t, 1, int((g.rows - 1) * g.width + g.cols));
    else mark_written(t, g.rows, g.cols);
}

// Per-thread scratch rows, grown once and reused: the scaled values of a row, and per column the group
// maxima and scalings of the DN grouping.
std::vector<float>& scratch(int which, std::size_t size)
{
    thread_local std::vector<float> rows[3];
    if (rows[which].size() < size) rows[which].resize(size);
    return rows[which];
}

template <typename T>
float load(const TileDesc& t, int r, int c)
{
    return float(reinterpret_cast<const T*>(t.data)[t.offset(r, c)]);
}

// The largest magnitude of values [first, last) of a line; NaN wins.
template <typename Value>
float largest_magnitude(int first, int last, Value value)
{
    float m = 0.0f;
    for (int k = first; k < last; ++k) {
        const float a = std::fabs(value(k));
        if (std::isnan(a)) return a;
        m = std::max(m, a);
    }
    return m;
}

// The MX quantisation of one call: stages 1 and 2 per group, stage 3 a row at a time.
class MxQuantizer {
public:
    MxQuantizer(const TileDesc& dst, const TileDesc& exp, const TileDesc& max, const TileDesc& scaling, MxMode mode,
                const GroupGrid& grid)
        : dst_(dst), exp_(exp), max_(max), scaling_(scaling), format_(format_of(mode.alg)),
          nv_(rules::mx_alg_is_nv(mode.alg)), interleave_(mode.interleave), grid_(grid)
    {
    }

    // Stages 1 and 2 for group (i, j) of largest magnitude m: writes exp, max and scaling, returns the scaling.
    float group(int i, int j, float m)
    {
        const uint8_t e = shared_exponent(m, format_, nv_);
        const float s = scaling_of(e);
        const int64_t exp_at = interleave_ ? group_offset(exp_, i / 2, 2 * j + i % 2, 2 * grid_.width)
                                           : group_offset(exp_, i, j, grid_.width);
        reinterpret_cast<uint8_t*>(exp_.data)[exp_at] = e;
        numeric::from_double(max_.dtype, max_.data, std::size_t(group_offset(max_, i, j, grid_.width)), m,
                             RoundMode::CAST_RINT, SaturationMode::OFF);
        numeric::from_double(scaling_.dtype, scaling_.data, std::size_t(group_offset(scaling_, i, j, grid_.width)), s,
                             RoundMode::CAST_RINT, SaturationMode::OFF);
        return s;
    }

    // The value stage 3 rounds: x scaled and clipped; a NaN group's values are the format's NaN stand-in.
    float scaled(float x, float s) const
    {
        if (std::isnan(s)) return nan_stand_in();
        return std::clamp(x * s, -format_.vmax, format_.vmax);
    }

    // Stage 3 for dst's row r: rounds values[0, count) into it, nearest even (values are in range).
    void store_row(int r, float* values, int count) const
    {
        const SaturationMode sat = format_.storage == DType::F4E2M1x2 ? SaturationMode::ON : SaturationMode::OFF;
        numeric::convert(format_.storage, element_address(dst_, dst_.offset(r, 0)), DType::F32, values,
                         std::size_t(count), RoundMode::CAST_RINT, sat);
    }

private:
    // e4m3 has a NaN (0x7F); e2m1 has none, and a NaN group becomes +6 (0x7), as the public simulator has it.
    float nan_stand_in() const
    {
        return format_.storage == DType::F4E2M1x2 ? format_.vmax : std::numeric_limits<float>::quiet_NaN();
    }

    const TileDesc& dst_;
    const TileDesc& exp_;
    const TileDesc& max_;
    const TileDesc& scaling_;
    MxFormat format_;
    bool nv_;
    bool interleave_;
    GroupGrid grid_;
};

// Groups of 32 along each row (ND).
template <typename T>
void quantize_rows(MxQuantizer& q, const TileDesc& src)
{
    const int cols = src.valid_cols;
    float* values = scratch(0, std::size_t(cols) + 1).data();
    for (int r = 0; r < src.valid_rows; ++r) {
        const T* row = reinterpret_cast<const T*>(src.data) + src.offset(r, 0);
        for (int g = 0; g * kGroup < cols; ++g) {
            const int first = g * kGroup, last = std::min(first + kGroup, cols);
            const float s = q.group(r, g, largest_magnitude(first, last, [&](int c) { return float(row[c]); }));
            for (int c = first; c < last; ++c) values[c] = q.scaled(float(row[c]), s);
        }
        q.store_row(r, values, cols);
    }
}

// Groups of 32 down each column (DN).
template <typename T>
void quantize_columns(MxQuantizer& q, const TileDesc& src)
{
    const int cols = src.valid_cols;
    float* values = scratch(0, std::size_t(cols) + 1).data();
    float* scalings = scratch(1, std::size_t(cols)).data();
    for (int g = 0; g * kGroup < src.valid_rows; ++g) {
        const int first = g * kGroup, last = std::min(first + kGroup, src.valid_rows);
        for (int c = 0; c < cols; ++c)
            scalings[c] = q.group(g, c, largest_magnitude(first, last, [&](int r) { return load<T>(src, r, c); }));
        for (int r = first; r < last; ++r) {
            const T* row = reinterpret_cast<const T*>(src.data) + src.offset(r, 0);
            for (int c = 0; c < cols; ++c) values[c] = q.scaled(float(row[c]), scalings[c]);
            q.store_row(r, values, cols);
        }
    }
}

// The exponents again in ZZ order.
void store_zz(const TileDesc& exp_zz, const TileDesc& exp, const GroupGrid& grid)
{
    auto* out = reinterpret_cast<uint8_t*>(exp_zz.data);
    const auto* in = reinterpret_cast<const uint8_t*>(exp.data);
    for (int i = 0; i < grid.rows; ++i)
        for (int j = 0; j < grid.cols; ++j) out[zz_exponent_index(i, j, grid.cols)] = in[group_offset(exp, i, j, grid.width)];
}

void report_form(LegalitySink& sink, const profile::Profile& p, const char* form)
{
    report(sink, "LEGAL_TQUANT_FORM", "dst",
           std::string("TQUANT's ") + form + " form is not available on the " + std::string(p.name) + " profile",
           "a5 or cpu for MX, cpu for the ZZ exponent form, the tmp form for int8 on a2a3", std::string(p.name));
}

void check_location_and_layout(const TileDesc& t, const char* name, bool param, LegalitySink& sink)
{
    if (!rules::tquant_location_ok(t.loc))
        report(sink, "LEGAL_TQUANT_LOCATION", name, "TQUANT takes Vec tiles (UB) only", "a Vec tile",
               std::string(profile::location_name(t.loc)));
    const bool layout_ok = param ? rules::tquant_param_layout_ok(t.slayout) : rules::tquant_layout_ok(t.blayout, t.slayout);
    if (!layout_ok)
        report(sink, "LEGAL_TQUANT_LAYOUT", name, param ? "scale and offset are unboxed" : "TQUANT's tiles are row-major, unboxed",
               param ? "unboxed" : "row-major", "another layout");
}

void check_same_valid_shape(const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    if (!all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols)) return;
    if (dst.valid_rows != src.valid_rows || dst.valid_cols != src.valid_cols)
        report(sink, "RUN_VALID_SHAPE", "dst", "valid shape differs from src's",
               extent_text(src.valid_rows, src.valid_cols), extent_text(dst.valid_rows, dst.valid_cols));
}

}  // namespace

void check_tquant_mx(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& exp,
                     const TileDesc& max, const TileDesc& scaling, MxMode mode, const TileDesc* exp_zz,
                     VecStoreMode store, LegalitySink& sink)
{
    const auto [alg, grp_axis, interleave] = mode;
    if (!rules::tquant_form_ok(p, exp_zz ? rules::TquantForm::MxZz : rules::TquantForm::Mx))
        report_form(sink, p, exp_zz ? "ZZ exponent" : "MX");
    if (!rules::tquant_mx_mode_ok(alg, grp_axis, interleave) ||
        (exp_zz && (!rules::tquant_zz_mode_ok(alg, store) || grp_axis != 1))) {
        report(sink, "LEGAL_TQUANT_MODE", "dst", "not an MX mode TQUANT has",
               exp_zz ? "MXFP8 grouped along axis 1, NZ store mode"
                      : "MXFP8 or MXFP4_E2M1, OCP or NV, grp_axis 0 or 1, interleave with grp_axis 0 only",
               "mode " + std::to_string(int(alg)) + ", grp_axis " + std::to_string(grp_axis) +
                   (interleave ? ", interleave" : ""));
        return;
    }
    if (!rules::tquant_mx_dtype_ok(alg, dst.dtype, src.dtype, exp.dtype, max.dtype, scaling.dtype) ||
        (exp_zz && exp_zz->dtype != exp.dtype))
        report(sink, "LEGAL_TQUANT_DTYPE", "src",
               rules::mx_alg_is_fp4(alg) ? "MXFP4 turns f16 or bf16 into e2m1 values" : "MXFP8 turns f32, f16 or bf16 into e4m3 bytes",
               rules::mx_alg_is_fp4(alg) ? "f4e2m1x2 <- f16/bf16, u8 exp, max and scaling of src's type or f32"
                                         : "i8/f8e4m3 <- f32/f16/bf16, u8 exp, max and scaling of src's type or f32",
               dtype_text(dst.dtype) + " <- " + dtype_text(src.dtype) + ", " + dtype_text(exp.dtype) + " exp, " +
                   dtype_text(max.dtype) + " max, " + dtype_text(scaling.dtype) + " scaling");
    const std::pair<const TileDesc*, const char*> operands[] = {
        {&dst, "dst"}, {&src, "src"}, {&exp, "exp"}, {&max, "max"}, {&scaling, "scaling"}, {exp_zz, "exp_zz"}};
    for (const auto& [t, name] : operands)
        if (t) check_location_and_layout(*t, name, false, sink);
    const int dn_rows = rules::tquant_dn_row_multiple(interleave);
    if (!rules::tquant_mx_shape_ok(grp_axis, src.rows, src.cols, interleave) ||
        (exp_zz && !rules::tquant_zz_shape_ok(src.rows, src.cols)))
        report(sink, "LEGAL_TQUANT_SHAPE", "src", "MX groups need whole groups of 32 in src's capacity",
               exp_zz ? "rows a multiple of 16, columns of 64"
                      : (grp_axis == 0 ? "rows a multiple of " + std::to_string(dn_rows) + ", columns of 32"
                                       : "columns a multiple of 32"),
               extent_text(src.rows, src.cols));
    check_same_valid_shape(dst, src, sink);
    if (!all_known(src.valid_rows, src.valid_cols)) return;
    if (interleave && src.valid_rows % dn_rows != 0)
        report(sink, "RUN_VALID_SHAPE", "src", "interleaved exponents pair whole groups of 32 rows",
               "valid rows a multiple of 64", extent_text(src.valid_rows, src.valid_cols));
    const GroupGrid grid = group_grid(src, grp_axis);
    const GroupGrid grids[] = {exponent_grid(grid, interleave), grid, grid};
    for (int k = 0; k < 3; ++k) {
        const auto& [t, name] = operands[2 + k];
        if (!holds_grid(*t, grids[k]))
            report(sink, "RUN_VALID_SHAPE", name, "too small for the groups of src's valid region",
                   extent_text(grids[k].rows, grids[k].cols) + (k == 0 && interleave ? " interleaved exponents" : " groups"),
                   extent_text(t->rows, t->cols));
    }
    if (!exp_zz) return;
    if (src.valid_rows % 16 != 0 || src.valid_cols % 64 != 0)
        report(sink, "RUN_VALID_SHAPE", "src", "the ZZ exponent order takes whole blocks of 16 rows x 64 columns",
               "rows a multiple of 16, columns of 64", extent_text(src.valid_rows, src.valid_cols));
    if (exp_zz->elements() < int64_t(grid.rows) * grid.cols)
        report(sink, "RUN_VALID_SHAPE", "exp_zz", "too small for the exponents of src's valid region",
               "at least " + std::to_string(int64_t(grid.rows) * grid.cols) + " elements", extent_text(exp_zz->rows, exp_zz->cols));
}

void tquant_mx(const TileDesc& dst, const TileDesc& src_tile, const TileDesc& exp, const TileDesc& max,
               const TileDesc& scaling, MxMode mode, const TileDesc* exp_zz)
{
    PTO_HOLD_BACK("TQUANT", tquant_mx, dst, src_tile, exp, max, scaling, mode, exp_zz);
    runtime::InstructionScope scope("TQUANT");
    StopAtFirstFinding stop;
    check_tquant_mx(runtime::active_profile(), dst, src_tile, exp, max, scaling, mode, exp_zz, VecStoreMode::NZ, stop);
    require_written(src_tile, "src");
    // src is read in full, a row or a group at a time, before the dst rows it gives are written: dst may
    // alias it (the page's in-place f32 -> e4m3 output).
    const TileDesc src = readable_source(src_tile, dst, 0);
    const GroupGrid grid = group_grid(src, mode.grp_axis);
    MxQuantizer q(dst, exp, max, scaling, mode, grid);
    const auto quantize = [&]<typename T>() { mode.grp_axis == 1 ? quantize_rows<T>(q, src) : quantize_columns<T>(q, src); };
    switch (src.dtype) {
        case DType::F32: quantize.operator()<float>(); break;
        case DType::F16: quantize.operator()<half>(); break;
        default: quantize.operator()<bfloat16_t>(); break;
    }
    mark_written(dst);
    mark_grid_written(exp, exponent_grid(grid, mode.interleave));
    mark_grid_written(max, grid);
    mark_grid_written(scaling, grid);
    if (exp_zz) {
        store_zz(*exp_zz, exp, grid);
        mark_storage_prefix_written(*exp_zz, int64_t(grid.rows) * grid.cols);
    }
}

void check_tquant_int8(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& scale,
                       const TileDesc* offset, QuantType type, const TileDesc* tmp, LegalitySink& sink)
{
    if (!rules::tquant_form_ok(p, tmp ? rules::TquantForm::Int8Tmp : rules::TquantForm::Int8)) report_form(sink, p, "int8 without tmp");
    if (!rules::tquant_int8_mode_ok(type) || (type == QuantType::INT8_ASYM && !offset)) {
        report(sink, "LEGAL_TQUANT_MODE", "dst", "the int8 forms take INT8_SYM, or INT8_ASYM with an offset",
               "INT8_SYM, INT8_ASYM + offset", offset ? "another quant type" : "no offset");
        return;
    }
    const bool asym = type == QuantType::INT8_ASYM;
    if (!rules::tquant_int8_dtype_ok(type, dst.dtype, src.dtype, scale.dtype) || (asym && offset->dtype != scale.dtype))
        report(sink, "LEGAL_TQUANT_DTYPE", "src", "TQUANT int8 turns f32 into int8 (symmetric) or uint8 (asymmetric)",
               asym ? "u8 <- f32, f32 scale and offset" : "i8 <- f32, f32 scale",
               dtype_text(dst.dtype) + " <- " + dtype_text(src.dtype) + ", " + dtype_text(scale.dtype) + " scale");
    const std::pair<const TileDesc*, const char*> params[] = {{&scale, "scale"}, {asym ? offset : nullptr, "offset"}};
    check_location_and_layout(dst, "dst", false, sink);
    check_location_and_layout(src, "src", false, sink);
    for (const auto& [t, name] : params)
        if (t) check_location_and_layout(*t, name, true, sink);
    if (tmp && !rules::tquant_location_ok(tmp->loc))
        report(sink, "LEGAL_TQUANT_LOCATION", "tmp", "TQUANT takes Vec tiles (UB) only", "a Vec tile",
               std::string(profile::location_name(tmp->loc)));
    if (tmp && !rules::tquant_tmp_ok(p, tmp->dtype, tmp->elements(), src.elements()))
        report(sink, "LEGAL_TQUANT_TMP", "tmp", "on a2a3 tmp is f32 scratch the size of src",
               "f32, at least " + std::to_string(src.elements()) + " elements",
               dtype_text(tmp->dtype) + ", " + std::to_string(tmp->elements()) + " elements");
    check_same_valid_shape(dst, src, sink);
    if (!all_known(dst.valid_rows)) return;
    for (const auto& [t, name] : params)
        if (t && all_known(t->valid_rows, t->valid_cols) && (t->valid_rows < dst.valid_rows || t->valid_cols < 1))
            report(sink, "RUN_VALID_SHAPE", name, "a parameter for each of dst's valid rows",
                   "at least " + extent_text(dst.valid_rows, 1), extent_text(t->valid_rows, t->valid_cols));
}

void tquant_int8(const TileDesc& dst, const TileDesc& src_tile, const TileDesc& scale_tile, const TileDesc* offset_tile,
                 QuantType type, const TileDesc* tmp)
{
    PTO_HOLD_BACK("TQUANT", tquant_int8, dst, src_tile, scale_tile, offset_tile, type, tmp);
    runtime::InstructionScope scope("TQUANT");
    StopAtFirstFinding stop;
    check_tquant_int8(runtime::active_profile(), dst, src_tile, scale_tile, offset_tile, type, tmp, stop);
    const bool asym = type == QuantType::INT8_ASYM;
    require_written(src_tile, "src");
    require_written(scale_tile, dst.valid_rows, 1, "scale");
    if (asym) require_written(*offset_tile, dst.valid_rows, 1, "offset");
    // Every source row is read before the dst row it gives is written; staged copies make aliasing safe.
    const TileDesc src = readable_source(src_tile, dst, 0);
    TileDesc scale = scale_tile, offset = asym ? *offset_tile : scale_tile;
    scale.valid_rows = offset.valid_rows = dst.valid_rows;
    scale.valid_cols = offset.valid_cols = 1;
    scale = readable_source(scale, dst, 1);
    offset = readable_source(offset, dst, 2);
    const int cols = dst.valid_cols;
    float* values = scratch(0, std::size_t(cols)).data();
    // Nearest even into int32 (saturating, NaN to 0) on whole vectors, then clamped to the 8-bit range:
    // the same as the direct saturating conversion, which converts the rest of each row.
    static const convert::VectorConversion to_int32 =
        *convert::vector_conversion(DType::I32, DType::F32, RoundMode::CAST_RINT, SaturationMode::ON);
    auto* rounded = reinterpret_cast<int32_t*>(scratch(1, std::size_t(cols)).data());
    const int32_t lowest = asym ? 0 : -128, highest = asym ? 255 : 127;
    for (int r = 0; r < dst.valid_rows; ++r) {
        const float s = load<float>(scale, r, 0), o = asym ? load<float>(offset, r, 0) : 0.0f;
        const float* row = reinterpret_cast<const float*>(src.data) + src.offset(r, 0);
        for (int c = 0; c < cols; ++c) values[c] = asym ? row[c] * s + o : row[c] * s;
        const std::size_t done = convert::convert_whole_vectors(to_int32, rounded, values, std::size_t(cols));
        std::byte* out = element_address(dst, dst.offset(r, 0));
        for (std::size_t c = 0; c < done; ++c) {
            const auto byte = static_cast<uint8_t>(std::clamp(rounded[c], lowest, highest));
            std::memcpy(out + c, &byte, 1);
        }
        numeric::convert(dst.dtype, out + done, DType::F32, values + done, std::size_t(cols) - done,
                         RoundMode::CAST_RINT, SaturationMode::ON);
    }
    mark_written(dst);
}

// ---- the definition ---------------------------------------------------------------------------------

namespace {

enum TquantAttribute : std::size_t { kQuantType, kMxAlg, kScaleAlg, kGrpAxis, kInterleave, kStoreMode };
constexpr int32_t kUnset = -1;

constexpr OperandSpec kMxDestinations[] = {
    {"dst", OperandKind::Tile}, {"exp", OperandKind::Tile}, {"max", OperandKind::Tile}, {"scaling", OperandKind::Tile}};
constexpr OperandSpec kMxZzDestinations[] = {{"dst", OperandKind::Tile},     {"exp", OperandKind::Tile},
                                             {"max", OperandKind::Tile},     {"scaling", OperandKind::Tile},
                                             {"exp_zz", OperandKind::Tile}};
// The text writes the int8 parameters as (scale[, offset][, tmp]): an offset exactly for INT8_ASYM.
constexpr OperandSpec kInt8Sources[] = {{"src", OperandKind::Tile},
                                        {"scale", OperandKind::Tile},
                                        {"offset", OperandKind::Tile, true},
                                        {"tmp", OperandKind::Tile, true}};
enum TquantTextForm : std::size_t { kMxForm, kMxZzForm, kInt8Form };
constexpr Form kTquantForms[] = {{kTileSrc, kMxDestinations}, {kTileSrc, kMxZzDestinations}, {kInt8Sources, kTileDst}};

constexpr std::string_view kQuantTypeKeys[] = {"quant_type", "quantType"};
constexpr AttributeValue kQuantTypeValues[] = {
    spelling("mxfp8", QuantType::MXFP8),       spelling("mxfp4_e2m1", QuantType::MXFP4_E2M1),
    spelling("mxfp4", QuantType::MXFP4_E2M1),  spelling("int8_sym", QuantType::INT8_SYM),
    spelling("int8_asym", QuantType::INT8_ASYM),
};
constexpr std::string_view kMxAlgKeys[] = {"mx_alg", "mxAlg"};
constexpr AttributeValue kMxAlgValues[] = {
    spelling("ocp_mxfp8_e4m3", MxQuantAlg::OcpMxFp8E4M3), spelling("ocpmxfp8e4m3", MxQuantAlg::OcpMxFp8E4M3),
    spelling("nv_mxfp8_e4m3", MxQuantAlg::NvMxFp8E4M3),   spelling("nvmxfp8e4m3", MxQuantAlg::NvMxFp8E4M3),
    spelling("ocp_mxfp4_e2m1", MxQuantAlg::OcpMxFp4E2M1), spelling("ocpmxfp4e2m1", MxQuantAlg::OcpMxFp4E2M1),
    spelling("nv_mxfp4_e2m1", MxQuantAlg::NvMxFp4E2M1),   spelling("nvmxfp4e2m1", MxQuantAlg::NvMxFp4E2M1),
    spelling("hif4", MxQuantAlg::Hif4),
};
constexpr std::string_view kScaleAlgKeys[] = {"scale_alg", "scaleAlg"};
constexpr AttributeValue kScaleAlgValues[] = {spelling("ocp", QuantScaleAlg::OCP), spelling("nv", QuantScaleAlg::NV)};
constexpr std::string_view kGrpAxisKeys[] = {"grp_axis", "grpAxis"};
constexpr std::string_view kInterleaveKeys[] = {"interleave"};
constexpr std::string_view kStoreModeKeys[] = {"store_mode", "storeMode"};
constexpr AttributeValue kStoreModeValues[] = {spelling("nd", VecStoreMode::ND), spelling("nz", VecStoreMode::NZ)};
constexpr AttributeSpec kTquantAttributes[] = {
    {kQuantTypeKeys, kQuantTypeValues, kUnset},
    {kMxAlgKeys, kMxAlgValues, kUnset},
    {kScaleAlgKeys, kScaleAlgValues, int32_t(QuantScaleAlg::OCP)},
    {kGrpAxisKeys, {}, 1},
    {kInterleaveKeys, kBooleanValues, 0},
    {kStoreModeKeys, kStoreModeValues, int32_t(VecStoreMode::NZ)},
};

// What the attributes of a text call ask for: mx_alg alone, or quant_type (with scale_alg for MX), as
// the two C++ spellings have it. nullopt, reported, when they ask for nothing or contradict each other.
struct TextMode {
    QuantType type;
    MxQuantAlg alg;
};

std::optional<TextMode> text_mode(const Call& c, LegalitySink& sink)
{
    const int32_t type = c.attributes[kQuantType], alg = c.attributes[kMxAlg];
    const bool mx_form = c.form != kInt8Form;
    if (alg != kUnset && mx_form && (type == kUnset || (type == int32_t(QuantType::MXFP4_E2M1)) ==
                                                           rules::mx_alg_is_fp4(MxQuantAlg(alg))))
        return TextMode{rules::mx_alg_is_fp4(MxQuantAlg(alg)) ? QuantType::MXFP4_E2M1 : QuantType::MXFP8, MxQuantAlg(alg)};
    const bool int8 = type == int32_t(QuantType::INT8_SYM) || type == int32_t(QuantType::INT8_ASYM);
    if (alg == kUnset && type != kUnset && int8 != mx_form)
        return TextMode{QuantType(type), rules::mx_alg_of(QuantType(type), c.attribute<QuantScaleAlg>(kScaleAlg))};
    report(sink, "LEGAL_TQUANT_MODE", "dst", "TQUANT's attributes name no mode its operands have",
           mx_form ? "mx_alg, or quant_type = mxfp8 | mxfp4_e2m1" : "quant_type = int8_sym | int8_asym",
           "quant_type " + std::to_string(type) + ", mx_alg " + std::to_string(alg));
    return std::nullopt;
}

MxMode mx_mode(const Call& c, const TextMode& mode)
{
    return {mode.alg, c.attributes[kGrpAxis], c.attributes[kInterleave] != 0};
}

// The int8 parameters of a text call: (scale, offset[, tmp]) for INT8_ASYM, (scale[, tmp]) otherwise.
struct Int8Parameters {
    const TileDesc* offset;
    const TileDesc* tmp;
};

Int8Parameters int8_parameters(const Call& c, QuantType type)
{
    if (type == QuantType::INT8_ASYM) return {c.optional_src(2), c.optional_src(3)};
    return {nullptr, c.optional_src(2)};
}

void check_call(const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    const std::optional<TextMode> mode = text_mode(c, sink);
    if (!mode) return;
    if (c.form == kInt8Form) {
        const Int8Parameters extra = int8_parameters(c, mode->type);
        if (mode->type == QuantType::INT8_SYM && c.optional_src(3))
            report(sink, "LEGAL_TQUANT_MODE", "offset", "INT8_SYM takes no offset", "(src, scale[, tmp])", "four sources");
        check_tquant_int8(p, c.dst(), c.src(0), c.src(1), extra.offset, mode->type, extra.tmp, sink);
        return;
    }
    check_tquant_mx(p, c.dst(0), c.src(0), c.dst(1), c.dst(2), c.dst(3), mx_mode(c, *mode),
                    c.form == kMxZzForm ? &c.dst(4) : nullptr, c.attribute<VecStoreMode>(kStoreMode), sink);
}

void run_call(const Call& c)
{
    StopAtFirstFinding stop;
    const std::optional<TextMode> mode = text_mode(c, stop);
    if (c.form == kInt8Form) {
        const Int8Parameters extra = int8_parameters(c, mode->type);
        tquant_int8(c.dst(), c.src(0), c.src(1), extra.offset, mode->type, extra.tmp);
    } else {
        tquant_mx(c.dst(0), c.src(0), c.dst(1), c.dst(2), c.dst(3), mx_mode(c, *mode),
                  c.form == kMxZzForm ? &c.dst(4) : nullptr);
    }
}

}  // namespace

constexpr InstrDef definitions::TQUANT{
    .id = Instr::TQUANT,
    .mnemonic = "TQUANT",
    .forms = kTquantForms,
    .attributes = kTquantAttributes,
    .pipe = vector_pipe,
    .check = check_call,
    .run = run_call,
};

}  // namespace pto::engine
