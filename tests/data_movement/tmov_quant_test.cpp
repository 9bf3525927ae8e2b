// TMOV's quantizing forms (pre-quant scalar, TMOV_FP's per-column table, each with and without an
// AccToVecMode and an STPhase) and its ZZ exponent repack, through the intrinsics and PTO-AS (with
// TSTORE's quantizing text form), against independent references; and their illegal cases.
#include "acc_quant_reference.hpp"
#include "reference.hpp"

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"

using namespace pto;
using namespace dmtest;
using namespace pto::test;
using engine::TileDesc;

namespace {

constexpr int M = 32, N = 64;

template <typename Acc>
using AccTile = TileAcc<Acc, M, N, DYNAMIC, DYNAMIC>;

// The accumulator with a few special values among random ones.
template <typename Acc>
AccTile<Acc> special_accumulator(std::mt19937& rng, int rows, int cols)
{
    AccTile<Acc> acc(rows, cols);
    fill_accumulator(acc, rng);
    using AccT = AccTile<Acc>;
    if constexpr (std::is_same_v<Acc, float>) {
        acc.SetValue(uint32_t(GetTileOffset<AccT>(0, 1)), std::numeric_limits<float>::infinity());
        acc.SetValue(uint32_t(GetTileOffset<AccT>(2, 2)), std::numeric_limits<float>::quiet_NaN());
        acc.SetValue(uint32_t(GetTileOffset<AccT>(3, 3)), 1e30f);
    } else {
        acc.SetValue(uint32_t(GetTileOffset<AccT>(0, 1)), std::numeric_limits<int32_t>::max());
        acc.SetValue(uint32_t(GetTileOffset<AccT>(1, 0)), std::numeric_limits<int32_t>::min());
    }
    return acc;
}

// dst(r, c) against want(q) for q = acc(row0 + r, col0 + c) * scale(col0 + c), ReLU'd; the rest of dst
// keeps its sentinel.
template <typename DstT, typename AccT, typename Scale, typename Want>
void expect_quantized(const DstT& dst, const AccT& acc, int rows, int cols, int row0, int col0, bool relu, Scale scale,
                      Want want)
{
    using Out = typename DstT::DType;
    for (int r = 0; r < DstT::Rows; ++r)
        for (int c = 0; c < DstT::Cols; ++c) {
            const Out got = dst.GetValue(uint32_t(GetTileOffset<DstT>(r, c)));
            if (r >= rows || c >= cols) {
                const Out sentinel = Out(7);
                ASSERT_EQ(std::memcmp(&got, &sentinel, sizeof(Out)), 0) << r << ", " << c;
                continue;
            }
            float q = float(acc_at(acc, row0 + r, col0 + c)) * scale(col0 + c);
            if (relu && q < 0) q = 0.0f;
            const Out expected = want(q);
            ASSERT_EQ(std::memcmp(&got, &expected, sizeof(Out)), 0) << r << ", " << c << ": q = " << q;
        }
}

template <typename DstT>
void fill_sentinel(DstT& dst)
{
    for (int i = 0; i < DstT::Rows * DstT::Cols; ++i) dst.SetValue(uint32_t(i), typename DstT::DType(7));
}

const auto as_int8 = [](float q) { return quantized_integer<int8_t>(q); };
const auto as_half = [](float q) { return half::from_bits(quantized_half(q)); };
const auto as_bfloat16 = [](float q) { return bfloat16_t::from_bits(quantized_bfloat16(q)); };

TEST(TmovQuant, PreQuantScalarScalesRoundsAndSaturates)
{
    std::mt19937 rng(11);
    for (float scale : {0.013f, -0.25f, 3.5f}) {
        const int rows = 1 + int(rng() % M), cols = 1 + int(rng() % N);
        auto facc = special_accumulator<float>(rng, rows, cols);
        auto iacc = special_accumulator<int32_t>(rng, rows, cols);
        const auto same = [&](int) { return scale; };
        Tile<TileType::Vec, int8_t, M, N, BLayout::RowMajor, DYNAMIC, DYNAMIC> i8(rows, cols);
        fill_sentinel(i8);
        TMOV<decltype(i8), AccTile<float>, ReluPreMode::NormalRelu>(i8, facc, pre_quant(scale, 0x1234));
        expect_quantized(i8, facc, rows, cols, 0, 0, true, same, as_int8);

        Tile<TileType::Vec, half, M, N, BLayout::RowMajor, DYNAMIC, DYNAMIC> f16(rows, cols);
        fill_sentinel(f16);
        TMOV<STPhase::Final, decltype(f16), AccTile<int32_t>>(f16, iacc, pre_quant(scale));
        expect_quantized(f16, iacc, rows, cols, 0, 0, false, same, as_half);

        using MatBf16 = Tile<TileType::Mat, bfloat16_t, M, N, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor>;
        MatBf16 bf16(rows, cols);
        fill_sentinel(bf16);
        TMOV(bf16, facc, pre_quant(scale));
        expect_quantized(bf16, facc, rows, cols, 0, 0, false, same, as_bfloat16);
    }
}

TEST(TmovQuant, PreQuantScalarWithASplitModeTakesThisCoresHalf)
{
    std::mt19937 rng(12);
    auto acc = special_accumulator<float>(rng, M, N);
    Tile<TileType::Vec, int8_t, M, N / 2> left;
    fill_sentinel(left);
    TMOV<decltype(left), AccTile<float>, AccToVecMode::DualModeSplitN>(left, acc, pre_quant(0.5f));
    expect_quantized(left, acc, M, N / 2, 0, 0, false, [](int) { return 0.5f; }, as_int8);
    Tile<TileType::Vec, half, M / 2, N> top;
    fill_sentinel(top);
    TMOV<STPhase::Partial, decltype(top), AccTile<float>, AccToVecMode::DualModeSplitM, ReluPreMode::NormalRelu>(
        top, acc, pre_quant(0.25f));
    expect_quantized(top, acc, M / 2, N, 0, 0, true, [](int) { return 0.25f; }, as_half);
}

TEST(TmovQuant, FpTableScalesEachColumn)
{
    std::mt19937 rng(13);
    using Table = Tile<TileType::Scaling, uint64_t, 1, N>;
    Table fp;
    std::vector<float> scales(N);
    for (int c = 0; c < N; ++c) {
        scales[size_t(c)] = std::ldexp(float(int(rng() % 200) - 100) / 64.0f, int(rng() % 9) - 4);
        fp.SetValue(uint32_t(c), pre_quant(scales[size_t(c)], rng()));
    }
    const auto per_column = [&](int c) { return scales[size_t(c)]; };
    const int rows = 1 + int(rng() % M), cols = 1 + int(rng() % N);
    auto acc = special_accumulator<int32_t>(rng, rows, cols);
    Tile<TileType::Vec, uint8_t, M, N, BLayout::RowMajor, DYNAMIC, DYNAMIC> u8(rows, cols);
    fill_sentinel(u8);
    TMOV_FP<decltype(u8), AccTile<int32_t>, Table, ReluPreMode::NormalRelu>(u8, acc, fp);
    expect_quantized(u8, acc, rows, cols, 0, 0, true, per_column, [](float q) { return quantized_integer<uint8_t>(q); });

    auto facc = special_accumulator<float>(rng, M, N);
    Tile<TileType::Vec, half, M, N / 2> right_half;  // this core is sub-block 0: the left columns
    fill_sentinel(right_half);
    TMOV<STPhase::Final, decltype(right_half), AccTile<float>, Table, AccToVecMode::DualModeSplitN>(right_half, facc, fp);
    expect_quantized(right_half, facc, M, N / 2, 0, 0, false, per_column, as_half);
    Tile<TileType::Vec, int8_t, M, N> i8;
    fill_sentinel(i8);
    TMOV_FP<STPhase::Final, decltype(i8), AccTile<float>, Table>(i8, facc, fp);
    expect_quantized(i8, facc, M, N, 0, 0, false, per_column, as_int8);
}

TEST(TmovQuant, IllegalCasesNameTheirRule)
{
    std::vector<std::byte> a, d, f;
    std::mt19937 rng(14);
    TileDesc acc;
    acc.dtype = DType::F32;
    acc.loc = TileType::Acc;
    acc.blayout = BLayout::ColMajor;
    acc.slayout = SLayout::RowMajor;
    acc.fractal_bytes = TileConfig::fractalCSize;
    acc.rows = acc.valid_rows = 16;
    acc.cols = acc.valid_cols = 16;
    a = random_bytes(16 * 16 * 4, rng);
    acc.data = a.data();
    TileDesc dst = acc;
    dst.loc = TileType::Vec;
    dst.blayout = BLayout::RowMajor;
    dst.slayout = SLayout::NoneBox;
    dst.fractal_bytes = TileConfig::fractalABSize;
    dst.dtype = DType::F16;
    d.resize(16 * 16 * 4);
    dst.data = d.data();
    const engine::AccQuantization scalar{.scalar = pre_quant(0.5f)};
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, acc, scalar, ReluPreMode::NoRelu); }).code, "no error");
    dst.dtype = DType::I32;
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, acc, scalar, ReluPreMode::NoRelu); }).code, "LEGAL_TMOV_QUANT_DTYPE");
    dst.dtype = DType::F16;
    TileDesc vec_src = dst;
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, vec_src, scalar, ReluPreMode::NoRelu); }).code, "LEGAL_TMOV_LOCATION");
    TileDesc table;
    table.dtype = DType::U64;
    table.loc = TileType::Scaling;
    table.rows = table.valid_rows = 1;
    table.cols = table.valid_cols = 16;
    f.resize(16 * 8);
    table.data = f.data();
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, acc, {.per_column = &table}, ReluPreMode::NoRelu); }).code, "no error");
    table.valid_cols = 8;
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, acc, {.per_column = &table}, ReluPreMode::NoRelu); }).code, "RUN_VALID_SHAPE");
    table.valid_cols = 16;
    table.loc = TileType::Vec;  // the cpu profile reads a u64 table in any memory; a5 only from Scaling
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, acc, {.per_column = &table}, ReluPreMode::NoRelu); }).code, "no error");
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, acc, {.per_column = &table}, ReluPreMode::NoRelu); }).code, "LEGAL_FP_TABLE");
}

