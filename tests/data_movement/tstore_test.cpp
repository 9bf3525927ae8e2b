// TSTORE against the reference model: every element type and layout pair, padded 5-D tensors, partial
// valid regions (nothing outside them written), atomic accumulation, accumulator conversion; and each
// illegal case.
#include "acc_quant_reference.hpp"
#include "reference.hpp"

#include <acl/acl.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

using namespace pto;
using namespace dmtest;
using engine::GlobalDesc;
using engine::TileDesc;

namespace {

struct Pairing {
    Layout global;
    TileType loc;
    BLayout b;
    SLayout s;
};

const Pairing kPairings[] = {
    {Layout::ND, TileType::Vec, BLayout::RowMajor, SLayout::NoneBox},
    {Layout::DN, TileType::Vec, BLayout::ColMajor, SLayout::NoneBox},
    {Layout::NZ, TileType::Vec, BLayout::ColMajor, SLayout::RowMajor},
    {Layout::ND, TileType::Mat, BLayout::RowMajor, SLayout::NoneBox},
    {Layout::NZ, TileType::Mat, BLayout::ColMajor, SLayout::RowMajor},
    {Layout::ND, TileType::Mat, BLayout::ColMajor, SLayout::RowMajor},  // Nz -> ND
    {Layout::DN, TileType::Mat, BLayout::RowMajor, SLayout::ColMajor},  // Zn -> DN
};

bool two_d_only(const Pairing& p)
{
    return p.s != SLayout::NoneBox && p.global != Layout::NZ;
}

// The types TSTORE takes from Vec / Mat tiles on the cpu profile.
std::vector<DType> storable_types()
{
    std::vector<DType> out;
    for (DType t : movable_types()) {
        if (rules::tstore_dtype_ok(profile::kCpu, t)) out.push_back(t);
    }
    return out;
}

void check_random_store(std::mt19937& rng, DType t, const Pairing& p)
{
    TileDesc tile;
    tile.dtype = t;
    tile.loc = p.loc;
    tile.blayout = p.b;
    tile.slayout = p.s;
    int br, bc;
    box_shape(p.s, 512, tile.element_bits(), br, bc);
    const int line = line_elements(t);
    if (p.s != SLayout::NoneBox) {
        tile.rows = br * pick(rng, 1, 2);
        tile.cols = bc * pick(rng, 1, 2);
    } else if (p.b == BLayout::RowMajor) {
        tile.rows = pick(rng, 1, 10);
        tile.cols = line * pick(rng, 1, 3);
    } else {
        tile.rows = line * pick(rng, 1, 3);
        tile.cols = pick(rng, 1, 10);
    }
    tile.valid_rows = pick(rng, 1, tile.rows);
    tile.valid_cols = pick(rng, 1, tile.cols);
    std::vector<std::byte> storage = random_bytes(storage_bytes(int64_t(tile.rows) * tile.cols, t), rng);
    tile.data = storage.data();

    Global g;
    g.layout = p.global;
    const bool flat = two_d_only(p);
    for (int d = 0; d < 3; ++d)
        g.shape[d] = flat ? 1 : pick(rng, 1, 2);
    const int64_t outer = g.shape[0] * g.shape[1] * g.shape[2];
    if (p.global == Layout::ND) {
        g.shape[3] = (tile.valid_rows + outer - 1) / outer + pick(rng, 0, 1);
        g.shape[4] = tile.valid_cols + pick(rng, 0, 2);
    } else if (p.global == Layout::DN) {
        g.shape[3] = tile.valid_rows + pick(rng, 0, 2);
        g.shape[4] = (tile.valid_cols + outer - 1) / outer + pick(rng, 0, 1);
    } else {
        g.shape[3] = pick(rng, 1, 4);
        g.shape[2] = (tile.valid_rows + g.shape[3] - 1) / g.shape[3];
        const int64_t blocks = g.shape[0] * g.shape[1];
        g.shape[4] = (tile.valid_cols + blocks - 1) / blocks + pick(rng, 0, 1);
    }
    pad_strides(g, rng, true);
    std::vector<std::byte> gm = random_bytes(storage_bytes(g.span(), t), rng);

    // The reference: the valid region written through the offset tables, every other byte kept.
    std::vector<std::byte> expected = gm;
    const auto tile_at = tile_offsets(tile);
    const auto global_at = g.offsets();
    const int bits = bits_of(t);
    for (int r = 0; r < tile.valid_rows; ++r)
        for (int c = 0; c < tile.valid_cols; ++c)
            set_element(expected.data(), global_at[size_t(r) * g.cols() + c], bits,
                        element_at(storage.data(), tile_at[size_t(r) * tile.cols + c], bits));

    engine::tstore(g.desc(gm.data(), t), tile);
    ASSERT_EQ(std::memcmp(gm.data(), expected.data(), gm.size()), 0)
        << dtype_name(t) << " " << tile.valid_rows << "x" << tile.valid_cols << " of " << tile.rows << "x" << tile.cols
        << ", layout " << int(p.global) << ", tile arrangement " << int(p.b) << "/" << int(p.s);
}

}  // namespace

