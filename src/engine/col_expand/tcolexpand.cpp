// TCOLEXPAND: operand validation against the active profile, checked-mode bookkeeping, and the row
// copy. The element type only decides the row's byte count: the broadcast moves bit patterns.
#include <pto/engine/ops/col_expand.hpp>

#include <cstring>
#include <string>

#include <pto/engine/access.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/rules_col_expand.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"

namespace pto::engine {

namespace {

std::string shape(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

void check_placement(LegalitySink& sink, const TileDesc& t, const char* operand)
{
    if (!rules::tcolexpand_location_ok(t.loc)) {
        report(sink, "LEGAL_TCOLEXPAND_LOCATION", operand, "both operands must be Vec tiles", "UB (Vec)",
               std::string(profile::memory_name(t.loc)));
    }
    if (!rules::tcolexpand_layout_ok(t.blayout, t.slayout)) {
        report(sink, "LEGAL_TCOLEXPAND_LAYOUT", operand, "both operands must be plain row-major tiles",
               "row-major, no fractal boxes", t.boxed() ? "a boxed layout" : "column-major");
    }
}

}  // namespace

void check_tcolexpand(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    check_placement(sink, dst, "dst");
    check_placement(sink, src, "src");
    if (!rules::tcolexpand_dtype_ok(p, src.dtype)) {
        report(sink, "LEGAL_TCOLEXPAND_DTYPE", "src", "element type not broadcast on " + std::string(p.name),
               p.target == profile::Target::A2A3 ? "i8, u8, i16, u16, i32, u32, f16 or f32"
                                                 : "an element of 1, 2 or 4 bytes",
               std::string(dtype_name(src.dtype)));
    }
    if (!rules::tcolexpand_same_dtype_ok(dst.dtype, src.dtype)) {
        report(sink, "LEGAL_TCOLEXPAND_SAME_DTYPE", "dst", "dst and src must have one element type",
               std::string(dtype_name(src.dtype)), std::string(dtype_name(dst.dtype)));
    }
    if (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols) &&
        !rules::tcolexpand_shape_ok(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols)) {
        report(sink, "LEGAL_TCOLEXPAND_SHAPE", "src", "src must have dst's valid columns and a first row to broadcast",
               "1 or more valid rows and " + std::to_string(dst.valid_cols) + " valid columns",
               shape(src.valid_rows, src.valid_cols));
    }
}

void tcolexpand(const TileDesc& dst, const TileDesc& src)
{
    PTO_HOLD_BACK("TCOLEXPAND", tcolexpand, dst, src);
    runtime::InstructionScope scope("TCOLEXPAND");
    StopAtFirstFinding stop;
    check_tcolexpand(runtime::active_profile(), dst, src, stop);
    if (dst.valid_rows == 0 || dst.valid_cols == 0) return;

    TileDesc first_row = src;
    first_row.valid_rows = 1;
    require_written(first_row, "src");

    // Rows of plain row-major tiles are contiguous; copying src's row first lets dst alias src.
    const int64_t row_bytes = int64_t(dst.valid_cols) * dst.element_bits() / 8;
    const int64_t dst_stride = int64_t(dst.cols) * dst.element_bits() / 8;
    std::memmove(dst.data, src.data, static_cast<std::size_t>(row_bytes));
    for (int r = 1; r < dst.valid_rows; ++r) {
        std::memcpy(dst.data + r * dst_stride, dst.data, static_cast<std::size_t>(row_bytes));
    }
    mark_written(dst);
}

}  // namespace pto::engine
