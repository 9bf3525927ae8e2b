// TROWARGMAX TROWARGMIN TCOLARGMAX TCOLARGMIN against a reference search written from the rule (first of
// the largest / smallest, NaN losing to any number, -0 below +0) over random shapes, partial valid
// regions, every element type, ties, NaNs and zeros of both signs; both forms, both doors; the rules, and
// the cpu profile's wider types with their WARN_CPU_ONLY.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

// Few distinct values, so that ties are common; NaN and both zeros now and then.
template <typename T>
T random_element(std::mt19937& rng)
{
    const int pick = int(rng() % 16);
    if constexpr (!std::is_integral_v<T>) {
        if (pick == 0) return T(std::numeric_limits<float>::quiet_NaN());
        if (pick == 1) return T(-0.0f);
        if (pick == 2) return T(0.0f);
        return T(float(int(rng() % 9) - 4) * 0.5f);
    } else {
        return T(int(rng() % 9) + (std::is_signed_v<T> ? -4 : 0));
    }
}

template <typename T>
double as_double(T v)
{
    return double(float(v));
}

// The reference: first position of the best, by the decided order.
template <typename T>
int best_of(const std::vector<T>& line, bool max)
{
    int best = -1;
    for (int k = 0; k < int(line.size()); ++k) {
        const double x = as_double(line[size_t(k)]);
        if (std::isnan(x)) continue;
        if (best < 0) {
            best = k;
            continue;
        }
        const double b = as_double(line[size_t(best)]);
        const bool better = max ? (x > b || (x == 0 && b == 0 && !std::signbit(x) && std::signbit(b)))
                                : (x < b || (x == 0 && b == 0 && std::signbit(x) && !std::signbit(b)));
        if (better) best = k;
    }
    return best < 0 ? 0 : best;
}

template <typename T, typename Index, bool Rows, bool Max, bool WithValue>
void expect_search(uint32_t seed)
{
    constexpr int R = 16, C = 64;
    using Src = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    // Rows: DN results with one column; columns: one ND row.
    using IdxT = std::conditional_t<Rows, Tile<TileType::Vec, Index, R, 1, BLayout::ColMajor, DYNAMIC, 1>,
                                    Tile<TileType::Vec, Index, 1, C, BLayout::RowMajor, 1, DYNAMIC>>;
    using ValT = std::conditional_t<Rows, Tile<TileType::Vec, T, R, 1, BLayout::ColMajor, DYNAMIC, 1>,
                                    Tile<TileType::Vec, T, 1, C, BLayout::RowMajor, 1, DYNAMIC>>;
    using Tmp = Tile<TileType::Vec, T, R, C>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 12; ++trial) {
        const int rows = 1 + int(rng() % R), cols = 1 + int(rng() % C);
        Src src(rows, cols);
        IdxT idx = Rows ? IdxT(rows) : IdxT(cols);
        ValT val = Rows ? ValT(rows) : ValT(cols);
        Tmp tmp;
        std::vector<std::vector<T>> lines(size_t(Rows ? rows : cols));
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const T v = trial == 0 && r == 0 ? T(std::numeric_limits<float>::quiet_NaN()) : random_element<T>(rng);
                src.SetValue(uint32_t(r * C + c), v);
                lines[size_t(Rows ? r : c)].push_back(v);
            }
        if constexpr (WithValue) {
            if constexpr (Rows) {
                Max ? TROWARGMAX(val, idx, src, tmp) : TROWARGMIN(val, idx, src, tmp);
            } else {
                Max ? TCOLARGMAX(val, idx, src, tmp) : TCOLARGMIN(val, idx, src, tmp);
            }
        } else {
            if constexpr (Rows) {
                Max ? TROWARGMAX(idx, src, tmp) : TROWARGMIN(idx, src, tmp);
            } else {
                Max ? TCOLARGMAX(idx, src, tmp) : TCOLARGMIN(idx, src, tmp);
            }
        }
        for (size_t line = 0; line < lines.size(); ++line) {
            const int want = best_of(lines[line], Max);
            ASSERT_EQ(int(idx.GetValue(uint32_t(line))), want) << "trial " << trial << " line " << line;
            if constexpr (WithValue) {
                const double got = as_double(val.GetValue(uint32_t(line))), expected = as_double(lines[line][size_t(want)]);
                if (std::isnan(expected)) {
                    ASSERT_TRUE(std::isnan(got));
                } else {
                    ASSERT_EQ(got, expected);
                    ASSERT_EQ(std::signbit(got), std::signbit(expected));
                }
            }
        }
    }
}

