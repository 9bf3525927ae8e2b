// TMOV against the reference model: Vec->Vec between every arrangement, Vec->Mat (ND->Nz),
// Mat->Left/Right/Bias/Scaling, Acc->Mat/Vec with conversion, ReLU and the split modes; and each
// illegal case.
#include "reference.hpp"

using namespace pto;
using namespace dmtest;
using engine::TileDesc;

namespace {

struct Arrangement {
    BLayout b;
    SLayout s;
};

const Arrangement kArrangements[] = {
    {BLayout::RowMajor, SLayout::NoneBox},
    {BLayout::ColMajor, SLayout::NoneBox},
    {BLayout::ColMajor, SLayout::RowMajor},  // Nz
    {BLayout::RowMajor, SLayout::ColMajor},  // Zn
};

// A tile of rows x cols (whole boxes / aligned lines) with random contents.
TileDesc make_tile(std::vector<std::byte>& storage, std::mt19937& rng, TileType loc, DType t, Arrangement a, int rows,
                   int cols)
{
    TileDesc tile;
    tile.dtype = t;
    tile.loc = loc;
    tile.blayout = a.b;
    tile.slayout = a.s;
    tile.rows = tile.valid_rows = rows;
    tile.cols = tile.valid_cols = cols;
    storage = random_bytes(storage_bytes(int64_t(rows) * cols, t), rng);
    tile.data = storage.data();
    return tile;
}

// Checks that dst's valid region holds src's elements at the same logical positions (shifted by the
// source origin) and that the rest of dst kept `before`.
void expect_moved(const TileDesc& dst, const std::vector<std::byte>& before, const TileDesc& src, int row0 = 0,
                  int col0 = 0)
{
    const auto dst_at = tile_offsets(dst);
    const auto src_at = tile_offsets(src);
    const int bits = bits_of(dst.dtype);
    for (int r = 0; r < dst.rows; ++r) {
        for (int c = 0; c < dst.cols; ++c) {
            const uint64_t got = element_at(dst.data, dst_at[size_t(r) * dst.cols + c], bits);
            const uint64_t want = r < dst.valid_rows && c < dst.valid_cols
                                      ? element_at(src.data, src_at[size_t(r + row0) * src.cols + c + col0], bits)
                                      : element_at(before.data(), dst_at[size_t(r) * dst.cols + c], bits);
            ASSERT_EQ(got, want) << dtype_name(dst.dtype) << " (" << r << ", " << c << ")";
        }
    }
}

}  // namespace

TEST(Tmov, VecToVecBetweenEveryArrangementAndType)
{
    std::mt19937 rng(17);
    for (DType t : movable_types()) {
        // Whole boxes of both orientations and whole 32-byte lines.
        const int unit = std::max(16, 256 / pto::engine::dtype_bits(t));
        for (const Arrangement& from : kArrangements) {
            for (const Arrangement& to : kArrangements) {
                const int rows = unit * pick(rng, 1, 2), cols = unit * pick(rng, 1, 2);
                std::vector<std::byte> ss, ds;
                const TileDesc src = make_tile(ss, rng, TileType::Vec, t, from, rows, cols);
                TileDesc dst = make_tile(ds, rng, TileType::Vec, t, to, rows, cols);
                dst.valid_rows = pick(rng, 1, dst.rows);
                dst.valid_cols = pick(rng, 1, dst.cols);
                const std::vector<std::byte> before = ds;
                engine::tmov(dst, src);
                expect_moved(dst, before, src);
            }
        }
    }
}

TEST(Tmov, VecRowMajorIntoMatNzThroughTheIntrinsic)
{
    constexpr int R = 32, C = 64;
    using SrcT = Tile<TileType::Vec, bfloat16_t, R, C>;
    using DstT = Tile<TileType::Mat, bfloat16_t, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor>;
    SrcT src;
    DstT dst;
    for (int i = 0; i < R * C; ++i)
        src.SetValue(i, bfloat16_t(float(i % 251) * 0.5f - 60.0f));
    TMOV(dst, src);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            ASSERT_EQ(dst.GetValue(static_cast<uint32_t>(GetTileOffset<DstT>(r, c))).bits,
                      src.GetValue(r * C + c).bits);
}

