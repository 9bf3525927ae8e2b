// TROWEXPAND: operand rules, checked-mode bookkeeping, and the broadcast of each row's first element
// along the row. The element type only decides the width of the bit pattern copied.
#include <pto/engine/ops/expand.hpp>

#include <pto/engine/access.hpp>
#include <pto/engine/legality.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace pto::engine {

namespace {

template <typename Bits>
void fill_rows(const TileDesc& dst, const TileDesc& src)
{
    for (int i = 0; i < dst.valid_rows; ++i) {
        // Read before the row is written: dst may be src.
        const Bits value = reinterpret_cast<const Bits*>(src.data)[src.offset(i, 0)];
        Bits* row = reinterpret_cast<Bits*>(dst.data) + dst.offset(i, 0);
        std::fill(row, row + dst.valid_cols, value);
    }
}

}  // namespace

void check_trowexpand(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    for (const auto& [tile, operand] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}}) {
        if (!rules::expand_location_ok(tile->loc)) {
            report(sink, "LEGAL_EXPAND_LOCATION", operand, "both operands must be Vec tiles", "UB (Vec)",
                   std::string(profile::memory_name(tile->loc)));
        }
        if (!rules::expand_row_major_ok(tile->blayout, tile->slayout)) {
            report(sink, "LEGAL_EXPAND_LAYOUT", operand, "both operands must be plain row-major tiles",
                   "row-major, no fractal boxes", tile->boxed() ? "a boxed layout" : "column-major");
        }
    }
    if (!rules::trowexpand_dtype_ok(p, src.dtype)) {
        report(sink, "LEGAL_TROWEXPAND_DTYPE", "src", "element type not broadcast",
               "i8, u8, i16, u16, i32, u32, f16, bf16 or f32", std::string(dtype_name(src.dtype)));
    }
    if (!rules::expand_same_dtype_ok(dst.dtype, src.dtype)) {
        report(sink, "LEGAL_EXPAND_SAME_DTYPE", "dst", "dst and src must have one element type",
               std::string(dtype_name(src.dtype)), std::string(dtype_name(dst.dtype)));
    }
    if (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols) && dst.valid_rows > 0 &&
        dst.valid_cols > 0 && (src.valid_rows != dst.valid_rows || src.valid_cols < 1)) {
        report(sink, "RUN_VALID_SHAPE", "src", "src gives each of dst's rows its first element",
               std::to_string(dst.valid_rows) + " valid rows and 1 or more valid columns",
               extent_text(src.valid_rows, src.valid_cols));
    }
}

void trowexpand(const TileDesc& dst, const TileDesc& src)
{
    PTO_HOLD_BACK("TROWEXPAND", trowexpand, dst, src);
    runtime::InstructionScope scope("TROWEXPAND");
    StopAtFirstFinding stop;
    check_trowexpand(runtime::active_profile(), dst, src, stop);
    if (dst.valid_rows == 0 || dst.valid_cols == 0) return;
    TileDesc first_column = src;
    first_column.valid_cols = 1;
    require_written(first_column, "src");
    switch (dst.element_bits()) {
        case 8: fill_rows<uint8_t>(dst, src); break;
        case 16: fill_rows<uint16_t>(dst, src); break;
        default: fill_rows<uint32_t>(dst, src); break;
    }
    mark_written(dst);
}

}  // namespace pto::engine
