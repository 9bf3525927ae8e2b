// TPARTADD TPARTMAX TPARTMIN TPARTMUL TPARTARGMAX TPARTARGMIN: operand checks and the element loops (the
// element-wise functors where both sources hold an element, a copy where one does); their definitions.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/partial.hpp>
#include <pto/profile/rules_partial.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstring>
#include <string>

#include <pto/numeric/convert.hpp>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/operations.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {

const char* name_of(PartialOp op, bool arg)
{
    if (arg) return op == PartialOp::Max ? "TPARTARGMAX" : "TPARTARGMIN";
    constexpr const char* kNames[] = {"TPARTADD", "TPARTMAX", "TPARTMIN", "TPARTMUL"};
    return kNames[int(op)];
}

std::string code(PartialOp op, bool arg, const char* rule) { return std::string("LEGAL_") + name_of(op, arg) + "_" + rule; }

bool holds(const TileDesc& t, int r, int c) { return r < t.valid_rows && c < t.valid_cols; }

bool within(const TileDesc& inner, const TileDesc& outer)
{
    return inner.valid_rows <= outer.valid_rows && inner.valid_cols <= outer.valid_cols;
}

// The supported validity patterns: one source covers dst exactly, the other lies inside it.
void check_coverage(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, LegalitySink& sink)
{
    if (!all_known(dst.valid_rows, dst.valid_cols, src0.valid_rows, src0.valid_cols, src1.valid_rows, src1.valid_cols)) return;
    const auto same = [&](const TileDesc& t) { return t.valid_rows == dst.valid_rows && t.valid_cols == dst.valid_cols; };
    if (!((same(src0) && within(src1, dst)) || (same(src1) && within(src0, dst))))
        report(sink, "RUN_VALID_SHAPE", "src0", "one source covers dst's valid region exactly and the other lies inside it",
               "src0 or src1 " + extent_text(dst.valid_rows, dst.valid_cols),
               extent_text(src0.valid_rows, src0.valid_cols) + " and " + extent_text(src1.valid_rows, src1.valid_cols));
}

void check_common(const profile::Profile& p, PartialOp op, bool arg, std::initializer_list<std::pair<const TileDesc*, const char*>> tiles,
                  LegalitySink& sink)
{
    for (const auto& [t, name] : tiles) {
        if (t->loc != TileType::Vec)
            report(sink, code(op, arg, "LOCATION").c_str(), name, std::string(name_of(op, arg)) + " takes Vec tiles (UB) only",
                   "a Vec tile", std::string(profile::location_name(t->loc)));
        if (!rules::partial_layout_ok(p, t->blayout, t->slayout))
            report(sink, code(op, arg, "LAYOUT").c_str(), name, "unboxed tiles, row-major on a2a3",
                   p.target == profile::Target::A2A3 ? "row-major" : "unboxed", "another layout");
    }
}

struct Apply {
    PartialOp op;
    template <typename C>
    C operator()(C a, C b) const
    {
        switch (op) {
            case PartialOp::Add: return elementwise::Add::apply(a, b);
            case PartialOp::Max: return elementwise::Max::apply(a, b);
            case PartialOp::Min: return elementwise::Min::apply(a, b);
            default: return elementwise::Mul::apply(a, b);
        }
    }
};

template <typename T>
void run_partial(PartialOp op, const TileDesc& dst, const TileDesc& a, const TileDesc& b)
{
    using F = elementwise::Format<T>;
    using S = typename F::Storage;
    const Apply apply{op};
    const auto at = [](const TileDesc& t, int r, int c) { return reinterpret_cast<S*>(t.data) + t.offset(r, c); };
    for (int r = 0; r < dst.valid_rows; ++r)
        for (int c = 0; c < dst.valid_cols; ++c) {
            const bool in_a = holds(a, r, c), in_b = holds(b, r, c);
            *at(dst, r, c) = in_a && in_b ? F::narrow(apply(F::widen(*at(a, r, c)), F::widen(*at(b, r, c))))
                                          : *at(in_a ? a : b, r, c);
        }
}

}  // namespace

