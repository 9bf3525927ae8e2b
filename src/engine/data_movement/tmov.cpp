// TMOV: tile -> tile moves between locations and layouts (Vec->Vec/Mat, Mat->Left/Right/Bias/Scaling/
// ScaleLeft/ScaleRight, Acc->Mat/Vec with conversion and ReLU, or quantized by a scalar or a table).
#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/data_movement/acc_quantize.hpp"
#include "engine/data_movement/operand_checks.hpp"
#include "engine/data_movement/stretch_kernels.hpp"

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

// Where this core's part starts in the source: split modes hand each vector sub-block one half.
void source_origin(const TileDesc& dst, AccToVecMode mode, int64_t& row0, int64_t& col0)
{
    const int64_t sub = runtime::subblock_idx();
    row0 = mode == AccToVecMode::DualModeSplitM ? sub * dst.valid_rows : 0;
    col0 = mode == AccToVecMode::DualModeSplitN ? sub * dst.valid_cols : 0;
}

void check_source_covers(const TileDesc& dst, const TileDesc& src, AccToVecMode mode, int64_t row0, int64_t col0)
{
    const bool split_m = mode == AccToVecMode::DualModeSplitM, split_n = mode == AccToVecMode::DualModeSplitN;
    const bool rows_ok = split_m ? 2 * dst.valid_rows == src.valid_rows : row0 + dst.valid_rows <= src.valid_rows;
    const bool cols_ok = split_n ? 2 * dst.valid_cols == src.valid_cols : col0 + dst.valid_cols <= src.valid_cols;
    if (rows_ok && cols_ok) return;
    const std::string need = split_m ? "twice the destination's valid rows"
                             : split_n
                                 ? "twice the destination's valid columns"
                                 : "at least the destination's valid region " + extent(dst.valid_rows, dst.valid_cols);
    runtime::fail({"RUN_TMOV_VALID", "", "src",
                   "the source's valid region does not cover what the destination's valid region receives",
                   "a source valid region of " + need, extent(src.valid_rows, src.valid_cols), ""});
}

template <typename Kernel>
void move(const TileDesc& dst, const TileDesc& src, int64_t row0, int64_t col0)
{
    const dm::TileOperand to{dst};
    const dm::TileOperand from{src, row0, col0};
    dm::move_region<Kernel>(to, from, dst.valid_rows, dst.valid_cols, to.contiguous_axis());
}

template <bool Relu>
void move_converting(const TileDesc& dst, const TileDesc& src, int64_t row0, int64_t col0)
{
    const DType from = src.dtype, to = dst.dtype;
    if (from == DType::F32 && to == DType::F16)
        return move<dm::ConvertElements<float, half, Relu>>(dst, src, row0, col0);
    if (from == DType::F32 && to == DType::BF16)
        return move<dm::ConvertElements<float, bfloat16_t, Relu>>(dst, src, row0, col0);
    if (from == DType::F32) return move<dm::ConvertElements<float, float, Relu>>(dst, src, row0, col0);
    if (from == DType::I32) return move<dm::ConvertElements<int32_t, int32_t, Relu>>(dst, src, row0, col0);
    if (from == DType::F16) return move<dm::ConvertElements<half, float, false>>(dst, src, row0, col0);
    return move<dm::ConvertElements<bfloat16_t, float, false>>(dst, src, row0, col0);
}

// The quantizing forms, element by element: the fixpipe's rule (acc_quantize.hpp) per destination element.
void move_quantized(const TileDesc& dst, const TileDesc& src, const AccQuantization& quant, ReluPreMode relu,
                    int64_t row0, int64_t col0)
{
    const int64_t out_bytes = (dst.element_bits() + 7) / 8;
    for (int c = 0; c < dst.valid_cols; ++c) {
        const float scale = dm::column_scale(quant, col0 + c);
        for (int r = 0; r < dst.valid_rows; ++r)
            dm::write_quantized(dm::quantized_value(src, src.offset(row0 + r, col0 + c), scale, relu), dst.dtype,
                                dst.data + dst.offset(r, c) * out_bytes);
    }
}

void move_bits(const TileDesc& dst, const TileDesc& src, int64_t row0, int64_t col0)
{
    switch (dst.element_bits()) {
        case 8: return move<dm::CopyBits<uint8_t>>(dst, src, row0, col0);
        case 16: return move<dm::CopyBits<uint16_t>>(dst, src, row0, col0);
        case 32: return move<dm::CopyBits<uint32_t>>(dst, src, row0, col0);
        default: return move<dm::CopyBits<uint64_t>>(dst, src, row0, col0);
    }
}

}  // namespace

