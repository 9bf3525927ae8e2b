// TPARTADD TPARTMAX TPARTMIN TPARTMUL, TPARTARGMAX TPARTARGMIN and TPAIRREDUCESUM against reference loops
// written from the pages: random shapes and validity patterns (either source the full one), every element
// type, special values, dst aliasing a source; both doors; the rules.
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

template <typename T>
constexpr bool kFloat = std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <typename T>
T random_element(std::mt19937& rng)
{
    if constexpr (kFloat<T>) {
        switch (rng() % 12) {
            case 0: return T(std::numeric_limits<float>::quiet_NaN());
            case 1: return T(-0.0f);
            case 2: return T(std::numeric_limits<float>::infinity());
            default: return T(std::ldexp(float(int(rng() % 201) - 100), int(rng() % 8) - 4));
        }
    } else {
        return T(rng());
    }
}

// The reference of one element where both sources hold it, in double for floats (rounded once to T) and
// in wide integers for integers (wrapped to T).
template <typename T>
T reference(engine::PartialOp op, T a, T b)
{
    if constexpr (kFloat<T>) {
        const float x = float(a), y = float(b);
        float r;
        switch (op) {
            case engine::PartialOp::Add: r = x + y; break;
            case engine::PartialOp::Mul: r = x * y; break;
            case engine::PartialOp::Max: r = std::isnan(x) ? y : std::isnan(y) ? x : (x == y ? (std::signbit(x) ? y : x) : std::max(x, y)); break;
            default: r = std::isnan(x) ? y : std::isnan(y) ? x : (x == y ? (std::signbit(x) ? x : y) : std::min(x, y)); break;
        }
        return T(r);
    } else {
        const int64_t x = int64_t(a), y = int64_t(b);
        switch (op) {
            case engine::PartialOp::Add: return T(uint64_t(x + y));
            case engine::PartialOp::Mul: return T(uint64_t(x) * uint64_t(y));
            case engine::PartialOp::Max: return T(std::max(x, y));
            default: return T(std::min(x, y));
        }
    }
}

template <typename T>
bool same_element(T a, T b)
{
    if constexpr (kFloat<T>) {
        if (std::isnan(float(a)) || std::isnan(float(b))) return std::isnan(float(a)) && std::isnan(float(b));
    }
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
void expect_partial(engine::PartialOp op, uint32_t seed)
{
    constexpr int R = 8, C = 64 / int(sizeof(T)) * 2;
    using Tl = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 10; ++trial) {
        const int rows = 1 + int(rng() % R), cols = 1 + int(rng() % C);
        const int small_rows = 1 + int(rng() % rows), small_cols = 1 + int(rng() % cols);
        const bool src0_full = rng() % 2;
        Tl dst(rows, cols), src0(src0_full ? rows : small_rows, src0_full ? cols : small_cols),
            src1(src0_full ? small_rows : rows, src0_full ? small_cols : cols);
        for (int i = 0; i < R * C; ++i) {
            src0.SetValue(uint32_t(i), random_element<T>(rng));
            src1.SetValue(uint32_t(i), random_element<T>(rng));
        }
        const bool in_place = trial % 3 == 0;
        Tl& out = in_place ? (src0_full ? src0 : src1) : dst;
        std::vector<T> a(R * C), b(R * C);
        for (int i = 0; i < R * C; ++i) a[size_t(i)] = src0.GetValue(uint32_t(i)), b[size_t(i)] = src1.GetValue(uint32_t(i));
        switch (op) {
            case engine::PartialOp::Add: TPARTADD(out, src0, src1); break;
            case engine::PartialOp::Max: TPARTMAX(out, src0, src1); break;
            case engine::PartialOp::Min: TPARTMIN(out, src0, src1); break;
            case engine::PartialOp::Mul: TPARTMUL(out, src0, src1); break;
        }
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const int i = r * C + c;
                const bool in0 = r < int(src0.GetValidRow()) && c < int(src0.GetValidCol());
                const bool in1 = r < int(src1.GetValidRow()) && c < int(src1.GetValidCol());
                const T want = in0 && in1 ? reference(op, a[size_t(i)], b[size_t(i)]) : (in0 ? a[size_t(i)] : b[size_t(i)]);
                ASSERT_TRUE(same_element(out.GetValue(uint32_t(i)), want)) << "trial " << trial << " at " << r << "," << c;
            }
    }
}

TEST(Tpartial, EveryOperationEveryType)
{
    uint32_t seed = 1;
    for (auto op : {engine::PartialOp::Add, engine::PartialOp::Max, engine::PartialOp::Min, engine::PartialOp::Mul}) {
        expect_partial<float>(op, seed++);
        expect_partial<half>(op, seed++);
        expect_partial<bfloat16_t>(op, seed++);
        expect_partial<int32_t>(op, seed++);
        expect_partial<uint32_t>(op, seed++);
        expect_partial<int16_t>(op, seed++);
        expect_partial<uint16_t>(op, seed++);
        expect_partial<int8_t>(op, seed++);
        expect_partial<uint8_t>(op, seed++);
    }
}

