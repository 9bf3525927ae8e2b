// TROWSUM TROWMAX TROWMIN TROWPROD TCOLSUM TCOLMAX TCOLMIN TCOLPROD: operand checks against the profile, checked-mode
// bookkeeping, and the one call of the reduction kernel for the element type.
#include <pto/engine/ops/reduce.hpp>

#include <string>

#include <pto/engine/access.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/hold_back.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/reduce/reduce_kernels.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {

// An instruction's name and its rule codes, in the order of ReduceOp.
struct Reduction {
    const char* name;
    const char* dtype;
    const char* same_dtype;
    const char* location;
    const char* layout;
};

#define PTO_REDUCTION(NAME) {#NAME, "LEGAL_" #NAME "_DTYPE", "LEGAL_" #NAME "_SAME_DTYPE", "LEGAL_" #NAME "_LOCATION", "LEGAL_" #NAME "_LAYOUT"}
constexpr Reduction kRowReductions[] = {PTO_REDUCTION(TROWSUM), PTO_REDUCTION(TROWMAX), PTO_REDUCTION(TROWMIN),
                                        PTO_REDUCTION(TROWPROD)};
constexpr Reduction kColReductions[] = {PTO_REDUCTION(TCOLSUM), PTO_REDUCTION(TCOLMAX), PTO_REDUCTION(TCOLMIN),
                                        PTO_REDUCTION(TCOLPROD)};
#undef PTO_REDUCTION

const Reduction& row_reduction(ReduceOp op) { return kRowReductions[int(op)]; }
const Reduction& col_reduction(ReduceOp op) { return kColReductions[int(op)]; }

std::string dtype_text(DType t) { return std::string(dtype_name(t)); }

void check_common(const Reduction& r, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    for (const auto& [t, operand] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}})
        if (!rules::reduce_location_ok(t->loc))
            report(sink, r.location, operand, std::string(r.name) + " takes Vec tiles (UB) only", "a Vec tile",
                   std::string(profile::location_name(t->loc)));
    if (!rules::reduce_nd_layout_ok(src.blayout, src.slayout))
        report(sink, r.layout, "src", "src is a row-major, unboxed (ND) tile", "ND", src.boxed() ? "a boxed layout" : "column-major");
    if (!rules::reduce_same_dtype_ok(dst.dtype, src.dtype))
        report(sink, r.same_dtype, "dst", "dst has src's element type", dtype_text(src.dtype), dtype_text(dst.dtype));
}

}  // namespace

void check_row_reduce(const profile::Profile& p, ReduceOp op, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    const Reduction& r = row_reduction(op);
    check_common(r, dst, src, sink);
    if (!rules::row_reduce_dst_layout_ok(dst.blayout, dst.slayout, dst.cols))
        report(sink, r.layout, "dst", "dst is ND, or DN with one column", "ND, or DN with 1 column",
               dst.boxed() ? "a boxed layout" : "DN with " + std::to_string(dst.cols) + " columns");
    if (!rules::row_reduce_dtype_ok(p, op, src.dtype))
        report(sink, r.dtype, "src", std::string(r.name) + " does not reduce this element type on " + std::string(p.name),
               p.target == profile::Target::A2A3 || op == ReduceOp::Prod ? "f16, f32, i32 or i16"
                                                                          : "f16, f32, i16, i32, i64 or u64 (max, min: also i8, u8)",
               dtype_text(src.dtype));
    if (all_known(src.valid_rows, src.valid_cols) && (src.valid_rows == 0 || src.valid_cols == 0))
        report(sink, "RUN_VALID_SHAPE", "src", "a row reduction needs at least one valid element", "at least 1x1",
               extent_text(src.valid_rows, src.valid_cols));
    if (all_known(src.valid_rows, dst.valid_rows) && src.valid_rows != dst.valid_rows)
        report(sink, "RUN_VALID_SHAPE", "dst", "dst has a valid row for each valid row of src",
               std::to_string(src.valid_rows) + " valid rows", std::to_string(dst.valid_rows) + " valid rows");
    if (known(dst.valid_cols) && dst.valid_cols == 0)
        report(sink, "RUN_VALID_SHAPE", "dst", "dst's valid region holds the column of results", "at least 1 valid column",
               "0 valid columns");
}