TEST(ArgReduce, RowsOfFloatAndHalfEveryForm)
{
    expect_search<float, uint32_t, true, true, false>(1);
    expect_search<float, int32_t, true, false, true>(2);
    expect_search<half, uint32_t, true, true, true>(3);
    expect_search<half, int32_t, true, false, false>(4);
}

TEST(ArgReduce, ColumnsOfEveryTypeEveryForm)
{
    expect_search<float, uint32_t, false, true, true>(5);
    expect_search<half, uint16_t, false, false, true>(6);  // 16-bit values take 16-bit indices
    expect_search<half, int32_t, false, true, false>(7);
    expect_search<int8_t, uint32_t, false, true, false>(8);
    expect_search<uint8_t, int32_t, false, false, false>(9);
    expect_search<int16_t, int16_t, false, true, true>(10);
    expect_search<uint32_t, uint32_t, false, false, true>(11);
    expect_search<int32_t, int32_t, false, true, true>(12);
}

// The cpu profile searches, rows and columns, every type the public CPU simulation searches that a double
// holds exactly (its trowreduceidx program searches int32 rows into int32 indices).
TEST(ArgReduce, TheCpuProfileSearchesIntegerAndBfloat16LinesToo)
{
    expect_search<int32_t, int32_t, true, true, false>(13);
    expect_search<int32_t, uint32_t, true, false, true>(14);
    expect_search<uint16_t, int32_t, true, true, true>(15);
    expect_search<int16_t, uint32_t, true, false, false>(16);
    expect_search<uint32_t, int32_t, true, true, true>(17);
    expect_search<bfloat16_t, uint32_t, true, true, true>(18);
    expect_search<bfloat16_t, int32_t, false, false, true>(19);
    expect_search<int8_t, uint32_t, false, true, true>(20);  // no target searches 8-bit columns with values
}

// What only the cpu profile searches, both real targets refuse, and checked mode warns about.
TEST(ArgReduce, CpuOnlySearchesAreRefusedByBothTargetsAndWarnInCheckedMode)
{
    using Src = Tile<TileType::Vec, int32_t, 3, 8, BLayout::RowMajor, 3, 5>;
    using Idx = Tile<TileType::Vec, int32_t, 3, 8, BLayout::RowMajor, 3, 1>;
    Src src;
    Idx idx;
    const engine::TileDesc s = src.desc(), i = idx.desc();
    for (profile::Target t : {profile::Target::A2A3, profile::Target::A5}) {
        engine::FirstFinding finding;
        engine::check_arg_reduce(profile::profile_of(t), rules::ReduceOp::Max, true, i, nullptr, s, nullptr, finding);
        EXPECT_EQ(finding.first.code, "LEGAL_TROWARGMAX_DTYPE");
    }
    for (int e = 0; e < 3 * 8; ++e) src.SetValue(uint32_t(e), (e * 7) % 5 - 2);
    runtime::clear_warnings();
    {
        ScopedChecked checked;
        EXPECT_EQ(diagnostic_of([&] { TROWARGMAX(idx, src, src); }).code, "no error");
    }
    ASSERT_EQ(runtime::warnings().size(), 1u);
    EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
    EXPECT_EQ(runtime::warnings()[0].instruction, "TROWARGMAX");
    EXPECT_TRUE(mentions(runtime::warnings()[0], "LEGAL_TROWARGMAX_DTYPE")) << runtime::warnings()[0].message;
    runtime::clear_warnings();
    // A search both targets take warns nothing.
    Tile<TileType::Vec, float, 3, 8, BLayout::RowMajor, 3, 5> f;
    for (int e = 0; e < 3 * 8; ++e) f.SetValue(uint32_t(e), float(e % 4));
    {
        ScopedChecked checked;
        EXPECT_EQ(diagnostic_of([&] { TROWARGMIN(idx, f, f); }).code, "no error");
    }
    EXPECT_TRUE(runtime::warnings().empty());
}

