// The cube micro-instructions from PTO-AS: a GEMM through GM -> L1 (nd2nz) -> L0A/L0B -> pto.mad ->
// fixpipe -> GM against a plain reference loop in the documented summation order, the clauses that
// change values, typed pointers, and the diagnostics of bad programs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include <pto/common/type.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/runtime/launch.hpp>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

// Lines that multiply a (m x k) by b (k x n), f16 row-major in global memory at %a and %b, through L1
// and L0 into L0C at %l0c with `mad_clauses`; the numbers they name (as %cV) join `constants`.
std::string matmul_lines(int m, int k, int n, const std::string& mad_clauses, std::set<int>& constants)
{
    const auto pad = [](int v, int to) { return (v + to - 1) / to * to; };
    const int m_rows = pad(m, 16), k_rows = pad(k, 16);
    const auto c = [](int v) { return "%c" + std::to_string(v); };
    constants.insert({0, 1, m, k, n, 2 * k, 2 * n, m_rows, k_rows, 16384});
    return "  %l1a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l1>\n"
           "  %l1b = pto.castptr %c16384 : i64 -> !pto.ptr<f16, l1>\n"
           "  %l0a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0a>\n"
           "  %l0b = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0b>\n"
           "  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>\n"
           "  pto.mte_gm_l1_frac %a, %l1a, nd2nz,\n"
           "    shape(" + c(m) + ", " + c(k) + "),\n"
           "    src_layout(" + c(2 * k) + "),\n"
           "    dst_group(%c1, %c1, " + c(m_rows) + ", %c0),\n"
           "    ctrl(%c0, %c0)\n"
           "    : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, nd2nz, shape i64, i64, src_layout(i64), dst_group i64, i64, i64, i64, ctrl i64, i64\n"
           "  pto.mte_gm_l1_frac %b, %l1b, nd2nz, shape(" + c(k) + ", " + c(n) + "), src_layout(" + c(2 * n) +
           "), dst_group(%c1, %c1, " + c(k_rows) + ", %c0), ctrl(%c0, %c0)\n"
           "    : !pto.ptr<f16>, !pto.ptr<f16, l1>, i64, i64, i64, i64, i64, i64, i64, i64, i64\n"
           "  pto.mte_l1_l0a %l1a, %l0a, " + c(m) + ", " + c(k) + " : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64\n"
           "  pto.mte_l1_l0b %l1b, %l0b, " + c(k) + ", " + c(n) + " : !pto.ptr<f16, l1>, !pto.ptr<f16, l0b>, i64, i64\n"
           "  pto.mad %l0a, %l0b, %l0c, " + c(m) + ", " + c(n) + ", " + c(k) + " " + mad_clauses +
           "\n    : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64\n";
}

// The head of a function @mm(%a, %b, %c: !pto.ptr<out_type> `params`) defining %cV for every V in `constants`.
std::string function_head(const std::string& out_type, const std::string& params, const std::set<int>& constants)
{
    std::string text = "func.func @mm(%a: !pto.ptr<f16>, %b: !pto.ptr<f16>, %c: !pto.ptr<" + out_type + ">" + params + ") {\n";
    for (int v : constants) text += "  %c" + std::to_string(v) + " = arith.constant " + std::to_string(v) + " : i64\n";
    return text;
}

// A program of matmul_lines, then `writeback` (lines using %l0c, %c, and %cV for every integer V in
// `constants` and the program's own). `params` adds function parameters.
std::string cube_program(int m, int k, int n, const std::string& mad_clauses, const std::string& writeback,
                         const std::string& out_type = "f32", const std::string& params = "", std::set<int> constants = {})
{
    const std::string matmul = matmul_lines(m, k, n, mad_clauses, constants);
    return function_head(out_type, params, constants) + matmul + writeback + "  return\n}\n";
}

// The program above with one writeback of the accumulator to %c: `clauses` after its operands.
std::string gemm_program(int m, int k, int n, const std::string& mad_clauses, const std::string& writeback_clauses,
                         const std::string& out_type = "f32")
{
    const int m_rows = (m + 15) / 16 * 16;
    return cube_program(m, k, n, mad_clauses,
                        "  pto.mte_l0c_gm %l0c, %c, %c" + std::to_string(m) + ", %c" + std::to_string(n) + ", %c" +
                            std::to_string(m_rows) + ", %c" + std::to_string(n) + ", %c0, %c0" + writeback_clauses + "\n",
                        out_type);
}

std::vector<uint16_t> random_half(std::size_t count, uint32_t seed)
{
    std::vector<float> v = random_vector<float>(count, seed, -4, 4);
    std::vector<uint16_t> out(count);
    for (std::size_t i = 0; i < count; ++i) out[i] = std::bit_cast<uint16_t>(pto::half(v[i]));
    return out;
}

float as_float(uint16_t h) { return float(std::bit_cast<pto::half>(h)); }

// c = a . b, each element summed over k in order with one fused multiply-add per step.
std::vector<float> reference_gemm(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b, int m, int k, int n)
{
    std::vector<float> c(std::size_t(m) * n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float sum = 0;
            for (int t = 0; t < k; ++t) sum = std::fma(as_float(a[i * k + t]), as_float(b[t * n + j]), sum);
            c[i * n + j] = sum;
        }
    return c;
}

TEST(CubeMicro, GemmThroughL1AndL0MatchesTheReferenceBitForBit)
{
    for (const auto& [m, k, n] : {std::tuple{16, 16, 16}, std::tuple{32, 48, 40}, std::tuple{7, 33, 21}, std::tuple{64, 128, 96}}) {
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n));
        const ParseResult parsed = parse_ok(gemm_program(m, k, n, "", ", nz2nd"));
        std::vector<uint16_t> a = random_half(std::size_t(m) * k, 1), b = random_half(std::size_t(k) * n, 2);
        std::vector<float> c(std::size_t(m) * n, -1.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", c)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        const std::vector<float> want = reference_gemm(a, b, m, k, n);
        for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(std::bit_cast<uint32_t>(c[i]), std::bit_cast<uint32_t>(want[i])) << i;
    }
}