void check_col_reduce(const profile::Profile& p, ReduceOp op, const TileDesc& dst, const TileDesc& src,
                      const TileDesc* tmp, bool binary, LegalitySink& sink)
{
    const Reduction& r = col_reduction(op);
    check_common(r, dst, src, sink);
    if (!rules::reduce_nd_layout_ok(dst.blayout, dst.slayout))
        report(sink, r.layout, "dst", "dst is a row-major, unboxed (ND) tile", "ND", dst.boxed() ? "a boxed layout" : "column-major");
    if (!rules::col_reduce_dtype_ok(p, op, src.dtype))
        report(sink, r.dtype, "src", std::string(r.name) + " does not reduce this element type on " + std::string(p.name),
               p.target == profile::Target::A2A3 ? "f16, f32, i16 or i32"
               : op == ReduceOp::Prod            ? "f16, bf16, f32 or an integer of 16 or 32 bits"
                                                 : "f16, bf16, f32 or an integer of 8 to 64 bits",
               dtype_text(src.dtype));
    if (tmp && !rules::tcolsum_tmp_ok(p, tmp->loc, tmp->blayout, tmp->slayout, tmp->dtype, src.dtype))
        report(sink, "LEGAL_TCOLSUM_TMP", "tmp", "tmp is an ND Vec tile of src's element type on " + std::string(p.name),
               "an ND Vec tile of " + dtype_text(src.dtype), dtype_text(tmp->dtype) + " " + std::string(profile::location_name(tmp->loc)));
    if (all_known(src.valid_cols, dst.valid_cols) && src.valid_cols != dst.valid_cols)
        report(sink, "RUN_VALID_SHAPE", "dst", "dst has src's valid columns", std::to_string(src.valid_cols) + " valid columns",
               std::to_string(dst.valid_cols) + " valid columns");
    if (all_known(src.valid_rows, src.valid_cols, dst.valid_rows) && src.valid_rows > 0 && src.valid_cols > 0 &&
        dst.valid_rows == 0)
        report(sink, "RUN_VALID_SHAPE", "dst", "dst's valid region holds the row of results", "at least 1 valid row", "0 valid rows");
    // The device's binary path keeps a row of partial sums in each row of tmp.
    if (binary && tmp && known(src.valid_cols) && int64_t(src.valid_cols) * src.element_bits() > int64_t(tmp->cols) * tmp->element_bits())
        report(sink, "RUN_VALID_SHAPE", "tmp", "a row of tmp holds src's valid columns",
               "rows of at least " + std::to_string(src.valid_cols) + " " + dtype_text(src.dtype),
               std::to_string(tmp->cols) + " " + dtype_text(tmp->dtype));
}

namespace {

// The reduction of src's valid region, results at dst(k, 0) (along rows) or dst(0, k) (across).
void run(reduce::Axis axis, ReduceOp op, const TileDesc& dst, const TileDesc& src_tile)
{
    // Staged against a row-major view of dst, so that a staged copy is row-major as the kernel reads it.
    // Without a copy, src is either apart from dst or maps row 0 onto dst's row 0 (the same tile), and
    // each result is written after the elements it overwrites were read.
    TileDesc rows_view = dst;
    rows_view.blayout = BLayout::RowMajor;
    const TileDesc src = readable_source(src_tile, rows_view, 0);
    const bool along = axis == reduce::Axis::AlongLines;
    const int64_t out_stride = along ? dst.offset(1, 0) - dst.offset(0, 0) : 1;
    elementwise::visit_arithmetic_type(src.dtype, [&]<typename T>() {
        using S = typename elementwise::Format<T>::Storage;
        const reduce::ReduceJob<S> job{axis,
                                       op,
                                       {reinterpret_cast<const S*>(src.data), src.cols},
                                       {src.valid_rows, src.valid_cols},
                                       reinterpret_cast<S*>(dst.data),
                                       out_stride};
        reduce::run_reduce<T>(job);
        return true;
    });
}

void row_reduce(ReduceOp op, const TileDesc& dst, const TileDesc& src)
{
    PTO_HOLD_BACK(row_reduction(op).name, row_reduce, op, dst, src);
    runtime::InstructionScope scope(row_reduction(op).name);
    StopAtFirstFinding stop;
    check_row_reduce(runtime::active_profile(), op, dst, src, stop);
    require_written(src, "src");
    run(reduce::Axis::AlongLines, op, dst, src);
    mark_written(dst, dst.valid_rows, 1);
}

void col_reduce(ReduceOp op, const TileDesc& dst, const TileDesc& src, const TileDesc* tmp, bool binary)
{
    PTO_HOLD_BACK(col_reduction(op).name, col_reduce, op, dst, src, tmp, binary);
    runtime::InstructionScope scope(col_reduction(op).name);
    StopAtFirstFinding stop;
    check_col_reduce(runtime::active_profile(), op, dst, src, tmp, binary, stop);
    if (src.valid_rows == 0 || src.valid_cols == 0) return;  // nothing to reduce, nothing written
    require_written(src, "src");
    run(reduce::Axis::AcrossLines, op, dst, src);
    mark_written(dst, 1, dst.valid_cols);
}

}  // namespace

void trowsum(const TileDesc& dst, const TileDesc& src, const TileDesc*) { row_reduce(ReduceOp::Sum, dst, src); }
void trowmax(const TileDesc& dst, const TileDesc& src, const TileDesc*) { row_reduce(ReduceOp::Max, dst, src); }
void trowmin(const TileDesc& dst, const TileDesc& src, const TileDesc*) { row_reduce(ReduceOp::Min, dst, src); }
void trowprod(const TileDesc& dst, const TileDesc& src, const TileDesc*) { row_reduce(ReduceOp::Prod, dst, src); }

void tcolsum(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp, bool binary)
{
    col_reduce(ReduceOp::Sum, dst, src, tmp, binary);
}
void tcolmax(const TileDesc& dst, const TileDesc& src) { col_reduce(ReduceOp::Max, dst, src, nullptr, false); }
void tcolmin(const TileDesc& dst, const TileDesc& src) { col_reduce(ReduceOp::Min, dst, src, nullptr, false); }
void tcolprod(const TileDesc& dst, const TileDesc& src) { col_reduce(ReduceOp::Prod, dst, src, nullptr, false); }

}  // namespace pto::engine