TEST(Tstore, EveryTypeEveryLayoutPairAgainstTheReference)
{
    std::mt19937 rng(99);
    for (DType t : storable_types()) {
        for (const Pairing& p : kPairings) {
            if (!rules::gm_layout_ok(p.loc, p.global, p.b, p.s, 16, 16, t)) continue;  // 64-bit: ND/DN only
            for (int i = 0; i < 12; ++i)
                check_random_store(rng, t, p);
        }
    }
}

TEST(Tstore, IntrinsicWithDynamicShapesAndPartialRegion)
{
    constexpr int R = 8, C = 32;
    using TileT = Tile<TileType::Vec, int16_t, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using G = GlobalTensor<int16_t, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;
    std::vector<int16_t> gm(20 * 50, -7);
    G g(gm.data(), {20, 40}, {50});
    TileT t(5, 27);
    for (int i = 0; i < R * C; ++i)
        t.SetValue(i, static_cast<int16_t>(3 * i + 1));
    TSTORE(g, t);
    for (int r = 0; r < 20; ++r) {
        for (int c = 0; c < 50; ++c) {
            const int16_t want = (r < 5 && c < 27) ? static_cast<int16_t>(3 * (r * C + c) + 1) : int16_t{-7};
            ASSERT_EQ(gm[r * 50 + c], want) << r << ", " << c;
        }
    }
}

TEST(Tstore, AtomicAddFloatAndInt32)
{
    constexpr int R = 4, C = 16;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> value(-100.0f, 100.0f);

    using TileF = Tile<TileType::Vec, float, R, C>;
    using GF = GlobalTensor<float, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    std::vector<float> gf(R * C), before(R * C);
    for (auto& v : gf)
        v = value(rng);
    before = gf;
    TileF tf;
    for (int i = 0; i < R * C; ++i)
        tf.SetValue(i, value(rng));
    GF g(gf.data());
    TSTORE<TileF, GF, AtomicType::AtomicAdd>(g, tf);
    for (int i = 0; i < R * C; ++i)
        ASSERT_EQ(gf[i], static_cast<float>(double(before[i]) + double(tf.GetValue(i)))) << i;
    TSTORE(g, tf, AtomicType::AtomicAdd);  // the run-time argument form
    for (int i = 0; i < R * C; ++i) {
        const float once = static_cast<float>(double(before[i]) + double(tf.GetValue(i)));
        ASSERT_EQ(gf[i], static_cast<float>(double(once) + double(tf.GetValue(i)))) << i;
    }

    using TileI = Tile<TileType::Vec, int32_t, R, C>;
    using GI = GlobalTensor<int32_t, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    std::vector<int32_t> gi(R * C);
    TileI ti;
    for (int i = 0; i < R * C; ++i) {
        gi[i] = std::numeric_limits<int32_t>::max() - i;
        ti.SetValue(i, 2 * i + 1);
    }
    GI h(gi.data());
    TSTORE<TileI, GI, AtomicType::AtomicAdd>(h, ti);
    for (int i = 0; i < R * C; ++i) {
        const int64_t sum = int64_t(std::numeric_limits<int32_t>::max()) - i + 2 * i + 1;
        ASSERT_EQ(gi[i], static_cast<int32_t>(sum - (int64_t(1) << 32))) << i;  // wraps around
    }
}

// --- accumulators ----------------------------------------------------------------------------------