TEST(CubeMicro, FixpipeAppliesReluScaleAndConvertsToHalf)
{
    const int m = 16, k = 32, n = 24;
    const std::string text = [&] {
        std::string t = gemm_program(m, k, n, "n_dir", ", pre_quant(%s, mode = qf322f16_pre_scalar), pre_relu(mode = normal_relu), nz2nd, sat", "f16");
        t.replace(t.find("%c: !pto.ptr<f16>)"), 18, "%c: !pto.ptr<f16>, %s: f32)");
        return t;
    }();
    const ParseResult parsed = parse_ok(text);
    std::vector<uint16_t> a = random_half(std::size_t(m) * k, 3), b = random_half(std::size_t(k) * n, 4);
    std::vector<uint16_t> c(std::size_t(m) * n);
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", c), scalar_arg("s", 0.5)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    const std::vector<float> sums = reference_gemm(a, b, m, k, n);
    for (std::size_t i = 0; i < c.size(); ++i) {
        const float q = std::max(sums[i] * 0.5f, 0.0f);
        ASSERT_EQ(c[i], std::bit_cast<uint16_t>(pto::half(q))) << i;
    }
}

// Runs a cube_program with f32 output `out` (pre-filled) and returns it; `extra` binds more arguments.
std::vector<float> run_cube(const std::string& text, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b, std::vector<float> out,
                            std::vector<ArgumentBinding> extra = {})
{
    const ParseResult parsed = parse_ok(text);
    std::vector<uint16_t> a_copy = a, b_copy = b;
    std::vector<ArgumentBinding> args{array_arg("a", a_copy), array_arg("b", b_copy), array_arg("c", out)};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run(parsed.module, args, checked_run());
    EXPECT_TRUE(r.ok()) << format_all(r);
    return out;
}

TEST(CubeMicro, FixpipeLayoutsAndRepeatsPlaceEveryElement)
{
    const int m = 20, k = 16, n = 24, m_rows = 32;
    const std::vector<uint16_t> a = random_half(std::size_t(m) * k, 6), b = random_half(std::size_t(k) * n, 7);
    const std::vector<float> sums = reference_gemm(a, b, m, k, n);
    const auto sum = [&](int i, int j) { return sums[std::size_t(i) * n + j]; };
    const std::string head = "  pto.mte_l0c_gm %l0c, %c, %c20, %c24, %c32, ";
    // Column-major with 40 elements between columns.
    std::vector<float> dn = run_cube(cube_program(m, k, n, "", head + "%c40, %c0, %c0, nz2dn(%c1)\n", "f32", "", {40}), a, b,
                                     std::vector<float>(40 * n, -1.0f));
    // Nz in 16-column boxes, 32 rows apart; and f32 split into 8-column boxes (nz2nz with a split).
    std::vector<float> nz = run_cube(cube_program(m, k, n, "", head + "%c32, %c0, %c0\n"), a, b, std::vector<float>(32 * 32, -1.0f));
    std::vector<float> split = run_cube(cube_program(m, k, n, "", head + "%c32, %c0, %c0, nz2nz(%c1)\n"), a, b,
                                        std::vector<float>(32 * 24, -1.0f));
    // loop3: the same accumulator written twice, the second copy 480 elements on.
    std::vector<float> twice = run_cube(cube_program(m, k, n, "", head + "%c24, %c0, %c0, nz2nd, loop3(%c2, %c0, %c480)\n", "f32", "", {2, 480}),
                                        a, b, std::vector<float>(960, -1.0f));
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            ASSERT_EQ(dn[std::size_t(j) * 40 + i], sum(i, j));
            ASSERT_EQ(nz[std::size_t((j / 16) * m_rows + i) * 16 + j % 16], sum(i, j));
            ASSERT_EQ(split[std::size_t((j / 8) * m_rows + i) * 8 + j % 8], sum(i, j));
            ASSERT_EQ(twice[std::size_t(i) * n + j], sum(i, j));
            ASSERT_EQ(twice[480 + std::size_t(i) * n + j], sum(i, j));
        }
    EXPECT_EQ(dn[20], -1.0f);  // rows past m untouched
}

TEST(CubeMicro, FixpipeReluClipVectorScalesAndAtomics)
{
    const int m = 16, k = 32, n = 16;
    const std::vector<uint16_t> a = random_half(std::size_t(m) * k, 8), b = random_half(std::size_t(k) * n, 9);
    const std::vector<float> sums = reference_gemm(a, b, m, k, n);
    // Leaky ReLU with slope 0.25, then min(q, 3).
    std::vector<float> leaky = run_cube(
        cube_program(m, k, n, "",
                     "  pto.mte_l0c_gm %l0c, %c, %c16, %c16, %c16, %c16, %c0, %c0, pre_relu(%s, mode = scalar_relu, clip = %clip), nz2nd\n",
                     "f32", ", %s: f32, %clip: f32"),
        a, b, std::vector<float>(256), {scalar_arg("s", 0.25), scalar_arg("clip", 3.0)});
    // One scale per column from the fixpipe buffer (gm -> l1 -> fb), then added to what %c holds.
    const std::string scaled =
        "  %l1s = pto.castptr %c16384 : i64 -> !pto.ptr<f32, l1>\n"
        "  %fb = pto.castptr %c0 : i64 -> !pto.ptr<f32, fb>\n"
        "  pto.mte_gm_l1 %scales, %l1s, %c64 nburst(%c1, %c0, %c0) : !pto.ptr<f32>, !pto.ptr<f32, l1>, i64, i64, i64, i64\n"
        "  pto.mte_l1_fb %l1s, %fb, %c2 nburst(%c1, %c0, %c0) : !pto.ptr<f32, l1>, !pto.ptr<f32, fb>, i64, i64, i64, i64\n"
        "  pto.mte_l0c_gm %l0c, %c, %c16, %c16, %c16, %c16, %c0, %c0, pre_quant(%fb, mode = qf322f32_pre_vector), nz2nd,\n"
        "    atomic(type = f32, op = add)\n";
    std::vector<float> scales = random_vector<float>(16, 10, -2, 2), held = random_vector<float>(256, 11);
    std::vector<float> added = run_cube(cube_program(m, k, n, "", scaled, "f32", ", %scales: !pto.ptr<f32>", {2, 64}), a, b, held,
                                        {array_arg("scales", scales)});
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            const float q = sums[std::size_t(i) * n + j];
            ASSERT_EQ(leaky[std::size_t(i) * n + j], std::min(q < 0 ? q * 0.25f : q, 3.0f));
            ASSERT_EQ(added[std::size_t(i) * n + j], held[std::size_t(i) * n + j] + q * scales[std::size_t(j)]);
        }
}