TEST(Tmov, MatIntoLeftAndRight)
{
    // The documented example: a Zn Mat tile of float into TileLeft, and an Nz one into TileRight.
    using ZnMat = Tile<TileType::Mat, float, 16, 16, BLayout::RowMajor, 16, 16, SLayout::ColMajor>;
    using NzMat = Tile<TileType::Mat, float, 16, 16, BLayout::ColMajor, 16, 16, SLayout::RowMajor>;
    using LeftT = TileLeft<float, 16, 16>;
    using RightT = TileRight<float, 16, 16>;
    ZnMat zn;
    NzMat nz;
    TASSIGN(zn, 0x1000);
    TASSIGN(nz, 0x2000);
    for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 16; ++c) {
            zn.SetValue(static_cast<uint32_t>(GetTileOffset<ZnMat>(r, c)), float(r * 100 + c));
            nz.SetValue(static_cast<uint32_t>(GetTileOffset<NzMat>(r, c)), float(-r * 100 - c));
        }
    }
    LeftT left;
    RightT right;
    TASSIGN(left, 0x0);
    TASSIGN(right, 0x0);
    TMOV(left, zn);
    TMOV(right, nz);
    for (int r = 0; r < 16; ++r) {
        for (int c = 0; c < 16; ++c) {
            ASSERT_EQ(left.GetValue(static_cast<uint32_t>(GetTileOffset<LeftT>(r, c))), float(r * 100 + c));
            ASSERT_EQ(right.GetValue(static_cast<uint32_t>(GetTileOffset<RightT>(r, c))), float(-r * 100 - c));
        }
    }
}

TEST(Tmov, MatIntoBiasWidensAndIntoScalingCopies)
{
    using MatH = Tile<TileType::Mat, half, 1, 64>;
    using BiasF = Tile<TileType::Bias, float, 1, 64>;
    MatH m;
    for (int c = 0; c < 64; ++c)
        m.SetValue(c, half(float(c) * 0.125f - 3.0f));
    BiasF b;
    TMOV(b, m);
    for (int c = 0; c < 64; ++c)
        ASSERT_EQ(b.GetValue(c), float(c) * 0.125f - 3.0f);

    using MatU = Tile<TileType::Mat, uint64_t, 1, 16>;
    using ScaleU = Tile<TileType::Scaling, uint64_t, 1, 16>;
    MatU mu;
    for (int c = 0; c < 16; ++c)
        mu.SetValue(c, 0x0123456789ABCDEFull * uint64_t(c + 1));
    ScaleU s;
    TMOV(s, mu);
    for (int c = 0; c < 16; ++c)
        ASSERT_EQ(s.GetValue(c), 0x0123456789ABCDEFull * uint64_t(c + 1));
}

TEST(Tmov, MatIntoMicroscalingScaleBoxes)
{
    // e8m0 exponents, row-major in L1, into the 16 x 2 boxes of a left scale tile.
    using MatT = Tile<TileType::Mat, float8_e8m0_t, 16, 32>;
    using ScaleT = TileLeftScale<float8_e8m0_t, 16, 32>;
    MatT m;
    for (int i = 0; i < 16 * 32; ++i)
        m.SetValue(i, float8_e8m0_t::from_bits(static_cast<uint8_t>(i % 251)));
    ScaleT s;
    TMOV(s, m);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c)
            ASSERT_EQ(s.GetValue(static_cast<uint32_t>(GetTileOffset<ScaleT>(r, c))).bits, (r * 32 + c) % 251);
    static_assert(!rules::tmov_dtype_ok(profile::kA5, TileType::Mat, TileType::ScaleLeft, DType::U8, DType::U8));
}

TEST(Tmov, OntoItselfLeavesTheTileAsItWas)
{
    using T = Tile<TileType::Vec, int32_t, 4, 8>;
    T t;
    for (int i = 0; i < 32; ++i)
        t.SetValue(i, i * 7 - 3);
    TMOV(t, t);
    for (int i = 0; i < 32; ++i)
        ASSERT_EQ(t.GetValue(i), i * 7 - 3);
}

