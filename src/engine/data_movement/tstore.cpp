// TSTORE: Vec / Mat / Acc tile -> global tensor, plain, atomically accumulated, or (Acc; cpu profile: any
// tile) with ReLU or quantized by a pre-quant scalar or a per-column table (TSTORE_FP).
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"
#include "engine/data_movement/acc_quantize.hpp"
#include "engine/data_movement/global_view.hpp"
#include "engine/data_movement/operand_checks.hpp"
#include "engine/data_movement/stretch_kernels.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/global_atomics.hpp"

namespace pto::engine {

namespace dm = data_movement;

namespace {

std::string name_of(DType t)
{
    return std::string(dtype_name(t));
}


template <typename Kernel>
void store_region(const dm::GlobalView& view, const TileDesc& src)
{
    const dm::TileOperand tile{src};
    dm::move_region<Kernel>(view, tile, src.valid_rows, src.valid_cols, tile.contiguous_axis());
}

// Vec / Mat tiles: bits unchanged, or added as the tensor's element type.
void store_plain(const dm::GlobalView& view, const TileDesc& src, DType global, bool accumulate)
{
    if (accumulate) {
        // rules::tstore_atomic_ok admits only types the visit covers (f32, f16, bf16, whole integers).
        elementwise::visit_arithmetic_type(global, [&]<typename T>() {
            store_region<dm::AccumulateElements<T, T, false>>(view, src);
            return true;
        });
        return;
    }
    dm::with_copy_kernel(src.element_bits(), [&]<typename Kernel>() { store_region<Kernel>(view, src); });
}

// Acc tiles: f32 -> f32 / f16 / bf16, i32 -> i32, negatives clamped to zero first with ReLU (and then
// added to what the tensor holds when accumulating).
template <bool Relu>
void store_accumulator(const dm::GlobalView& view, const TileDesc& src, DType global, bool accumulate)
{
    if (src.dtype == DType::I32) {
        if (accumulate) return store_region<dm::AccumulateElements<int32_t, int32_t, Relu>>(view, src);
        return store_region<dm::ConvertElements<int32_t, int32_t, Relu>>(view, src);
    }
    switch (global) {
        case DType::F16:
            if (accumulate) return store_region<dm::AccumulateElements<float, half, Relu>>(view, src);
            return store_region<dm::ConvertElements<float, half, Relu>>(view, src);
        case DType::BF16:
            if (accumulate) return store_region<dm::AccumulateElements<float, bfloat16_t, Relu>>(view, src);
            return store_region<dm::ConvertElements<float, bfloat16_t, Relu>>(view, src);
        default:
            if (accumulate) return store_region<dm::AccumulateElements<float, float, Relu>>(view, src);
            return store_region<dm::ConvertElements<float, float, Relu>>(view, src);
    }
}

// An accumulator into a convolution layout: the tensor's C0 and unaddressed dimensions
// (LEGAL_GM_CONV_SHAPE), and the valid region the whole pixels x channels view (RUN_GLOBAL_SHAPE).
void check_acc_conv_shape(const profile::Profile& profile, const GlobalDesc& dst, const TileDesc& src,
                          LegalitySink& sink)
{
    const std::string layout = dm::layout_name(dst.layout);
    if (!rules::acc_conv_shape_ok(dst.layout, dst.dtype, dst.shape)) {
        const std::string c0 = std::to_string(rules::acc_conv_c0(dst.dtype));
        const std::string expected =
            dst.layout == Layout::NC1HWC0
                ? "C0 (dimension 4) of " + c0 + (dst.dtype == DType::F32 ? " or 16" : "") + " " + name_of(dst.dtype) + "s"
            : dst.layout == Layout::NCDHW ? "D (dimension 2) of extent 1"
                                          : "dimension 0 of extent 1";
        dm::report_rule(sink, profile, "LEGAL_GM_CONV_SHAPE", "dst",
                        "an accumulator store into an " + layout +
                            " tensor writes 32-byte C0 blocks (64 bytes for i32) and addresses no further dimension",
                        expected, "shape " + dm::dims_text(dst.shape));
    }
    if (!rules::acc_conv_extent_ok(dst.layout, dst.dtype, dst.shape, src.valid_rows, src.valid_cols)) {
        const auto extent = [&](bool rows) { return rules::acc_conv_extent(dst.layout, dst.dtype, dst.shape, rows); };
        report(sink, "RUN_GLOBAL_SHAPE", "dst",
               "an accumulator store into an " + layout + " tensor of shape " + dm::dims_text(dst.shape) +
                   " writes it whole: one row per pixel, one column per channel",
               "a valid region of " + std::to_string(extent(true)) + " x " + std::to_string(extent(false)),
               std::to_string(src.valid_rows) + " x " + std::to_string(src.valid_cols));
    }
}

}  // namespace

void check_tstore(const profile::Profile& profile, const GlobalDesc& dst, const TileDesc& src, AtomicType atomic,
                  LegalitySink& sink, const AccQuantization* quant, ReluPreMode relu)
{
    const bool quantized = quant != nullptr;
    if (!rules::tstore_location_ok(profile, src.loc) || (quantized && !rules::tstore_quant_source_ok(profile, src.loc))) {
        dm::report_rule(sink, profile, "LEGAL_TSTORE_LOCATION", "src",
                      "TSTORE cannot store from a " + dm::location_name(src.loc) + " tile" +
                          (quantized ? " with a quantization" : ""),
                      quantized ? "an Acc tile"
                      : profile.target == profile::Target::A5 ? "a Vec or Acc tile" : "a Vec, Mat or Acc tile",
                      dm::location_name(src.loc));
    }
    if (quantized) {
        if (!rules::acc_quant_output_dtype_ok(profile, src.dtype, dst.dtype)) {
            dm::report_rule(sink, profile, "LEGAL_TSTORE_QUANT_DTYPE", "dst",
                          "a quantizing store of " +
                              (src.loc == TileType::Acc ? "an accumulator of " + name_of(src.dtype)
                                                        : "a " + name_of(src.dtype) + " tile") +
                              " cannot produce " + name_of(dst.dtype),
                          profile.target == profile::Target::A2A3 ? "f32 -> i8/u8, i32 -> i8/u8/f16"
                          : profile.target == profile::Target::A5 ? "f32 -> i8/u8/f16/bf16/hif8/e4m3/f32, "
                                                                    "i32 -> i8/u8/f16/bf16"
                                                                  : "f32 -> i8/u8/f16/bf16/hif8/e4m3/f32, "
                                                                    "i32 -> i8/u8/f16/bf16/i16",
                          name_of(src.dtype) + " -> " + name_of(dst.dtype));
        }
        if (quant->per_column) {
            const bool per_row = rules::tstore_table_per_row(src.loc, src.blayout);
            dm::check_quant_table(profile, *quant->per_column, per_row ? src.valid_rows : src.valid_cols, sink,
                                  per_row ? "source row" : "source column");
        }
    }
    if (!rules::tstore_relu_ok(profile, src.loc, relu, quantized)) {
        dm::report_rule(sink, profile, "LEGAL_TSTORE_RELU", "src", "a ReLU pre-mode applies to stores from an accumulator",
                        "an Acc tile", dm::location_name(src.loc));
    }
    if (src.loc == TileType::Acc) {
        if (!quantized && !rules::acc_output_dtype_ok(src.dtype, dst.dtype)) {
            dm::report_rule(sink, profile, "LEGAL_ACC_OUTPUT_DTYPE", "dst",
                          "an accumulator of " + name_of(src.dtype) + " cannot be stored as " + name_of(dst.dtype),
                          "f32 -> f32/f16/bf16 or i32 -> i32", name_of(src.dtype) + " -> " + name_of(dst.dtype));
        }
        if (!rules::acc_store_shape_ok(dst.layout, src.rows, src.cols)) {
            dm::report_rule(sink, profile, "LEGAL_TSTORE_ACC_SHAPE", "src",
                          "an accumulator store into an " + dm::layout_name(dst.layout) +
                              " tensor takes 1..4095 columns and at most 8192 (ND) or 65535 (NZ or a convolution "
                              "layout, columns a multiple of 16) rows",
                          "a supported accumulator shape", std::to_string(src.rows) + " x " + std::to_string(src.cols));
        }
    } else {
        if (!rules::tstore_dtype_ok(profile, src.dtype)) {
            dm::report_rule(sink, profile, "LEGAL_TSTORE_DTYPE", "src", "TSTORE does not store " + name_of(src.dtype) + " tiles",
                          "a supported element type", name_of(src.dtype));
        }
        if (!quantized && !rules::element_size_match(src.dtype, dst.dtype)) {
            dm::report_rule(sink, profile, "LEGAL_GM_ELEMENT_SIZE", "dst",
                          "the tile's element type " + name_of(src.dtype) + " and the global tensor's " +
                              name_of(dst.dtype) + " differ in size",
                          std::to_string(src.element_bits()) + "-bit elements",
                          std::to_string(dtype_bits(dst.dtype)) + "-bit elements");
        }
    }
    if (!rules::gm_store_layout_ok(profile, src.loc, dst.layout, src.blayout, src.slayout, src.rows, src.cols,
                                   src.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_GM_LAYOUT", "dst",
                      "TSTORE cannot move a " + dm::arrangement_name(src) + " " + dm::location_name(src.loc) +
                          " tile into a " + dm::layout_name(dst.layout) + " global tensor",
                      "a supported layout pair", dm::arrangement_name(src) + " -> " + dm::layout_name(dst.layout));
    }
    if (src.loc == TileType::Acc && rules::is_acc_conv_layout(dst.layout)) check_acc_conv_shape(profile, dst, src, sink);
    if (src.loc != TileType::Acc && all_known(dst.shape[0], dst.shape[1], dst.shape[2]) &&
        !rules::gm_fractal_conversion_ok(dst.layout, src.blayout, src.slayout, src.fractal_bytes, dst.shape[0],
                                         dst.shape[1], dst.shape[2])) {
        dm::report_rule(sink, profile, 
            "LEGAL_GM_FRACTAL", "dst",
            "a layout-converting store writes a 2-D tensor (dimensions 0..2 of extent 1) from 512-byte fractals",
            "shape (1, 1, 1, R, C) and fractal 512",
            "dimensions " + std::to_string(dst.shape[0]) + ", " + std::to_string(dst.shape[1]) + ", " +
                std::to_string(dst.shape[2]) + " and fractal " + std::to_string(src.fractal_bytes));
    }
    if (!rules::tstore_atomic_ok(profile, atomic, dst.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_TSTORE_ATOMIC", "dst",
                      "atomic accumulation into a " + name_of(dst.dtype) + " global tensor is not supported",
                      profile.target == profile::Target::A5 ? "AtomicAdd into i32" : "AtomicAdd into f32 or i32",
                      name_of(dst.dtype));
    }
    if (all_known(src.valid_rows, src.valid_cols) && !rules::transfer_extent_ok(profile, src.valid_rows, src.valid_cols)) {
        report(sink, "RUN_EMPTY_TRANSFER", "src", "the tile's valid region is empty", "at least 1 x 1",
               std::to_string(src.valid_rows) + " x " + std::to_string(src.valid_cols));
    }
}

namespace {

// The checks every TSTORE form makes before it writes; the tensor as the store sees it.
dm::GlobalView checked_view(const GlobalDesc& dst, const TileDesc& src, AtomicType atomic, const AccQuantization* quant,
                            ReluPreMode relu)
{
    dm::check_tile(src, "src");
    if (quant && quant->per_column) dm::check_tile(*quant->per_column, "fp");
    StopAtFirstFinding stop;
    check_tstore(runtime::active_profile(), dst, src, atomic, stop, quant, relu);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& s) {
        check_tstore(p, dst, src, atomic, s, quant, relu);
    });
    const GlobalDesc folded = dm::folded_for(dst, src);
    dm::check_global_access(folded, src.valid_rows, src.valid_cols, "dst");
    require_written(src, "src");
    if (quant && quant->per_column)
        require_written(*quant->per_column, 1,
                        rules::tstore_table_per_row(src.loc, src.blayout) ? src.valid_rows : src.valid_cols, "fp");
    const dm::GlobalView view(folded);
    dm::note_global_region(view, src.valid_rows, src.valid_cols, dtype_bits(folded.dtype), true, atomic == AtomicType::AtomicAdd);
    return view;
}

}  // namespace

