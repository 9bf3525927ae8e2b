// What the cpu profile stores for the public CPU simulation's programs (tstore_quant, ttrans_conv), against
// plain references, in both doors: the quantizing TSTORE / TSTORE_FP of a Vec tile (row-major: a table word
// per column, column-major: per row), i32 -> i16 by the word's shift, TSTORE of float8_e8m0 Vec tiles; and
// a2a3 / a5 refusing each with its code (checked mode warning WARN_CPU_ONLY on cpu).
#include "acc_quant_reference.hpp"
#include "reference.hpp"
#include "support/asm_arguments.hpp"
#include "support/rule_codes.hpp"
#include "support/text_program.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

using namespace pto;
using namespace dmtest;
using engine::GlobalDesc;
using engine::TileDesc;

namespace {

// i32 -> i16: x shifted right by 1 + bits 32..35 of the word, rounding toward -infinity (floor of the
// exact quotient), saturated to i16, negatives 0 with ReLU.
int16_t shifted_reference(int32_t x, uint64_t word, bool relu)
{
    const int shift = int((word >> 32) & 0xF) + 1;
    double q = std::floor(double(x) / std::ldexp(1.0, shift));
    q = std::clamp(q, -32768.0, 32767.0);
    if (relu) q = std::max(q, 0.0);
    return int16_t(q);
}

// The expected D for source value x and word: the shift for i32 -> i16, else f32(x) * scale (the word's
// low 32 bits), +0 for a negative product with ReLU, rounded into D (acc_quant_reference.hpp).
template <typename S, typename D>
D expected(S x, uint64_t word, bool relu)
{
    if constexpr (std::is_same_v<S, int32_t> && std::is_same_v<D, int16_t>) {
        return shifted_reference(x, word, relu);
    } else {
        float q = float(x) * std::bit_cast<float>(uint32_t(word));
        if (relu && q < 0) q = 0.0f;
        if constexpr (std::is_integral_v<D>) return quantized_integer<D>(q);
        else if constexpr (std::is_same_v<D, half>) return std::bit_cast<D>(quantized_half(q));
        else return std::bit_cast<D>(quantized_bfloat16(q));
    }
}

template <typename D>
bool is_nan(D v)
{
    if constexpr (std::is_integral_v<D>) return false;
    else return std::isnan(float(v));
}

template <typename S>
S random_source(std::mt19937& rng, bool shifts)
{
    if constexpr (std::is_same_v<S, float>) {
        switch (rng() % 40) {
            case 0: return std::numeric_limits<float>::quiet_NaN();
            case 1: return std::numeric_limits<float>::infinity();
            case 2: return -std::numeric_limits<float>::infinity();
            case 3: return 3.0e30f;
            default: return std::uniform_real_distribution<float>(-300.0f, 300.0f)(rng);
        }
    } else {
        if (shifts) return static_cast<int32_t>(rng());  // the whole range: the shift saturates some
        return int32_t(rng() % 600001) - 300000;
    }
}

// A word: an f32 scale in the low bits (out of [-2, 2]) and random high bits, whose shift field
// (bits 32..35) the i32 -> i16 pair reads and every other pair ignores.
uint64_t random_word(std::mt19937& rng)
{
    const float scale = std::ldexp(float(int(rng() % 257) - 128) / 64.0f, -int(rng() % 6));
    return pre_quant(scale, rng());
}

enum class Form { Scalar, Table };

// One random quantizing store of a Vec (or Mat) tile of S into a tensor of D over a random partial valid region:
// a row-major tile into an ND tensor (the table's word for each column) or a column-major tile into a DN
// tensor (the word for each row). Every valid element is the reference's, every other one kept.
template <typename S, typename D, bool ColMajor, TileType Loc = TileType::Vec>
void check_vec_quantized_store(std::mt19937& rng, Form form, bool relu)
{
    constexpr int R = ColMajor ? 64 : 16, C = ColMajor ? 16 : 64;
    constexpr int Ld = ColMajor ? 72 : 80;  // the tensor's leading dimension, past the valid region
    constexpr bool shifts = std::is_same_v<S, int32_t> && std::is_same_v<D, int16_t>;
    using TileT = Tile<Loc, S, R, C, ColMajor ? BLayout::ColMajor : BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using TableT = Tile<TileType::Vec, uint64_t, 1, 64>;
    using Sh = Shape<1, 1, 1, DYNAMIC, DYNAMIC>;
    using GT = std::conditional_t<ColMajor, GlobalTensor<D, Sh, Stride<1, 1, 1, 1, Ld>, Layout::DN>,
                                  GlobalTensor<D, Sh, Stride<1, 1, 1, Ld, 1>>>;
    const int vr = pick(rng, 1, R), vc = pick(rng, 1, C);
    TileT tile(vr, vc);
    TableT table;
    TASSIGN(tile, 0x0);
    TASSIGN(table, 0x4000);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) tile.SetValue(uint32_t(GetTileOffset<TileT>(r, c)), random_source<S>(rng, shifts));
    std::vector<uint64_t> words(64);
    for (int i = 0; i < 64; ++i) {
        words[size_t(i)] = random_word(rng);
        table.SetValue(uint32_t(i), words[size_t(i)]);
    }
    const size_t extent = size_t(Ld) * (ColMajor ? C : R);
    std::vector<D> gm(extent), before;
    using Bits = std::conditional_t<sizeof(D) == 1, uint8_t, uint16_t>;
    for (auto& v : gm) v = std::bit_cast<D>(static_cast<Bits>(rng()));
    before = gm;
    GT g(gm.data(), Sh(vr, vc));
    const auto store = [&]<ReluPreMode Relu>() {
        if (form == Form::Scalar) TSTORE<TileT, GT, AtomicType::AtomicNone, Relu>(g, tile, words[0]);
        else TSTORE_FP<TileT, GT, TableT, AtomicType::AtomicNone, Relu>(g, tile, table);
    };
    relu ? store.template operator()<ReluPreMode::NormalRelu>() : store.template operator()<ReluPreMode::NoRelu>();
    for (int r = 0; r < (ColMajor ? Ld : R); ++r)
        for (int c = 0; c < (ColMajor ? C : Ld); ++c) {
            const size_t at = ColMajor ? size_t(c) * Ld + size_t(r) : size_t(r) * Ld + size_t(c);
            D want = before[at];
            if (r < vr && c < vc) {
                const uint64_t word = form == Form::Scalar ? words[0] : words[size_t(ColMajor ? r : c)];
                want = expected<S, D>(tile.GetValue(uint32_t(GetTileOffset<TileT>(r, c))), word, relu);
                if (is_nan(want)) {
                    ASSERT_TRUE(is_nan(gm[at])) << r << ", " << c;
                    continue;
                }
            }
            ASSERT_EQ(std::memcmp(&gm[at], &want, sizeof(D)), 0)
                << r << ", " << c << " of " << vr << "x" << vc << (ColMajor ? " col-major" : " row-major");
        }
}