// Where result (r, c) of a writeback lands for its layout clause, dst_stride apart: the reference for
// every destination memory.
int64_t written_at(const std::string& layout, int64_t r, int64_t c, int64_t dst_stride)
{
    if (layout == "nz2nd") return r * dst_stride + c;
    if (layout.rfind("nz2dn", 0) == 0) return c * dst_stride + r;
    return ((c / 16) * dst_stride + r) * 16 + c % 16;  // Nz in 16-column boxes (no clause, nz2nz)
}

// Lines that write the m x n accumulator (its box columns src_rows apart) back to %c through `memory`
// ("gm", "l1" or "ub") with `clauses` after the operands (for ub, after `dst_mode`): the destination is
// first filled from %c, so that what the writeback leaves keeps %c's values, then copied back to %c
// (`out_bytes` bytes). `constants` are the numbers the lines name.
struct Writeback {
    std::string lines;
    std::set<int> constants;
};
Writeback writeback_through(const std::string& memory, int m, int n, int src_rows, int dst_stride, const std::string& clauses, int out_bytes,
                            const std::string& type = "f32", const std::string& dst_mode = "dst_mode(%c0)")
{
    const auto c = [](int v) { return "%c" + std::to_string(v); };
    const std::string operands = c(m) + ", " + c(n) + ", " + c(src_rows) + ", " + c(dst_stride);
    const std::string whole = c(out_bytes) + " nburst(%c1, %c0, %c0)\n";
    const std::string ub = "  %ubo = pto.castptr %c0 : i64 -> !pto.ptr<" + type + ", ub>\n";
    Writeback w{"", {m, n, src_rows, dst_stride, out_bytes, 65536}};
    if (memory == "gm") {
        w.lines = "  pto.mte_l0c_gm %l0c, %c, " + operands + ", %c0, %c0" + clauses + "\n";
    } else if (memory == "ub") {
        w.lines = ub + "  pto.mte_gm_ub %c, %ubo, %c0, " + whole + "  pto.mte_l0c_ub %l0c, %ubo, " + operands + ", " + dst_mode + clauses +
                  "\n  pto.mte_ub_gm %ubo, %c, " + whole;
    } else {
        w.lines = "  %l1o = pto.castptr %c65536 : i64 -> !pto.ptr<" + type + ", l1>\n  pto.mte_gm_l1 %c, %l1o, " + whole +
                  "  pto.mte_l0c_l1 %l0c, %l1o, " + operands + clauses + "\n" + ub + "  pto.mte_l1_ub %l1o, %ubo, " + whole +
                  "  pto.mte_ub_gm %ubo, %c, " + whole;
    }
    return w;
}

TEST(CubeMicro, FixpipeWritesEveryLayoutToGmL1AndUbWhereTheReferencePlacesIt)
{
    std::mt19937 gen(40);
    std::uniform_int_distribution<int> extent(1, 40), extra(0, 5);
    for (int trial = 0; trial < 3; ++trial) {
        const int m = extent(gen), k = extent(gen), n = extent(gen), src_rows = (m + 15) / 16 * 16;
        const std::vector<uint16_t> a = random_half(std::size_t(m) * k, 50 + trial), b = random_half(std::size_t(k) * n, 53 + trial);
        const std::vector<float> sums = reference_gemm(a, b, m, k, n);
        for (const std::string layout : {"", "nz2nd", "nz2dn(%c1)", "nz2nz"})
            for (const std::string memory : {"gm", "l1", "ub"}) {
                const int dst_stride = (layout == "nz2nd" ? n : m) + extra(gen);
                SCOPED_TRACE(memory + " " + layout + " " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) +
                             " dst_stride " + std::to_string(dst_stride));
                int64_t elements = 0;
                for (int r = 0; r < m; ++r)
                    for (int c = 0; c < n; ++c) elements = std::max(elements, written_at(layout, r, c, dst_stride) + 1);
                elements = (elements + 7) / 8 * 8;  // whole 32-byte blocks for the copies
                const std::vector<float> held = random_vector<float>(std::size_t(elements), 56 + trial);
                const Writeback w = writeback_through(memory, m, n, src_rows, dst_stride, layout.empty() ? "" : ", " + layout, int(elements) * 4);
                const std::vector<float> got = run_cube(cube_program(m, k, n, "", w.lines, "f32", "", w.constants), a, b, held);
                std::vector<float> want = held;
                for (int r = 0; r < m; ++r)
                    for (int c = 0; c < n; ++c) want[std::size_t(written_at(layout, r, c, dst_stride))] = sums[std::size_t(r) * n + c];
                ASSERT_EQ(got, want);
            }
    }
}

TEST(CubeMicro, FixpipeToUbQuantizesAndRelusIntoTheSubBlockADynamicValueNames)
{
    const int m = 16, k = 32, n = 24;
    const Writeback w = writeback_through("ub", m, n, 16, n, ", pre_quant(%s, mode = qf322f16_pre_scalar), pre_relu(mode = normal_relu), nz2nd, sat",
                                          m * n * 2, "f16", "dst_mode(%sub)");
    const std::string text = cube_program(m, k, n, "", w.lines, "f16", ", %s: f32, %sub: i64", w.constants);
    const ParseResult parsed = parse_ok(text);
    std::vector<uint16_t> a = random_half(std::size_t(m) * k, 61), b = random_half(std::size_t(k) * n, 62);
    std::vector<uint16_t> c(std::size_t(m) * n, 0x7777);
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", c), scalar_arg("s", 0.5), scalar_arg("sub", 0)},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    const std::vector<float> sums = reference_gemm(a, b, m, k, n);
    for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], std::bit_cast<uint16_t>(pto::half(std::max(sums[i] * 0.5f, 0.0f)))) << i;
    // Sub-block 1 is a vector core of a mixed launch: a unified core has one UB.
    std::vector<uint16_t> again(c.size());
    const RunResult one = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", again), scalar_arg("s", 0.5), scalar_arg("sub", 1)},
                              checked_run());
    ASSERT_FALSE(one.ok());
    EXPECT_EQ(one.diagnostics[0].code, "RUN_FIXPIPE_SUB_BLOCK");
    EXPECT_NE(one.diagnostics[0].message.find("a unified core has one UB"), std::string::npos) << format_all(one);
}

