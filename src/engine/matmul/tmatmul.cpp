// TMATMUL, TMATMUL_ACC, TMATMUL_BIAS, TGEMV, TGEMV_ACC, TGEMV_BIAS: the operand checks, the unpacking of
// the cube's tile layouts into row-major panels for the kernel, and the definitions.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/matmul.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_matmul.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "engine/convert/vector_conversions.hpp"
#include "engine/definition.hpp"
#include "engine/matmul/gemm_kernel.hpp"

namespace pto::engine {

namespace {

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

// Calls run(r, c, offset, n, along_rows) for runs of n elements the tile holds contiguously from element
// `offset`: logical (r, c) onwards along its row, or down its column when along_rows. One run per line
// of a fractal box (a whole row or column when unboxed), each box's position found once, so that
// moving a tile costs a few calls per box.
template <typename Run>
void for_each_run(const TileDesc& t, int rows, int cols, Run&& run)
{
    if (!t.boxed()) {
        if (t.blayout == BLayout::RowMajor) {
            for (int r = 0; r < rows; ++r) run(r, 0, t.offset(r, 0), cols, false);
        } else {
            for (int c = 0; c < cols; ++c) run(0, c, t.offset(0, c), rows, true);
        }
        return;
    }
    const int br = t.box_rows(), bc = t.box_cols();
    const bool inner_row_major = t.slayout == SLayout::RowMajor;
    for (int r0 = 0; r0 < rows; r0 += br)
        for (int c0 = 0; c0 < cols; c0 += bc) {
            const int64_t base = t.offset(r0, c0);
            const int box_rows = std::min(br, rows - r0), box_cols = std::min(bc, cols - c0);
            if (inner_row_major) {
                for (int ir = 0; ir < box_rows; ++ir) run(r0 + ir, c0, base + int64_t(ir) * bc, box_cols, false);
            } else {
                for (int ic = 0; ic < box_cols; ++ic) run(r0, c0 + ic, base + int64_t(ic) * br, box_rows, true);
            }
        }
}

// n contiguous elements of type `from` widened into 32-bit `to` words (exact). The types a kernel
// meets most are inline loops: a run is a box line of 8 to 32 elements, too short to pay for a call.
void widen_run(DType from, const std::byte* in, DType to, uint32_t* out, int n)
{
    switch (from) {
        case DType::F32:
        case DType::I32:
            for (int e = 0; e < n; ++e) std::memcpy(out + e, in + 4 * e, 4);
            return;
        case DType::BF16:
            for (int e = 0; e < n; ++e) {
                uint16_t bits;
                std::memcpy(&bits, in + 2 * e, 2);
                out[e] = uint32_t(bits) << 16;
            }
            return;
        case DType::I8:
            for (int e = 0; e < n; ++e) out[e] = uint32_t(int32_t(int8_t(in[e])));
            return;
        case DType::F16: {
            // TCVT's vector conversion (F16C where the CPU has it) for whole vectors, the rest one by one.
            static const convert::VectorConversion half_to_float =
                *convert::vector_conversion(DType::F32, DType::F16, RoundMode::CAST_RINT, SaturationMode::OFF);
            const auto done = int(convert::convert_whole_vectors(half_to_float, out, in, size_t(n)));
            numeric::convert(to, out + done, from, in + 2 * done, size_t(n - done), RoundMode::CAST_NONE, SaturationMode::OFF);
            return;
        }
        default:
            numeric::convert(to, out, from, in, size_t(n), RoundMode::CAST_NONE, SaturationMode::OFF);
    }
}

std::vector<uint32_t>& box_scratch(size_t words)
{
    thread_local std::vector<uint32_t> box;
    if (box.size() < words) box.resize(words);
    return box;
}

// Rows x cols of `tile` into the row-major panel `panel` of 32-bit `panel_type` (ld = cols), widened
// exactly (every input type widens exactly into f32 or i32).
void to_panel(const TileDesc& tile, int rows, int cols, DType panel_type, uint32_t* panel)
{
    const int in_bytes = tile.element_bits() / 8;
    if (tile.boxed() && tile.slayout == SLayout::ColMajor) {
        // Column-major boxes (the Right operand's Zn): widen a whole box, then write it out row by row.
        const int br = tile.box_rows(), bc = tile.box_cols();
        std::vector<uint32_t>& box = box_scratch(size_t(br) * bc);
        for (int r0 = 0; r0 < rows; r0 += br)
            for (int c0 = 0; c0 < cols; c0 += bc) {
                widen_run(tile.dtype, tile.data + tile.offset(r0, c0) * in_bytes, panel_type, box.data(), br * bc);
                for (int ir = 0; ir < std::min(br, rows - r0); ++ir) {
                    uint32_t* out = panel + int64_t(r0 + ir) * cols + c0;
                    for (int ic = 0; ic < std::min(bc, cols - c0); ++ic) out[ic] = box[size_t(ic) * br + ir];
                }
            }
        return;
    }
    uint32_t staged[64];
    for_each_run(tile, rows, cols, [&](int r, int c, int64_t offset, int n, bool along_rows) {
        uint32_t* out = panel + int64_t(r) * cols + c;
        const std::byte* in = tile.data + offset * in_bytes;
        for (int done = 0; done < n; done += 64) {
            const int count = std::min(64, n - done);
            if (!along_rows) {
                widen_run(tile.dtype, in + int64_t(done) * in_bytes, panel_type, out + done, count);
                continue;
            }
            widen_run(tile.dtype, in + int64_t(done) * in_bytes, panel_type, staged, count);  // a column: rows apart
            for (int e = 0; e < count; ++e) out[int64_t(done + e) * cols] = staged[e];
        }
    });
}

// The row-major panel `panel` (ld = cols) back into rows x cols of `tile`, of the same 32-bit type.
void from_panel(const uint32_t* panel, const TileDesc& tile, int rows, int cols)
{
    auto* words = reinterpret_cast<uint32_t*>(tile.data);
    for_each_run(tile, rows, cols, [&](int r, int c, int64_t offset, int n, bool along_rows) {
        const uint32_t* in = panel + int64_t(r) * cols + c;
        if (!along_rows) {
            for (int e = 0; e < n; ++e) words[offset + e] = in[e];
        } else {
            for (int e = 0; e < n; ++e) words[offset + e] = in[int64_t(e) * cols];
        }
    });
}

// Per-thread panels, grown once and reused.
std::vector<std::byte>& scratch(int which, size_t bytes)
{
    thread_local std::vector<std::byte> panels[3];
    if (panels[which].size() < bytes) panels[which].resize(bytes);
    return panels[which];
}

}  // namespace

void check_tmatmul(const profile::Profile& p, const MatmulOperands& o, LegalitySink& sink)
{
    const auto& [c, a, b, c_in, bias, gemv] = o;
    if (!rules::matmul_location_ok(c.loc, a.loc, b.loc) || (c_in && c_in->loc != TileType::Acc))
        report(sink, "LEGAL_MATMUL_LOCATION", "c", "the cube multiplies Left by Right into Acc",
               "Acc <- Left x Right",
               std::string(profile::location_name(c.loc)) + " <- " + std::string(profile::location_name(a.loc)) +
                   " x " + std::string(profile::location_name(b.loc)));
    if (!rules::matmul_dtype_ok(p, c.dtype, a.dtype, b.dtype) || (c_in && c_in->dtype != c.dtype))
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
}

void tmatmul(const MatmulOperands& o)
{
    runtime::InstructionScope scope(o.gemv ? "TGEMV" : "TMATMUL");
    StopAtFirstFinding stop;
    check_tmatmul(runtime::active_profile(), o, stop);
    const Extents e = extents_of(o);
    require_written(o.a, o.gemv ? 1 : e.m, e.k, "a");
    require_written(o.b, e.k, e.n, "b");
    if (o.c_in) require_written(*o.c_in, e.m, e.n, "c_in");
    if (o.bias) require_written(*o.bias, 1, e.n, "bias");

    const DType work = o.c.dtype;  // f32 or i32; every input widens into it exactly
    auto* a = reinterpret_cast<uint32_t*>(scratch(0, size_t(e.m) * e.k * 4).data());
    auto* b = reinterpret_cast<uint32_t*>(scratch(1, size_t(e.k) * e.n * 4).data());
    auto* c = reinterpret_cast<uint32_t*>(scratch(2, size_t(e.m) * e.n * 4).data());
    to_panel(o.a, e.m, e.k, work, a);
    to_panel(o.b, e.k, e.n, work, b);
    if (o.c_in) {
        to_panel(*o.c_in, e.m, e.n, work, c);
    } else if (o.bias) {
        for (int i = 0; i < e.m; ++i) to_panel(*o.bias, 1, e.n, work, c + size_t(i) * e.n);
    } else {
        std::memset(c, 0, size_t(e.m) * e.n * 4);
    }
    if (work == DType::F32) {
        matmul::gemm_f32(e.m, e.n, e.k, reinterpret_cast<const float*>(a), e.k, reinterpret_cast<const float*>(b), e.n,
                         reinterpret_cast<float*>(c), e.n);
    } else {
        matmul::gemm_i32(e.m, e.n, e.k, reinterpret_cast<const int32_t*>(a), e.k, reinterpret_cast<const int32_t*>(b),
                         e.n, reinterpret_cast<int32_t*>(c), e.n);
    }
    from_panel(c, o.c, e.m, e.n);
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

enum class Init { Zero, Accumulated, Bias };

// The operands of a text call of a form with initial value `init`.
template <Init kInit, bool kGemv>
MatmulOperands operands_of(const Call& call)
{
    const std::size_t first = kInit == Init::Accumulated ? 1 : 0;
    return {.c = call.dst(),
            .a = call.src(first),
            .b = call.src(first + 1),
            .c_in = kInit == Init::Accumulated ? &call.src(0) : nullptr,
            .bias = kInit == Init::Bias ? &call.src(2) : nullptr,
            .gemv = kGemv};
}

constexpr pipe_t cube_pipe(TileType, TileType) { return PIPE_M; }

template <Init kInit, bool kGemv>
constexpr InstrDef matrix_instruction(Instr id, std::string_view mnemonic, std::span<const Form> forms)
{
    return {.id = id,
            .mnemonic = mnemonic,
            .forms = forms,
            .pipe = cube_pipe,
            .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
                check_tmatmul(p, operands_of<kInit, kGemv>(c), sink);
            },
            .run = [](const Call& c) { tmatmul(operands_of<kInit, kGemv>(c)); }};
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

}  // namespace pto::engine
