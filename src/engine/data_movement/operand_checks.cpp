#include "engine/data_movement/operand_checks.hpp"

#include <pto/profile/rules.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

namespace pto::engine::data_movement {

void check_tile(const TileDesc& t, const char* operand)
{
    if (t.rows <= 0 || t.cols <= 0) {
        fail_rule("LEGAL_TILE_SHAPE", operand, "the tile's capacity is empty", "rows and cols >= 1",
                  std::to_string(t.rows) + " x " + std::to_string(t.cols));
    }
    if (t.boxed() && !rules::fractal_size_ok(t.fractal_bytes)) {
        fail_rule("LEGAL_FRACTAL_SIZE", operand, "the tile's fractal size is not a fractal the cube knows",
                  "512, 1024 or 32 bytes", std::to_string(t.fractal_bytes));
    }
    if (!rules::boxed_shape_ok(t.loc, t.slayout, t.rows, t.cols, t.fractal_bytes, t.element_bits())) {
        fail_rule("LEGAL_TILE_BOX", operand, "the boxed tile's capacity is not a whole number of fractal boxes",
                  std::to_string(t.box_rows()) + " x " + std::to_string(t.box_cols()) + " boxes",
                  std::to_string(t.rows) + " x " + std::to_string(t.cols));
    }
    if (t.valid_rows < 0 || t.valid_cols < 0 || t.valid_rows > t.rows || t.valid_cols > t.cols) {
        runtime::fail({"RUN_VALID_SHAPE", "", operand, "the tile's valid region exceeds its capacity",
                       "within " + std::to_string(t.rows) + " x " + std::to_string(t.cols),
                       std::to_string(t.valid_rows) + " x " + std::to_string(t.valid_cols), ""});
    }
    if (!t.data) {
        runtime::fail({"RUN_NULL_POINTER", "", operand, "the tile has no storage", "a tile address", "nullptr", ""});
    }
}

void report_rule(LegalitySink& sink, const profile::Profile& profile, const char* code, const char* operand,
                 const std::string& message, const std::string& expected, const std::string& actual)
{
    report(sink, code, operand, message + " on the " + std::string(profile.name) + " profile", expected, actual);
}

void fail_rule(const char* code, const char* operand, const std::string& message, const std::string& expected,
               const std::string& actual)
{
    runtime::fail({code, "", operand, message + " on the " + profile_name() + " profile", expected, actual, ""});
}

std::string location_name(TileType loc) { return std::string(profile::location_name(loc)); }

std::string layout_name(Layout layout)
{
    switch (layout) {
        case Layout::ND: return "ND";
        case Layout::DN: return "DN";
        case Layout::NZ: return "NZ";
        case Layout::MX_A_ND: return "MX_A_ND";
        case Layout::MX_A_DN: return "MX_A_DN";
        case Layout::MX_A_ZZ: return "MX_A_ZZ";
        case Layout::MX_B_ND: return "MX_B_ND";
        case Layout::MX_B_DN: return "MX_B_DN";
        case Layout::MX_B_NN: return "MX_B_NN";
        case Layout::NC1HWC0: return "NC1HWC0";
        case Layout::GNC1HWC0: return "GNC1HWC0";
        case Layout::NCHW: return "NCHW";
        case Layout::GNCHW: return "GNCHW";
        case Layout::NHWC: return "NHWC";
        case Layout::NDC1HWC0: return "NDC1HWC0";
        case Layout::NCDHW: return "NCDHW";
        case Layout::FRACTAL_Z: return "FRACTAL_Z";
        case Layout::FRACTAL_Z_S16S8: return "FRACTAL_Z_S16S8";
        case Layout::FRACTAL_Z_3D: return "FRACTAL_Z_3D";
        default: return "layout #" + std::to_string(static_cast<int>(layout));
    }
}

std::string dims_text(const int64_t (&v)[5])
{
    std::string s = "(";
    for (int d = 0; d < 5; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
    return s + ")";
}

std::string arrangement_name(const TileDesc& t)
{
    if (!t.boxed()) return t.blayout == BLayout::RowMajor ? "ND (row-major)" : "DN (col-major)";
    const bool outer_row = t.blayout == BLayout::RowMajor, inner_row = t.slayout == SLayout::RowMajor;
    if (!outer_row && inner_row) return "Nz (col-major boxes, row-major inside)";
    if (outer_row && !inner_row) return "Zn (row-major boxes, col-major inside)";
    if (outer_row && inner_row) return "Zz (row-major boxes, row-major inside)";
    return "Nn (col-major boxes, col-major inside)";
}

std::string profile_name()
{
    return std::string(runtime::active_profile().name);
}

}  // namespace pto::engine::data_movement