template <typename V, typename I>
void expect_partial_arg(bool max, uint32_t seed)
{
    constexpr int R = 8, C = 32;
    using Val = Tile<TileType::Vec, V, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Idx = Tile<TileType::Vec, I, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 10; ++trial) {
        const int rows = 1 + int(rng() % R), cols = 1 + int(rng() % C), small_rows = 1 + int(rng() % rows),
                  small_cols = 1 + int(rng() % cols);
        const bool src0_full = rng() % 2;
        const int r0 = src0_full ? rows : small_rows, c0 = src0_full ? cols : small_cols;
        const int r1 = src0_full ? small_rows : rows, c1 = src0_full ? small_cols : cols;
        Val dv(rows, cols), v0(r0, c0), v1(r1, c1);
        Idx di(rows, cols), i0(r0, c0), i1(r1, c1);
        for (int i = 0; i < R * C; ++i) {
            v0.SetValue(uint32_t(i), V(float(int(rng() % 7) - 3)));
            v1.SetValue(uint32_t(i), rng() % 9 == 0 ? V(std::numeric_limits<float>::quiet_NaN()) : V(float(int(rng() % 7) - 3)));
            i0.SetValue(uint32_t(i), I(rng() % 1000));
            i1.SetValue(uint32_t(i), I(1000 + rng() % 1000));
        }
        max ? TPARTARGMAX(dv, v0, v1, di, i0, i1) : TPARTARGMIN(dv, v0, v1, di, i0, i1);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const uint32_t i = uint32_t(r * C + c);
                const bool in0 = r < r0 && c < c0, in1 = r < r1 && c < c1;
                const float a = float(v0.GetValue(i)), b = float(v1.GetValue(i));
                const bool first = in0 && (!in1 || (max ? a > b : a < b));
                ASSERT_EQ(di.GetValue(i), first ? i0.GetValue(i) : i1.GetValue(i)) << r << "," << c;
                ASSERT_TRUE(same_element(dv.GetValue(i), first ? v0.GetValue(i) : v1.GetValue(i))) << r << "," << c;
            }
    }
}

TEST(TpartialArg, ValuesCarryTheirIndices)
{
    expect_partial_arg<float, uint32_t>(true, 40);
    expect_partial_arg<float, int32_t>(false, 41);
    expect_partial_arg<half, uint16_t>(true, 42);
    expect_partial_arg<half, int32_t>(false, 43);
}

template <typename T>
void expect_pairs(uint32_t seed)
{
    constexpr int R = 8, C = 64;
    using Tl = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 10; ++trial) {
        const int rows = 1 + int(rng() % R), cols = 1 + int(rng() % C);
        Tl src(rows, cols), dst(rows, cols);
        std::vector<T> x(R * C);
        for (int i = 0; i < R * C; ++i) src.SetValue(uint32_t(i), x[size_t(i)] = random_element<T>(rng));
        for (int i = 0; i < R * C; ++i) dst.SetValue(uint32_t(i), T(7.0f));
        Tl& out = trial % 2 ? src : dst;
        TPAIRREDUCESUM(out, src);
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) {
                T want = trial % 2 ? x[size_t(r * C + c)] : T(7.0f);
                if (r < rows && c < cols) {
                    const int k = c;
                    if (k < (cols + 1) / 2) {
                        const float hi = 2 * k + 1 < cols ? float(x[size_t(r * C + 2 * k + 1)]) : 0.0f;
                        want = T(float(x[size_t(r * C + 2 * k)]) + hi);
                    } else {
                        want = T(0.0f);
                    }
                }
                ASSERT_TRUE(same_element(out.GetValue(uint32_t(r * C + c)), want)) << "trial " << trial << " " << r << "," << c;
            }
    }
}

TEST(Tpairreducesum, HalfAndFloatOddWidthsInPlace)
{
    expect_pairs<float>(50);
    expect_pairs<half>(51);
}

TEST(Tpairreducesum, IntegersOnTheCpuProfileWrap)
{
    Tile<TileType::Vec, int32_t, 2, 8> src, dst;
    for (int i = 0; i < 16; ++i) src.SetValue(uint32_t(i), i % 2 ? std::numeric_limits<int32_t>::max() : i);
    TPAIRREDUCESUM(dst, src);
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < 8; ++k)
            ASSERT_EQ(dst.GetValue(uint32_t(r * 8 + k)),
                      k < 4 ? int32_t(uint32_t(r * 8 + 2 * k) + uint32_t(std::numeric_limits<int32_t>::max())) : 0);
    engine::FirstFinding finding;
    engine::check_pairreducesum(profile::profile_of(profile::Target::A5), dst.desc(), src.desc(), finding);
    EXPECT_EQ(finding.first.code, "LEGAL_TPAIRREDUCESUM_DTYPE");
}