TEST(TstoreAcc, FloatAccumulatorRoundsToHalfAndBfloat16)
{
    constexpr int M = 32, N = 48;
    using AccT = TileAcc<float, M, N, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(8);
    AccT acc(30, 40);
    fill_accumulator(acc, rng);

    std::vector<half> out(M * N, half(7.0f));
    GlobalTensor<half, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> g(out.data());
    TSTORE(g, acc);
    for (int r = 0; r < M; ++r) {
        for (int c = 0; c < N; ++c) {
            const half want = (r < 30 && c < 40) ? half(acc_at(acc, r, c)) : half(7.0f);
            ASSERT_EQ(out[r * N + c].bits, want.bits) << r << ", " << c;
        }
    }

    std::vector<bfloat16_t> bout(M * N);
    GlobalTensor<bfloat16_t, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> gb(bout.data());
    TSTORE(gb, acc);
    EXPECT_EQ(bout[3 * N + 5].bits, bfloat16_t(acc_at(acc, 3, 5)).bits);
}

TEST(TstoreAcc, ReluClampsNegativesFirstWhateverThePhase)
{
    constexpr int M = 16, N = 32;
    std::mt19937 rng(9);
    TileAcc<float, M, N, DYNAMIC, DYNAMIC> acc(13, 27);
    TileAcc<int32_t, M, N, DYNAMIC, DYNAMIC> iacc(13, 27);
    fill_accumulator(acc, rng);
    fill_accumulator(iacc, rng);
    std::vector<half> out(M * N, half(7.0f));
    std::vector<int32_t> iout(M * N, 7);
    GlobalTensor<half, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> g(out.data());
    GlobalTensor<int32_t, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> gi(iout.data());
    TSTORE<decltype(acc), decltype(g), AtomicType::AtomicNone, ReluPreMode::NormalRelu>(g, acc);
    TSTORE<STPhase::Final, decltype(iacc), decltype(gi), AtomicType::AtomicAdd, ReluPreMode::NormalRelu>(gi, iacc);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            const bool inside = r < 13 && c < 27;
            const half want = inside ? half(std::max(acc_at(acc, r, c), 0.0f)) : half(7.0f);
            ASSERT_EQ(out[r * N + c].bits, want.bits) << r << ", " << c;
            ASSERT_EQ(iout[r * N + c], inside ? 7 + std::max(acc_at(iacc, r, c), 0) : 7) << r << ", " << c;
        }
    // The phase names the matmul handshake only: the plain forms store the same bytes.
    std::vector<half> phased(M * N, half(7.0f)), plain(M * N, half(7.0f));
    GlobalTensor<half, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> gp(phased.data()), gq(plain.data());
    TSTORE<STPhase::Partial>(gp, acc);
    TSTORE(gq, acc);
    EXPECT_EQ(0, std::memcmp(phased.data(), plain.data(), M * N * sizeof(half)));
}

TEST(TstoreAcc, IntoAnNzTensorAndAtomically)
{
    constexpr int M = 16, N = 32;
    using AccT = TileAcc<int32_t, M, N>;
    std::mt19937 rng(12);
    AccT acc;
    fill_accumulator(acc, rng);
    // NZ: 16-row, 8-column blocks (32 bytes of int32), column blocks outermost.
    using G = GlobalTensor<int32_t, Shape<1, N / 8, 1, 16, 8>, Stride<M * N, 16 * 8, 16 * 8, 8, 1>, Layout::NZ>;
    std::vector<int32_t> out(M * N, 5);
    G g(out.data());
    TSTORE<AccT, G, AtomicType::AtomicAdd>(g, acc);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c)
            ASSERT_EQ(out[(c / 8) * 128 + r * 8 + c % 8], acc_at(acc, r, c) + 5) << r << ", " << c;
}

// --- illegal cases ---------------------------------------------------------------------------------

// --- quantizing store (pre-quant scalar) ---------------------------------------------------------------

