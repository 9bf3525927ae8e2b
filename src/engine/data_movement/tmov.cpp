// TMOV: tile -> tile moves between locations and layouts (Vec->Vec/Mat, Mat->Left/Right/Bias/Scaling/
// ScaleLeft/ScaleRight, Acc->Mat/Vec with conversion and ReLU, or quantized by a scalar or a table).
#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>

#include "engine/hold_back.hpp"
#include "engine/data_movement/acc_quantize.hpp"
#include "engine/data_movement/operand_checks.hpp"
#include "engine/data_movement/stretch_kernels.hpp"
#include "engine/data_movement/tile_move.hpp"

namespace pto::engine {

namespace dm = data_movement;

namespace {

std::string name_of(DType t)
{
    return std::string(dtype_name(t));
}
std::string extent(int rows, int cols)
{
    return std::to_string(rows) + " x " + std::to_string(cols);
}

void check_source_covers(const TileDesc& dst, const TileDesc& src, AccToVecMode mode, const dm::MoveWindow& w)
{
    const bool split_m = mode == AccToVecMode::DualModeSplitM, split_n = mode == AccToVecMode::DualModeSplitN;
    const bool rows_ok = split_m ? 2 * dst.valid_rows == src.valid_rows : w.src_row + dst.valid_rows <= src.valid_rows;
    const bool cols_ok = split_n ? 2 * dst.valid_cols == src.valid_cols : w.src_col + dst.valid_cols <= src.valid_cols;
    if (rows_ok && cols_ok) return;
    const std::string need = split_m ? "twice the destination's valid rows"
                             : split_n
                                 ? "twice the destination's valid columns"
                                 : "at least the destination's valid region " + extent(dst.valid_rows, dst.valid_cols);
    runtime::fail({"RUN_TMOV_VALID", "", "src",
                   "the source's valid region does not cover what the destination's valid region receives",
                   "a source valid region of " + need, extent(src.valid_rows, src.valid_cols), ""});
}

// Whether the window is all of both tiles and they lay out their elements alike: then the move is a copy
// of the bytes (the cube's Mat -> Left/Right moves of whole tiles).
bool same_whole_storage(const TileDesc& dst, const TileDesc& src, const dm::MoveWindow& w)
{
    return w.src_row == 0 && w.src_col == 0 && w.dst_row == 0 && w.dst_col == 0 && w.rows == src.rows &&
           w.cols == src.cols && dst.rows == src.rows && dst.cols == src.cols && dst.blayout == src.blayout &&
           dst.slayout == src.slayout && (!src.boxed() || dst.fractal_bytes == src.fractal_bytes) &&
           dst.element_bits() == src.element_bits();
}

template <typename Kernel>
void move(const TileDesc& dst, const TileDesc& src, const dm::MoveWindow& w)
{
    const dm::TileOperand to{dst, w.dst_row, w.dst_col};
    const dm::TileOperand from{src, w.src_row, w.src_col};
    dm::move_region<Kernel>(to, from, w.rows, w.cols, to.contiguous_axis());
}

// Any other pair, element by element through the bit-exact conversion; with `relu` a negative source
// value becomes +0 (all-zero bits in every type).
void move_converting_any(const TileDesc& dst, const TileDesc& src, const dm::MoveWindow& w, bool relu)
{
    const bool float_to_integer = dtype_is_float(src.dtype) && !dtype_is_float(dst.dtype);
    const RoundMode round = float_to_integer ? RoundMode::CAST_TRUNC : RoundMode::CAST_RINT;
    const int64_t in_bytes = src.element_bits() / 8, out_bytes = dst.element_bits() / 8;
    for (int64_t r = 0; r < w.rows; ++r)
        for (int64_t c = 0; c < w.cols; ++c) {
            std::byte* out = dst.data + dst.offset(w.dst_row + r, w.dst_col + c) * out_bytes;
            const std::byte* in = src.data + src.offset(w.src_row + r, w.src_col + c) * in_bytes;
            if (relu) {
                float value;
                numeric::convert(DType::F32, &value, src.dtype, in, 1, RoundMode::CAST_RINT, SaturationMode::OFF);
                if (value < 0.0f) {
                    std::memset(out, 0, size_t(out_bytes));
                    continue;
                }
            }
            numeric::convert(dst.dtype, out, src.dtype, in, 1, round, SaturationMode::ON);
        }
}

// TMOV's own conversions, stretch by stretch: the accumulator's outputs (ReLU'd when Relu) and the bias
// table's widening. False for any other pair.
template <bool Relu>
bool move_converting(const TileDesc& dst, const TileDesc& src, const dm::MoveWindow& w)
{
    const DType from = src.dtype, to = dst.dtype;
    if (from == DType::F32 && to == DType::F16) return move<dm::ConvertElements<float, half, Relu>>(dst, src, w), true;
    if (from == DType::F32 && to == DType::BF16) return move<dm::ConvertElements<float, bfloat16_t, Relu>>(dst, src, w), true;
    if (from == DType::F32 && to == DType::F32) return move<dm::ConvertElements<float, float, Relu>>(dst, src, w), true;
    if (from == DType::I32 && to == DType::I32) return move<dm::ConvertElements<int32_t, int32_t, Relu>>(dst, src, w), true;
    if (from == DType::F16 && to == DType::F32) return move<dm::ConvertElements<half, float, false>>(dst, src, w), true;
    if (from == DType::BF16 && to == DType::F32) return move<dm::ConvertElements<bfloat16_t, float, false>>(dst, src, w), true;
    return false;
}

// The quantizing forms, element by element: the fixpipe's rule (acc_quantize.hpp) per destination element.
void move_quantized(const TileDesc& dst, const TileDesc& src, const AccQuantization& quant, ReluPreMode relu,
                    const dm::MoveWindow& w)
{
    const int64_t out_bytes = (dst.element_bits() + 7) / 8;
    for (int64_t c = 0; c < w.cols; ++c) {
        const uint64_t word = dm::quant_word(quant, w.src_col + c);
        for (int64_t r = 0; r < w.rows; ++r)
            dm::write_quantized_element(src, src.offset(w.src_row + r, w.src_col + c), word, relu, dst.dtype,
                                        dst.data + dst.offset(w.dst_row + r, w.dst_col + c) * out_bytes);
    }
}

void move_bits(const TileDesc& dst, const TileDesc& src, const dm::MoveWindow& w)
{
    if (same_whole_storage(dst, src, w)) {
        std::memmove(dst.data, src.data, size_t(src.bytes()));
        return;
    }
    dm::with_copy_kernel(dst.element_bits(), [&]<typename Kernel>() { move<Kernel>(dst, src, w); });
}

}  // namespace

namespace data_movement {

void move_window(const TileDesc& dst, const TileDesc& src, const MoveWindow& window, ReluPreMode relu,
                 const AccQuantization* quant)
{
    if (quant) {
        move_quantized(dst, src, *quant, relu, window);
    } else if (relu == ReluPreMode::NormalRelu) {
        if (!move_converting<true>(dst, src, window)) move_converting_any(dst, src, window, true);
    } else if (src.dtype != dst.dtype) {
        if (!move_converting<false>(dst, src, window)) move_converting_any(dst, src, window, false);
    } else {
        move_bits(dst, src, window);
    }
}

MoveWindow split_origin(AccToVecMode mode, int64_t half_rows, int64_t half_cols)
{
    const int64_t sub = runtime::subblock_idx();
    return {.src_row = mode == AccToVecMode::DualModeSplitM ? sub * half_rows : 0,
            .src_col = mode == AccToVecMode::DualModeSplitN ? sub * half_cols : 0};
}

void check_conversion(const profile::Profile& profile, const TileDesc& dst, const TileDesc& src, ReluPreMode relu,
                      AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant,
                      const ConversionRules& rule_set)
{
    const std::string path = location_name(src.loc) + " -> " + location_name(dst.loc);
    if (quant) {
        if (!rule_set.quant_source_ok(profile, src.loc, src.dtype, dst.dtype))
            report_rule(sink, profile, "LEGAL_TMOV_LOCATION", "src", "a quantizing move leaves an accumulator",
                        "an Acc tile", location_name(src.loc));
        if (!rules::acc_quant_output_dtype_ok(profile, src.dtype, dst.dtype))
            report_rule(sink, profile, "LEGAL_TMOV_QUANT_DTYPE", "dst",
                        "a quantizing move of a " + name_of(src.dtype) + " accumulator cannot produce " + name_of(dst.dtype),
                        profile.target == profile::Target::A2A3
                            ? "f32 -> i8/u8, i32 -> i8/u8/f16"
                            : "f32 -> i8/u8/f16/bf16/hif8/e4m3/f32, i32 -> i8/u8/f16/bf16",
                        name_of(src.dtype) + " -> " + name_of(dst.dtype));
        if (quant->per_column) check_quant_table(profile, *quant->per_column, src.valid_cols, sink);
    } else if (!rule_set.dtype_ok(profile, src.loc, dst.loc, src.dtype, dst.dtype)) {
        report_rule(sink, profile, "LEGAL_TMOV_DTYPE", "dst",
                    "a " + path + " move cannot take " + name_of(src.dtype) + " into " + name_of(dst.dtype),
                    "a supported element-type pair", name_of(src.dtype) + " -> " + name_of(dst.dtype));
    }
    if (!rule_set.mode_ok(profile, src.loc, dst.loc, relu, mode)) {
        report_rule(sink, profile, "LEGAL_TMOV_MODE", "src",
                    "ReLU applies only to moves out of an accumulator and split modes only to Acc -> Vec moves",
                    "an Acc source (Acc -> Vec for split modes)", path);
    }
    if (all_known(src.valid_rows, src.valid_cols) &&
        !rules::tmov_split_ok(mode, dst.element_bits(), src.valid_rows, src.valid_cols)) {
        report(sink, "RUN_TMOV_SPLIT", "src", "the accumulator's valid region cannot be split between the two vector cores",
               mode == AccToVecMode::DualModeSplitM ? "an even row count"
                                                    : "an even column count (a multiple of 32 for 32-bit outputs)",
               extent(src.valid_rows, src.valid_cols));
    }
}

}  // namespace data_movement

void check_tmov(const profile::Profile& profile, const TileDesc& dst, const TileDesc& src, ReluPreMode relu,
                AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant)
{
    const std::string path = dm::location_name(src.loc) + " -> " + dm::location_name(dst.loc);
    if (!rules::tmov_location_ok(profile, src.loc, dst.loc)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_LOCATION", "dst", "TMOV has no " + path + " path", "a supported location pair", path);
    }
    dm::check_conversion(profile, dst, src, relu, mode, sink, quant);
    if (!rules::tmov_shape_ok(profile, src.rows, src.cols, dst.rows, dst.cols)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_SHAPE", "dst", "source and destination capacities differ", extent(src.rows, src.cols),
                      extent(dst.rows, dst.cols));
    }
    if (dst.loc == TileType::Bias || dst.loc == TileType::Scaling) {
        const int align = rules::tmov_table_alignment(dst.loc);
        if (!rules::tmov_table_row_ok(profile, src.rows, src.cols, src.element_bits(), dst.cols, dst.element_bits(),
                                      align)) {
            dm::report_rule(sink, profile, "LEGAL_TMOV_TABLE_ROW", "src",
                          "a move into the " + dm::location_name(dst.loc) + " buffer takes one row of a multiple of " +
                              std::to_string(align) + " bytes (at most 4096 bytes on a5)",
                          "1 row, bytes % " + std::to_string(align) + " == 0",
                          std::to_string(src.rows) + " rows of " +
                              std::to_string(int64_t(src.cols) * src.element_bits() / 8) + " bytes");
        }
    }
    if (!rules::tmov_source_layout_ok(profile, src.loc, dst.loc, src.blayout, src.slayout)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_LAYOUT", "src", "the cube cannot read a " + dm::arrangement_name(src) + " L1 tile",
                      "Nz, Zn or row-major", dm::arrangement_name(src));
    }
}