TEST(TpartialRules, CodesPerTarget)
{
    Tile<TileType::Vec, bfloat16_t, 8, 32> bf;
    Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> a(8, 32), b(4, 40), c(8, 32);
    const auto code = [](profile::Target t, auto check) {
        engine::FirstFinding finding;
        check(profile::profile_of(t), finding);
        return finding.found ? finding.first.code : std::string("none");
    };
    const auto bfd = bf.desc(), ad = a.desc(), bd = b.desc(), cd = c.desc();
    EXPECT_EQ(code(profile::Target::A5, [&](auto& p, auto& s) { engine::check_partial(p, engine::PartialOp::Add, bfd, bfd, bfd, s); }), "none");
    EXPECT_EQ(code(profile::Target::A2A3, [&](auto& p, auto& s) { engine::check_partial(p, engine::PartialOp::Add, bfd, bfd, bfd, s); }),
              "LEGAL_TPARTADD_DTYPE");
    // src1 sticks out of dst in its columns: no supported validity pattern.
    EXPECT_EQ(code(profile::Target::A5, [&](auto& p, auto& s) { engine::check_partial(p, engine::PartialOp::Max, cd, ad, bd, s); }),
              "RUN_VALID_SHAPE");
    EXPECT_EQ(code(profile::Target::A5, [&](auto& p, auto& s) { engine::check_partial(p, engine::PartialOp::Mul, cd, ad, bfd, s); }),
              "LEGAL_TPARTMUL_SAME_DTYPE");
    Tile<TileType::Vec, int16_t, 8, 32> i16;
    const auto i16d = i16.desc();
    EXPECT_EQ(code(profile::Target::A5, [&](auto& p, auto& s) {
                  engine::check_partial_arg(p, engine::PartialOp::Max, cd, ad, ad, i16d, i16d, i16d, s);
              }),
              "LEGAL_TPARTARGMAX_DTYPE");
    EXPECT_EQ(code(profile::Target::A5, [&](auto& p, auto& s) { engine::check_pairreducesum(p, ad, bd, s); }), "RUN_VALID_SHAPE");
    EXPECT_EQ(code(profile::Target::A5, [&](auto& p, auto& s) { engine::check_pairreducesum(p, i16d, i16d, s); }),
              "LEGAL_TPAIRREDUCESUM_DTYPE");
    EXPECT_EQ(code(profile::Target::Cpu, [&](auto& p, auto& s) { engine::check_pairreducesum(p, i16d, i16d, s); }), "none");
}

TEST(TpartialText, PartAddAndPairSumsRun)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %z: !pto.ptr<f32>, %p: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %xv = pto.make_tensor_view %x, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c4, %c8], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %zv = pto.make_tensor_view %z, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %pv = pto.make_tensor_view %p, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %tx = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, valid=4x8>
  %tz = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
  %tp = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%tx : !pto.tile_buf<vec, 8x16xf32>)
  pto.tload ins(%yv : !pto.tensor_view<?x?xf32>) outs(%ty : !pto.tile_buf<vec, 8x16xf32, valid=4x8>)
  pto.tpartadd ins(%tx, %ty : !pto.tile_buf<vec, 8x16xf32>, !pto.tile_buf<vec, 8x16xf32, valid=4x8>) outs(%tz : !pto.tile_buf<vec, 8x16xf32>)
  pto.tpairreducesum ins(%tx : !pto.tile_buf<vec, 8x16xf32>) outs(%tp : !pto.tile_buf<vec, 8x16xf32>)
  pto.tstore ins(%tz : !pto.tile_buf<vec, 8x16xf32>) outs(%zv : !pto.tensor_view<?x?xf32>)
  pto.tstore ins(%tp : !pto.tile_buf<vec, 8x16xf32>) outs(%pv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "part.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A2A3);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::vector<float> x(128), y(128), z(128), p(128);
    for (int i = 0; i < 128; ++i) x[size_t(i)] = float(i % 13) - 6.5f, y[size_t(i)] = float(i % 5) * 0.25f;
    const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("y", y), argument("z", z), argument("p", p)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int row = 0; row < 8; ++row)
        for (int c = 0; c < 16; ++c) {
            const float want = row < 4 && c < 8 ? x[size_t(row * 16 + c)] + y[size_t(row * 16 + c)] : x[size_t(row * 16 + c)];
            EXPECT_EQ(z[size_t(row * 16 + c)], want) << row << "," << c;
            EXPECT_EQ(p[size_t(row * 16 + c)], c < 8 ? x[size_t(row * 16 + 2 * c)] + x[size_t(row * 16 + 2 * c + 1)] : 0.0f);
        }
}

}  // namespace