template <typename S, typename D>
void check_both_arrangements(std::mt19937& rng)
{
    for (Form form : {Form::Scalar, Form::Table})
        for (bool relu : {false, true}) {
            check_vec_quantized_store<S, D, false>(rng, form, relu);
            check_vec_quantized_store<S, D, true>(rng, form, relu);
        }
}

}  // namespace

TEST(CpuCompatStore, QuantizingStoreOfVecTilesMatchesTheReference)
{
    std::mt19937 rng(141);
    for (int round = 0; round < 3; ++round) {
        check_both_arrangements<float, int8_t>(rng);
        check_both_arrangements<float, uint8_t>(rng);
        check_both_arrangements<float, half>(rng);
        check_both_arrangements<float, bfloat16_t>(rng);
        check_both_arrangements<int32_t, int8_t>(rng);
        check_both_arrangements<int32_t, uint8_t>(rng);
        check_both_arrangements<int32_t, half>(rng);
        check_both_arrangements<int32_t, int16_t>(rng);
        // A Mat tile quantizes as a Vec tile does.
        check_vec_quantized_store<float, int8_t, false, TileType::Mat>(rng, Form::Table, true);
        check_vec_quantized_store<int32_t, int16_t, true, TileType::Mat>(rng, Form::Scalar, false);
    }
}