TEST(Tmov, AccumulatorToMatConvertsWithRelu)
{
    constexpr int M = 32, N = 32;
    using AccT = TileAcc<float, M, N>;
    using MatT = Tile<TileType::Mat, half, M, N, BLayout::ColMajor, M, N, SLayout::RowMajor>;
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> value(-50.0f, 50.0f);
    AccT acc;
    for (int i = 0; i < M * N; ++i)
        acc.SetValue(i, value(rng));
    MatT plain, relu;
    TMOV(plain, acc);
    TMOV<MatT, AccT, ReluPreMode::NormalRelu>(relu, acc);
    for (int r = 0; r < M; ++r) {
        for (int c = 0; c < N; ++c) {
            const float v = acc.GetValue(static_cast<uint32_t>(GetTileOffset<AccT>(r, c)));
            const auto at = static_cast<uint32_t>(GetTileOffset<MatT>(r, c));
            ASSERT_EQ(plain.GetValue(at).bits, half(v).bits);
            ASSERT_EQ(relu.GetValue(at).bits, half(v < 0.0f ? 0.0f : v).bits);
        }
    }
}

TEST(Tmov, AccumulatorToVecSplitModes)
{
    constexpr int M = 32, N = 64;
    using AccT = TileAcc<int32_t, M, N>;
    AccT acc;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c)
            acc.SetValue(static_cast<uint32_t>(GetTileOffset<AccT>(r, c)), r * 1000 - c);

    // This core is vector sub-block 0: it receives the top half of the rows / the left half of the columns.
    Tile<TileType::Vec, int32_t, M / 2, N> top;
    TMOV<decltype(top), AccT, AccToVecMode::DualModeSplitM>(top, acc);
    for (int r = 0; r < M / 2; ++r)
        for (int c = 0; c < N; ++c)
            ASSERT_EQ(top.GetValue(r * N + c), r * 1000 - c);

    Tile<TileType::Vec, int32_t, M, N / 2> left;
    TMOV<decltype(left), AccT, AccToVecMode::DualModeSplitN, ReluPreMode::NormalRelu>(left, acc);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N / 2; ++c)
            ASSERT_EQ(left.GetValue(r * N / 2 + c), std::max(r * 1000 - c, 0));

    Tile<TileType::Vec, int32_t, M, N> whole;
    TMOV<decltype(whole), AccT, AccToVecMode::SingleModeVec0>(whole, acc);
    EXPECT_EQ(whole.GetValue(5 * N + 7), 5 * 1000 - 7);
}

TEST(Tmov, DynamicValidRegionOfTheDestination)
{
    using SrcT = Tile<TileType::Vec, float, 8, 32>;
    using DstT = Tile<TileType::Vec, float, 8, 32, BLayout::ColMajor, DYNAMIC, DYNAMIC>;
    SrcT src;
    for (int i = 0; i < 8 * 32; ++i)
        src.SetValue(i, float(i));
    DstT dst(3, 5);
    for (int i = 0; i < 8 * 32; ++i)
        dst.SetValue(i, -1.0f);
    TMOV(dst, src);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 32; ++c)
            ASSERT_EQ(dst.GetValue(c * 8 + r), (r < 3 && c < 5) ? float(r * 32 + c) : -1.0f);
}

// --- illegal cases ---------------------------------------------------------------------------------

namespace {

TileDesc plain_tile(std::vector<std::byte>& storage, TileType loc, DType t, int rows, int cols)
{
    std::mt19937 rng(1);
    return make_tile(storage, rng, loc, t, {BLayout::RowMajor, SLayout::NoneBox}, rows, cols);
}

}  // namespace