namespace {

// Stores a 16x32 accumulator of `Acc` (valid 13x27, a few special values) with scale and ReLU into
// `Out`, and checks every element against `want(q)` and the untouched rest.
template <typename Acc, typename Out, ReluPreMode Relu, typename Want>
void check_quantized_store(float scale, Want want)
{
    constexpr int M = 16, N = 32;
    using AccT = TileAcc<Acc, M, N, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(uint32_t(scale * 1000) + 3);
    AccT acc(13, 27);
    fill_accumulator(acc, rng);
    if constexpr (std::is_same_v<Acc, float>) {
        acc.SetValue(uint32_t(GetTileOffset<AccT>(0, 1)), std::numeric_limits<float>::infinity());
        acc.SetValue(uint32_t(GetTileOffset<AccT>(1, 0)), -std::numeric_limits<float>::infinity());
        acc.SetValue(uint32_t(GetTileOffset<AccT>(2, 2)), std::numeric_limits<float>::quiet_NaN());
        acc.SetValue(uint32_t(GetTileOffset<AccT>(3, 3)), 1e30f);
        acc.SetValue(uint32_t(GetTileOffset<AccT>(4, 4)), 2.5f / scale);  // a tie
    } else {
        acc.SetValue(uint32_t(GetTileOffset<AccT>(0, 1)), std::numeric_limits<int32_t>::max());
        acc.SetValue(uint32_t(GetTileOffset<AccT>(1, 0)), std::numeric_limits<int32_t>::min());
    }
    const Out sentinel = Out(1);
    std::vector<Out> out(M * N, sentinel);
    GlobalTensor<Out, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> g(out.data());
    TSTORE<AccT, decltype(g), AtomicType::AtomicNone, Relu>(g, acc, pre_quant(scale, 0x4000));
    for (int r = 0; r < M; ++r) {
        for (int c = 0; c < N; ++c) {
            const Out got = out[size_t(r) * N + c];
            if (r >= 13 || c >= 27) {
                ASSERT_EQ(std::memcmp(&got, &sentinel, sizeof(Out)), 0) << r << ", " << c;
                continue;
            }
            float q = float(acc_at(acc, r, c)) * scale;
            if (Relu == ReluPreMode::NormalRelu && q < 0) q = 0.0f;
            const auto expected = want(q);
            ASSERT_EQ(std::memcmp(&got, &expected, sizeof(Out)), 0)
                << r << ", " << c << ": q = " << q << ", scale " << scale;
        }
    }
}

}  // namespace

TEST(TstoreQuant, AccumulatorsScaledRoundedAndSaturated)
{
    for (float scale : {0.013f, -0.25f, 1.0f, 3.5f}) {
        check_quantized_store<float, int8_t, ReluPreMode::NoRelu>(scale, quantized_integer<int8_t>);
        check_quantized_store<float, uint8_t, ReluPreMode::NormalRelu>(scale, quantized_integer<uint8_t>);
        check_quantized_store<int32_t, int8_t, ReluPreMode::NormalRelu>(scale, quantized_integer<int8_t>);
        check_quantized_store<int32_t, uint8_t, ReluPreMode::NoRelu>(scale, quantized_integer<uint8_t>);
        check_quantized_store<int32_t, half, ReluPreMode::NoRelu>(
            scale, [](float q) { return half::from_bits(quantized_half(q)); });
        check_quantized_store<float, half, ReluPreMode::NormalRelu>(
            scale, [](float q) { return half::from_bits(quantized_half(q)); });
        check_quantized_store<float, bfloat16_t, ReluPreMode::NoRelu>(
            scale, [](float q) { return bfloat16_t::from_bits(quantized_bfloat16(q)); });
        check_quantized_store<float, float, ReluPreMode::NormalRelu>(scale, [](float q) { return q; });
    }
    // e4m3 has no infinity: a finite q saturates to 448, an infinite one becomes its NaN.
    check_quantized_store<float, float8_e4m3_t, ReluPreMode::NoRelu>(2.0f, [](float q) {
        if (std::isnan(q) || std::isinf(q)) return float8_e4m3_t::from_bits(q < 0 ? 0xFF : 0x7F);
        return float8_e4m3_t(std::clamp(q, -448.0f, 448.0f));
    });
}

TEST(TstoreQuant, FpTableScalesEachColumn)
{
    constexpr int M = 16, N = 32;
    std::mt19937 rng(10);
    using AccT = TileAcc<int32_t, M, N, DYNAMIC, DYNAMIC>;
    AccT acc(11, 29);
    fill_accumulator(acc, rng);
    using Table = Tile<TileType::Scaling, uint64_t, 1, N>;
    Table fp;
    std::vector<float> scales(N);
    for (int c = 0; c < N; ++c) {
        scales[size_t(c)] = std::ldexp(float(int(rng() % 200) - 100) / 64.0f, int(rng() % 7) - 8);
        fp.SetValue(uint32_t(c), pre_quant(scales[size_t(c)], rng()));
    }
    std::vector<int8_t> out(M * N, 1);
    GlobalTensor<int8_t, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> g(out.data());
    TSTORE_FP<AccT, decltype(g), Table, AtomicType::AtomicNone, ReluPreMode::NormalRelu>(g, acc, fp);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            if (r >= 11 || c >= 29) {
                ASSERT_EQ(out[size_t(r) * N + c], 1) << r << ", " << c;
                continue;
            }
            const float q = std::max(float(acc_at(acc, r, c)) * scales[size_t(c)], 0.0f);
            ASSERT_EQ(out[size_t(r) * N + c], quantized_integer<int8_t>(q)) << r << ", " << c;
        }
    // STPhase and the scalar form: one scale for every column.
    std::vector<int8_t> scalar_out(M * N, 1);
    GlobalTensor<int8_t, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> gs(scalar_out.data());
    TSTORE<STPhase::Final, AccT, decltype(gs)>(gs, acc, pre_quant(0.003f));
    EXPECT_EQ(scalar_out[0], quantized_integer<int8_t>(float(acc_at(acc, 0, 0)) * 0.003f));
}