// --- ZZ exponent repack ---------------------------------------------------------------------------

// Where exponent (row, group) lies in ZZ order, written out from the layout's description: 32-byte boxes
// of 16 rows x 2 groups, row-major inside, boxes along the rows first.
size_t zz_reference(int row, int group, int groups)
{
    const int box_row = row / 16, box_col = group / 2, boxes_per_row = groups / 2;
    return size_t(box_row * boxes_per_row + box_col) * 32 + size_t(row % 16) * 2 + size_t(group % 2);
}

TEST(TmovZz, NdExponentsGoInBoxesOf16RowsBy2Groups)
{
    std::mt19937 rng(15);
    using Exp = Tile<TileType::Vec, uint8_t, 64, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Zz = Tile<TileType::Mat, uint8_t, 64, 32, BLayout::ColMajor, 64, 32, SLayout::RowMajor>;
    for (auto [rows, groups] : {std::pair{64, 32}, std::pair{48, 6}, std::pair{16, 2}}) {
        Exp exp(rows, groups);
        for (int i = 0; i < 64 * 32; ++i) exp.SetValue(uint32_t(i), uint8_t(rng()));
        Zz zz;
        Tile<TileType::Vec, uint8_t, 1, 128> tmp;
        std::memset(zz.data(), 0xEE, 64 * 32);
        TMOV(zz, exp, tmp);
        const auto* out = reinterpret_cast<const uint8_t*>(zz.data());
        for (int r = 0; r < rows; ++r)
            for (int g = 0; g < groups; ++g)
                ASSERT_EQ(out[zz_reference(r, g, groups)], exp.GetValue(uint32_t(r * 32 + g))) << r << "," << g;
        for (int i = rows * groups; i < 64 * 32; ++i) ASSERT_EQ(out[i], 0xEE) << i;
    }
}

