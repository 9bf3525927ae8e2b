// TPRINT: the text of a tile or a global tensor, checks, and its definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/inspect.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/profile/rules_inspect.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstdio>
#include <iostream>
#include <string>

#include "engine/data_movement/global_view.hpp"
#include "engine/definition.hpp"

namespace pto::engine {

namespace {

std::string value_text(DType t, const std::byte* data, int64_t index, PrintFormat format)
{
    const double v = numeric::to_double(t, data, size_t(index));
    char buffer[64];
    const bool wide = format == PrintFormat::Width10_Precision6;
    if (dtype_is_float(t)) {
        const int precision = format == PrintFormat::Width8_Precision2 ? 2 : wide ? 6 : 4;
        std::snprintf(buffer, sizeof buffer, "%*.*f", wide ? 10 : 8, precision, v);
    } else {
        std::snprintf(buffer, sizeof buffer, "%*lld", wide ? 10 : 8, static_cast<long long>(v));
    }
    return buffer;
}

template <typename At>
std::string rows_text(DType dtype, const std::byte* data, int64_t rows, int64_t cols, int64_t valid_rows, int64_t valid_cols,
                      PrintFormat format, At&& at)
{
    std::string out;
    for (int64_t r = 0; r < rows; ++r) {
        if (r == valid_rows && r > 0) out += std::string(4, '-') + "\n";
        for (int64_t c = 0; c < cols; ++c) {
            if (c == valid_cols && c > 0) out += " |";
            out += " " + value_text(dtype, data, at(r, c), format);
        }
        out += "\n";
    }
    return out;
}

std::string extent(int64_t rows, int64_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

}  // namespace

std::string format_tile(const TileDesc& t, PrintFormat format)
{
    std::string out = "TPRINT " + extent(t.rows, t.cols) + " " + std::string(profile::location_name(t.loc)) + " " +
                      std::string(dtype_name(t.dtype)) + ", valid " + extent(t.valid_rows, t.valid_cols) + "\n";
    return out + rows_text(t.dtype, t.data, t.rows, t.cols, t.valid_rows, t.valid_cols, format,
                           [&](int64_t r, int64_t c) { return t.offset(r, c); });
}

std::string format_global(const GlobalDesc& g, PrintFormat format)
{
    // A tensor of a convolution layout prints as its ND folding (dimensions 0..3 down, 4 across), not as
    // the pixels x channels view an accumulator store has of it.
    GlobalDesc folded = g;
    if (rules::is_acc_conv_layout(g.layout)) folded.layout = Layout::ND;
    const data_movement::GlobalView view(folded);
    std::string out = "TPRINT " + extent(view.rows(), view.cols()) + " GM " + std::string(dtype_name(g.dtype)) + "\n";
    return out + rows_text(g.dtype, view.base(), view.rows(), view.cols(), view.rows(), view.cols(), format,
                           [&](int64_t r, int64_t c) { return view.offset(r, c); });
}

void check_tprint(const profile::Profile& p, const TileDesc& t, const GlobalDesc* tmp, LegalitySink& sink, bool has_tmp)
{
    if (!rules::tprint_dtype_ok(t.dtype))
        report(sink, "LEGAL_TPRINT_DTYPE", "src", "TPRINT prints f32, f16 and 8- to 32-bit integers", "f32, f16, i8..i32, u8..u32",
               std::string(dtype_name(t.dtype)));
    if (!rules::tprint_location_ok(p, t.loc))
        report(sink, "LEGAL_TPRINT_LOCATION", "src", "TPRINT prints Vec, Acc and (not on a5) Mat tiles", "Vec, Acc or Mat",
               std::string(profile::location_name(t.loc)));
    if (rules::tprint_needs_tmp(t.loc) && !tmp && !has_tmp)
        report(sink, "LEGAL_TPRINT_TMP", "tmp", "an Acc or Mat tile prints through a global tmp", "TPRINT(src, tmp)", "no tmp");
    if (tmp && rules::tprint_needs_tmp(t.loc)) {
        int64_t elements = 1;
        for (const int64_t s : tmp->shape) elements *= s;
        if (all_known(elements) && elements * dtype_bits(tmp->dtype) < t.elements() * dtype_bits(t.dtype))
            report(sink, "RUN_VALID_SHAPE", "tmp", "tmp holds the tile's capacity", std::to_string(t.bytes()) + " bytes",
                   std::to_string(elements * dtype_bits(tmp->dtype) / 8) + " bytes");
    }
}

void tprint(const TileDesc& t, PrintFormat format, const GlobalDesc* tmp, bool has_tmp)
{
    runtime::InstructionScope scope("TPRINT");
    StopAtFirstFinding stop;
    check_tprint(runtime::active_profile(), t, tmp, stop, has_tmp);
    std::cout << format_tile(t, format) << std::flush;
}

void tprint(const GlobalDesc& g, PrintFormat format)
{
    runtime::InstructionScope scope("TPRINT");
    if (!rules::tprint_dtype_ok(g.dtype))
        runtime::fail({"LEGAL_TPRINT_DTYPE", "", "src", "TPRINT prints f32, f16 and 8- to 32-bit integers",
                       "f32, f16, i8..i32, u8..u32", std::string(dtype_name(g.dtype)), ""});
    data_movement::check_global_access(g, 1, 1, "src");
    std::cout << format_global(g, format) << std::flush;
}

namespace {

constexpr OperandSpec kPrinted[] = {{"src", OperandKind::Tile}};
constexpr Form kTprintForms[] = {{kPrinted, {}}};
constexpr std::string_view kFormatKeys[] = {"format", "printFormat"};
constexpr AttributeValue kFormatValues[] = {spelling("width8_precision4", PrintFormat::Width8_Precision4),
                                            spelling("width8_precision2", PrintFormat::Width8_Precision2),
                                            spelling("width10_precision6", PrintFormat::Width10_Precision6)};
constexpr AttributeSpec kTprintAttributes[] = {{kFormatKeys, kFormatValues, int32_t(PrintFormat::Width8_Precision4)}};

}  // namespace

constexpr InstrDef definitions::TPRINT{
    .id = Instr::TPRINT,
    .mnemonic = "TPRINT",
    .forms = kTprintForms,
    .attributes = kTprintAttributes,
    .pipe = scalar_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        // A Vec tile in text: the tmp form of Acc and Mat tiles is C++ only.
        check_tprint(p, c.src(0), nullptr, sink, false);
    },
    .run = [](const Call& c) { tprint(c.src(0), c.attribute<PrintFormat>(0), nullptr, false); },
};

}  // namespace pto::engine
