// TMOV: tile -> tile moves between locations and layouts (Vec->Vec/Mat, Mat->Left/Right/Bias/Scaling/
// ScaleLeft/ScaleRight, Acc->Mat/Vec with conversion and ReLU).
#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

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

void check_tmov(const profile::Profile& profile, const TileDesc& dst, const TileDesc& src, ReluPreMode relu,
                AccToVecMode mode, LegalitySink& sink)
{
    const std::string path = dm::location_name(src.loc) + " -> " + dm::location_name(dst.loc);
    if (!rules::tmov_location_ok(profile, src.loc, dst.loc)) {
        dm::report_rule(sink, profile, "LEGAL_TMOV_LOCATION", "dst", "TMOV has no " + path + " path", "a supported location pair", path);
    }
    if (!rules::tmov_dtype_ok(profile, src.loc, dst.loc, src.dtype, dst.dtype)) {
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

void tmov(const TileDesc& dst, const TileDesc& src, ReluPreMode relu, AccToVecMode mode)
{
    runtime::InstructionScope scope("TMOV");
    dm::check_tile(dst, "dst");
    dm::check_tile(src, "src");
    StopAtFirstFinding stop;
    check_tmov(runtime::active_profile(), dst, src, relu, mode, stop);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& s) {
        check_tmov(p, dst, src, relu, mode, s);
    });
    int64_t row0 = 0, col0 = 0;
    source_origin(dst, mode, row0, col0);
    check_source_covers(dst, src, mode, row0, col0);
    require_written(src, "src");

    if (relu == ReluPreMode::NormalRelu) {
        move_converting<true>(dst, src, row0, col0);
    } else if (src.dtype != dst.dtype) {
        move_converting<false>(dst, src, row0, col0);
    } else {
        move_bits(dst, src, row0, col0);
    }
    mark_written(dst);
}

}  // namespace pto::engine
