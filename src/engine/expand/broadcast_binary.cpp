// The row- and column-broadcast binary instructions (TROWEXPANDADD ... TCOLEXPANDEXPDIF): operand rules,
// checked-mode bookkeeping, and the computation, which is the element-wise kernel of the operation's
// functor run row by row with the broadcast operand as a per-row scalar or as a line of values.
#include <pto/engine/ops/expand.hpp>

#include <pto/engine/access.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/legality.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "engine/hold_back.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/elementwise/math_kernel.hpp"
#include "engine/elementwise/operations.hpp"

namespace pto::engine {

namespace ew = elementwise;

namespace {

struct Names {
    const char* mnemonic;
    const char* dtype_code;
};

#define PTO_EXPAND_NAMES(AXIS)                                                                                   \
    {{"T" #AXIS "EXPANDADD", "LEGAL_T" #AXIS "EXPANDADD_DTYPE"}, {"T" #AXIS "EXPANDSUB", "LEGAL_T" #AXIS "EXPANDSUB_DTYPE"}, \
     {"T" #AXIS "EXPANDMUL", "LEGAL_T" #AXIS "EXPANDMUL_DTYPE"}, {"T" #AXIS "EXPANDDIV", "LEGAL_T" #AXIS "EXPANDDIV_DTYPE"}, \
     {"T" #AXIS "EXPANDMAX", "LEGAL_T" #AXIS "EXPANDMAX_DTYPE"}, {"T" #AXIS "EXPANDMIN", "LEGAL_T" #AXIS "EXPANDMIN_DTYPE"}, \
     {"T" #AXIS "EXPANDEXPDIF", "LEGAL_T" #AXIS "EXPANDEXPDIF_DTYPE"}}
constexpr Names kRowNames[] = PTO_EXPAND_NAMES(ROW);
constexpr Names kColNames[] = PTO_EXPAND_NAMES(COL);
#undef PTO_EXPAND_NAMES

const Names& names_of(ExpandAxis axis, ExpandOp op)
{
    return (axis == ExpandAxis::Row ? kRowNames : kColNames)[static_cast<int>(op)];
}

bool same_valid_shape(const TileDesc& a, const TileDesc& b)
{
    return a.valid_rows == b.valid_rows && a.valid_cols == b.valid_cols;
}

// Where the broadcast operand is and how it gives its values.
struct Broadcast {
    bool first = false;  // src0 is the broadcast operand (row broadcasts only)
    rules::RowBroadcast row = rules::RowBroadcast::Invalid;
};

// The row broadcast a full operand and a broadcast candidate make, or Invalid.
rules::RowBroadcast row_broadcast(const TileDesc& dst, const TileDesc& full, const TileDesc& candidate)
{
    if (!same_valid_shape(full, dst) || candidate.valid_rows != dst.valid_rows) return rules::RowBroadcast::Invalid;
    return rules::row_broadcast_of(candidate.blayout, candidate.slayout, candidate.valid_cols, candidate.element_bits());
}

// The source without dst's valid shape is broadcast; when both have it, src1 if it can be (the results
// agree), else src0.
Broadcast broadcast_of(ExpandAxis axis, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    if (axis == ExpandAxis::Col) return {};
    const Broadcast second{false, row_broadcast(dst, src0, src1)};
    const bool src1_full = same_valid_shape(src1, dst);
    if (same_valid_shape(src0, dst) && (!src1_full || second.row != rules::RowBroadcast::Invalid)) return second;
    return {true, row_broadcast(dst, src1, src0)};
}

void check_tile(LegalitySink& sink, const TileDesc& t, const char* operand, DType dst_dtype)
{
    if (!rules::expand_location_ok(t.loc)) {
        report(sink, "LEGAL_EXPAND_LOCATION", operand, "every operand must be a Vec tile", "UB (Vec)",
               std::string(profile::memory_name(t.loc)));
    }
    if (!rules::expand_same_dtype_ok(dst_dtype, t.dtype)) {
        report(sink, "LEGAL_EXPAND_SAME_DTYPE", operand, "every operand must have dst's element type",
               std::string(dtype_name(dst_dtype)), std::string(dtype_name(t.dtype)));
    }
}

void check_row_major(LegalitySink& sink, const TileDesc& t, const char* operand, const char* role)
{
    if (!rules::expand_row_major_ok(t.blayout, t.slayout)) {
        report(sink, "LEGAL_EXPAND_LAYOUT", operand, std::string(role) + " must be a plain row-major tile",
               "row-major, no fractal boxes", t.boxed() ? "a boxed layout" : "column-major");
    }
}

void check_row_broadcast_shapes(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, const TileDesc* tmp,
                                LegalitySink& sink)
{
    const bool src0_full = same_valid_shape(src0, dst), src1_full = same_valid_shape(src1, dst);
    if (!src0_full && !src1_full) {
        report(sink, "RUN_VALID_SHAPE", "src1", "one source must have dst's valid shape, the other is broadcast",
               extent_text(dst.valid_rows, dst.valid_cols),
               "src0 " + extent_text(src0.valid_rows, src0.valid_cols) + ", src1 " +
                   extent_text(src1.valid_rows, src1.valid_cols));
        return;
    }
    const Broadcast b = broadcast_of(ExpandAxis::Row, dst, src0, src1);
    const TileDesc& full = b.first ? src1 : src0;
    const TileDesc& broadcast = b.first ? src0 : src1;
    const char* broadcast_name = b.first ? "src0" : "src1";
    if (b.row == rules::RowBroadcast::Invalid) {
        const int block = 256 / broadcast.element_bits();
        report(sink, "LEGAL_EXPAND_LAYOUT", broadcast_name,
               "the broadcast operand gives each of dst's rows one value or one 32-byte block",
               std::to_string(dst.valid_rows) + " valid rows, column-major with 1 valid column or row-major with " +
                   std::to_string(block) + " valid columns",
               extent_text(broadcast.valid_rows, broadcast.valid_cols) +
                   (broadcast.blayout == BLayout::ColMajor ? " column-major" : " row-major") +
                   (broadcast.boxed() ? ", boxed" : ""));
        return;
    }
    check_row_major(sink, full, b.first ? "src1" : "src0", "the full-size operand");
    if (tmp && b.row == rules::RowBroadcast::Block) {
        report(sink, "LEGAL_EXPAND_TMP_MODE", "tmp", "the tmp form broadcasts one value per row only",
               "a column-major broadcast operand with 1 valid column", "a row-major 32-byte block per row");
    }
}

void check_col_broadcast_shapes(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, LegalitySink& sink)
{
    check_row_major(sink, src0, "src0", "the full-size operand");
    check_row_major(sink, src1, "src1", "the broadcast operand");
    if (!same_valid_shape(src0, dst)) {
        report(sink, "RUN_VALID_SHAPE", "src0", "src0 must have dst's valid shape",
               extent_text(dst.valid_rows, dst.valid_cols), extent_text(src0.valid_rows, src0.valid_cols));
    }
    if (src1.valid_cols != dst.valid_cols || src1.valid_rows < 1) {
        report(sink, "RUN_VALID_SHAPE", "src1", "src1 gives one value per column of dst, in its first row",
               "1 or more valid rows and " + std::to_string(dst.valid_cols) + " valid columns",
               extent_text(src1.valid_rows, src1.valid_cols));
    }
}

template <typename S>
ew::Lines<S> rows_of(const TileDesc& t)
{
    return {reinterpret_cast<S*>(t.data), t.cols};
}

// The `count` values of the broadcast operand that start at `first`, read in place unless they overlap
// dst's valid region, which is written before they are all read: then through a copy in `copy`.
template <typename S>
const S* values_apart_from_dst(const TileDesc& dst, const S* first, int count, std::vector<S>& copy)
{
    const auto* begin = reinterpret_cast<const std::byte*>(first);
    const auto* end = begin + std::size_t(count) * sizeof(S);
    if (end <= dst.data || dst.data + dst.valid_span_bytes() <= begin) return first;
    copy.assign(first, first + count);
    return copy.data();
}

// One pass of the line loops over dst's valid rows.
template <typename Op, typename T>
void run_broadcast(ExpandAxis axis, Broadcast b, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    using S = typename ew::Format<T>::Storage;
    const int rows = dst.valid_rows, cols = dst.valid_cols;
    const TileDesc& broadcast = b.first ? src0 : src1;
    const ew::Lines<const S> full = rows_of<const S>(b.first ? src1 : src0);
    const auto element = [&](int r, int c) { return reinterpret_cast<const S*>(broadcast.data)[broadcast.offset(r, c)]; };
    const auto run = [&](ew::Lines<S> out, ew::Lines<const S> in, ew::Lines<const S> values, ew::LineShape shape) {
        const ew::Lines<const S> sources[] = {b.first ? values : in, b.first ? in : values};
        ew::run_lines<T>(Op::kLines, out, std::span<const ew::Lines<const S>>(sources), shape);
    };
    // Both the column broadcast's first row (row-major) and the row broadcast's one value per row (one
    // column-major column) are contiguous from the operand's start.
    const S* first = reinterpret_cast<const S*>(broadcast.data);
    std::vector<S> values;
    if (axis == ExpandAxis::Col) {
        run(rows_of<S>(dst), full, {values_apart_from_dst(dst, first, cols, values), 0}, {rows, cols});
    } else if (b.row == rules::RowBroadcast::Scalar) {
        run(rows_of<S>(dst), full, ew::Lines<const S>::per_line(values_apart_from_dst(dst, first, rows, values), 1),
            {rows, cols});
    } else {
        // A block per row, repeated along a line of dst's width, a row at a time.
        const int block = broadcast.valid_cols;
        std::vector<S> blocks;
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < block; ++j) blocks.push_back(element(i, j));
        values.resize(static_cast<std::size_t>(cols));
        const ew::Lines<S> out = rows_of<S>(dst);
        for (int i = 0; i < rows; ++i) {
            for (int j = 0; j < cols; ++j) values[j] = blocks[i * block + j % block];
            run({out.line(i), 0}, {full.line(i), 0}, {values.data(), 0}, {1, cols});
        }
    }
}

// The functor of each operation (EXPDIF subtracts here; its exponential follows).
template <typename Fn>
void with_functor(ExpandOp op, Fn&& fn)
{
    switch (op) {
        case ExpandOp::Add: return fn.template operator()<ew::Add>();
        case ExpandOp::Sub: return fn.template operator()<ew::Sub>();
        case ExpandOp::Mul: return fn.template operator()<ew::Mul>();
        case ExpandOp::Div: return fn.template operator()<ew::Div>();
        case ExpandOp::Max: return fn.template operator()<ew::Max>();
        case ExpandOp::Min: return fn.template operator()<ew::Min>();
        case ExpandOp::ExpDif: return fn.template operator()<ew::Sub>();
    }
}

// The region of the broadcast operand the instruction reads.
TileDesc read_region(ExpandAxis axis, const TileDesc& broadcast)
{
    TileDesc region = broadcast;
    if (axis == ExpandAxis::Col) region.valid_rows = 1;
    return region;
}

}  // namespace

const char* broadcast_binary_name(ExpandAxis axis, ExpandOp op) { return names_of(axis, op).mnemonic; }

void check_broadcast_binary(const profile::Profile& p, ExpandAxis axis, ExpandOp op, const TileDesc& dst,
                            const TileDesc& src0, const TileDesc& src1, const TileDesc* tmp, LegalitySink& sink)
{
    const Names& names = names_of(axis, op);
    check_tile(sink, dst, "dst", dst.dtype);
    check_tile(sink, src0, "src0", dst.dtype);
    check_tile(sink, src1, "src1", dst.dtype);
    if (!rules::expand_dtype_ok(op, p, dst.dtype)) {
        report(sink, names.dtype_code, "dst", "element type not allowed on " + std::string(p.name),
               op == ExpandOp::ExpDif ? "f16 or f32"
               : p.target == profile::Target::A2A3 ? "f16, f32, i16 or i32"
                                                   : "f16, f32, i16, i32, u16 or u32",
               std::string(dtype_name(dst.dtype)));
    }
    check_row_major(sink, dst, "dst", "dst");
    if (!all_known(dst.valid_rows, dst.valid_cols, src0.valid_rows, src0.valid_cols, src1.valid_rows,
                   src1.valid_cols) ||
        dst.valid_rows == 0 || dst.valid_cols == 0) {
        return;
    }
    if (axis == ExpandAxis::Row) check_row_broadcast_shapes(dst, src0, src1, tmp, sink);
    else check_col_broadcast_shapes(dst, src0, src1, sink);
}

void broadcast_binary(ExpandAxis axis, ExpandOp op, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1,
                      const TileDesc* tmp)
{
    PTO_HOLD_BACK(names_of(axis, op).mnemonic, broadcast_binary, axis, op, dst, src0, src1, tmp);
    runtime::InstructionScope scope(names_of(axis, op).mnemonic);
    const profile::Profile& active = runtime::active_profile();
    StopAtFirstFinding stop;
    check_broadcast_binary(active, axis, op, dst, src0, src1, tmp, stop);
    warn_if_cpu_only(active, [&](const profile::Profile& p, LegalitySink& sink) {
        check_broadcast_binary(p, axis, op, dst, src0, src1, tmp, sink);
    });
    if (dst.valid_rows == 0 || dst.valid_cols == 0) return;

    const Broadcast b = broadcast_of(axis, dst, src0, src1);
    const TileDesc& broadcast = b.first ? src0 : src1;
    require_written(b.first ? src1 : src0, b.first ? "src1" : "src0");
    require_written(read_region(axis, broadcast), b.first ? "src0" : "src1");
    ew::visit_arithmetic_type(dst.dtype, [&]<typename T>() {
        if constexpr (rules::expand_dtype_ok(ExpandOp::Mul, profile::kCpu, dtype_of<T>)) {
            // Integer division by zero names the divisor's own element (the row kernels see one row).
            if constexpr (std::is_integral_v<T>) {
                if (op == ExpandOp::Div && runtime::checked()) {
                    ew::require_nonzero_divisors<T>(b.first ? src1 : read_region(axis, src1), "src1");
                }
            }
            with_functor(op, [&]<typename Op>() {
                if constexpr (requires(typename ew::Format<T>::Compute c) { Op::template apply<decltype(c)>(c, c); }) {
                    run_broadcast<Op, T>(axis, b, dst, src0, src1);
                }
            });
        }
        return true;
    });
    if (op == ExpandOp::ExpDif) ew::math_kernel(ew::MathFn::Exp, ew::MathAccuracy::Default, dst, dst);
    mark_written(dst);
}

}  // namespace pto::engine
