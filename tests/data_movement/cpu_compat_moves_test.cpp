// What the cpu profile accepts for the public CPU simulation's programs, against plain references, in
// both doors: AtomicAdd into tensors of other types than f32 / i32, TMOV Vec -> Left / Right, quantizing
// TEXTRACT / TINSERT windows out of Mat tiles, TGET_SCALE_ADDR between two Vec tiles; and a2a3 / a5
// refusing each with its code (checked mode warning WARN_CPU_ONLY on cpu).
#include "acc_quant_reference.hpp"
#include "reference.hpp"
#include "support/asm_arguments.hpp"
#include "support/rule_codes.hpp"
#include "support/text_program.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace pto;
using namespace dmtest;
using engine::GlobalDesc;
using engine::TileDesc;

namespace {

// AtomicAdd of a Vec tile into a tensor of T over a random partial valid region: every valid element
// becomes held + value in T (integers wrap, 16-bit floats rounded once), every other one is kept.
template <typename T>
void check_atomic_add(std::mt19937& rng)
{
    constexpr int R = 8, C = 64;
    using TileT = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using GT = GlobalTensor<T, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, C, 1>>;
    const int vr = pick(rng, 1, R), vc = pick(rng, 1, C);
    TileT tile(vr, vc);
    TASSIGN(tile, 0x0);
    std::vector<T> gm(R * C), before;
    for (int i = 0; i < R * C; ++i) {
        if constexpr (std::is_integral_v<T>) {
            gm[size_t(i)] = static_cast<T>(rng());
            tile.SetValue(uint32_t(i), static_cast<T>(rng()));
        } else {
            gm[size_t(i)] = T(float(int(rng() % 2001) - 1000) / 8.0f);
            tile.SetValue(uint32_t(i), T(float(int(rng() % 2001) - 1000) / 16.0f));
        }
    }
    before = gm;
    GT g(gm.data(), Shape<1, 1, 1, DYNAMIC, DYNAMIC>(vr, vc));
    TSTORE<TileT, GT, AtomicType::AtomicAdd>(g, tile);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            const size_t i = size_t(r) * C + c;
            T want = before[i];
            if (r < vr && c < vc) {
                const T add = tile.GetValue(uint32_t(i));
                if constexpr (std::is_integral_v<T>) {
                    using U = std::make_unsigned_t<T>;
                    want = static_cast<T>(static_cast<U>(static_cast<U>(want) + static_cast<U>(add)));
                } else {
                    want = T(float(double(float(want)) + double(float(add))));  // exact in double, one rounding
                }
            }
            ASSERT_EQ(std::memcmp(&gm[i], &want, sizeof(T)), 0) << r << ", " << c << " of " << vr << "x" << vc;
        }
}

}  // namespace

TEST(CpuCompat, AtomicAddInTheTensorsType)
{
    std::mt19937 rng(131);
    for (int round = 0; round < 3; ++round) {
        check_atomic_add<int8_t>(rng);
        check_atomic_add<uint8_t>(rng);
        check_atomic_add<int16_t>(rng);
        check_atomic_add<uint16_t>(rng);
        check_atomic_add<uint32_t>(rng);
        check_atomic_add<int64_t>(rng);
        check_atomic_add<half>(rng);
        check_atomic_add<bfloat16_t>(rng);
    }
}

TEST(CpuCompat, QuantizedAccumulatorAddsIntoInt8)
{
    constexpr int M = 16, N = 32;
    std::mt19937 rng(132);
    using AccT = TileAcc<float, M, N, DYNAMIC, DYNAMIC>;
    AccT acc(13, 27);
    TASSIGN(acc, 0x0);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) acc.SetValue(uint32_t(r * N + c), float(int(rng() % 401) - 200));
    std::vector<int8_t> out(M * N), before;
    for (auto& v : out) v = static_cast<int8_t>(rng());
    before = out;
    GlobalTensor<int8_t, Shape<1, 1, 1, M, N>, Stride<1, 1, 1, N, 1>> g(out.data());
    const float scale = 0.375f;
    TSTORE<AccT, decltype(g), AtomicType::AtomicAdd>(g, acc, pre_quant(scale));
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            const size_t i = size_t(r) * N + c;
            int8_t want = before[i];
            if (r < 13 && c < 27)
                want = static_cast<int8_t>(uint8_t(uint8_t(want) + uint8_t(quantized_integer<int8_t>(acc_at(acc, r, c) * scale))));
            ASSERT_EQ(out[i], want) << r << ", " << c;
        }
}