TEST(TmovIllegal, LocationPairsPerProfile)
{
    std::vector<std::byte> a, b;
    const TileDesc mat = plain_tile(a, TileType::Mat, DType::F32, 4, 16);
    TileDesc vec = plain_tile(b, TileType::Vec, DType::F32, 4, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(vec, mat); }).code, "no error");  // Mat -> Vec: cpu only
    {
        ScopedTarget a5(profile::Target::A5);
        auto d = diagnostic_of([&] { engine::tmov(vec, mat); });
        EXPECT_EQ(d.code, "LEGAL_TMOV_LOCATION");
        EXPECT_TRUE(mentions(d, "Mat -> Vec")) << d.message;
    }

    TileDesc mat_dst = mat;
    std::vector<std::byte> c(a);
    mat_dst.data = c.data();
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(mat_dst, vec); }).code, "no error");  // Vec -> Mat (a5, cpu)
    ScopedTarget a2a3(profile::Target::A2A3);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(mat_dst, vec); }).code, "LEGAL_TMOV_LOCATION");
    static_assert(rules::tmov_location_ok(profile::kA2A3, TileType::Acc, TileType::Mat));
    static_assert(!rules::tmov_location_ok(profile::kA2A3, TileType::Acc, TileType::Vec));
    static_assert(rules::tmov_location_ok(profile::kA5, TileType::Mat, TileType::ScaleLeft));
}

TEST(TmovIllegal, TypesShapesAndTableRows)
{
    std::vector<std::byte> a, b;
    const TileDesc src = plain_tile(a, TileType::Vec, DType::F32, 4, 16);
    TileDesc dst = plain_tile(b, TileType::Vec, DType::F16, 4, 32);
    auto d = diagnostic_of([&] { engine::tmov(dst, src); });
    EXPECT_EQ(d.code, "LEGAL_TMOV_DTYPE");
    EXPECT_TRUE(mentions(d, "f32 -> f16")) << d.message;

    std::vector<std::byte> c;
    TileDesc wide = plain_tile(c, TileType::Vec, DType::F32, 4, 32);
    wide.valid_cols = 16;
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(wide, src); }).code, "no error");
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        EXPECT_EQ(diagnostic_of([&] { engine::tmov(wide, src); }).code, "LEGAL_TMOV_SHAPE");
    }

    std::vector<std::byte> m, bias;
    const TileDesc two_rows = plain_tile(m, TileType::Mat, DType::F32, 2, 16);
    TileDesc bias_tile = plain_tile(bias, TileType::Bias, DType::F32, 2, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(bias_tile, two_rows); }).code, "LEGAL_TMOV_TABLE_ROW");
    static_assert(!rules::tmov_table_row_ok(profile::kA2A3, 1, 8, 32, 8, 32, 64));  // 32 bytes
    static_assert(rules::tmov_table_row_ok(profile::kA2A3, 1, 16, 32, 16, 32, 64));
    static_assert(!rules::tmov_table_row_ok(profile::kA5, 1, 2048, 16, 2048, 32, 64));  // 8 KiB of bias
    static_assert(rules::tmov_dtype_ok(profile::kA5, TileType::Mat, TileType::Bias, DType::BF16, DType::F32));
    static_assert(!rules::tmov_dtype_ok(profile::kA2A3, TileType::Mat, TileType::Bias, DType::BF16, DType::F32));
    static_assert(!rules::tmov_dtype_ok(profile::kA2A3, TileType::Mat, TileType::Scaling, DType::U32, DType::U32));
}

TEST(TmovIllegal, CubeSourceLayoutOnA5)
{
    std::mt19937 rng(2);
    std::vector<std::byte> a, b;
    const TileDesc dn = make_tile(a, rng, TileType::Mat, DType::F16, {BLayout::ColMajor, SLayout::NoneBox}, 16, 16);
    TileDesc left = make_tile(b, rng, TileType::Left, DType::F16, {BLayout::ColMajor, SLayout::RowMajor}, 16, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(left, dn); }).code, "no error");
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(left, dn); }).code, "LEGAL_TMOV_LAYOUT");
}