TEST(CubeMicro, Nz2dnLoop0StrideReadsEverySthAccumulatorRow)
{
    // The accumulator holds the 40 x n product; nz2dn(s) writes result row r from accumulator row r * s.
    const int rows = 40, k = 16, n = 24, src_rows = 48;
    const std::vector<uint16_t> a = random_half(std::size_t(rows) * k, 63), b = random_half(std::size_t(k) * n, 64);
    const std::vector<float> sums = reference_gemm(a, b, rows, k, n);
    for (const int stride : {2, 3, 13})
        for (const std::string memory : {"gm", "l1", "ub"}) {
            SCOPED_TRACE(memory + " nz2dn(" + std::to_string(stride) + ")");
            const int m = (rows - 1) / stride + 1, dst_stride = m + 3;
            const int elements = (n * dst_stride + 7) / 8 * 8;
            const std::vector<float> held = random_vector<float>(std::size_t(elements), 65);
            Writeback w = writeback_through(memory, m, n, src_rows, dst_stride, ", nz2dn(%c" + std::to_string(stride) + ")", elements * 4);
            w.constants.insert(stride);
            const std::vector<float> got = run_cube(cube_program(rows, k, n, "", w.lines, "f32", "", w.constants), a, b, held);
            std::vector<float> want = held;
            for (int r = 0; r < m; ++r)
                for (int c = 0; c < n; ++c) want[std::size_t(c) * dst_stride + r] = sums[std::size_t(r) * stride * n + c];
            ASSERT_EQ(got, want);
        }
}

TEST(CubeMicro, UbWritebackAndLoop0RulesNameTheirProblem)
{
    const std::string head = R"(func.func @f(%g: !pto.ptr<f32>, %x: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c15 = arith.constant 15 : i64
  %c16 = arith.constant 16 : i64
  %c32 = arith.constant 32 : i64
  %c48 = arith.constant 48 : i64
  %half = arith.constant 0.5 : f32
  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>
  %u = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>
  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<f32, l1>
)";
    const std::string ub = "pto.mte_l0c_ub %l0c, %u, ";
    struct Case {
        std::string line, code, names;
    };
    // Constant operands: found by the verifier, and by the run of the unverified program.
    const Case constant[] = {
        {ub + "%c15, %c16, %c16, %c16, dst_mode(split_m), nz2nd", "RUN_FIXPIPE_SPLIT", "m must be even"},
        {ub + "%c16, %c48, %c16, %c48, dst_mode(split_n)", "RUN_FIXPIPE_SPLIT", "n must be a multiple of 32"},
        {ub + "%c16, %c16, %c16, %c16, dst_mode(%c2), nz2nd", "RUN_FIXPIPE_SUB_BLOCK", "sub-block 0 or 1"},
        {ub + "%c16, %c16, %c16, %c16, dst_mode(%c0), nz2nd, atomic(type = f32, op = add)", "LEGAL_FIXPIPE_ATOMIC",
         "pto.mte_l0c_ub takes none"},
        {ub + "%c16, %c16, %c16, %c16, dst_mode(split_m), pre_relu(mode = normal_relu), nz2nd", "LEGAL_FIXPIPE_DUAL", "pre_relu"},
        {ub + "%c16, %c32, %c16, %c32, dst_mode(split_n), pre_quant(%half, mode = qf322f32_pre_scalar)", "LEGAL_FIXPIPE_DUAL", "pre_quant"},
        {ub + "%c16, %c16, %c16, %c16, dst_mode(split_m), nz2dn(%c1)", "LEGAL_FIXPIPE_DUAL", "nz2dn"},
        {ub + "%c16, %c16, %c16, %c16, nz2nd", "STRUCT_CLAUSE", "dst_mode"},
        {"pto.mte_l0c_gm %l0c, %g, %c16, %c16, %c16, %c16, %c0, %c0, unit_flag(check_only), nz2dn(%c2)", "RUN_FIXPIPE_LOOP0",
         "unit_flag must be omitted"},
        {"pto.mte_l0c_l1 %l0c, %l1, %c16, %c16, %c16, %c16, nz2dn(%c0)", "RUN_FIXPIPE_LOOP0", "loop0 source stride"},
        // 16 results two rows apart span 31 accumulator rows: more than one box column holds.
        {"pto.mte_l0c_gm %l0c, %g, %c16, %c16, %c16, %c16, %c0, %c0, nz2dn(%c2)", "RUN_FIXPIPE_STRIDE", "at least the 31 rows read"},
    };
    std::vector<float> g(1024, 1.0f);
    for (const Case& c : constant) {
        SCOPED_TRACE(c.line);
        const ParseResult parsed = parse_ok(head + "  " + c.line + "\n  return\n}\n");
        const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::Cpu);
        ASSERT_FALSE(found.empty());
        EXPECT_EQ(found[0].code, c.code);
        EXPECT_NE(found[0].format().find(c.names), std::string::npos) << found[0].format();
        const RunResult r = run(parsed.module, {array_arg("g", g), scalar_arg("x", 0)}, checked_run());
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.diagnostics[0].code, c.code) << format_all(r);
    }
    // The same rules on values known only at run time (%x): the verifier cannot tell, the run does.
    const std::pair<Case, int> dynamic[] = {
        {{ub + "%c16, %c16, %c16, %c16, dst_mode(%x), nz2nd", "RUN_FIXPIPE_SUB_BLOCK", "sub-block 0 or 1"}, 2},
        {{ub + "%x, %c16, %c16, %c16, dst_mode(split_m)", "RUN_FIXPIPE_SPLIT", "m must be even"}, 15},
        {{ub + "%c16, %x, %c16, %c48, dst_mode(split_n), nz2nd", "RUN_FIXPIPE_SPLIT", "n must be a multiple of 32"}, 48},
        {{"pto.mte_l0c_gm %l0c, %g, %c1, %c16, %c16, %c16, %c0, %c0, unit_flag(check_and_clear), nz2dn(%x)", "RUN_FIXPIPE_LOOP0",
          "unit_flag must be omitted"},
         3},
    };
    for (const auto& [c, x] : dynamic) {
        SCOPED_TRACE(c.line);
        const ParseResult parsed = parse_ok(head + "  " + c.line + "\n  return\n}\n");
        EXPECT_TRUE(verify(parsed.module, profile::Target::Cpu).empty());
        const RunResult r = run(parsed.module, {array_arg("g", g), scalar_arg("x", x)}, checked_run());
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.diagnostics[0].code, c.code) << format_all(r);
        EXPECT_NE(r.diagnostics[0].format().find(c.names), std::string::npos) << format_all(r);
    }
}