TEST(TstoreQuant, RulesPerTarget)
{
    std::vector<std::byte> tile_bytes, gm;
    const TileDesc acc = acc_tile(tile_bytes, DType::F32, 16, 16);
    const GlobalDesc f16 = flat_global(gm, DType::F16, 16, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(f16, acc, {.scalar = pre_quant(0.5f)}, ReluPreMode::NoRelu); }).code, "no error");
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        EXPECT_EQ(diagnostic_of([&] { engine::tstore(f16, acc, {.scalar = pre_quant(0.5f)}, ReluPreMode::NoRelu); }).code,
                  "LEGAL_TSTORE_QUANT_DTYPE");
    }
    std::vector<std::byte> gm32;
    const GlobalDesc i32 = flat_global(gm32, DType::I32, 16, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(i32, acc, {.scalar = pre_quant(0.5f)}, ReluPreMode::NoRelu); }).code,
              "LEGAL_TSTORE_QUANT_DTYPE");
    std::vector<std::byte> vec_bytes;
    const TileDesc vec = vec_tile(vec_bytes, DType::F32, 16, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(f16, vec, AtomicType::AtomicNone, ReluPreMode::NormalRelu); }).code,
              "LEGAL_TSTORE_RELU");
    std::vector<std::byte> table_bytes;
    TileDesc table = vec_tile(table_bytes, DType::F32, 1, 8);  // cpu: a u64 table in any memory
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(f16, acc, {.per_column = &table}, ReluPreMode::NoRelu); }).code,
              "LEGAL_FP_TABLE");
    table.dtype = DType::U64;
    table.loc = TileType::Scaling;
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(f16, acc, {.per_column = &table}, ReluPreMode::NoRelu); }).code,
              "RUN_VALID_SHAPE");  // 8 words for 16 columns
    // Quantizing a Vec tile: the cpu profile only (tests/data_movement/cpu_compat_store_test.cpp).
    for (auto t : {profile::Target::A2A3, profile::Target::A5}) {
        ScopedTarget target(t);
        EXPECT_EQ(diagnostic_of([&] { engine::tstore(f16, vec, {.scalar = pre_quant(0.5f)}, ReluPreMode::NoRelu); }).code,
                  "LEGAL_TSTORE_LOCATION");
    }
}

TEST(TstoreIllegal, LocationsPerProfile)
{
    std::vector<std::byte> ts, gs;
    TileDesc tile = vec_tile(ts, DType::F32, 4, 16);
    const GlobalDesc g = flat_global(gs, DType::F32, 4, 16);
    tile.loc = TileType::Left;
    auto d = diagnostic_of([&] { engine::tstore(g, tile); });
    EXPECT_EQ(d.code, "LEGAL_TSTORE_LOCATION");
    EXPECT_TRUE(mentions(d, "Left")) << d.message;
    tile.loc = TileType::Mat;
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(g, tile); }).code, "no error");
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(g, tile); }).code, "LEGAL_TSTORE_LOCATION");
    static_assert(rules::tstore_location_ok(profile::kA2A3, TileType::Mat));
    static_assert(!rules::tstore_location_ok(profile::kA5, TileType::Mat));
}

