// TMATMUL, TMATMUL_ACC, TMATMUL_BIAS, TGEMV, TGEMV_ACC, TGEMV_BIAS and their MX forms: the operand checks, the call of the
// kernel on the operands' panels, and the definitions.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/matmul.hpp>
#include <pto/profile/rules_matmul.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <string>
#include <tuple>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/matmul/gemm_kernel.hpp"
#include "engine/matmul/input_transform.hpp"
#include "engine/matmul/mx_panels.hpp"
#include "engine/matmul/operand_panels.hpp"

namespace pto::engine {

namespace {

// The working type's view of a panel of words.
template <typename T, typename Word>
matmul::Panel<T> as(const matmul::Panel<Word>& p)
{
    return {reinterpret_cast<T*>(p.data), p.ld, p.chunk, p.chunk_step};
}

std::string extent_of(int rows, int cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// m, k, n of a call.
struct Extents {
    int m, k, n;
};

Extents extents_of(const MatmulOperands& o)
{
    if (o.gemv) return {1, o.b.valid_rows, o.b.valid_cols};
    return {o.a.valid_rows, o.a.valid_cols, o.b.valid_cols};
}

}  // namespace

void check_tmatmul(const profile::Profile& p, const MatmulOperands& o, LegalitySink& sink)
{
    const TileDesc &c = o.c, &a = o.a, &b = o.b;
    const TileDesc *c_in = o.c_in, *bias = o.bias, *a_scale = o.a_scale, *b_scale = o.b_scale;
    const bool gemv = o.gemv;
    const bool mx = a_scale != nullptr;
    if (!rules::matmul_location_ok(c.loc, a.loc, b.loc) || (c_in && c_in->loc != TileType::Acc))
        report(sink, "LEGAL_MATMUL_LOCATION", "c", "the cube multiplies Left by Right into Acc",
               "Acc <- Left x Right",
               std::string(profile::location_name(c.loc)) + " <- " + std::string(profile::location_name(a.loc)) +
                   " x " + std::string(profile::location_name(b.loc)));
    if (mx) {
        if (!rules::matmul_mx_dtype_ok(p, c.dtype, a.dtype, b.dtype) || (c_in && c_in->dtype != c.dtype))
            report(sink, "LEGAL_MATMUL_MX_DTYPE", "c", "not a (result; left, right) type triple of the target's MX cube",
                   p.target == profile::Target::A2A3 ? "no MX matmul on a2a3"
                                                     : "(f32; e4m3/e5m2 twice), (f32; e2m1x2/e1m2x2 twice)",
                   "(" + std::string(dtype_name(c.dtype)) + "; " + std::string(dtype_name(a.dtype)) + ", " +
                       std::string(dtype_name(b.dtype)) + ")");
        for (const auto& [scale, expected, name] : {std::tuple{a_scale, TileType::ScaleLeft, "a_scale"},
                                                    std::tuple{b_scale, TileType::ScaleRight, "b_scale"}})
            if (!rules::matmul_mx_scale_ok(scale->loc, expected, scale->dtype))
                report(sink, "LEGAL_MATMUL_MX_SCALE", name, "the block scales are E8M0 exponents in the scale buffer",
                       "an f8e8m0 " + std::string(profile::location_name(expected)) + " tile",
                       std::string(dtype_name(scale->dtype)) + " " + std::string(profile::location_name(scale->loc)));
    } else if (!rules::matmul_dtype_ok(p, c.dtype, a.dtype, b.dtype) || (c_in && c_in->dtype != c.dtype))
        report(sink, "LEGAL_MATMUL_DTYPE", "c", "not a (result; left, right) type triple the target's cube has",
               p.target == profile::Target::A2A3 ? "(i32; i8, i8), (f32; f16/bf16/f32 twice)"
                                                 : "(i32; i8, i8), (f32; f16/bf16/f32 twice, fp8 pairs, hif8)",
               "(" + std::string(dtype_name(c.dtype)) + "; " + std::string(dtype_name(a.dtype)) + ", " +
                   std::string(dtype_name(b.dtype)) + ")");
    const std::pair<const TileDesc*, const char*> tiles[] = {{&c, "c"}, {&a, "a"}, {&b, "b"}, {c_in, "c_in"}};
    for (const auto& [t, name] : tiles)
        if (t && !rules::matmul_layout_ok(p, t->loc, t->blayout, t->slayout))
            report(sink, "LEGAL_MATMUL_LAYOUT", name, "the cube's fractal layout for this operand",
                   t->loc == TileType::Right ? "Zn (row-major boxes, column-major inside)"
                                             : "Nz (column-major boxes, row-major inside)",
                   "another layout");
    if (!gemv && !rules::matmul_shape_ok(p, c.rows, c.cols, a.rows, a.cols, b.rows, b.cols))
        report(sink, "LEGAL_MATMUL_SHAPE", "a", "the capacities must chain: Left rows = result rows, Left columns = "
               "Right rows, Right columns = result columns", extent_of(c.rows, b.cols) + " from " + extent_of(a.rows, b.rows),
               extent_of(a.rows, a.cols) + " x " + extent_of(b.rows, b.cols) + " -> " + extent_of(c.rows, c.cols));
    if (bias && (!rules::matmul_bias_location_ok(bias->loc) ||
                 !rules::matmul_bias_ok(p, c.dtype, bias->dtype, bias->rows, bias->blayout)))
        report(sink, "LEGAL_MATMUL_BIAS", "bias", "the bias is one row of the result's type in the bias table",
               "1 x n " + std::string(dtype_name(c.dtype)) + " Bias tile",
               extent_of(bias->rows, bias->cols) + " " + std::string(dtype_name(bias->dtype)) + " " +
                   std::string(profile::location_name(bias->loc)));
    if (!all_known(a.valid_rows, a.valid_cols, b.valid_rows, b.valid_cols, c.valid_rows, c.valid_cols)) return;
    const Extents e = extents_of(o);
    for (const int x : {e.m, e.k, e.n})
        if (!rules::matmul_extent_ok(x))
            report(sink, "RUN_MATMUL_EXTENT", "a", "m, k and n are 1 to 4095", "1..4095",
                   "m " + std::to_string(e.m) + ", k " + std::to_string(e.k) + ", n " + std::to_string(e.n));
    const bool chained = (gemv ? a.valid_cols >= e.k && a.valid_rows >= 1 : a.valid_cols == b.valid_rows) &&
                         c.valid_rows == e.m && c.valid_cols == e.n;
    if (!chained)
        report(sink, "RUN_VALID_SHAPE", "c", "the valid shapes must chain: a m x k, b k x n, c m x n",
               "c " + extent_of(e.m, e.n) + ", a's columns = b's rows",
               "a " + extent_of(a.valid_rows, a.valid_cols) + ", b " + extent_of(b.valid_rows, b.valid_cols) + ", c " +
                   extent_of(c.valid_rows, c.valid_cols));
    if (c_in && all_known(c_in->valid_rows, c_in->valid_cols) && (c_in->valid_rows != e.m || c_in->valid_cols != e.n))
        report(sink, "RUN_VALID_SHAPE", "c_in", "the accumulated tile has the result's valid shape", extent_of(e.m, e.n),
               extent_of(c_in->valid_rows, c_in->valid_cols));
    if (bias && all_known(bias->valid_cols) && bias->valid_cols < e.n)
        report(sink, "RUN_VALID_SHAPE", "bias", "a bias value for each result column",
               "at least " + std::to_string(e.n) + " columns", std::to_string(bias->valid_cols));
    if (!mx) return;
    const int groups = int(rules::mx_groups(e.k));
    if (all_known(a_scale->valid_rows, a_scale->valid_cols) && (a_scale->valid_rows < e.m || a_scale->valid_cols < groups))
        report(sink, "RUN_VALID_SHAPE", "a_scale", "a scale for every 32 values of each row of a",
               "at least " + extent_of(e.m, groups), extent_of(a_scale->valid_rows, a_scale->valid_cols));
    if (all_known(b_scale->valid_rows, b_scale->valid_cols) && (b_scale->valid_rows < groups || b_scale->valid_cols < e.n))
        report(sink, "RUN_VALID_SHAPE", "b_scale", "a scale for every 32 values of each column of b",
               "at least " + extent_of(groups, e.n), extent_of(b_scale->valid_rows, b_scale->valid_cols));
}

namespace {

// The MX forms: a and b with their scales applied as f32 row-major panels (matmul::scaled_*_panel), then
// the f32 kernel.
void tmatmul_mx(const MatmulOperands& o, const Extents& e)
{
    const int groups = int(rules::mx_groups(e.k));
    require_written(*o.a_scale, e.m, groups, "a_scale");
    require_written(*o.b_scale, groups, e.n, "b_scale");
    const matmul::Words a = matmul::scaled_left_panel(o.a, *o.a_scale, e.m, e.k);
    const matmul::Words b = matmul::scaled_right_panel(o.b, *o.b_scale, e.k, e.n);
    const matmul::Words init = matmul::initial_panel(o, e.m, e.n, DType::F32);
    const matmul::Panel<uint32_t> c = matmul::result_panel(o.c, e.m, e.n);
    matmul::gemm_f32(e.m, e.n, e.k, as<const float>(a), as<const float>(b), as<const float>(init), as<float>(c));
    matmul::finish_result(c, o.c, e.m, e.n);
    mark_written(o.c);
}

}  // namespace

void tmatmul(const MatmulOperands& o, const MultiplyModes& modes)
{
    PTO_HOLD_BACK(o.a_scale ? (o.gemv ? "TGEMV_MX" : "TMATMUL_MX") : o.gemv ? "TGEMV" : "TMATMUL", tmatmul, o, modes);
    runtime::InstructionScope scope(o.a_scale ? (o.gemv ? "TGEMV_MX" : "TMATMUL_MX") : o.gemv ? "TGEMV" : "TMATMUL");
    StopAtFirstFinding stop;
    check_tmatmul(runtime::active_profile(), o, stop);
    const Extents e = extents_of(o);
    require_written(o.a, o.gemv ? 1 : e.m, e.k, "a");
    require_written(o.b, e.k, e.n, "b");
    if (o.c_in) require_written(*o.c_in, e.m, e.n, "c_in");
    if (o.bias) require_written(*o.bias, 1, e.n, "bias");
    const Tf32Rounding tf32 = matmul::tf32_rounding(modes);
    const bool rounds = tf32 != Tf32Rounding::Off && o.a.dtype == DType::F32 && o.b.dtype == DType::F32;
    const bool packed = o.a.element_bits() == 4;
    if ((rounds || modes.saturate) && dtype_is_float(o.a.dtype) && !packed) {
        // The multiply reads transformed copies; the tiles keep what was loaded.
        const matmul::TransformedInput a(o.a, o.gemv ? 1 : e.m, e.k, tf32, modes.saturate), b(o.b, e.k, e.n, tf32, modes.saturate);
        tmatmul({.c = o.c,
                 .a = a.tile(),
                 .b = b.tile(),
                 .c_in = o.c_in,
                 .bias = o.bias,
                 .gemv = o.gemv,
                 .a_scale = o.a_scale,
                 .b_scale = o.b_scale},
                {.tf32 = Tf32Rounding::Off, .saturate = false});
        if (modes.saturate) matmul::saturate_result(o.c, e.m, e.n);
        return;
    }
    if (o.a_scale) return tmatmul_mx(o, e);

    const DType work = o.c.dtype;  // f32 or i32; every input widens into it exactly
    const matmul::Words a = matmul::left_panel(o.a, e.m, e.k, work), b = matmul::right_panel(o.b, e.k, e.n, work),
                        init = matmul::initial_panel(o, e.m, e.n, work);
    const matmul::Panel<uint32_t> c = matmul::result_panel(o.c, e.m, e.n);
    if (work == DType::F32) {
        matmul::gemm_f32(e.m, e.n, e.k, as<const float>(a), as<const float>(b), as<const float>(init), as<float>(c));
    } else {
        matmul::gemm_i32(e.m, e.n, e.k, as<const int32_t>(a), as<const int32_t>(b), as<const int32_t>(init),
                         as<int32_t>(c));
    }
    matmul::finish_result(c, o.c, e.m, e.n);
    mark_written(o.c);
}

// ---- definitions --------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kLeftRight[] = {{"a", OperandKind::Tile}, {"b", OperandKind::Tile}};
constexpr OperandSpec kAccLeftRight[] = {{"c_in", OperandKind::Tile}, {"a", OperandKind::Tile}, {"b", OperandKind::Tile}};
constexpr OperandSpec kLeftRightBias[] = {{"a", OperandKind::Tile}, {"b", OperandKind::Tile}, {"bias", OperandKind::Tile}};
constexpr OperandSpec kResult[] = {{"c", OperandKind::Tile}};
constexpr Form kPlainForms[] = {{kLeftRight, kResult}};
constexpr Form kAccForms[] = {{kAccLeftRight, kResult}};
constexpr Form kBiasForms[] = {{kLeftRightBias, kResult}};
// The MX forms: each operand followed by its scales.
constexpr OperandSpec kScaledLeftRight[] = {
    {"a", OperandKind::Tile}, {"a_scale", OperandKind::Tile}, {"b", OperandKind::Tile}, {"b_scale", OperandKind::Tile}};
constexpr OperandSpec kAccScaledLeftRight[] = {{"c_in", OperandKind::Tile},
                                               {"a", OperandKind::Tile},
                                               {"a_scale", OperandKind::Tile},
                                               {"b", OperandKind::Tile},
                                               {"b_scale", OperandKind::Tile}};
constexpr OperandSpec kScaledLeftRightBias[] = {{"a", OperandKind::Tile},
                                                {"a_scale", OperandKind::Tile},
                                                {"b", OperandKind::Tile},
                                                {"b_scale", OperandKind::Tile},
                                                {"bias", OperandKind::Tile}};
constexpr Form kMxForms[] = {{kScaledLeftRight, kResult}};
constexpr Form kMxAccForms[] = {{kAccScaledLeftRight, kResult}};
constexpr Form kMxBiasForms[] = {{kScaledLeftRightBias, kResult}};

enum class Init { Zero, Accumulated, Bias };

// The operands of a text call of a form with initial value `init` (`kMx`: with scales after a and b).
template <Init kInit, bool kGemv, bool kMx>
MatmulOperands operands_of(const Call& call)
{
    const std::size_t a = kInit == Init::Accumulated ? 1 : 0, b = a + (kMx ? 2 : 1);
    return {.c = call.dst(),
            .a = call.src(a),
            .b = call.src(b),
            .c_in = kInit == Init::Accumulated ? &call.src(0) : nullptr,
            .bias = kInit == Init::Bias ? &call.src(b + (kMx ? 2 : 1)) : nullptr,
            .gemv = kGemv,
            .a_scale = kMx ? &call.src(a + 1) : nullptr,
            .b_scale = kMx ? &call.src(b + 1) : nullptr};
}

constexpr pipe_t cube_pipe(TileType, TileType) { return PIPE_M; }

template <Init kInit, bool kGemv, bool kMx = false>
constexpr InstrDef matrix_instruction(Instr id, std::string_view mnemonic, std::span<const Form> forms)
{
    return {.id = id,
            .mnemonic = mnemonic,
            .forms = forms,
            .pipe = cube_pipe,
            .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
                check_tmatmul(p, operands_of<kInit, kGemv, kMx>(c), sink);
            },
            .run = [](const Call& c) { tmatmul(operands_of<kInit, kGemv, kMx>(c)); }};
}

}  // namespace