namespace {

// The checks of every TMOV form out of `src` before it writes; the window this core moves.
dm::MoveWindow prepare_move(const TileDesc& dst, const TileDesc& src, ReluPreMode relu, AccToVecMode mode,
                            const AccQuantization* quant)
{
    dm::check_tile(dst, "dst");
    dm::check_tile(src, "src");
    if (quant && quant->per_column) dm::check_tile(*quant->per_column, "fp");
    StopAtFirstFinding stop;
    check_tmov(runtime::active_profile(), dst, src, relu, mode, stop, quant);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& s) {
        check_tmov(p, dst, src, relu, mode, s, quant);
    });
    dm::MoveWindow w = dm::split_origin(mode, dst.valid_rows, dst.valid_cols);
    w.rows = dst.valid_rows;
    w.cols = dst.valid_cols;
    check_source_covers(dst, src, mode, w);
    require_written(src, "src");
    if (quant && quant->per_column) require_written(*quant->per_column, 1, int(w.src_col + w.cols), "fp");
    return w;
}

}  // namespace

void tmov(const TileDesc& dst, const TileDesc& src, ReluPreMode relu, AccToVecMode mode)
{
    PTO_HOLD_BACK("TMOV", tmov, dst, src, relu, mode);
    runtime::InstructionScope scope("TMOV");
    dm::move_window(dst, src, prepare_move(dst, src, relu, mode, nullptr), relu, nullptr);
    mark_written(dst);
}

void tprefetch(const TileDesc& dst, const TileDesc& src)
{
    runtime::InstructionScope scope("TPREFETCH");
    const dm::MoveWindow w = prepare_move(dst, src, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, nullptr);
    move_bits(dst, src, w);
    mark_written(dst);
}

void tmov(const TileDesc& dst, const TileDesc& src, const AccQuantization& quant, ReluPreMode relu, AccToVecMode mode)
{
    PTO_HOLD_BACK(quant.per_column ? "TMOV_FP" : "TMOV", tmov, dst, src, quant, relu, mode);
    runtime::InstructionScope scope(quant.per_column ? "TMOV_FP" : "TMOV");
    dm::move_window(dst, src, prepare_move(dst, src, relu, mode, &quant), relu, &quant);
    mark_written(dst);
}

}  // namespace pto::engine