// The cube core of a mixed launch writes both vector cores' UBs (tests/asm/programs/cube_to_vector_ub.pto):
// split along M, along N, and whole to the sub-block a value names; the vector cores read them after a
// cross-core flag.
TEST(CubeMicro, TheCubeWritesBothVectorUbsOfItsBlock)
{
    const std::string path = std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/cube_to_vector_ub.pto";
    std::string text = read_text(path);
    const int m = 32, k = 32, n = 32;
    const std::vector<uint16_t> a = random_half(std::size_t(m) * k, 70), b = random_half(std::size_t(k) * n, 71);
    const std::vector<float> sums = reference_gemm(a, b, m, k, n);
    const auto sum = [&](int i, int j) { return sums[std::size_t(i) * n + j]; };
    const auto run_program = [&](const std::string& program, std::vector<float>& rows, std::vector<float>& cols, std::vector<float>& whole,
                                 const RunOptions& options) {
        std::vector<uint16_t> a_copy = a, b_copy = b;
        return run(parse_ok(program, "cube_to_vector_ub.pto").module,
                   {array_arg("a", a_copy), array_arg("b", b_copy), array_arg("rows", rows), array_arg("cols", cols), array_arg("whole", whole)},
                   options);
    };
    std::vector<float> rows(std::size_t(m) * n, -1.0f), cols(rows), whole(2 * rows.size(), -1.0f);
    ASSERT_TRUE(verify(parse_ok(text).module, profile::Target::Cpu).empty());
    const RunResult r = run_program(text, rows, cols, whole, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            ASSERT_EQ(rows[std::size_t(i) * n + j], sum(i, j)) << i << ", " << j;  // sub-block i / 16, its row i % 16
            ASSERT_EQ(cols[std::size_t(j / 16) * 512 + std::size_t(i) * 16 + j % 16], sum(i, j)) << i << ", " << j;
            ASSERT_EQ(whole[std::size_t(j) * m + i], sum(i, j)) << i << ", " << j;          // sub-block 0: column-major
            ASSERT_EQ(whole[1024 + std::size_t(i) * n + j], sum(i, j)) << i << ", " << j;   // sub-block 1: row-major
        }
    // Without its wait, a vector core may run to its end before the cube writes its UB: on one thread it
    // does (the cube waits for it to begin, and it never waits), and the write could reach no reader.
    const std::string wait = "    pto.wait_flag_dev %c3 : i64\n";
    text.erase(text.find(wait), wait.size());
    // In checked mode that vector core first reads UB bytes nothing has written yet, and its failure is
    // the launch's.
    runtime::set_launch_threads(1);
    const RunResult unordered = run_program(text, rows, cols, whole, {});
    const RunResult unordered_checked = run_program(text, rows, cols, whole, checked_run());
    runtime::set_launch_threads(0);
    ASSERT_FALSE(unordered.ok());
    EXPECT_EQ(unordered.diagnostics[0].code, "ORDER_SUB_BLOCK_ENDED") << format_all(unordered);
    EXPECT_NE(unordered.diagnostics[0].message.find("vector core 0 of block 0 ended"), std::string::npos) << format_all(unordered);
    ASSERT_FALSE(unordered_checked.ok());
    EXPECT_EQ(unordered_checked.diagnostics[0].code, "RUN_UNINIT_READ") << format_all(unordered_checked);
}

// A mixed launch whose cube core writes the accumulator to the vector UBs with `writeback` (a
// pto.mte_l0c_ub into %ubo) between two cross-core handshakes: each vector core first fills its UB from
// its part of %c (sub-block v's `elements` floats from v * elements on), so that what the writeback
// leaves keeps %c's values, and after the cube's flag copies its UB back there.
std::string mixed_program(int m, int k, int n, const std::string& writeback, int elements, std::set<int> constants)
{
    constants.insert({3, 5, elements, 4 * elements});
    const std::string matmul = matmul_lines(m, k, n, "", constants);
    const std::string count = "%c" + std::to_string(elements), bytes = "%c" + std::to_string(4 * elements);
    return function_head("f32", "", constants) +
           "  %ubo = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n"
           "  pto.section.cube {\n" + matmul +
           "  pto.wait_flag_dev %c5 : i64\n" + writeback +
           "  pto.set_cross_core %c0, %c3 : i64, i64\n"
           "  }\n"
           "  pto.section.vector {\n"
           "  %sub = pto.get_subblock_idx\n"
           "  %at = arith.muli %sub, " + count + " : i64\n"
           "  %mine = pto.addptr %c, %at : !pto.ptr<f32> -> !pto.ptr<f32>\n"
           "  pto.mte_gm_ub %mine, %ubo, %c0, " + bytes + " nburst(%c1, %c0, %c0)\n"
           "  pto.set_cross_core %c0, %c5 : i64, i64\n"
           "  pto.wait_flag_dev %c3 : i64\n"
           "  pto.mte_ub_gm %ubo, %mine, " + bytes + " nburst(%c1, %c0, %c0)\n"
           "  }\n"
           "  return\n}\n";
}

