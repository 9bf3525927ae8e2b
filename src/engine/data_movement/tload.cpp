// TLOAD: global tensor -> Vec / Mat tile.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"
#include "engine/data_movement/global_view.hpp"
#include "engine/data_movement/operand_checks.hpp"
#include "engine/data_movement/pad_value.hpp"
#include "engine/data_movement/stretch_kernels.hpp"

namespace pto::engine {

namespace dm = data_movement;

namespace {

template <typename Kernel>
void load_region(const TileDesc& dst, const dm::GlobalView& view)
{
    const dm::TileOperand tile{dst};
    dm::move_region<Kernel>(tile, view, dst.valid_rows, dst.valid_cols, tile.contiguous_axis());
}

// Null leaves the pad region as it was on a2a3 and a5 (their pages define nothing there); the cpu
// profile zero-fills it, as the public CPU simulation does, when the tile's whole capacity lies in
// its memory (a window TASSIGNed near the end keeps its bytes past the valid region as they were).
bool zero_fills_null_pad(const TileDesc& dst)
{
    if (runtime::active_profile().target != profile::Target::Cpu) return false;
    const int64_t room = runtime::memory_bytes_after(dst.data);
    return room < 0 || room >= dst.bytes();
}

}  // namespace

namespace {
void check_plain_load(const profile::Profile& profile, const TileDesc& dst, const GlobalDesc& src, LegalitySink& sink);
void check_mx_load(const profile::Profile& profile, const TileDesc& dst, const GlobalDesc& src, LegalitySink& sink);
}  // namespace

void check_tload(const profile::Profile& profile, const TileDesc& dst, const GlobalDesc& src, LegalitySink& sink)
{
    if (!rules::tload_location_ok(profile, dst.loc, src.layout)) {
        dm::report_rule(sink, profile, "LEGAL_TLOAD_LOCATION", "dst", "TLOAD cannot load into a " + dm::location_name(dst.loc) + " tile",
                      "a Vec or Mat tile", dm::location_name(dst.loc));
    }
    if (!rules::tload_dtype_ok(profile, dst.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_TLOAD_DTYPE", "dst",
                      "TLOAD does not load " + std::string(dtype_name(dst.dtype)) + " tiles",
                      "a supported element type", std::string(dtype_name(dst.dtype)));
    }
    if (rules::is_mx_layout(src.layout)) {
        check_mx_load(profile, dst, src, sink);
    } else {
        check_plain_load(profile, dst, src, sink);
    }
    if (!rules::tload_pad_ok(profile, dst.dtype, dst.pad)) {
        dm::report_rule(sink, profile, "LEGAL_TLOAD_PAD", "dst", "64-bit integer tiles pad only with Null or Zero", "Null or Zero",
                      "another pad value");
    }
    if (all_known(dst.valid_rows, dst.valid_cols) && !rules::transfer_extent_ok(profile, dst.valid_rows, dst.valid_cols)) {
        report(sink, "RUN_EMPTY_TRANSFER", "dst", "the tile's valid region is empty", "at least 1 x 1",
               std::to_string(dst.valid_rows) + " x " + std::to_string(dst.valid_cols));
    }
}

namespace {

void check_plain_load(const profile::Profile& profile, const TileDesc& dst, const GlobalDesc& src, LegalitySink& sink)
{
    if (!rules::element_size_match(dst.dtype, src.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_GM_ELEMENT_SIZE", "src",
                      "the tile's element type " + std::string(dtype_name(dst.dtype)) + " and the global tensor's " +
                          std::string(dtype_name(src.dtype)) + " differ in size",
                      std::to_string(dst.element_bits()) + "-bit elements",
                      std::to_string(dtype_bits(src.dtype)) + "-bit elements");
    }
    if (!rules::gm_layout_ok(profile, dst.loc, src.layout, dst.blayout, dst.slayout, dst.rows, dst.cols, dst.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_GM_LAYOUT", "src",
                      "TLOAD cannot move a " + dm::layout_name(src.layout) + " global tensor into a " +
                          dm::arrangement_name(dst) + " " + dm::location_name(dst.loc) + " tile",
                      "a supported layout pair", dm::layout_name(src.layout) + " -> " + dm::arrangement_name(dst));
    }
    if (all_known(src.shape[0], src.shape[1], src.shape[2]) &&
        !rules::gm_fractal_conversion_ok(src.layout, dst.blayout, dst.slayout, dst.fractal_bytes, src.shape[0],
                                         src.shape[1], src.shape[2])) {
        dm::report_rule(sink, profile, 
            "LEGAL_GM_FRACTAL", "src",
            "a layout-converting load takes a 2-D tensor (dimensions 0..2 of extent 1) into 512-byte fractals",
            "shape (1, 1, 1, R, C) and fractal 512",
            "dimensions " + std::to_string(src.shape[0]) + ", " + std::to_string(src.shape[1]) + ", " +
                std::to_string(src.shape[2]) + " and fractal " + std::to_string(dst.fractal_bytes));
    }
}

// An MX scale tensor (MX_A_* / MX_B_*): its own layout, element-type and shape rules.
void check_mx_load(const profile::Profile& profile, const TileDesc& dst, const GlobalDesc& src, LegalitySink& sink)
{
    if (!rules::mx_load_layout_ok(profile, dst.loc, src.layout, dst.blayout, dst.slayout, dst.fractal_bytes)) {
        const std::string wanted = rules::is_mx_a_layout(src.layout) ? "Zz" : "Nn";
        dm::report_rule(sink, profile, "LEGAL_GM_LAYOUT", "src",
                        "TLOAD cannot move a " + dm::layout_name(src.layout) + " scale tensor into a " +
                            dm::arrangement_name(dst) + " " + dm::location_name(dst.loc) + " tile with " +
                            std::to_string(dst.fractal_bytes) + "-byte fractals",
                        "a Mat tile (cpu: also the scale tile) in " + wanted + " with 32-byte (16 x 2) fractals",
                        dm::layout_name(src.layout) + " -> " + dm::arrangement_name(dst));
    }
    if (!rules::mx_load_dtype_ok(profile, dst.dtype, src.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_GM_MX_DTYPE", "src",
                        "MX scales load as f8e8m0 (tile " + std::string(dtype_name(dst.dtype)) + ", tensor " +
                            std::string(dtype_name(src.dtype)) + ")",
                        profile.target == profile::Target::Cpu ? "one-byte elements" : "f8e8m0 on both sides",
                        std::string(dtype_name(dst.dtype)) + " <- " + std::string(dtype_name(src.dtype)));
    }
    if (!rules::mx_global_shape_ok(src.layout, src.shape[0], src.shape[1], src.shape[3], src.shape[4])) {
        const bool boxed = src.layout == Layout::MX_A_ZZ || src.layout == Layout::MX_B_NN;
        dm::report_rule(sink, profile, "LEGAL_GM_MX_SHAPE", "src",
                        "a " + dm::layout_name(src.layout) + " tensor has " +
                            (boxed ? "16 x 2 boxes in dimensions 3 and 4" : "dimensions 0 and 1 of extent 1 and pairs of groups in dimension 4"),
                        boxed ? "shape (.., .., .., 16, 2)" : "shape (1, 1, .., .., 2)",
                        "shape (" + std::to_string(src.shape[0]) + ", " + std::to_string(src.shape[1]) + ", " +
                            std::to_string(src.shape[2]) + ", " + std::to_string(src.shape[3]) + ", " +
                            std::to_string(src.shape[4]) + ")");
    }
}

}  // namespace

namespace {

void load(const TileDesc& dst, const GlobalDesc& src)
{
    dm::check_tile(dst, "dst");
    StopAtFirstFinding stop;
    check_tload(runtime::active_profile(), dst, src, stop);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& s) {
        check_tload(p, dst, src, s);
    });
    const GlobalDesc folded = dm::folded_for(src, dst);
    dm::check_global_access(folded, dst.valid_rows, dst.valid_cols, "src");

    const bool pads = dst.pad != PadValue::Null || zero_fills_null_pad(dst);
    if (pads && (dst.valid_rows < dst.rows || dst.valid_cols < dst.cols)) {
        runtime::require_tile_bytes(dst.data, dst.bytes(), "its capacity, which the pad fills,", "dst");
        dm::fill_tile(dst, dm::pad_bits(dst.dtype, dst.pad));
    }

    const dm::GlobalView view(folded);
    dm::note_global_region(view, dst.valid_rows, dst.valid_cols, dtype_bits(folded.dtype), false);
    dm::with_copy_kernel(dst.element_bits(), [&]<typename Kernel>() { load_region<Kernel>(dst, view); });

    if (pads) {
        mark_written(dst, dst.rows, dst.cols);
    } else {
        mark_written(dst);
    }
}

}  // namespace

void tload(const TileDesc& dst, const GlobalDesc& src)
{
    PTO_HOLD_BACK("TLOAD", tload, dst, src);
    runtime::InstructionScope scope("TLOAD");
    load(dst, src);
}

void tprefetch(const TileDesc& dst, const GlobalDesc& src)
{
    runtime::InstructionScope scope("TPREFETCH");
    load(dst, src);
}

}  // namespace pto::engine