TEST(CpuCompat, AtomicAddRulesPerTarget)
{
    Tile<TileType::Vec, int8_t, 2, 32> t;
    TASSIGN(t, 0x0);
    for (int i = 0; i < 64; ++i) t.SetValue(uint32_t(i), int8_t(i - 30));
    std::vector<int8_t> gm(64, 1);
    GlobalTensor<int8_t, Shape<1, 1, 1, 2, 32>, Stride<1, 1, 1, 32, 1>> g(gm.data());
    const TileDesc tile = t.desc();
    const GlobalDesc global = g.desc();
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(global, tile, AtomicType::AtomicAdd); }).code, "no error");
    for (auto target : {profile::Target::A2A3, profile::Target::A5}) {
        ScopedTarget scoped(target);
        EXPECT_EQ(diagnostic_of([&] { engine::tstore(global, tile, AtomicType::AtomicAdd); }).code, "LEGAL_TSTORE_ATOMIC");
    }
    static_assert(rules::tstore_atomic_ok(profile::kCpu, AtomicType::AtomicAdd, DType::BF16));
    static_assert(!rules::tstore_atomic_ok(profile::kCpu, AtomicType::AtomicAdd, DType::F8E4M3));
    static_assert(!rules::tstore_atomic_ok(profile::kA2A3, AtomicType::AtomicAdd, DType::U16));
    // A target switch, and entering checked mode, give the core fresh memories: bind and fill the tile
    // again once in checked mode.
    ScopedChecked checked;
    TASSIGN(t, 0x0);
    for (int i = 0; i < 64; ++i) t.SetValue(uint32_t(i), int8_t(i - 30));
    runtime::clear_warnings();
    engine::tstore(global, t.desc(), AtomicType::AtomicAdd);
    ASSERT_EQ(runtime::warnings().size(), 1u);
    EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
    EXPECT_TRUE(mentions(runtime::warnings()[0], "LEGAL_TSTORE_ATOMIC"));
}

TEST(CpuCompat, TmovVecIntoLeftAndRight)
{
    std::mt19937 rng(133);
    for (int round = 0; round < 4; ++round) {
        const int vr = pick(rng, 1, 16), vc = pick(rng, 1, 32);
        using VecT = Tile<TileType::Vec, float, 16, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
        using LeftT = TileLeft<float, 16, 32, DYNAMIC, DYNAMIC>;
        using RightT = TileRight<float, 16, 32, DYNAMIC, DYNAMIC>;
        VecT v(vr, vc);
        LeftT l(vr, vc);
        RightT rt(vr, vc);
        TASSIGN(v, 0x0);
        TASSIGN(l, 0x0);
        TASSIGN(rt, 0x0);
        for (int i = 0; i < 16 * 32; ++i) v.SetValue(uint32_t(i), float(int(rng() % 1000)) - 500.0f);
        TMOV(l, v);
        TMOV(rt, v);
        for (int r = 0; r < vr; ++r)
            for (int c = 0; c < vc; ++c) {
                const float want = v.GetValue(uint32_t(r * 32 + c));
                ASSERT_EQ(l.data()[GetTileElementOffset<LeftT>(r, c)], want) << r << ", " << c;
                ASSERT_EQ(rt.data()[GetTileElementOffset<RightT>(r, c)], want) << r << ", " << c;
            }
    }
    Tile<TileType::Vec, float, 16, 16> v;
    TileLeft<float, 16, 16> l;
    const TileDesc vec = v.desc(), left = l.desc();
    for (auto t : {profile::Target::A2A3, profile::Target::A5})
        EXPECT_EQ(test::first_code_on(t, [&](const profile::Profile& p, engine::LegalitySink& s) {
                      engine::check_tmov(p, left, vec, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, s, nullptr);
                  }),
                  "LEGAL_TMOV_LOCATION");
    static_assert(rules::tmov_location_ok(profile::kCpu, TileType::Vec, TileType::Right));
}