TEST(TmovIllegal, ModesAndSplits)
{
    std::vector<std::byte> a, b;
    const TileDesc src = plain_tile(a, TileType::Vec, DType::F32, 4, 16);
    TileDesc dst = plain_tile(b, TileType::Vec, DType::F32, 4, 16);
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, src, ReluPreMode::NormalRelu); }).code, "LEGAL_TMOV_MODE");
    EXPECT_EQ(diagnostic_of([&] { engine::tmov(dst, src, ReluPreMode::NoRelu, AccToVecMode::DualModeSplitM); }).code,
              "LEGAL_TMOV_MODE");
    static_assert(!rules::is_acc_to_vec(TileType::Vec, TileType::Vec));

    std::mt19937 rng(3);
    std::vector<std::byte> c, e;
    TileDesc acc = make_tile(c, rng, TileType::Acc, DType::F32, {BLayout::ColMajor, SLayout::RowMajor}, 16, 16);
    acc.fractal_bytes = TileConfig::fractalCSize;
    acc.valid_cols = 15;
    TileDesc half_cols = plain_tile(e, TileType::Vec, DType::F32, 16, 8);
    half_cols.valid_cols = 7;
    const auto d =
        diagnostic_of([&] { engine::tmov(half_cols, acc, ReluPreMode::NoRelu, AccToVecMode::DualModeSplitN); });
    EXPECT_EQ(d.code, "RUN_TMOV_SPLIT");
    static_assert(!rules::tmov_split_ok(AccToVecMode::DualModeSplitN, 32, 16, 16));
    static_assert(rules::tmov_split_ok(AccToVecMode::DualModeSplitN, 32, 16, 64));
    static_assert(rules::tmov_split_ok(AccToVecMode::DualModeSplitN, 16, 16, 18));
    static_assert(!rules::tmov_split_ok(AccToVecMode::DualModeSplitM, 16, 15, 16));
}

TEST(TmovIllegal, SourceValidRegionTooSmall)
{
    std::vector<std::byte> a, b;
    TileDesc src = plain_tile(a, TileType::Vec, DType::I16, 8, 16);
    src.valid_rows = 3;
    const TileDesc dst = plain_tile(b, TileType::Vec, DType::I16, 8, 16);
    const auto d = diagnostic_of([&] { engine::tmov(dst, src); });
    EXPECT_EQ(d.code, "RUN_TMOV_VALID");
    EXPECT_TRUE(mentions(d, "3 x 16") && mentions(d, "8 x 16")) << d.message;
}

TEST(TmovChecked, SourceMustHaveBeenWrittenAndDestinationIsMarked)
{
    ScopedChecked checked;
    using T = Tile<TileType::Vec, float, 4, 16>;
    T a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x400);
    TASSIGN(c, 0x800);
    EXPECT_EQ(diagnostic_of([&] { TMOV(b, a); }).code, "RUN_UNINIT_READ");
    for (int i = 0; i < 64; ++i)
        a.SetValue(i, 1.0f);
    EXPECT_EQ(diagnostic_of([&] { TMOV(b, a); }).code, "no error");
    EXPECT_EQ(diagnostic_of([&] { TMOV(c, b); }).code, "no error");
}

TEST(Tmov, CpuProfileHalfAccumulatorWithReluKeepsItsElementSize)
{
    // The cpu profile moves an f16 accumulator into f16 (no real target has one): element by element,
    // negatives to +0, nothing written past the destination's valid region.
    std::mt19937 rng(12);
    std::vector<std::byte> as, vs;
    TileDesc acc = make_tile(as, rng, TileType::Acc, DType::F16, {BLayout::ColMajor, SLayout::RowMajor}, 16, 16);
    acc.fractal_bytes = 512;
    TileDesc vec = make_tile(vs, rng, TileType::Vec, DType::F16, {BLayout::RowMajor, SLayout::NoneBox}, 16, 32);
    vec.valid_cols = 16;
    for (int i = 0; i < 256; ++i) {
        const half h(float((i * 37) % 101) - 50.0f);
        std::memcpy(acc.data + 2 * i, &h, 2);
    }
    const std::vector<std::byte> before = vs;
    engine::tmov(vec, acc, ReluPreMode::NormalRelu);
    const auto acc_at = tile_offsets(acc);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c) {
            uint16_t got, want;
            std::memcpy(&got, vec.data + (r * 32 + c) * 2, 2);
            if (c < 16) {
                half v;
                std::memcpy(&v, acc.data + acc_at[size_t(r) * 16 + c] * 2, 2);
                want = float(v) < 0.0f ? uint16_t(0) : v.bits;
            } else {
                std::memcpy(&want, before.data() + (r * 32 + c) * 2, 2);
            }
            ASSERT_EQ(got, want) << r << "," << c;
        }
}