void check_partial(const profile::Profile& p, PartialOp op, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1,
                   LegalitySink& sink)
{
    check_common(p, op, false, {{&dst, "dst"}, {&src0, "src0"}, {&src1, "src1"}}, sink);
    if (src0.dtype != dst.dtype || src1.dtype != dst.dtype)
        report(sink, code(op, false, "SAME_DTYPE").c_str(), "src0", "dst, src0 and src1 have one element type",
               std::string(dtype_name(dst.dtype)), std::string(dtype_name(src0.dtype)) + ", " + std::string(dtype_name(src1.dtype)));
    if (!rules::partial_dtype_ok(p, dst.dtype))
        report(sink, code(op, false, "DTYPE").c_str(), "dst", std::string(name_of(op, false)) + " does not take this element type on " + std::string(p.name),
               p.target == profile::Target::A2A3 ? "i32, i16, f16, f32" : "8-, 16-, 32-bit integers, f16, bf16, f32",
               std::string(dtype_name(dst.dtype)));
    check_coverage(dst, src0, src1, sink);
}

void tpartial(PartialOp op, const TileDesc& dst, const TileDesc& src0_tile, const TileDesc& src1_tile)
{
    PTO_HOLD_BACK(name_of(op, false), tpartial, op, dst, src0_tile, src1_tile);
    runtime::InstructionScope scope(name_of(op, false));
    StopAtFirstFinding stop;
    check_partial(runtime::active_profile(), op, dst, src0_tile, src1_tile, stop);
    require_written(src0_tile, "src0");
    require_written(src1_tile, "src1");
    // Either source may be dst: each is read (staged when it overlaps dst) before dst is written.
    const TileDesc src0 = readable_source(src0_tile, dst, 0), src1 = readable_source(src1_tile, dst, 1);
    elementwise::visit_arithmetic_type(dst.dtype, [&]<typename T>() {
        run_partial<T>(op, dst, src0, src1);
        return true;
    });
    mark_written(dst);
}

void check_partial_arg(const profile::Profile& p, PartialOp op, const TileDesc& dst_val, const TileDesc& src0_val,
                       const TileDesc& src1_val, const TileDesc& dst_idx, const TileDesc& src0_idx, const TileDesc& src1_idx,
                       LegalitySink& sink)
{
    check_common(p, op, true,
                 {{&dst_val, "dst_val"}, {&src0_val, "src0_val"}, {&src1_val, "src1_val"}, {&dst_idx, "dst_idx"},
                  {&src0_idx, "src0_idx"}, {&src1_idx, "src1_idx"}},
                 sink);
    if (src0_val.dtype != dst_val.dtype || src1_val.dtype != dst_val.dtype || src0_idx.dtype != dst_idx.dtype ||
        src1_idx.dtype != dst_idx.dtype)
        report(sink, code(op, true, "SAME_DTYPE").c_str(), "src0_val", "the value tiles share a type, and the index tiles",
               "one value type and one index type", "mixed types");
    if (!rules::partial_arg_dtype_ok(dst_val.dtype, dst_idx.dtype))
        report(sink, code(op, true, "DTYPE").c_str(), "dst_val", "f16 values with 16- or 32-bit indices, f32 values with 32-bit ones",
               "(f16; i16/u16/i32/u32) or (f32; i32/u32)",
               "(" + std::string(dtype_name(dst_val.dtype)) + "; " + std::string(dtype_name(dst_idx.dtype)) + ")");
    const std::pair<const TileDesc*, const TileDesc*> pairs[] = {{&dst_val, &dst_idx}, {&src0_val, &src0_idx}, {&src1_val, &src1_idx}};
    for (const auto& [value, index] : pairs)
        if (all_known(value->valid_rows, value->valid_cols, index->valid_rows, index->valid_cols) &&
            (value->valid_rows != index->valid_rows || value->valid_cols != index->valid_cols))
            report(sink, "RUN_VALID_SHAPE", "dst_idx", "each index tile has its value tile's valid region",
                   extent_text(value->valid_rows, value->valid_cols), extent_text(index->valid_rows, index->valid_cols));
    check_coverage(dst_val, src0_val, src1_val, sink);
}