TEST(CubeMicro, EveryDstModeReachesTheVectorUbsWhereTheReferencePlacesIt)
{
    std::mt19937 gen(80);
    const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
    const std::pair<std::string, std::string> modes[] = {
        {"dst_mode(%c1)", ""},          {"dst_mode(%c1)", "nz2nd"},     {"dst_mode(%c0)", "nz2dn(%c1)"},
        {"dst_mode(%c1)", "nz2dn(%c2)"}, {"dst_mode(%c0)", "nz2nz"},     {"dst_mode(split_m)", ""},
        {"dst_mode(split_m)", "nz2nd"}, {"dst_mode(split_n)", ""},      {"dst_mode(split_n)", "nz2nd"},
    };
    for (const auto& [dst_mode, layout] : modes) {
        const bool split_m = dst_mode == "dst_mode(split_m)", split_n = dst_mode == "dst_mode(split_n)";
        const int loop0 = layout == "nz2dn(%c2)" ? 2 : 1;
        const int rows = 2 * uniform(1, 20), k = uniform(1, 40), n = split_n ? 32 * uniform(1, 2) : uniform(1, 40);
        const int m = (rows - 1) / loop0 + 1, src_rows = (rows + 15) / 16 * 16;
        // What each sub-block receives: (sub-block, first accumulator row, first column), part_m x part_n.
        const int part_m = split_m ? m / 2 : m, part_n = split_n ? n / 2 : n;
        std::vector<std::tuple<int, int, int>> parts{{dst_mode == "dst_mode(%c1)" ? 1 : 0, 0, 0}};
        if (split_m || split_n) parts.push_back({1, split_m ? part_m : 0, split_n ? part_n : 0});
        const int dst_stride = (layout == "nz2nd" ? part_n : part_m) + uniform(0, 5);
        SCOPED_TRACE(dst_mode + " " + layout + " " + std::to_string(rows) + "x" + std::to_string(k) + "x" + std::to_string(n) + " dst_stride " +
                     std::to_string(dst_stride));
        int64_t elements = 0;
        for (int r = 0; r < part_m; ++r)
            for (int c = 0; c < part_n; ++c) elements = std::max(elements, written_at(layout, r, c, dst_stride) + 1);
        elements = (elements + 7) / 8 * 8;
        const auto num = [](int v) { return "%c" + std::to_string(v); };
        const std::string writeback = "  pto.mte_l0c_ub %l0c, %ubo, " + num(m) + ", " + num(n) + ", " + num(src_rows) + ", " + num(dst_stride) + ", " +
                                      dst_mode + (layout.empty() ? "" : ", " + layout) + "\n";
        const std::vector<uint16_t> a = random_half(std::size_t(rows) * k, 81), b = random_half(std::size_t(k) * n, 82);
        const std::vector<float> held = random_vector<float>(2 * std::size_t(elements), 83);
        const std::string text = mixed_program(rows, k, n, writeback, int(elements), {m, n, src_rows, dst_stride, 2});
        const std::vector<float> got = run_cube(text, a, b, held);
        const std::vector<float> sums = reference_gemm(a, b, rows, k, n);
        std::vector<float> want = held;
        for (const auto& [sub, row0, col0] : parts)
            for (int r = 0; r < part_m; ++r)
                for (int c = 0; c < part_n; ++c)
                    want[std::size_t(sub * elements + written_at(layout, r, c, dst_stride))] = sums[std::size_t(row0 + r * loop0) * n + col0 + c];
        ASSERT_EQ(got, want);
    }
}

TEST(CubeMicro, AccumulateBiasTransposeAndGemvRow)
{
    // out = bias + row . b + row . b, b given as n x k (the transposed right operand), the bias as f16 widened
    // into the bias table; m = 1 reads the row's k values contiguous in L0A (written element by element).
    const int k = 32, n = 16;
    const char* text = R"(func.func @f(%row: !pto.ptr<f16>, %bt: !pto.ptr<f16>, %bias: !pto.ptr<f16>, %out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i64
  %c32 = arith.constant 32 : i64
  %c64 = arith.constant 64 : i64
  %c4096 = arith.constant 4096 : i64
  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<f16, l1>
  %l1bias = pto.castptr %c4096 : i64 -> !pto.ptr<f16, l1>
  %l0a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0a>
  %l0b = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0b>
  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>
  %table = pto.castptr %c0 : i64 -> !pto.ptr<f32, bt>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %ik = arith.constant 32 : index
  scf.for %i = %i0 to %ik step %i1 {
    %v = pto.load_scalar %row[%i] : !pto.ptr<f16> -> f16
    pto.store_scalar %v, %l0a[%i] : !pto.ptr<f16, l0a>, f16
  }
  pto.mte_gm_l1_frac %bt, %l1, nd2nz, shape(%c16, %c32), src_layout(%c64), dst_group(%c1, %c1, %c16, %c0), ctrl(%c0, %c0)
  pto.mte_l1_l0b %l1, %l0b, %c32, %c16 {transpose = true} : !pto.ptr<f16, l1>, !pto.ptr<f16, l0b>, i64, i64
  pto.mte_gm_l1 %bias, %l1bias, %c32 nburst(%c1, %c0, %c0)
  pto.mte_l1_bt %l1bias, %table, %c1 nburst(%c1, %c0, %c0)
  pto.mad_bias %l0a, %l0b, %l0c, %table, %c1, %c16, %c32
  pto.mad_acc %l0a, %l0b, %l0c, %c1, %c16, %c32
  pto.mte_l0c_gm %l0c, %out, %c1, %c16, %c16, %c16, %c0, %c0, nz2nd
  return
})";
    const ParseResult parsed = parse_ok(text);
    std::vector<uint16_t> row = random_half(k, 12), bt = random_half(std::size_t(n) * k, 13), bias = random_half(n, 14);
    std::vector<float> out(n);
    const RunResult r = run(parsed.module, {array_arg("row", row), array_arg("bt", bt), array_arg("bias", bias), array_arg("out", out)},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (int j = 0; j < n; ++j) {
        float acc = as_float(bias[std::size_t(j)]);
        for (int pass = 0; pass < 2; ++pass)
            for (int t = 0; t < k; ++t) acc = std::fma(as_float(row[std::size_t(t)]), as_float(bt[std::size_t(j) * k + t]), acc);
        ASSERT_EQ(out[std::size_t(j)], acc) << j;
    }
}