TEST(CpuCompat, QuantizingWindowsOutOfMatTiles)
{
    constexpr int R = 16, C = 64;
    std::mt19937 rng(134);
    using Src = Tile<TileType::Mat, int32_t, R, C, BLayout::RowMajor, R, C, SLayout::NoneBox>;
    using Dst = Tile<TileType::Mat, int8_t, R, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC, SLayout::NoneBox>;
    using Table = Tile<TileType::Mat, uint64_t, 1, C, BLayout::RowMajor, 1, C, SLayout::NoneBox>;
    Src src;
    Dst dst(11, 29);
    Table fp;
    TASSIGN(src, 0x0);
    TASSIGN(dst, 0x10000);
    TASSIGN(fp, 0x20000);
    for (int i = 0; i < R * C; ++i) src.SetValue(uint32_t(i), int32_t(rng() % 2001) - 1000);
    std::vector<float> scales(C);
    for (int c = 0; c < C; ++c) {
        scales[size_t(c)] = std::ldexp(float(int(rng() % 200) - 100) / 64.0f, -int(rng() % 4));
        fp.SetValue(uint32_t(c), pre_quant(scales[size_t(c)]));
    }
    const int row0 = 3, col0 = 16;
    TEXTRACT<Dst, Src, ReluPreMode::NormalRelu>(dst, src, pre_quant(0.25f), row0, col0);
    for (int r = 0; r < 11; ++r)
        for (int c = 0; c < 29; ++c) {
            const float q = std::max(float(src.GetValue(uint32_t((r + row0) * C + c + col0))) * 0.25f, 0.0f);
            ASSERT_EQ(dst.GetValue(uint32_t(r * 32 + c)), quantized_integer<int8_t>(q)) << r << ", " << c;
        }
    TEXTRACT_FP<Dst, Src, Table>(dst, src, fp, row0, col0);
    for (int r = 0; r < 11; ++r)
        for (int c = 0; c < 29; ++c) {
            const float q = float(src.GetValue(uint32_t((r + row0) * C + c + col0))) * scales[size_t(c + col0)];
            ASSERT_EQ(dst.GetValue(uint32_t(r * 32 + c)), quantized_integer<int8_t>(q)) << r << ", " << c;
        }
    // TINSERT: the source's columns pick the scales.
    using Big = Tile<TileType::Mat, int8_t, R, C, BLayout::RowMajor, R, C, SLayout::NoneBox>;
    using Part = Tile<TileType::Mat, int32_t, 8, 32, BLayout::RowMajor, DYNAMIC, DYNAMIC, SLayout::NoneBox>;
    Big big;
    Part part(5, 17);
    TASSIGN(big, 0x30000);
    TASSIGN(part, 0x40000);
    for (int i = 0; i < R * C; ++i) big.SetValue(uint32_t(i), int8_t(7));
    for (int i = 0; i < 8 * 32; ++i) part.SetValue(uint32_t(i), int32_t(rng() % 601) - 300);
    TINSERT_FP<Big, Part, Table>(big, part, fp, 8, 32);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            const bool inside = r >= 8 && r < 13 && c >= 32 && c < 49;
            const int8_t want = inside ? quantized_integer<int8_t>(float(part.GetValue(uint32_t((r - 8) * 32 + c - 32))) *
                                                                   scales[size_t(c - 32)])
                                       : int8_t(7);
            ASSERT_EQ(big.GetValue(uint32_t(r * C + c)), want) << r << ", " << c;
        }

    // a2a3 and a5 have no Mat -> Mat window, and quantize only out of an accumulator.
    const TileDesc s = src.desc(), d = dst.desc();
    const engine::AccQuantization scalar{.scalar = pre_quant(0.5f)};
    const engine::WindowStart at{0, 0};
    for (auto t : {profile::Target::A2A3, profile::Target::A5})
        EXPECT_EQ(test::first_code_on(t, [&](const profile::Profile& p, engine::LegalitySink& sink) {
                      engine::check_textract(p, d, s, &at, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, sink,
                                             &scalar);
                  }),
                  "LEGAL_TEXTRACT_LOCATION");
    static_assert(rules::window_quantizes(profile::kCpu, TileType::Mat, DType::I32, DType::I8));
    static_assert(!rules::window_quantizes(profile::kA5, TileType::Vec, DType::I32, DType::I8));
    static_assert(rules::window_quant_ignored(profile::kCpu, TileType::Mat, DType::F16, DType::F16));
    static_assert(!rules::fp_table_ok(profile::kA5, TileType::Mat, DType::U64));
}