TEST(TmovZz, DnExponentsAreTransposedFirstAndMatchTquantsOwnZzForm)
{
    // DN exponents of a 128 x 64 source: 4 row groups x 64 columns; ZZ of their transpose.
    std::mt19937 rng(16);
    Tile<TileType::Vec, float, 128, 64> src;
    for (int i = 0; i < 128 * 64; ++i) src.SetValue(uint32_t(i), std::ldexp(float(int(rng() % 200) - 100), int(rng() % 40) - 20));
    Tile<TileType::Vec, int8_t, 128, 64> data;
    Tile<TileType::Vec, uint8_t, 4, 64> dn;
    Tile<TileType::Vec, float, 4, 64> max, scaling;
    TQUANT<0, MxQuantAlg::OcpMxFp8E4M3>(data, src, &dn, &max, &scaling);
    Tile<TileType::Vec, uint8_t, 1, 256> zz, tmp;
    TMOV<0>(zz, dn, tmp);
    for (int m = 0; m < 4; ++m)
        for (int n = 0; n < 64; ++n) {
            // The page's DN -> ZZ: E_ZZ[cb, p, q, d] = E_DN[2p + d][16cb + q], d innermost.
            const int cb = n / 16, q = n % 16, p = m / 2, d = m % 2;
            ASSERT_EQ(zz.GetValue(uint32_t(((cb * 2 + p) * 16 + q) * 2 + d)), dn.GetValue(uint32_t(m * 64 + n))) << m << "," << n;
        }
    // ND: the repack of TQUANT's exponents is what TQUANT's ZZ form writes itself.
    Tile<TileType::Vec, uint8_t, 1, 512> nd, nd_zz, repacked;
    Tile<TileType::Vec, float, 1, 256> nd_max, nd_scaling;
    TQUANT<QuantType::MXFP8, VecStoreMode::NZ>(data, src, &nd, &nd_max, &nd_scaling, &nd_zz);
    Tile<TileType::Vec, uint8_t, 128, 32, BLayout::RowMajor, 128, 2> nd_grid;  // the same bytes as 128 x 2 groups
    TASSIGN(nd_grid, 0x10000);
    for (int r = 0; r < 128; ++r)
        for (int g = 0; g < 2; ++g) nd_grid.SetValue(uint32_t(r * 32 + g), nd.GetValue(uint32_t(r * 2 + g)));
    TMOV(repacked, nd_grid, tmp);
    EXPECT_EQ(0, std::memcmp(repacked.data(), nd_zz.data(), 256));
}