TEST(CubeMicro, MxMultiplyScalesEachGroupOf32Values)
{
    // fp8 a (16 x 64) and b (64 x 16) with E8M0 scales per 32 values, loaded into the scale buffers beside
    // L0A / L0B from L1 images in their layouts (ScaleLeft: 16 x 2 boxes row-major; ScaleRight: 2 x 16
    // boxes column-major).
    const int m = 16, k = 64, n = 16, groups = 2;
    const char* text = R"(func.func @f(%a: !pto.ptr<f8E4M3FN>, %b: !pto.ptr<f8E4M3FN>, %sa: !pto.ptr<i8>, %sb: !pto.ptr<i8>, %out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i64
  %c32 = arith.constant 32 : i64
  %c64 = arith.constant 64 : i64
  %c4096 = arith.constant 4096 : i64
  %c8192 = arith.constant 8192 : i64
  %c8224 = arith.constant 8224 : i64
  %l1a = pto.castptr %c0 : i64 -> !pto.ptr<f8E4M3FN, l1>
  %l1b = pto.castptr %c4096 : i64 -> !pto.ptr<f8E4M3FN, l1>
  %l1sa = pto.castptr %c8192 : i64 -> !pto.ptr<i8, l1>
  %l1sb = pto.castptr %c8224 : i64 -> !pto.ptr<i8, l1>
  %l0a = pto.castptr %c0 : i64 -> !pto.ptr<f8E4M3FN, l0a>
  %l0b = pto.castptr %c0 : i64 -> !pto.ptr<f8E4M3FN, l0b>
  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>
  pto.mte_gm_l1_frac %a, %l1a, nd2nz, shape(%c16, %c64), src_layout(%c64), dst_group(%c1, %c1, %c16, %c0), ctrl(%c0, %c0)
  pto.mte_gm_l1_frac %b, %l1b, nd2nz, shape(%c64, %c16), src_layout(%c16), dst_group(%c1, %c1, %c64, %c0), ctrl(%c0, %c0)
  pto.mte_gm_l1 %sa, %l1sa, %c32 nburst(%c1, %c0, %c0)
  pto.mte_gm_l1 %sb, %l1sb, %c32 nburst(%c1, %c0, %c0)
  pto.mte_l1_l0a %l1a, %l0a, %c16, %c64
  pto.mte_l1_l0b %l1b, %l0b, %c64, %c16
  pto.mte_l1_l0a_mx %l1sa, %l0a, %c16, %c64
  pto.mte_l1_l0b_mx %l1sb, %l0b, %c64, %c16
  pto.mad_mx %l0a, %l0b, %l0c, %c16, %c16, %c64 disable_gemv
  pto.mte_l0c_gm %l0c, %out, %c16, %c16, %c16, %c16, %c0, %c0, nz2nd
  return
})";
    auto fp8 = [](std::size_t count, uint32_t seed) {
        std::vector<float> v = random_vector<float>(count, seed, -8, 8);
        std::vector<uint8_t> out(count);
        for (std::size_t i = 0; i < count; ++i)
            numeric::from_double(engine::DType::F8E4M3, out.data(), i, v[i], RoundMode::CAST_RINT, SaturationMode::ON);
        return out;
    };
    std::vector<uint8_t> a = fp8(std::size_t(m) * k, 15), b = fp8(std::size_t(k) * n, 16);
    std::mt19937 gen(17);
    std::uniform_int_distribution<int> exponent(120, 134);
    std::vector<uint8_t> sa(std::size_t(m) * groups), sb(std::size_t(groups) * n);  // [i][g], [g][j]
    for (auto& e : sa) e = uint8_t(exponent(gen));
    for (auto& e : sb) e = uint8_t(exponent(gen));
    std::vector<uint8_t> sa_image(32), sb_image(32);
    for (int i = 0; i < m; ++i)
        for (int g = 0; g < groups; ++g) sa_image[std::size_t(i) * 2 + g] = sa[std::size_t(i) * groups + g];
    for (int g = 0; g < groups; ++g)
        for (int j = 0; j < n; ++j) sb_image[std::size_t(j) * 2 + g] = sb[std::size_t(g) * n + j];
    std::vector<float> out(std::size_t(m) * n);
    const ParseResult parsed = parse_ok(text);
    const RunResult r = run(parsed.module,
                            {array_arg("a", a), array_arg("b", b), array_arg("sa", sa_image), array_arg("sb", sb_image), array_arg("out", out)},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float acc = 0;
            for (int t = 0; t < k; ++t) {
                const float av = float(numeric::to_double(engine::DType::F8E4M3, a.data(), std::size_t(i) * k + t) *
                                       std::ldexp(1.0, sa[std::size_t(i) * groups + t / 32] - 127));
                const float bv = float(numeric::to_double(engine::DType::F8E4M3, b.data(), std::size_t(t) * n + j) *
                                       std::ldexp(1.0, sb[std::size_t(t / 32) * n + j] - 127));
                acc = std::fma(av, bv, acc);
            }
            ASSERT_EQ(out[std::size_t(i) * n + j], acc) << i << ", " << j;
        }
}