// i32 -> i16 out of an accumulator too (the cpu profile's pair for every quantizing form: TSTORE, TMOV),
// and out of a Vec window (TEXTRACT), each by the word's shift.
TEST(CpuCompatStore, ShiftingPairOutOfAnAccumulatorAndAWindow)
{
    std::mt19937 rng(142);
    constexpr int M = 16, N = 32;
    using AccT = TileAcc<int32_t, M, N, DYNAMIC, DYNAMIC>;
    AccT acc(11, 23);
    TASSIGN(acc, 0x0);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) acc.SetValue(uint32_t(GetTileOffset<AccT>(r, c)), static_cast<int32_t>(rng()));
    std::vector<int16_t> out(M * N, int16_t(-7));
    GlobalTensor<int16_t, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> g(out.data());
    const uint64_t word = pre_quant(1.0f, 0xB);  // shift 12
    TSTORE<AccT, decltype(g), AtomicType::AtomicNone, ReluPreMode::NormalRelu>(g, acc, word);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            const int16_t want = r < 11 && c < 23 ? shifted_reference(acc_at(acc, r, c), word, true) : int16_t(-7);
            ASSERT_EQ(out[size_t(r * N + c)], want) << r << ", " << c;
        }

    // TMOV out of the accumulator into a Vec tile of i16: the same shift.
    using VecI16 = Tile<TileType::Vec, int16_t, M, N, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    VecI16 moved(11, 23);
    TASSIGN(moved, 0x0);
    TMOV(moved, acc, word);
    for (int r = 0; r < 11; ++r)
        for (int c = 0; c < 23; ++c)
            ASSERT_EQ(moved.GetValue(uint32_t(r * N + c)), shifted_reference(acc_at(acc, r, c), word, false)) << r << ", " << c;

    using Src = Tile<TileType::Vec, int32_t, 8, 32>;
    using Dst = Tile<TileType::Vec, int16_t, 4, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    Src src;
    Dst dst(3, 13);
    TASSIGN(src, 0x0);
    TASSIGN(dst, 0x2000);
    for (int i = 0; i < 8 * 32; ++i) src.SetValue(uint32_t(i), static_cast<int32_t>(rng()));
    const uint64_t w = pre_quant(0.5f, 0x3);  // shift 4
    TEXTRACT(dst, src, w, 2, 5);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 13; ++c)
            ASSERT_EQ(dst.GetValue(uint32_t(r * 16 + c)), shifted_reference(src.GetValue(uint32_t((r + 2) * 32 + c + 5)), w, false))
                << r << ", " << c;
}

// TSTORE of a Vec tile of float8_e8m0 (the MX scale type): the bytes unchanged.
TEST(CpuCompatStore, E8m0VecTileStoresItsBytes)
{
    std::mt19937 rng(143);
    using TileT = Tile<TileType::Vec, float8_e8m0_t, 4, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using GT = GlobalTensor<float8_e8m0_t, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, 96, 1>>;
    for (int round = 0; round < 4; ++round) {
        const int vr = pick(rng, 1, 4), vc = pick(rng, 1, 64);
        TileT tile(vr, vc);
        TASSIGN(tile, 0x0);
        std::vector<uint8_t> bytes(4 * 64), gm(4 * 96);
        for (auto& b : bytes) b = uint8_t(rng());
        for (auto& b : gm) b = uint8_t(rng());
        const std::vector<uint8_t> before = gm;
        std::memcpy(tile.data(), bytes.data(), bytes.size());
        GT g(reinterpret_cast<float8_e8m0_t*>(gm.data()), Shape<1, 1, 1, DYNAMIC, DYNAMIC>(vr, vc));
        TSTORE(g, tile);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 96; ++c)
                ASSERT_EQ(gm[size_t(r * 96 + c)], r < vr && c < vc ? bytes[size_t(r * 64 + c)] : before[size_t(r * 96 + c)])
                    << r << ", " << c;
    }
}

