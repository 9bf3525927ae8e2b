// TROWARGMAX TROWARGMIN TCOLARGMAX TCOLARGMIN: operand checks against the profile and the search of each
// line for its largest or smallest element.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/reduce.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/runtime/diagnostic.hpp>

#include "engine/hold_back.hpp"

#include <cmath>
#include <cstring>
#include <string>

namespace pto::engine {

namespace {

const char* name_of(ReduceOp op, bool rows)
{
    if (rows) return op == ReduceOp::Max ? "TROWARGMAX" : "TROWARGMIN";
    return op == ReduceOp::Max ? "TCOLARGMAX" : "TCOLARGMIN";
}

std::string code(ReduceOp op, bool rows, const char* rule) { return std::string("LEGAL_") + name_of(op, rows) + "_" + rule; }

std::string dtype_text(DType t) { return std::string(dtype_name(t)); }

// Whether x beats the best so far: larger (smaller) as TMAX (TMIN) orders them, a NaN never winning and
// +0 above -0. A tie does not beat it, so the first of equals stays.
bool beats(ReduceOp op, double x, double best)
{
    if (std::isnan(x)) return false;
    if (std::isnan(best)) return true;
    if (x == best) {
        if (x != 0 || std::signbit(x) == std::signbit(best)) return false;
        return op == ReduceOp::Max ? !std::signbit(x) : std::signbit(x);
    }
    return op == ReduceOp::Max ? x > best : x < best;
}

}  // namespace

void check_arg_reduce(const profile::Profile& p, ReduceOp op, bool rows, const TileDesc& index, const TileDesc* value,
                      const TileDesc& src, const TileDesc* tmp, LegalitySink& sink)
{
    const std::string name = name_of(op, rows);
    const std::pair<const TileDesc*, const char*> outputs[] = {{&index, "dst_idx"}, {value, "dst_val"}};
    for (const auto& [t, operand] : {outputs[0], outputs[1], std::pair<const TileDesc*, const char*>{&src, "src"}})
        if (t && !rules::reduce_location_ok(t->loc))
            report(sink, code(op, rows, "LOCATION").c_str(), operand, name + " takes Vec tiles (UB) only", "a Vec tile",
                   std::string(profile::location_name(t->loc)));
    const bool src_ok = rows ? rules::reduce_nd_layout_ok(src.blayout, src.slayout) : src.slayout == SLayout::NoneBox;
    if (!src_ok)
        report(sink, code(op, rows, "LAYOUT").c_str(), "src", rows ? "src is ND" : "src is ND or DN, unboxed",
               rows ? "ND" : "ND or DN", "another layout");
    for (const auto& [t, operand] : outputs) {
        if (!t) continue;
        const bool ok = rows ? rules::row_reduce_dst_layout_ok(t->blayout, t->slayout, t->cols)
                             : rules::reduce_nd_layout_ok(t->blayout, t->slayout);
        if (!ok)
            report(sink, code(op, rows, "LAYOUT").c_str(), operand, rows ? "a row's result is ND, or DN with one column" : "the results are an ND row",
                   rows ? "ND, or DN with 1 column" : "ND", "another layout");
    }
    const bool dtype_ok = rows ? rules::row_arg_dtype_ok(p, src.dtype) : rules::col_arg_dtype_ok(p, src.dtype, value != nullptr);
    if (!dtype_ok) {
        const char* expected = p.target == profile::Target::Cpu ? "f16, bf16, f32 or an 8-, 16- or 32-bit integer"
                               : rows                            ? "f16 or f32"
                               : p.target == profile::Target::A2A3 ? "f16, f32, u16 or u32"
                                                                   : "8-, 16- or 32-bit (no 8-bit with values)";
        report(sink, code(op, rows, "DTYPE").c_str(), "src", name + " does not search this element type on " + std::string(p.name),
               expected, dtype_text(src.dtype));
    }
    if (!rules::arg_index_dtype_ok(p, index.dtype, src.dtype, !rows && value))
        report(sink, code(op, rows, "INDEX_DTYPE").c_str(), "dst_idx", "indices are 32-bit integers (16-bit for a column's values of a 16-bit type)",
               !rows && value && dtype_bits(src.dtype) == 16 ? "u16 or i16" : "u32 or i32", dtype_text(index.dtype));
    if (value && !rules::reduce_same_dtype_ok(value->dtype, src.dtype))
        report(sink, code(op, rows, "SAME_DTYPE").c_str(), "dst_val", "the values have src's element type", dtype_text(src.dtype),
               dtype_text(value->dtype));
    if (!rows && tmp && !rules::col_arg_tmp_ok(p, tmp->dtype, src.dtype))
        report(sink, code(op, rows, "TMP").c_str(), "tmp", "on a2a3 tmp is scratch of src's element type", dtype_text(src.dtype),
               dtype_text(tmp->dtype));
    if (!all_known(src.valid_rows, src.valid_cols)) return;
    if (src.valid_rows == 0 || src.valid_cols == 0)
        report(sink, "RUN_VALID_SHAPE", "src", "a search needs at least one valid element", "at least 1x1",
               extent_text(src.valid_rows, src.valid_cols));
    for (const auto& [t, operand] : outputs) {
        if (!t || !all_known(t->valid_rows, t->valid_cols)) continue;
        const bool fits = rows ? t->valid_rows == src.valid_rows && t->valid_cols >= 1 : t->valid_rows == 1 && t->valid_cols == src.valid_cols;
        if (!fits)
            report(sink, "RUN_VALID_SHAPE", operand, rows ? "a result for each valid row of src" : "one row of a result for each valid column of src",
                   rows ? extent_text(src.valid_rows, 1) : extent_text(1, src.valid_cols), extent_text(t->valid_rows, t->valid_cols));
    }
}

void targ_reduce(ReduceOp op, bool rows, const TileDesc& index, const TileDesc* value, const TileDesc& src, const TileDesc* tmp)
{
    PTO_HOLD_BACK(name_of(op, rows), targ_reduce, op, rows, index, value, src, tmp);
    runtime::InstructionScope scope(name_of(op, rows));
    StopAtFirstFinding stop;
    check_arg_reduce(runtime::active_profile(), op, rows, index, value, src, tmp, stop);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& sink) {
        check_arg_reduce(p, op, rows, index, value, src, tmp, sink);
    });
    require_written(src, "src");
    const int lines = rows ? src.valid_rows : src.valid_cols, length = rows ? src.valid_cols : src.valid_rows;
    for (int line = 0; line < lines; ++line) {
        int best = 0;
        double best_value = numeric::to_double(src.dtype, src.data, size_t(rows ? src.offset(line, 0) : src.offset(0, line)));
        for (int k = 1; k < length; ++k) {
            const double x = numeric::to_double(src.dtype, src.data, size_t(rows ? src.offset(line, k) : src.offset(k, line)));
            if (beats(op, x, best_value)) best = k, best_value = x;
        }
        const size_t at = size_t(rows ? index.offset(line, 0) : index.offset(0, line));
        numeric::from_double(index.dtype, index.data, at, double(best), RoundMode::CAST_RINT, SaturationMode::OFF);
        if (value) {
            const size_t value_at = size_t(rows ? value->offset(line, 0) : value->offset(0, line));
            // Every value of src's type converts back exactly; a line of NaNs gives the canonical NaN.
            numeric::from_double(value->dtype, value->data, value_at, std::isnan(best_value) ? std::nan("") : best_value,
                                 RoundMode::CAST_RINT, SaturationMode::OFF);
        }
    }
    if (rows) {
        mark_written(index, index.valid_rows, 1);
        if (value) mark_written(*value, value->valid_rows, 1);
    } else {
        mark_written(index);
        if (value) mark_written(*value);
    }
}

}  // namespace pto::engine