TEST(CpuCompat, GetScaleAddrBetweenVecTilesAliases)
{
    using T = Tile<TileType::Vec, float, 4, 16>;
    T src, dst;
    TASSIGN(src, 0x400);
    TASSIGN(dst, 0x2000);
    for (int i = 0; i < 64; ++i) src.SetValue(uint32_t(i), float(i) * 1.5f - 7.0f);
    TGET_SCALE_ADDR(dst, src);
    EXPECT_EQ(dst.data(), src.data());
    src.SetValue(5, 42.0f);
    EXPECT_EQ(dst.GetValue(5), 42.0f);
    for (auto t : {profile::Target::A2A3, profile::Target::A5}) {
        ScopedTarget target(t);
        EXPECT_EQ(diagnostic_of([] { engine::tget_scale_addr(TileType::Vec, TileType::Vec); }).code,
                  "LEGAL_GET_SCALE_ADDR");
    }
    static_assert(!rules::get_scale_addr_ok(profile::kA5, TileType::Vec, TileType::Vec));
    static_assert(rules::get_scale_addr_ok(profile::kA5, TileType::Left, TileType::ScaleLeft));
    ScopedChecked checked;  // a target switch, and checked mode, give the core fresh memories
    TASSIGN(src, 0x400);
    for (int i = 0; i < 64; ++i) src.SetValue(uint32_t(i), float(i));
    runtime::clear_warnings();
    TGET_SCALE_ADDR(dst, src);
    ASSERT_EQ(runtime::warnings().size(), 1u);
    EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
}

namespace {

const char* kAtomicText = R"(func.func @sum(%a: !pto.ptr<i8>, %o: !pto.ptr<i8>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %av = pto.make_tensor_view %a, shape = [%c4, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi8>
  %ov = pto.make_tensor_view %o, shape = [%c4, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi8>
  %t = pto.alloc_tile : !pto.tile_buf<vec, 4x32xi8>
  pto.tload ins(%av : !pto.tensor_view<?x?xi8>) outs(%t : !pto.tile_buf<vec, 4x32xi8>)
  pto.tstore ins(%t : !pto.tile_buf<vec, 4x32xi8>) outs(%ov : !pto.tensor_view<?x?xi8>) {atomic = #pto<atomic_type AtomicAdd>}
  return
}
)";

const char* kVecToLeftText = R"(func.func @mov(%a: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %l = pto.alloc_tile : !pto.tile_buf<left, 16x16xf32, blayout=col_major, slayout=row_major>
  pto.tload ins(%av : !pto.tensor_view<?x?xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32>)
  pto.tmov ins(%t : !pto.tile_buf<vec, 16x16xf32>) outs(%l : !pto.tile_buf<left, 16x16xf32, blayout=col_major, slayout=row_major>)
  return
}
)";

}  // namespace

TEST(CpuCompatText, AtomicAddIntoInt8AndTmovVecToLeft)
{
    std::mt19937 rng(135);
    std::vector<int8_t> a(4 * 32), o(4 * 32);
    for (auto& v : a) v = static_cast<int8_t>(rng());
    for (auto& v : o) v = static_cast<int8_t>(rng());
    const std::vector<int8_t> before = o;
    const as::RunResult r =
        test::run_verified(kAtomicText, "sum.pto", {test::argument("a", a), test::argument("o", o)}, profile::Target::Cpu);
    ASSERT_TRUE(r.ok()) << test::first_diagnostic(r);
    for (size_t i = 0; i < o.size(); ++i) ASSERT_EQ(o[i], static_cast<int8_t>(uint8_t(uint8_t(before[i]) + uint8_t(a[i])))) << i;
    for (auto t : {profile::Target::A2A3, profile::Target::A5}) {
        const auto codes = test::verifier_codes(kAtomicText, "compat.pto", t);
        EXPECT_NE(std::find(codes.begin(), codes.end(), "LEGAL_TSTORE_ATOMIC"), codes.end());
    }

    std::vector<float> f(16 * 16);
    for (auto& v : f) v = float(int(rng() % 100));
    const as::RunResult m = test::run_verified(kVecToLeftText, "mov.pto", {test::argument("a", f)}, profile::Target::Cpu);
    ASSERT_TRUE(m.ok()) << test::first_diagnostic(m);
    for (auto t : {profile::Target::A2A3, profile::Target::A5}) {
        const auto codes = test::verifier_codes(kVecToLeftText, "compat.pto", t);
        EXPECT_NE(std::find(codes.begin(), codes.end(), "LEGAL_TMOV_LOCATION"), codes.end());
    }
}