TEST(CpuCompatStore, RulesPerTargetAndTheCpuOnlyWarning)
{
    std::vector<std::byte> ts, gs, g16s, es, egs, accs, tabs;
    const TileDesc vec = vec_tile(ts, DType::F32, 16, 16);
    const GlobalDesc i8 = flat_global(gs, DType::I8, 16, 16);
    const engine::AccQuantization scalar{.scalar = pre_quant(0.5f)};
    const TileDesc acc = acc_tile(accs, DType::I32, 16, 16);
    const GlobalDesc i16 = flat_global(g16s, DType::I16, 16, 16);
    const TileDesc e8m0 = vec_tile(es, DType::F8E8M0, 2, 32);
    const GlobalDesc ge8m0 = flat_global(egs, DType::F8E8M0, 2, 32);

    const auto quantized_vec = [&](const profile::Profile& p, engine::LegalitySink& s) {
        engine::check_tstore(p, i8, vec, AtomicType::AtomicNone, s, &scalar, ReluPreMode::NormalRelu);
    };
    const auto shifted_acc = [&](const profile::Profile& p, engine::LegalitySink& s) {
        engine::check_tstore(p, i16, acc, AtomicType::AtomicNone, s, &scalar);
    };
    const auto e8m0_store = [&](const profile::Profile& p, engine::LegalitySink& s) {
        engine::check_tstore(p, ge8m0, e8m0, AtomicType::AtomicNone, s);
    };
    EXPECT_EQ(test::first_code_on(profile::Target::Cpu, quantized_vec), "none");
    EXPECT_EQ(test::first_code_on(profile::Target::Cpu, shifted_acc), "none");
    EXPECT_EQ(test::first_code_on(profile::Target::Cpu, e8m0_store), "none");
    for (auto t : {profile::Target::A2A3, profile::Target::A5}) {
        EXPECT_EQ(test::first_code_on(t, quantized_vec), "LEGAL_TSTORE_LOCATION");
        EXPECT_EQ(test::first_code_on(t, shifted_acc), "LEGAL_TSTORE_QUANT_DTYPE");
        EXPECT_EQ(test::first_code_on(t, e8m0_store), "LEGAL_TSTORE_DTYPE");
    }
    // ReLU on a plain (not quantizing) Vec store stays an accumulator's on every profile.
    EXPECT_EQ(test::first_code_on(profile::Target::Cpu,
                                  [&](const profile::Profile& p, engine::LegalitySink& s) {
                                      engine::check_tstore(p, flat_global(gs, DType::F32, 16, 16), vec,
                                                           AtomicType::AtomicNone, s, nullptr, ReluPreMode::NormalRelu);
                                  }),
              "LEGAL_TSTORE_RELU");
    // A column-major tile's table has a word per row: 16 rows need 16 words.
    TileDesc col = vec;
    col.blayout = BLayout::ColMajor;
    TileDesc table = vec_tile(tabs, DType::U64, 1, 16);
    table.valid_cols = 12;
    const engine::AccQuantization by_table{.per_column = &table};
    EXPECT_EQ(test::first_code_on(profile::Target::Cpu,
                                  [&](const profile::Profile& p, engine::LegalitySink& s) {
                                      engine::check_tstore(p, i8, col, AtomicType::AtomicNone, s, &by_table);
                                  }),
              "RUN_VALID_SHAPE");
    static_assert(rules::tstore_quant_source_ok(profile::kCpu, TileType::Vec));
    static_assert(!rules::tstore_quant_source_ok(profile::kA5, TileType::Vec));
    static_assert(!rules::acc_quant_output_dtype_ok(profile::kA5, DType::I32, DType::I16));
    static_assert(!rules::tstore_dtype_ok(profile::kA5, DType::F8E8M0) && rules::tstore_dtype_ok(profile::kCpu, DType::F8E8M0));
    static_assert(rules::tstore_table_per_row(TileType::Vec, BLayout::ColMajor) &&
                  !rules::tstore_table_per_row(TileType::Acc, BLayout::ColMajor));

    // Checked mode: one WARN_CPU_ONLY per store, naming what a real target reports.
    ScopedChecked checked;  // entering checked mode gives the core fresh memories: bind the tiles after it
    const struct {
        const char* code;
        std::function<void()> store;
    } cases[] = {
        {"LEGAL_TSTORE_LOCATION",
         [] {
             Tile<TileType::Vec, float, 4, 16> t;
             TASSIGN(t, 0x0);
             for (int i = 0; i < 64; ++i) t.SetValue(uint32_t(i), float(i) - 20.0f);
             std::vector<int8_t> out(64);
             GlobalTensor<int8_t, Shape<1, 1, 1, 4, 16>, Stride<1, 1, 1, 16, 1>> g(out.data());
             TSTORE(g, t, pre_quant(0.25f));
         }},
        {"LEGAL_TSTORE_QUANT_DTYPE",
         [] {
             TileAcc<int32_t, 16, 16> a;
             TASSIGN(a, 0x0);
             for (int i = 0; i < 256; ++i) a.SetValue(uint32_t(i), int32_t(i * 1000));
             std::vector<int16_t> out(256);
             GlobalTensor<int16_t, Shape<1, 1, 1, 16, 16>, Stride<1, 1, 1, 16, 1>> g(out.data());
             TSTORE(g, a, pre_quant(1.0f, 2));
         }},
        {"LEGAL_TSTORE_DTYPE",
         [] {
             Tile<TileType::Vec, float8_e8m0_t, 2, 32> t;
             TASSIGN(t, 0x0);
             for (int i = 0; i < 64; ++i) t.SetValue(uint32_t(i), std::bit_cast<float8_e8m0_t>(uint8_t(100 + i)));
             std::vector<float8_e8m0_t> out(64);
             GlobalTensor<float8_e8m0_t, Shape<1, 1, 1, 2, 32>, Stride<1, 1, 1, 32, 1>> g(out.data());
             TSTORE(g, t);
         }},
    };
    for (const auto& c : cases) {
        runtime::clear_warnings();
        c.store();
        ASSERT_EQ(runtime::warnings().size(), 1u) << c.code;
        EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
        EXPECT_TRUE(mentions(runtime::warnings()[0], c.code)) << runtime::warnings()[0].message;
    }
}