TEST(ArgReduce, RulesPerTarget)
{
    Tile<TileType::Vec, float, 8, 16> src;
    Tile<TileType::Vec, int16_t, 8, 16> i16;
    Tile<TileType::Vec, uint32_t, 8, 1, BLayout::ColMajor> idx;
    Tile<TileType::Vec, float, 8, 1, BLayout::ColMajor> val;
    Tile<TileType::Vec, uint32_t, 1, 16> cols_idx;
    Tile<TileType::Vec, uint16_t, 1, 16> cols_idx16;
    Tile<TileType::Vec, int16_t, 1, 16> cols_val16;
    Tile<TileType::Vec, float, 1, 16> cols_val;
    const auto code = [](profile::Target t, rules::ReduceOp op, bool rows, const engine::TileDesc& index,
                         const engine::TileDesc* value, const engine::TileDesc& source, const engine::TileDesc* tmp) {
        engine::FirstFinding finding;
        engine::check_arg_reduce(profile::profile_of(t), op, rows, index, value, source, tmp, finding);
        return finding.found ? finding.first.code : std::string("none");
    };
    const auto s = src.desc(), i = idx.desc(), v = val.desc(), s16 = i16.desc(), ci = cols_idx.desc(),
               ci16 = cols_idx16.desc(), cv16 = cols_val16.desc(), cv = cols_val.desc();
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Max, true, i, &v, s, nullptr), "none");
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Max, true, i, nullptr, s16, nullptr), "LEGAL_TROWARGMAX_DTYPE");
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Min, false, ci, nullptr, s16, nullptr), "none");
    EXPECT_EQ(code(profile::Target::A2A3, rules::ReduceOp::Min, false, ci, nullptr, s16, nullptr), "LEGAL_TCOLARGMIN_DTYPE");
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Max, false, ci, &cv16, s16, nullptr), "LEGAL_TCOLARGMAX_INDEX_DTYPE");
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Max, false, ci16, &cv16, s16, nullptr), "none");
    // The cpu profile takes 32-bit indices for 16-bit columns too, as the public CPU simulation does.
    EXPECT_EQ(code(profile::Target::Cpu, rules::ReduceOp::Max, false, ci, &cv16, s16, nullptr), "none");
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Max, false, ci, &cv16, s, nullptr), "LEGAL_TCOLARGMAX_SAME_DTYPE");
    EXPECT_EQ(code(profile::Target::A2A3, rules::ReduceOp::Max, false, ci, &cv, s, &s16), "LEGAL_TCOLARGMAX_TMP");
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Max, false, ci, &cv, s, &s16), "none");
    engine::TileDesc short_idx = i;
    short_idx.valid_rows = 4;
    EXPECT_EQ(code(profile::Target::A5, rules::ReduceOp::Max, true, short_idx, nullptr, s, nullptr), "RUN_VALID_SHAPE");
}

