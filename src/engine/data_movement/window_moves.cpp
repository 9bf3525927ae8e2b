// TEXTRACT and TINSERT: TMOV between a tile and a window of a larger one (the cube's Mat -> Left/Right
// sub-tiles, an accumulator into part of a Mat tile, windows of Vec tiles).
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <optional>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/data_movement/conv_window.hpp"
#include "engine/data_movement/operand_checks.hpp"
#include "engine/data_movement/tile_move.hpp"

namespace pto::engine {

namespace dm = data_movement;

namespace {

std::string at_text(int64_t row, int64_t col) { return "[" + std::to_string(row) + ", " + std::to_string(col) + "]"; }

rules::WindowTile window_tile(const TileDesc& t)
{
    return {t.loc, t.blayout, t.slayout, t.boxed() ? t.box_rows() : 0, t.boxed() ? t.box_cols() : 0, t.element_bits()};
}

// The part of the big tile a window covers: rows x cols from `start` (plus this core's split offset).
// Reports `code` when it leaves the big tile's valid region.
void check_range(LegalitySink& sink, const char* code, const char* operand, const TileDesc& big, int64_t row, int64_t col,
                 int64_t rows, int64_t cols)
{
    if (!all_known(big.valid_rows, big.valid_cols, int(rows), int(cols))) return;
    if (row >= 0 && col >= 0 && row + rows <= big.valid_rows && col + cols <= big.valid_cols) return;
    report(sink, code, operand, "the window leaves the valid region", "inside " + extent_text(big.valid_rows, big.valid_cols),
           extent_text(int(rows), int(cols)) + " at " + at_text(row, col));
}

// The quantization a window applies on profile p: none where the cpu profile ignores the scalar or table
// (rules::window_quant_ignored).
const AccQuantization* effective_quantization(const profile::Profile& p, const TileDesc& dst, const TileDesc& src,
                                              const AccQuantization* quant)
{
    return quant && rules::window_quant_ignored(p, src.loc, src.dtype, dst.dtype) ? nullptr : quant;
}

// The window a call moves on this core; `insert`: the window lies in dst, else in src.
dm::MoveWindow window_of(const TileDesc& dst, const TileDesc& src, WindowStart start, AccToVecMode mode, bool insert)
{
    const TileDesc& small = insert ? src : dst;
    const bool split_m = mode == AccToVecMode::DualModeSplitM, split_n = mode == AccToVecMode::DualModeSplitN;
    // TINSERT's source splits in halves between the vector cores; TEXTRACT's destination is one half.
    const int64_t rows = insert && split_m ? small.valid_rows / 2 : small.valid_rows;
    const int64_t cols = insert && split_n ? small.valid_cols / 2 : small.valid_cols;
    dm::MoveWindow w = dm::split_origin(mode, rows, cols);
    w.rows = rows;
    w.cols = cols;
    if (insert) {
        w.dst_row = start.row, w.dst_col = start.col;
    } else {
        w.src_row += start.row, w.src_col += start.col;
    }
    return w;
}

}  // namespace

void check_textract(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const WindowStart* start,
                    ReluPreMode relu, AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant)
{
    quant = effective_quantization(p, dst, src, quant);
    const std::string path = dm::location_name(src.loc) + " -> " + dm::location_name(dst.loc);
    if (!rules::textract_location_ok(p, src.loc, dst.loc))
        dm::report_rule(sink, p, "LEGAL_TEXTRACT_LOCATION", "dst", "TEXTRACT has no " + path + " path",
                        "Mat -> Left/Right, Acc -> Mat, Vec -> Vec (a5: also Mat -> ScaleLeft/ScaleRight, Acc -> Vec, "
                        "Vec -> Mat)",
                        path);
    dm::check_conversion(p, dst, src, relu, mode, sink, quant, dm::kWindowRules);
    if (!rules::textract_layout_ok(p, src.loc, dst.loc, src.blayout, src.slayout, dst.blayout, dst.slayout))
        dm::report_rule(sink, p, "LEGAL_TEXTRACT_LAYOUT", "src", "the " + path + " path cannot read this arrangement",
                        "Nz or Zn into Left/Right, Zz into ScaleLeft, Nn into ScaleRight, Vec -> Vec in one arrangement",
                        dm::arrangement_name(src) + " -> " + dm::arrangement_name(dst));
    if (!start) return;
    const dm::MoveWindow w = window_of(dst, src, *start, mode, false);
    check_range(sink, "RUN_TEXTRACT_RANGE", "src", src, w.src_row, w.src_col, w.rows, w.cols);
    if (!rules::textract_start_ok(p, window_tile(src), start->row, start->col))
        dm::report_rule(sink, p, "RUN_TEXTRACT_ALIGN", "src", "the window does not start where the copy can read it",
                        src.boxed() ? "a start on a fractal box of " + extent_text(src.box_rows(), src.box_cols())
                                    : "a start column on a 32-byte block",
                        at_text(start->row, start->col));
}

void check_tinsert(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const WindowStart* start,
                   ReluPreMode relu, AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant,
                   std::optional<TInsertMode> split_mode)
{
    quant = effective_quantization(p, dst, src, quant);
    const std::string path = dm::location_name(src.loc) + " -> " + dm::location_name(dst.loc);
    if (split_mode) {
        if (!rules::tinsert_split_mode_ok(p, src.loc, dst.loc, src.blayout, src.slayout))
            dm::report_rule(sink, p, "LEGAL_TINSERT_MODE", "src", "a split insertion moves an Nz Vec tile into a Mat tile",
                            "Nz Vec -> Mat (a5)", dm::arrangement_name(src) + " " + path);
    } else if (!rules::tinsert_location_ok(p, src.loc, dst.loc)) {
        dm::report_rule(sink, p, "LEGAL_TINSERT_LOCATION", "dst", "TINSERT has no " + path + " path",
                        "Acc -> Mat, Vec -> Vec (a5: also Acc -> Vec, Vec -> Mat)", path);
    }
    dm::check_conversion(p, dst, src, relu, mode, sink, quant, dm::kWindowRules);
    if (!rules::tinsert_layout_ok(p, src.loc, dst.loc, src.blayout, src.slayout, dst.blayout, dst.slayout))
        dm::report_rule(sink, p, "LEGAL_TINSERT_LAYOUT", "dst", "the " + path + " path cannot write this arrangement",
                        "Vec -> Vec in one arrangement, Vec -> Mat into Nz",
                        dm::arrangement_name(src) + " -> " + dm::arrangement_name(dst));
    if (!start) return;
    const dm::MoveWindow w = window_of(dst, src, *start, mode, true);
    check_range(sink, "RUN_TINSERT_RANGE", "dst", dst, w.dst_row, w.dst_col, w.rows, w.cols);
    if (!rules::tinsert_start_ok(p, window_tile(dst), start->row, start->col))
        dm::report_rule(sink, p, "RUN_TINSERT_ALIGN", "dst", "the window does not start where the copy can write it",
                        !dst.boxed()                        ? "a start column on a 32-byte block"
                        : dst.slayout == SLayout::RowMajor ? "a start column on a box column (a multiple of " +
                                                                  std::to_string(dst.box_cols()) + ")"
                                                            : "a start row on a box row (a multiple of " +
                                                                  std::to_string(dst.box_rows()) + ")",
                        at_text(start->row, start->col));
}

namespace {

// The checks every window move makes before it writes, on the active profile (WARN_CPU_ONLY for what only
// the cpu profile accepts).
template <typename Check>
void run_checks(const TileDesc& dst, const TileDesc& src, const AccQuantization* quant, Check&& check)
{
    dm::check_tile(dst, "dst");
    dm::check_tile(src, "src");
    if (quant && quant->per_column) dm::check_tile(*quant->per_column, "fp");
    StopAtFirstFinding stop;
    check(runtime::active_profile(), stop);
    warn_if_cpu_only(runtime::active_profile(), check);
}

Window as_window(int64_t row, int64_t col, const dm::MoveWindow& w)
{
    return {int(row), int(col), int(w.rows), int(w.cols)};
}

// What TEXTRACT and TINSERT do once their checks passed: read the window's source (and its table),
// move it, and mark what was written (`written`, a window of dst).
void move_checked_window(const TileDesc& dst, const TileDesc& src, const dm::MoveWindow& w, ReluPreMode relu,
                         const AccQuantization* quant, const Window& written)
{
    quant = effective_quantization(runtime::active_profile(), dst, src, quant);
    require_written(src, as_window(w.src_row, w.src_col, w), "src");
    if (quant && quant->per_column) require_written(*quant->per_column, 1, int(w.src_col + w.cols), "fp");
    dm::move_window(dst, src, w, relu, quant);
    mark_written(dst, written);
}

}  // namespace

void textract(const TileDesc& dst, const TileDesc& src, WindowStart start, ReluPreMode relu, AccToVecMode mode,
              const AccQuantization* quant)
{
    PTO_HOLD_BACK(quant && quant->per_column ? "TEXTRACT_FP" : "TEXTRACT", textract, dst, src, start, relu, mode, quant);
    runtime::InstructionScope scope(quant && quant->per_column ? "TEXTRACT_FP" : "TEXTRACT");
    run_checks(dst, src, quant, [&](const profile::Profile& p, LegalitySink& sink) {
        check_textract(p, dst, src, &start, relu, mode, sink, quant);
    });
    move_checked_window(dst, src, window_of(dst, src, start, mode, false), relu, quant,
                        Window{0, 0, dst.valid_rows, dst.valid_cols});
}

void tinsert(const TileDesc& dst, const TileDesc& src, WindowStart start, ReluPreMode relu, AccToVecMode mode,
             const AccQuantization* quant, std::optional<TInsertMode> split_mode)
{
    PTO_HOLD_BACK(quant && quant->per_column ? "TINSERT_FP" : "TINSERT", tinsert, dst, src, start, relu, mode, quant, split_mode);
    runtime::InstructionScope scope(quant && quant->per_column ? "TINSERT_FP" : "TINSERT");
    run_checks(dst, src, quant, [&](const profile::Profile& p, LegalitySink& sink) {
        check_tinsert(p, dst, src, &start, relu, mode, sink, quant, split_mode);
    });
    const dm::MoveWindow w = window_of(dst, src, start, mode, true);
    move_checked_window(dst, src, w, relu, quant, as_window(w.dst_row, w.dst_col, w));
}

namespace {

// A FRACTAL_Z (or FRACTAL_Z_3D) convolution tile's bytes as the Zn matrix they are: K = every dimension
// but the last two (or three) times C0 rows, N columns, 16 x C0 boxes of C0 consecutive k per column.
// [C1HW, N1, 16, C0]: N = N1 * 16; [C1, H, W, N, C0] (and deeper): N = the next-to-last dimension.
std::optional<TileDesc> fractal_z_matrix(const ConvTileDesc& src)
{
    const bool fractal = src.layout == Layout::FRACTAL_Z || src.layout == Layout::FRACTAL_Z_3D;
    const int64_t c0 = 256 / dtype_bits(src.dtype);
    if (!fractal || src.dims < 4 || src.shape[src.dims - 1] != c0) return std::nullopt;
    const bool split_n = src.dims == 4;
    if (split_n && src.shape[2] != 16) return std::nullopt;
    int64_t k = c0;
    for (int d = 0; d < src.dims - (split_n ? 3 : 2); ++d) k *= src.shape[d];
    const int64_t n = split_n ? src.shape[1] * 16 : src.shape[src.dims - 2];
    if (n % 16 != 0) return std::nullopt;
    TileDesc m;
    m.data = src.data;
    m.dtype = src.dtype;
    m.loc = src.loc;
    m.blayout = BLayout::RowMajor;
    m.slayout = SLayout::ColMajor;
    m.rows = m.valid_rows = int32_t(k);
    m.cols = m.valid_cols = int32_t(n);
    return m;
}

// The rules only a convolution tile's window has: FRACTAL_Z weights in L1 into a Right tile of their type.
// True when they hold.
bool check_conv_weights(const TileDesc& dst, const ConvTileDesc& src, LegalitySink& sink)
{
    bool held = true;
    const auto broken = [&](const char* code, const char* operand, const std::string& rule, const std::string& expected,
                            const std::string& actual) {
        held = false;
        report(sink, code, operand, rule, expected, actual);
    };
    if (src.loc != TileType::Mat)
        broken("LEGAL_TEXTRACT_LOCATION", "src", "a convolution tile's window comes from L1", "a Mat convolution tile",
               dm::location_name(src.loc));
    if (!fractal_z_matrix(src))
        broken("LEGAL_TEXTRACT_LAYOUT", "src", "a convolution tile's window comes from its weights in FRACTAL_Z or FRACTAL_Z_3D",
               "[C1HW, N/16, 16, C0] or [..., N, C0] with C0 = 32 bytes and N a multiple of 16",
               dm::layout_name(src.layout) + " of " + std::to_string(src.dims) + " dimensions");
    if (dst.loc != TileType::Right || dst.dtype != src.dtype)
        broken("LEGAL_TEXTRACT_LOCATION", "dst", "a convolution tile's window goes to a Right tile of its type",
               "a " + std::string(dtype_name(src.dtype)) + " Right tile", std::string(dtype_name(dst.dtype)) + " " + dm::location_name(dst.loc));
    return held;
}

}  // namespace

void check_textract(const profile::Profile& p, const TileDesc& dst, const ConvTileDesc& src, const WindowStart* start,
                    ReluPreMode relu, AccToVecMode mode, LegalitySink& sink)
{
    if (check_conv_weights(dst, src, sink)) check_textract(p, dst, *fractal_z_matrix(src), start, relu, mode, sink);
}

void textract(const TileDesc& dst, const ConvTileDesc& src, WindowStart start)
{
    {
        runtime::InstructionScope scope("TEXTRACT");
        StopAtFirstFinding stop;
        check_conv_weights(dst, src, stop);
    }
    textract(dst, *fractal_z_matrix(src), start);
}

}  // namespace pto::engine