TEST(TstoreIllegal, TypesAndAtomics)
{
    std::vector<std::byte> ts, gs;
    TileDesc fp8 = vec_tile(ts, DType::F8E5M2, 2, 32);
    const GlobalDesc g8 = flat_global(gs, DType::F8E5M2, 2, 32);
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(g8, fp8); }).code, "no error");
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        EXPECT_EQ(diagnostic_of([&] { engine::tstore(g8, fp8); }).code, "LEGAL_TSTORE_DTYPE");
    }
    static_assert(!rules::tstore_dtype_ok(profile::kA5, DType::F8E8M0));

    std::vector<std::byte> hs, hg;
    TileDesc h = vec_tile(hs, DType::F16, 2, 16);
    const GlobalDesc gh = flat_global(hg, DType::F16, 2, 16);
    auto d = diagnostic_of([&] { engine::tstore(g8, fp8, AtomicType::AtomicAdd); });  // cpu: no fp8 sums
    EXPECT_EQ(d.code, "LEGAL_TSTORE_ATOMIC");
    EXPECT_TRUE(mentions(d, "e5m2")) << d.message;
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(gh, h, AtomicType::AtomicAdd); }).code, "no error");  // cpu only
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        EXPECT_EQ(diagnostic_of([&] { engine::tstore(gh, h, AtomicType::AtomicAdd); }).code, "LEGAL_TSTORE_ATOMIC");
    }

    std::vector<std::byte> fs, fg;
    TileDesc f = vec_tile(fs, DType::F32, 2, 16);
    const GlobalDesc gf = flat_global(fg, DType::F32, 2, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(gf, f, AtomicType::AtomicAdd); }).code, "no error");
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(gf, f, AtomicType::AtomicAdd); }).code, "LEGAL_TSTORE_ATOMIC");
    static_assert(rules::tstore_atomic_ok(profile::kA5, AtomicType::AtomicAdd, DType::I32));
}

TEST(TstoreIllegal, AccumulatorOutputsAndShapes)
{
    std::vector<std::byte> ts, gs;
    const TileDesc acc = acc_tile(ts, DType::F32, 16, 16);
    const GlobalDesc g8 = flat_global(gs, DType::I8, 16, 16);
    auto d = diagnostic_of([&] { engine::tstore(g8, acc); });
    EXPECT_EQ(d.code, "LEGAL_ACC_OUTPUT_DTYPE");
    EXPECT_TRUE(mentions(d, "f32 -> i8")) << d.message;

    std::vector<std::byte> dn;
    GlobalDesc gdn = flat_global(dn, DType::F32, 16, 16);
    gdn.layout = Layout::DN;  // an accumulator into a DN tensor: the cpu profile only
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(gdn, acc); }).code, "no error");
    {
        ScopedTarget a5(profile::Target::A5);
        EXPECT_EQ(diagnostic_of([&] { engine::tstore(gdn, acc); }).code, "LEGAL_GM_LAYOUT");
    }

    static_assert(rules::acc_store_shape_ok(Layout::ND, 8192, 4095));
    static_assert(!rules::acc_store_shape_ok(Layout::ND, 8193, 16));
    static_assert(!rules::acc_store_shape_ok(Layout::NZ, 16, 24));
    static_assert(rules::acc_store_shape_ok(Layout::NZ, 65535, 32));
    static_assert(!rules::acc_output_dtype_ok(DType::I32, DType::F16));
}

TEST(TstoreIllegal, WritePastTheAllocationWritesNothing)
{
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 3 * 64 * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::memset(p, 0, 3 * 64 * 4);
    using TileT = Tile<TileType::Vec, float, 4, 64>;
    using G = GlobalTensor<float, Shape<1, 1, 1, 4, 64>, Stride<1, 1, 1, 64, 1>>;
    TileT t;
    for (int i = 0; i < 4 * 64; ++i)
        t.SetValue(i, 1.0f);
    G g(static_cast<float*>(p));
    const auto d = diagnostic_of([&] { TSTORE(g, t); });
    EXPECT_EQ(d.code, "RUN_GLOBAL_OOB");
    EXPECT_EQ(d.instruction, "TSTORE");
    EXPECT_TRUE(mentions(d, "1023") && mentions(d, "768")) << d.message;
    EXPECT_EQ(static_cast<float*>(p)[0], 0.0f);
    aclrtFree(p);
}

TEST(TstoreChecked, SourceMustHaveBeenWritten)
{
    ScopedChecked checked;
    using TileT = Tile<TileType::Vec, float, 4, 64>;
    std::vector<float> out(4 * 64);
    GlobalTensor<float, Shape<1, 1, 1, 4, 64>, Stride<1, 1, 1, 64, 1>> g(out.data());
    TileT t;
    TASSIGN(t, 0x0);
    for (int i = 0; i < 4 * 64 - 1; ++i)
        t.SetValue(i, 1.0f);
    const auto d = diagnostic_of([&] { TSTORE(g, t); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_TRUE(mentions(d, "(3, 63)")) << d.message;
    t.SetValue(4 * 64 - 1, 1.0f);
    EXPECT_EQ(diagnostic_of([&] { TSTORE(g, t); }).code, "no error");
}