TEST(TmovZz, IllegalCasesNameTheirRule)
{
    std::vector<std::byte> s(64 * 32), d(64 * 32), t(64);
    TileDesc src;
    src.dtype = DType::U8;
    src.rows = 64;
    src.cols = 32;
    src.valid_rows = 48;
    src.valid_cols = 6;
    src.data = s.data();
    TileDesc dst = src, tmp = src;
    dst.data = d.data();
    tmp.data = t.data();
    tmp.rows = tmp.valid_rows = 1;
    EXPECT_EQ(diagnostic_of([&] { engine::tmov_zz(dst, src, tmp, 1); }).code, "no error");
    src.valid_cols = 5;
    EXPECT_EQ(diagnostic_of([&] { engine::tmov_zz(dst, src, tmp, 1); }).code, "RUN_VALID_SHAPE");
    EXPECT_EQ(diagnostic_of([&] { engine::tmov_zz(dst, src, tmp, 0); }).code, "RUN_VALID_SHAPE");  // 5 columns, not 16s
    src.valid_cols = 6;
    src.dtype = dst.dtype = DType::F16;
    EXPECT_EQ(diagnostic_of([&] { engine::tmov_zz(dst, src, tmp, 1); }).code, "LEGAL_TMOV_ZZ");
    src.dtype = dst.dtype = DType::U8;
    ScopedTarget a2a3(profile::Target::A2A3);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov_zz(dst, src, tmp, 1); }).code, "LEGAL_TMOV_ZZ");
}

// --- PTO-AS ----------------------------------------------------------------------------------------