// --- PTO-AS ----------------------------------------------------------------------------------------

namespace {

// A Vec tile of f32 quantized into i8 by a scalar, a column-major one of i32 into i16 by the word's
// shift (an integer scalar is the 64-bit word), and a row-major one through a table (pto.tstore.fp).
const char* kVecQuantText = R"(func.func @q(%x: !pto.ptr<f32>, %n: !pto.ptr<i32>, %fp: !pto.ptr<ui64>, %y: !pto.ptr<i8>, %z: !pto.ptr<i16>, %u: !pto.ptr<f16>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %scale = arith.constant 0.375 : f32
  %word = arith.constant 12884901888 : i64
  %xv = pto.make_tensor_view %x, shape = [%c8, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %nv = pto.make_tensor_view %n, shape = [%c32, %c8], strides = [%c1, %c32] : !pto.tensor_view<?x?xi32, #pto.layout<dn>>
  %fv = pto.make_tensor_view %fp, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui64>
  %yv = pto.make_tensor_view %y, shape = [%c8, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi8>
  %zv = pto.make_tensor_view %z, shape = [%c32, %c8], strides = [%c1, %c32] : !pto.tensor_view<?x?xi16, #pto.layout<dn>>
  %uv = pto.make_tensor_view %u, shape = [%c8, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf16>
  %t = pto.alloc_tile : !pto.tile_buf<vec, 8x32xf32>
  %k = pto.alloc_tile : !pto.tile_buf<vec, 32x8xi32, blayout=col_major>
  %tab = pto.alloc_tile : !pto.tile_buf<vec, 1x32xui64>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf32>) outs(%t : !pto.tile_buf<vec, 8x32xf32>)
  pto.tload ins(%nv : !pto.tensor_view<?x?xi32, #pto.layout<dn>>) outs(%k : !pto.tile_buf<vec, 32x8xi32, blayout=col_major>)
  pto.tload ins(%fv : !pto.tensor_view<?x?xui64>) outs(%tab : !pto.tile_buf<vec, 1x32xui64>)
  pto.tstore ins(%t, %scale : !pto.tile_buf<vec, 8x32xf32>, f32) outs(%yv : !pto.tensor_view<?x?xi8>) {relu = #pto<relu_mode NormalRelu>}
  pto.tstore ins(%k, %word : !pto.tile_buf<vec, 32x8xi32, blayout=col_major>, i64) outs(%zv : !pto.tensor_view<?x?xi16, #pto.layout<dn>>)
  pto.tstore.fp ins(%t, %tab : !pto.tile_buf<vec, 8x32xf32>, !pto.tile_buf<vec, 1x32xui64>) outs(%uv : !pto.tensor_view<?x?xf16>)
  return
}
)";

}  // namespace

TEST(CpuCompatStoreText, QuantizingStoresOfVecTilesRunOnCpuAndAreRefusedElsewhere)
{
    std::mt19937 rng(144);
    std::vector<float> x(8 * 32);
    std::vector<int32_t> n(32 * 8);
    std::vector<uint64_t> fp(32);
    std::vector<int8_t> y(8 * 32);
    std::vector<int16_t> z(32 * 8);
    std::vector<uint16_t> u(8 * 32);
    for (auto& v : x) v = std::uniform_real_distribution<float>(-500.0f, 500.0f)(rng);
    for (auto& v : n) v = static_cast<int32_t>(rng());
    for (auto& w : fp) w = random_word(rng);
    const as::RunResult r = test::run_verified(kVecQuantText, "store.pto",
                                               {test::argument("x", x), test::argument("n", n), test::argument("fp", fp),
                                                test::argument("y", y), test::argument("z", z), test::argument("u", u)},
                                               profile::Target::Cpu);
    ASSERT_TRUE(r.ok()) << test::first_diagnostic(r);
    const uint64_t shift_word = 12884901888ull;  // bits 32..35 = 3: shift 4
    for (int i = 0; i < 8 * 32; ++i) {
        ASSERT_EQ(y[size_t(i)], (expected<float, int8_t>(x[size_t(i)], pre_quant(0.375f), true))) << i;
        ASSERT_EQ(z[size_t(i)], shifted_reference(n[size_t(i)], shift_word, false)) << i;
        ASSERT_EQ(u[size_t(i)], quantized_half(x[size_t(i)] * std::bit_cast<float>(uint32_t(fp[size_t(i % 32)])))) << i;
    }
    for (auto t : {profile::Target::A2A3, profile::Target::A5}) {
        const auto codes = test::verifier_codes(kVecQuantText, "store.pto", t);
        EXPECT_EQ(std::count(codes.begin(), codes.end(), "LEGAL_TSTORE_LOCATION"), 3) << codes.size();
    }
}