void tpartial_arg(PartialOp op, const TileDesc& dst_val, const TileDesc& src0_val, const TileDesc& src1_val,
                  const TileDesc& dst_idx, const TileDesc& src0_idx, const TileDesc& src1_idx)
{
    PTO_HOLD_BACK(name_of(op, true), tpartial_arg, op, dst_val, src0_val, src1_val, dst_idx, src0_idx, src1_idx);
    runtime::InstructionScope scope(name_of(op, true));
    StopAtFirstFinding stop;
    check_partial_arg(runtime::active_profile(), op, dst_val, src0_val, src1_val, dst_idx, src0_idx, src1_idx, stop);
    for (const auto& [t, name] : {std::pair{&src0_val, "src0_val"}, {&src1_val, "src1_val"}, {&src0_idx, "src0_idx"},
                                  {&src1_idx, "src1_idx"}})
        require_written(*t, name);
    const TileDesc v0 = readable_source(src0_val, dst_val, 0), v1 = readable_source(src1_val, dst_val, 1);
    const TileDesc i0 = readable_source(src0_idx, dst_idx, 2), i1 = readable_source(src1_idx, dst_idx, 3);
    const int value_bytes = dst_val.element_bits() / 8, index_bytes = dst_idx.element_bits() / 8;
    for (int r = 0; r < dst_val.valid_rows; ++r)
        for (int c = 0; c < dst_val.valid_cols; ++c) {
            bool first = holds(v0, r, c);
            if (first && holds(v1, r, c)) {
                const double a = numeric::to_double(v0.dtype, v0.data, size_t(v0.offset(r, c)));
                const double b = numeric::to_double(v1.dtype, v1.data, size_t(v1.offset(r, c)));
                first = op == PartialOp::Max ? a > b : a < b;
            }
            const TileDesc& value = first ? v0 : v1;
            const TileDesc& index = first ? i0 : i1;
            std::memcpy(element_address(dst_val, dst_val.offset(r, c)), element_address(value, value.offset(r, c)), size_t(value_bytes));
            std::memcpy(element_address(dst_idx, dst_idx.offset(r, c)), element_address(index, index.offset(r, c)), size_t(index_bytes));
        }
    mark_written(dst_val);
    mark_written(dst_idx);
}

// ---- definitions --------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kTwoSources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr Form kPartialForms[] = {{kTwoSources, kTileDst}};
constexpr OperandSpec kArgSources[] = {{"src0_val", OperandKind::Tile}, {"src1_val", OperandKind::Tile},
                                       {"src0_idx", OperandKind::Tile}, {"src1_idx", OperandKind::Tile}};
constexpr OperandSpec kArgResults[] = {{"dst_val", OperandKind::Tile}, {"dst_idx", OperandKind::Tile}};
constexpr Form kArgForms[] = {{kArgSources, kArgResults}};

template <PartialOp kOp>
constexpr InstrDef partial(Instr id, std::string_view mnemonic)
{
    return {.id = id,
            .mnemonic = mnemonic,
            .forms = kPartialForms,
            .pipe = vector_pipe,
            .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
                check_partial(p, kOp, c.dst(), c.src(0), c.src(1), sink);
            },
            .run = [](const Call& c) { tpartial(kOp, c.dst(), c.src(0), c.src(1)); }};
}

template <PartialOp kOp>
constexpr InstrDef partial_arg(Instr id, std::string_view mnemonic)
{
    return {.id = id,
            .mnemonic = mnemonic,
            .forms = kArgForms,
            .pipe = vector_pipe,
            .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
                check_partial_arg(p, kOp, c.dst(0), c.src(0), c.src(1), c.dst(1), c.src(2), c.src(3), sink);
            },
            .run = [](const Call& c) { tpartial_arg(kOp, c.dst(0), c.src(0), c.src(1), c.dst(1), c.src(2), c.src(3)); }};
}

}  // namespace

constexpr InstrDef definitions::TPARTADD = partial<PartialOp::Add>(Instr::TPARTADD, "TPARTADD");
constexpr InstrDef definitions::TPARTMAX = partial<PartialOp::Max>(Instr::TPARTMAX, "TPARTMAX");
constexpr InstrDef definitions::TPARTMIN = partial<PartialOp::Min>(Instr::TPARTMIN, "TPARTMIN");
constexpr InstrDef definitions::TPARTMUL = partial<PartialOp::Mul>(Instr::TPARTMUL, "TPARTMUL");
constexpr InstrDef definitions::TPARTARGMAX = partial_arg<PartialOp::Max>(Instr::TPARTARGMAX, "TPARTARGMAX");
constexpr InstrDef definitions::TPARTARGMIN = partial_arg<PartialOp::Min>(Instr::TPARTARGMIN, "TPARTARGMIN");

}  // namespace pto::engine