TEST(ArgReduceText, RowValuesAndIndicesRunAndCheck)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f32>, %v: !pto.ptr<f32>, %i: !pto.ptr<i32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %xv = pto.make_tensor_view %x, shape = [%c8, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %vv = pto.make_tensor_view %v, shape = [%c8, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xf32>
  %iv = pto.make_tensor_view %i, shape = [%c8, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xi32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 8x32xf32>
  %tt = pto.alloc_tile : !pto.tile_buf<vec, 8x32xf32>
  %tv = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32, valid=8x1>
  %ti = pto.alloc_tile : !pto.tile_buf<vec, 8x8xi32, valid=8x1>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 8x32xf32>)
  pto.trowargmin ins(%tx, %tt : !pto.tile_buf<vec, 8x32xf32>, !pto.tile_buf<vec, 8x32xf32>) outs(%tv, %ti : !pto.tile_buf<vec, 8x8xf32, valid=8x1>, !pto.tile_buf<vec, 8x8xi32, valid=8x1>)
  pto.tstore ins(%tv : !pto.tile_buf<vec, 8x8xf32, valid=8x1>) outs(%vv : !pto.tensor_view<?x?xf32>)
  pto.tstore ins(%ti : !pto.tile_buf<vec, 8x8xi32, valid=8x1>) outs(%iv : !pto.tensor_view<?x?xi32>)
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "argmin.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A5);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::mt19937 rng(3);
    std::vector<float> x(8 * 32), v(8);
    std::vector<int32_t> idx(8);
    for (auto& e : x) e = random_element<float>(rng);
    const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("v", v), argument("i", idx)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int row = 0; row < 8; ++row) {
        const std::vector<float> line(x.begin() + row * 32, x.begin() + row * 32 + 32);
        const int want = best_of(line, false);
        EXPECT_EQ(idx[size_t(row)], want) << row;
        EXPECT_TRUE(v[size_t(row)] == line[size_t(want)] || (std::isnan(v[size_t(row)]) && std::isnan(line[size_t(want)])));
    }
    // An i16 source is no row search's type on a5.
    std::string bad = program;
    for (std::size_t at; (at = bad.find("8x32xf32")) != std::string::npos;) bad.replace(at, 8, "8x32xi16");
    const as::ParseResult parsed_bad = as::parse(bad, "argmin.pto");
    ASSERT_TRUE(parsed_bad.ok());
    bool dtype_reported = false;
    for (const auto& d : as::verify(parsed_bad.module, profile::Target::A5)) dtype_reported |= d.code == "LEGAL_TROWARGMIN_DTYPE";
    EXPECT_TRUE(dtype_reported);
    // An i32 program: a5 refuses it, the cpu profile runs it (and warns in checked mode).
    std::string ints = program;
    for (std::size_t at; (at = ints.find("f32")) != std::string::npos;) ints.replace(at, 3, "i32");
    const as::ParseResult parsed_ints = as::parse(ints, "argmin.pto");
    ASSERT_TRUE(parsed_ints.ok());
    dtype_reported = false;
    for (const auto& d : as::verify(parsed_ints.module, profile::Target::A5)) dtype_reported |= d.code == "LEGAL_TROWARGMIN_DTYPE";
    EXPECT_TRUE(dtype_reported);
    const auto on_cpu = as::verify(parsed_ints.module, profile::Target::Cpu);
    ASSERT_TRUE(on_cpu.empty()) << on_cpu[0].format();
    std::vector<int32_t> xi(8 * 32), vi(8), ii(8);
    for (auto& e : xi) e = random_element<int32_t>(rng);
    runtime::clear_warnings();
    as::RunOptions checked_options;
    checked_options.checked = true;
    const as::RunResult ri = as::run(parsed_ints.module, {argument("x", xi), argument("v", vi), argument("i", ii)}, checked_options);
    ASSERT_TRUE(ri.ok()) << (ri.diagnostics.empty() ? "" : ri.diagnostics[0].format());
    for (int row = 0; row < 8; ++row) {
        const std::vector<int32_t> line(xi.begin() + row * 32, xi.begin() + row * 32 + 32);
        EXPECT_EQ(ii[size_t(row)], best_of(line, false)) << row;
        EXPECT_EQ(vi[size_t(row)], line[size_t(best_of(line, false))]) << row;
    }
    bool warned = false;
    for (const Diagnostic& w : runtime::warnings()) warned |= w.code == "WARN_CPU_ONLY" && w.instruction == "TROWARGMIN";
    EXPECT_TRUE(warned);
    runtime::clear_warnings();
}

}  // namespace