TEST(TmovQuantText, ScalarAndTableFormsTheZzRepackAndTheQuantizingStoresRun)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f32>, %fp: !pto.ptr<ui64>, %e: !pto.ptr<ui8>, %y: !pto.ptr<i8>, %z: !pto.ptr<f16>, %w: !pto.ptr<ui8>, %u: !pto.ptr<i8>, %t: !pto.ptr<ui8>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %scale = arith.constant 0.5 : f32
  %xv = pto.make_tensor_view %x, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %fv = pto.make_tensor_view %fp, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui64>
  %ev = pto.make_tensor_view %e, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui8>
  %yv = pto.make_tensor_view %y, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi8>
  %zv = pto.make_tensor_view %z, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf16>
  %wv = pto.make_tensor_view %w, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui8>
  %uv = pto.make_tensor_view %u, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi8>
  %tv = pto.make_tensor_view %t, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui8>
  %acc = pto.alloc_tile : !pto.tile_buf<acc, 16x32xf32>
  %fmat = pto.alloc_tile : !pto.tile_buf<mat, 1x32xui64>
  %tab = pto.alloc_tile : !pto.tile_buf<scaling, 1x32xui64>
  %exp = pto.alloc_tile : !pto.tile_buf<vec, 16x32xui8>
  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 1x32xui8>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%acc : !pto.tile_buf<acc, 16x32xf32>)
  pto.tload ins(%fv : !pto.tensor_view<?x?xui64>) outs(%fmat : !pto.tile_buf<mat, 1x32xui64>)
  pto.tmov ins(%fmat : !pto.tile_buf<mat, 1x32xui64>) outs(%tab : !pto.tile_buf<scaling, 1x32xui64>)
  pto.tload ins(%ev : !pto.tensor_view<?x?xui8>) outs(%exp : !pto.tile_buf<vec, 16x32xui8>)
  %q = pto.tmov %acc, %scale {relu = #pto<relu_mode NormalRelu>} : (!pto.tile_buf<acc, 16x32xf32>, f32) -> !pto.tile_buf<vec, 16x32xi8>
  %h = pto.tmov.fp %acc, %tab : (!pto.tile_buf<acc, 16x32xf32>, !pto.tile_buf<scaling, 1x32xui64>) -> !pto.tile_buf<vec, 16x32xf16>
  %zz = pto.tmov %exp, %tmp : (!pto.tile_buf<vec, 16x32xui8>, !pto.tile_buf<vec, 1x32xui8>) -> !pto.tile_buf<vec, 16x32xui8>
  pto.tstore ins(%q : !pto.tile_buf<vec, 16x32xi8>) outs(%yv : !pto.tensor_view<?x?xi8>)
  pto.tstore ins(%h : !pto.tile_buf<vec, 16x32xf16>) outs(%zv : !pto.tensor_view<?x?xf16>)
  pto.tstore ins(%zz : !pto.tile_buf<vec, 16x32xui8>) outs(%wv : !pto.tensor_view<?x?xui8>)
  pto.tstore ins(%acc, %scale : !pto.tile_buf<acc, 16x32xf32>, f32) outs(%uv : !pto.tensor_view<?x?xi8>)
  pto.tstore.fp ins(%acc, %tab : !pto.tile_buf<acc, 16x32xf32>, !pto.tile_buf<scaling, 1x32xui64>) outs(%tv : !pto.tensor_view<?x?xui8>) {relu = #pto<relu_mode NormalRelu>}
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "tmov.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    // Until TMATMUL fills accumulators in text, a TLOAD into one is the cpu profile's (WARN_CPU_ONLY).
    const auto found = as::verify(parsed.module, profile::Target::Cpu);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::mt19937 rng(17);
    std::vector<float> x(16 * 32), scales(32);
    std::vector<uint64_t> fp(32);
    std::vector<uint8_t> e(16 * 32), w(16 * 32), t(16 * 32);
    std::vector<int8_t> y(16 * 32), u(16 * 32);
    std::vector<uint16_t> z(16 * 32);
    for (auto& v : x) v = std::uniform_real_distribution<float>(-300.0f, 300.0f)(rng);
    for (int c = 0; c < 32; ++c) {
        scales[size_t(c)] = float(int(rng() % 64) - 32) / 16.0f;
        fp[size_t(c)] = pre_quant(scales[size_t(c)]);
    }
    for (auto& v : e) v = uint8_t(rng());
    const as::RunResult r = as::run(parsed.module,
                                    {argument("x", x), argument("fp", fp), argument("e", e), argument("y", y),
                                     argument("z", z), argument("w", w), argument("u", u), argument("t", t)},
                                    {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    for (int i = 0; i < 16 * 32; ++i) {
        ASSERT_EQ(y[size_t(i)], quantized_integer<int8_t>(std::max(x[size_t(i)] * 0.5f, 0.0f))) << i;
        ASSERT_EQ(z[size_t(i)], quantized_half(x[size_t(i)] * scales[size_t(i % 32)])) << i;
        ASSERT_EQ(w[zz_reference(i / 32, i % 32, 32)], e[size_t(i)]) << i;
        ASSERT_EQ(u[size_t(i)], quantized_integer<int8_t>(x[size_t(i)] * 0.5f)) << i;
        ASSERT_EQ(t[size_t(i)], quantized_integer<uint8_t>(std::max(x[size_t(i)] * scales[size_t(i % 32)], 0.0f))) << i;
    }
}

}  // namespace