TEST(CubeMicro, Tf32ModeRoundsTheInputsOfAnF32Multiply)
{
    // a and b f32 in L0A / L0B written by scalar stores; tf32_mode(round_even) drops 13 fraction bits first.
    const char* text = R"(func.func @f(%x: f32, %y: f32, %out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i64
  %l0a = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0a>
  %l0b = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0b>
  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>
  %i0 = arith.constant 0 : index
  pto.store_scalar %x, %l0a[%i0] : !pto.ptr<f32, l0a>, f32
  pto.store_scalar %y, %l0b[%i0] : !pto.ptr<f32, l0b>, f32
  pto.mad %l0a, %l0b, %l0c, %c1, %c1, %c1 disable_gemv tf32_mode(round_even)
    : !pto.ptr<f32, l0a>, !pto.ptr<f32, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
  pto.mte_l0c_gm %l0c, %out, %c1, %c1, %c16, %c1, %c0, %c0, nz2nd
    : !pto.ptr<f32, l0c>, !pto.ptr<f32>, i64, i64, i64, i64, i64, i64
  return
})";
    const ParseResult parsed = parse_ok(text);
    const float x = 1.0f + 0x1.8p-11f, y = 3.0f;  // x's fraction is 12 bits: TF32 keeps 10
    std::vector<float> out(1);
    const RunResult r = run(parsed.module, {scalar_arg("x", double(x)), scalar_arg("y", double(y)), array_arg("out", out)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    const float x_tf32 = 1.0f + 0x1p-10f;  // 1 + 1.5 * 2^-11 rounds to the nearer TF32 value above
    EXPECT_EQ(out[0], x_tf32 * y);
}

TEST(CubeMicro, BurstCopiesAndScalarPointersMoveBytes)
{
    const char* text = R"(func.func @f(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %c8 = arith.constant 8 : i64
  %c16 = arith.constant 16 : i64
  %c32 = arith.constant 32 : i64
  %c64 = arith.constant 64 : i64
  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<f32, l1>
  pto.mte_gm_l1 %src, %l1, %c32
    nburst(%c2, %c64, %c32)
    loop(%c2, %c16, %c64)
    : !pto.ptr<f32>, !pto.ptr<f32, l1>, i64, i64, i64, i64, i64, i64, i64
  %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>
  pto.mte_l1_ub %l1, %ub, %c64 nburst(%c2, %c64, %c64) : !pto.ptr<f32, l1>, !pto.ptr<f32, ub>, i64, i64, i64, i64
  %ub1 = pto.addptr %ub, %c8 : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>
  %i1 = arith.constant 1 : index
  %v = pto.load_scalar %ub1[%i1] : !pto.ptr<f32, ub> -> f32
  return %v : f32
})";
    const ParseResult parsed = parse_ok(text);
    std::vector<float> src = random_vector<float>(64, 5), dst(1);
    const RunResult r = run(parsed.module, {array_arg("src", src), array_arg("dst", dst)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    // UB float 9 is L1 byte 36, which the second burst of the first loop pass took from source byte 68.
    ASSERT_EQ(r.results.size(), 1u);
    EXPECT_EQ(float(r.results[0]), src[17]);
}

TEST(CubeMicro, BadProgramsGetStableCodes)
{
    const std::string head = R"(func.func @f(%src: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %big = arith.constant 100000000 : i64
  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<f32, l1>
)";
    // An unknown clause is a parse error naming the clauses the operation has.
    const ParseResult unknown = parse(head + "  pto.mte_gm_l1 %src, %l1, %c1 nburst(%c1, %c0, %c0), bogus(%c0)\n  return\n}\n", "t.pto");
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.diagnostics[0].code, "PARSE_UNEXPECTED_TOKEN");
    // A missing nburst, a clause given twice, a pointer into the wrong memory: STRUCT_* from the verifier.
    for (const std::string& body : {std::string("  pto.mte_gm_l1 %src, %l1, %c1 : !pto.ptr<f32>, !pto.ptr<f32, l1>, i64\n"),
                                    std::string("  pto.mte_gm_l1 %src, %l1, %c1 nburst(%c1, %c0, %c0) nburst(%c1, %c0, %c0)\n"),
                                    std::string("  pto.mte_gm_l1 %l1, %l1, %c1 nburst(%c1, %c0, %c0)\n")}) {
        const ParseResult parsed = parse_ok(head + body + "  return\n}\n");
        const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::Cpu);
        ASSERT_FALSE(found.empty()) << body;
        EXPECT_EQ(found[0].code.substr(0, 7), "STRUCT_") << body;
    }
    // Operand types a rule forbids: LEGAL_* from the verifier, and from the run of an unverified program.
    const std::string typed = R"(func.func @f(%g: !pto.ptr<f16>) {
  %c0 = arith.constant 0 : i64
  %c16 = arith.constant 16 : i64
  %l0a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0a>
  %l0b = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0b>
  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>
  %i0c = pto.castptr %c0 : i64 -> !pto.ptr<i32, l0c>
  %bt = pto.castptr %c0 : i64 -> !pto.ptr<f16, bt>
  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<f16, l1>
)";
    const std::pair<std::string, std::string> illegal[] = {
        {"pto.mad %l0a, %l0b, %l0c, %c16, %c16, %c16 tf32_mode(round_even)", "LEGAL_MAD_TF32"},
        {"pto.mad_bias %l0a, %l0b, %l0c, %bt, %c16, %c16, %c16", "LEGAL_MATMUL_BIAS"},
        {"pto.mad %l0a, %l0b, %i0c, %c16, %c16, %c16", "LEGAL_MATMUL_DTYPE"},
        {"pto.mte_l1_bt %l1, %bt, %c16 nburst(%c16, %c0, %c0)", "LEGAL_MTE_BT_DTYPE"},
        {"pto.mte_l0c_gm %i0c, %g, %c16, %c16, %c16, %c16, %c0, %c0, nz2nd", "LEGAL_FIXPIPE_DTYPE"},
        {"pto.mte_l0c_gm %l0c, %g, %c16, %c16, %c16, %c16, %c0, %c0, nz2nd, atomic(type = f32, op = add)", "LEGAL_FIXPIPE_ATOMIC"},
        {"pto.mte_l0c_gm %l0c, %g, %c16, %c16, %c16, %c16, %c0, %c0, pre_relu(mode = scalar_relu)", "LEGAL_FIXPIPE_PAYLOAD"},
        // Extents that constants state are checked before the run.
        {"pto.mad %l0a, %l0b, %l0c, %c16, %c16, %c0", "RUN_MATMUL_EXTENT"},
        {"pto.mte_l0c_gm %l0c, %g, %c16, %c16, %c0, %c16, %c0, %c0, nz2nd", "RUN_FIXPIPE_STRIDE"},
    };
    for (const auto& [line, code] : illegal) {
        const ParseResult parsed = parse_ok(typed + "  " + line + "\n  return\n}\n");
        const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::Cpu);
        ASSERT_FALSE(found.empty()) << line;
        EXPECT_EQ(found[0].code, code) << line;
        std::vector<uint16_t> g(256, 0);
        const RunResult r = run(parsed.module, {array_arg("g", g)}, checked_run());
        ASSERT_FALSE(r.ok()) << line;
        EXPECT_EQ(r.diagnostics[0].code, code) << format_all(r);
    }
    // Operands past the model's bounds are refused, not wrapped around or run for ever.
    const std::string bounds = R"(func.func @f(%src: !pto.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %many = arith.constant 1048576 : i64
  %far = arith.constant 4611686018427387904 : index
  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<f32, l1>
)";
    const std::pair<std::string, std::string> refused[] = {
        {"  %v = pto.load_scalar %l1[%far] : !pto.ptr<f32, l1> -> f32\n  return %v : f32\n}\n", "RUN_POINTER_RANGE"},
        {"  pto.mte_gm_l1 %src, %l1, %c1 nburst(%many, %c0, %c0) loop(%many, %c0, %c0)\n  %v = arith.constant 0.0 : f32\n"
         "  return %v : f32\n}\n",
         "RUN_CUBE_EXTENT"},
    };
    for (const auto& [tail, code] : refused) {
        const ParseResult parsed = parse_ok(bounds + tail);
        std::vector<float> src(4, 1.0f);
        const RunResult r = run(parsed.module, {array_arg("src", src)}, checked_run());
        ASSERT_FALSE(r.ok()) << tail;
        EXPECT_EQ(r.diagnostics[0].code, code) << format_all(r);
    }
    // A burst past the end of L1 stops the run before a byte moves.
    const ParseResult parsed = parse_ok(head + "  pto.mte_gm_l1 %src, %l1, %c1 nburst(%c2, %c0, %big)\n  return\n}\n");
    std::vector<float> src(4, 1.0f);
    const RunResult r = run(parsed.module, {array_arg("src", src)}, checked_run());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "RUN_POINTER_RANGE") << format_all(r);
}

}  // namespace
}  // namespace pto::as::testing