constexpr InstrDef definitions::TMATMUL = matrix_instruction<Init::Zero, false>(Instr::TMATMUL, "TMATMUL", kPlainForms);
constexpr InstrDef definitions::TMATMUL_ACC =
    matrix_instruction<Init::Accumulated, false>(Instr::TMATMUL_ACC, "TMATMUL_ACC", kAccForms);
constexpr InstrDef definitions::TMATMUL_BIAS =
    matrix_instruction<Init::Bias, false>(Instr::TMATMUL_BIAS, "TMATMUL_BIAS", kBiasForms);
constexpr InstrDef definitions::TGEMV = matrix_instruction<Init::Zero, true>(Instr::TGEMV, "TGEMV", kPlainForms);
constexpr InstrDef definitions::TGEMV_ACC =
    matrix_instruction<Init::Accumulated, true>(Instr::TGEMV_ACC, "TGEMV_ACC", kAccForms);
constexpr InstrDef definitions::TGEMV_BIAS = matrix_instruction<Init::Bias, true>(Instr::TGEMV_BIAS, "TGEMV_BIAS", kBiasForms);

constexpr InstrDef definitions::TMATMUL_MX =
    matrix_instruction<Init::Zero, false, true>(Instr::TMATMUL_MX, "TMATMUL_MX", kMxForms);
constexpr InstrDef definitions::TMATMUL_MX_ACC =
    matrix_instruction<Init::Accumulated, false, true>(Instr::TMATMUL_MX_ACC, "TMATMUL_MX_ACC", kMxAccForms);
constexpr InstrDef definitions::TMATMUL_MX_BIAS =
    matrix_instruction<Init::Bias, false, true>(Instr::TMATMUL_MX_BIAS, "TMATMUL_MX_BIAS", kMxBiasForms);
constexpr InstrDef definitions::TGEMV_MX = matrix_instruction<Init::Zero, true, true>(Instr::TGEMV_MX, "TGEMV_MX", kMxForms);
constexpr InstrDef definitions::TGEMV_MX_ACC =
    matrix_instruction<Init::Accumulated, true, true>(Instr::TGEMV_MX_ACC, "TGEMV_MX_ACC", kMxAccForms);
constexpr InstrDef definitions::TGEMV_MX_BIAS =
    matrix_instruction<Init::Bias, true, true>(Instr::TGEMV_MX_BIAS, "TGEMV_MX_BIAS", kMxBiasForms);

}  // namespace pto::engine