namespace {

void check_quantization(const profile::Profile& profile, const TileDesc& dst, const TileDesc& src,
                        const AccQuantization& quant, LegalitySink& sink)
{
    if (!rules::tmov_quant_source_ok(src.loc)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_LOCATION", "src", "a quantizing TMOV moves out of an accumulator",
                        "an Acc tile", dm::location_name(src.loc));
    }
    if (!rules::acc_quant_output_dtype_ok(profile, src.dtype, dst.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_QUANT_DTYPE", "dst",
                        "a quantizing move of a " + name_of(src.dtype) + " accumulator cannot produce " + name_of(dst.dtype),
                        profile.target == profile::Target::A2A3
                            ? "f32 -> i8/u8, i32 -> i8/u8/f16"
                            : "f32 -> i8/u8/f16/bf16/hif8/e4m3/f32, i32 -> i8/u8/f16/bf16",
                        name_of(src.dtype) + " -> " + name_of(dst.dtype));
    }
    if (quant.per_column) dm::check_quant_table(profile, *quant.per_column, src.valid_cols, sink);
}

}  // namespace

void check_tmov(const profile::Profile& profile, const TileDesc& dst, const TileDesc& src, ReluPreMode relu,
                AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant)
{
    const std::string path = dm::location_name(src.loc) + " -> " + dm::location_name(dst.loc);
    if (!rules::tmov_location_ok(profile, src.loc, dst.loc)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_LOCATION", "dst", "TMOV has no " + path + " path", "a supported location pair", path);
    }
    if (quant) {
        check_quantization(profile, dst, src, *quant, sink);
    } else if (!rules::tmov_dtype_ok(profile, src.loc, dst.loc, src.dtype, dst.dtype)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_DTYPE", "dst",
                      "TMOV " + path + " cannot move " + name_of(src.dtype) + " into " + name_of(dst.dtype),
                      "a supported element-type pair", name_of(src.dtype) + " -> " + name_of(dst.dtype));
    }
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
    if (!rules::tmov_mode_ok(src.loc, dst.loc, relu, mode)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_MODE", "src",
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

namespace {

// The checks of every TMOV form out of `src` before it writes; where this core's part of src starts.
void prepare_move(const TileDesc& dst, const TileDesc& src, ReluPreMode relu, AccToVecMode mode,
                  const AccQuantization* quant, int64_t& row0, int64_t& col0)
{
    dm::check_tile(dst, "dst");
    dm::check_tile(src, "src");
    if (quant && quant->per_column) dm::check_tile(*quant->per_column, "fp");
    StopAtFirstFinding stop;
    check_tmov(runtime::active_profile(), dst, src, relu, mode, stop, quant);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& s) {
        check_tmov(p, dst, src, relu, mode, s, quant);
    });
    source_origin(dst, mode, row0, col0);
    check_source_covers(dst, src, mode, row0, col0);
    require_written(src, "src");
    if (quant && quant->per_column) require_written(*quant->per_column, 1, int(col0 + dst.valid_cols), "fp");
}

}  // namespace

void tmov(const TileDesc& dst, const TileDesc& src, ReluPreMode relu, AccToVecMode mode)
{
    runtime::InstructionScope scope("TMOV");
    int64_t row0 = 0, col0 = 0;
    prepare_move(dst, src, relu, mode, nullptr, row0, col0);
    if (relu == ReluPreMode::NormalRelu) {
        move_converting<true>(dst, src, row0, col0);
    } else if (src.dtype != dst.dtype) {
        move_converting<false>(dst, src, row0, col0);
    } else {
        move_bits(dst, src, row0, col0);
    }
    mark_written(dst);
}

void tprefetch(const TileDesc& dst, const TileDesc& src)
{
    runtime::InstructionScope scope("TPREFETCH");
    int64_t row0 = 0, col0 = 0;
    prepare_move(dst, src, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, nullptr, row0, col0);
    move_bits(dst, src, row0, col0);
    mark_written(dst);
}

void tmov(const TileDesc& dst, const TileDesc& src, const AccQuantization& quant, ReluPreMode relu, AccToVecMode mode)
{
    runtime::InstructionScope scope(quant.per_column ? "TMOV_FP" : "TMOV");
    int64_t row0 = 0, col0 = 0;
    prepare_move(dst, src, relu, mode, &quant, row0, col0);
    move_quantized(dst, src, quant, relu, row0, col0);
    mark_written(dst);
}

}  // namespace pto::engine