void tstore(const GlobalDesc& dst, const TileDesc& src, AtomicType atomic, ReluPreMode relu)
{
    PTO_HOLD_BACK("TSTORE", tstore, dst, src, atomic, relu);
    runtime::InstructionScope scope("TSTORE");
    const dm::GlobalView view = checked_view(dst, src, atomic, nullptr, relu);
    const bool accumulate = atomic == AtomicType::AtomicAdd;
    std::unique_lock<std::mutex> atomics;
    if (accumulate) atomics = lock_global_atomics();
    if (src.loc == TileType::Acc) {
        relu == ReluPreMode::NormalRelu ? store_accumulator<true>(view, src, dst.dtype, accumulate)
                                        : store_accumulator<false>(view, src, dst.dtype, accumulate);
    } else {
        store_plain(view, src, dst.dtype, accumulate);
    }
}

void tstore(const GlobalDesc& dst, const TileDesc& src, const AccQuantization& quant, ReluPreMode relu,
            AtomicType atomic)
{
    PTO_HOLD_BACK(quant.per_column ? "TSTORE_FP" : "TSTORE", tstore, dst, src, quant, relu, atomic);
    runtime::InstructionScope scope(quant.per_column ? "TSTORE_FP" : "TSTORE");
    const dm::GlobalView view = checked_view(dst, src, atomic, &quant, relu);
    const int64_t out_bytes = (dtype_bits(dst.dtype) + 7) / 8;
    std::unique_lock<std::mutex> atomics;
    if (atomic == AtomicType::AtomicAdd) atomics = lock_global_atomics();
    const bool per_row = rules::tstore_table_per_row(src.loc, src.blayout);
    for (int c = 0; c < src.valid_cols; ++c) {
        for (int r = 0; r < src.valid_rows; ++r) {
            dm::write_quantized_element(src, src.offset(r, c), dm::quant_word(quant, per_row ? r : c), relu, dst.dtype,
                                        view.base() + view.offset(r, c) * out_bytes, atomic == AtomicType::AtomicAdd);
        }
    }
}

}  // namespace pto::engine
