// TEXTRACT and TINSERT against a reference walk of the tiles' storage: Mat -> Left/Right windows of every
// cube type from Nz and Zn tiles, accumulator windows converted, ReLU'd and quantized (scalar and table),
// Vec windows, TINSERT's untouched surroundings, the split insertion, the two-window TEXTRACT; every
// overload of the intrinsics; the illegal cases per target; checked mode; and the text door.
#include "acc_quant_reference.hpp"
#include "reference.hpp"
#include "support/asm_arguments.hpp"
#include "support/rule_codes.hpp"
#include "support/text_program.hpp"

using namespace pto;
using namespace dmtest;
using engine::TileDesc;
using engine::WindowStart;

namespace {

struct Arrangement {
    BLayout b;
    SLayout s;
};
constexpr Arrangement kNz{BLayout::ColMajor, SLayout::RowMajor};
constexpr Arrangement kZn{BLayout::RowMajor, SLayout::ColMajor};
constexpr Arrangement kNd{BLayout::RowMajor, SLayout::NoneBox};

TileDesc make_tile(std::vector<std::byte>& storage, std::mt19937& rng, TileType loc, DType t, Arrangement a, int rows,
                   int cols, int fractal = 512)
{
    TileDesc tile;
    tile.dtype = t;
    tile.loc = loc;
    tile.blayout = a.b;
    tile.slayout = a.s;
    tile.fractal_bytes = fractal;
    tile.rows = tile.valid_rows = rows;
    tile.cols = tile.valid_cols = cols;
    storage = random_bytes(storage_bytes(int64_t(rows) * cols, t), rng);
    tile.data = storage.data();
    return tile;
}

// dst(r, c) must equal src(r + src_row, c + src_col) inside rows x cols from (dst_row, dst_col), and keep
// `before` elsewhere; bit copies of one element type.
void expect_window(const TileDesc& dst, const std::vector<std::byte>& before, const TileDesc& src, int dst_row,
                   int dst_col, int src_row, int src_col, int rows, int cols)
{
    const auto dst_at = tile_offsets(dst), src_at = tile_offsets(src);
    const int bits = bits_of(dst.dtype);
    for (int r = 0; r < dst.rows; ++r)
        for (int c = 0; c < dst.cols; ++c) {
            const bool inside = r >= dst_row && r < dst_row + rows && c >= dst_col && c < dst_col + cols;
            const uint64_t got = element_at(dst.data, dst_at[size_t(r) * dst.cols + c], bits);
            const uint64_t want =
                inside ? element_at(src.data, src_at[size_t(r - dst_row + src_row) * src.cols + (c - dst_col + src_col)], bits)
                       : element_at(before.data(), dst_at[size_t(r) * dst.cols + c], bits);
            ASSERT_EQ(got, want) << dtype_name(dst.dtype) << " (" << r << ", " << c << ")";
        }
}

float f32_at(const TileDesc& t, int r, int c)
{
    float v;
    std::memcpy(&v, t.data + tile_offsets(t)[size_t(r) * t.cols + c] * 4, 4);
    return v;
}

uint16_t u16_at(const TileDesc& t, int r, int c)
{
    uint16_t v;
    std::memcpy(&v, t.data + tile_offsets(t)[size_t(r) * t.cols + c] * 2, 2);
    return v;
}

// An f32 accumulator (Nz, 1024-byte boxes) of finite random values, some negative.
TileDesc make_accumulator(std::vector<std::byte>& storage, std::mt19937& rng, int rows, int cols)
{
    TileDesc acc = make_tile(storage, rng, TileType::Acc, DType::F32, kNz, rows, cols, 1024);
    std::uniform_real_distribution<float> value(-300.0f, 300.0f);
    for (size_t i = 0; i < size_t(rows) * cols; ++i) {
        const float v = value(rng);
        std::memcpy(acc.data + i * 4, &v, 4);
    }
    return acc;
}

const DType kCubeTypes[] = {DType::F32, DType::F16, DType::BF16, DType::I8};

}  // namespace

TEST(Textract, MatWindowsIntoLeftAndRightForEveryCubeTypeAndArrangement)
{
    std::mt19937 rng(31);
    for (DType t : kCubeTypes) {
        const int br = 16, bc = 256 / engine::dtype_bits(t);
        for (const Arrangement from : {kNz, kZn}) {
            for (const TileType to : {TileType::Left, TileType::Right}) {
                const int fbr = from.s == SLayout::RowMajor ? br : bc, fbc = from.s == SLayout::RowMajor ? bc : br;
                const int rows = fbr * pick(rng, 2, 4), cols = fbc * pick(rng, 2, 4);
                std::vector<std::byte> ss, ds;
                const TileDesc src = make_tile(ss, rng, TileType::Mat, t, from, rows, cols);
                const Arrangement da = to == TileType::Left ? kNz : kZn;
                const int dbr = da.s == SLayout::RowMajor ? br : bc, dbc = da.s == SLayout::RowMajor ? bc : br;
                const int drows = std::max(dbr, fbr), dcols = std::max(dbc, fbc);
                TileDesc dst = make_tile(ds, rng, to, t, da, drows, dcols);
                dst.valid_rows = pick(rng, 1, drows);
                dst.valid_cols = pick(rng, 1, dcols);
                const int row = fbr * pick(rng, 0, (rows - drows) / fbr), col = fbc * pick(rng, 0, (cols - dcols) / fbc);
                const std::vector<std::byte> before = ds;
                ScopedTarget a2a3(profile::Target::A2A3);
                engine::textract(dst, src, WindowStart{row, col});
                expect_window(dst, before, src, 0, 0, row, col, dst.valid_rows, dst.valid_cols);
            }
        }
    }
}

TEST(Textract, VecWindowsOfEveryTypeAtAnyStartOnTheCpuProfile)
{
    std::mt19937 rng(32);
    for (DType t : movable_types()) {
        if (engine::dtype_bits(t) < 8) continue;
        std::vector<std::byte> ss, ds;
        const int rows = pick(rng, 4, 40), cols = 64;
        const TileDesc src = make_tile(ss, rng, TileType::Vec, t, kNd, rows, cols);
        TileDesc dst = make_tile(ds, rng, TileType::Vec, t, kNd, 8, 32);
        dst.valid_rows = pick(rng, 1, std::min(8, rows));
        dst.valid_cols = pick(rng, 1, 32);
        const int row = pick(rng, 0, rows - dst.valid_rows), col = pick(rng, 0, cols - dst.valid_cols);
        const std::vector<std::byte> before = ds;
        engine::textract(dst, src, WindowStart{row, col});
        expect_window(dst, before, src, 0, 0, row, col, dst.valid_rows, dst.valid_cols);
    }
}

TEST(Textract, AccumulatorWindowsConvertReluAndQuantizeByTheSourceColumn)
{
    std::mt19937 rng(33);
    std::vector<std::byte> as, hs, fs, qs, ts;
    const TileDesc acc = make_accumulator(as, rng, 64, 64);
    TileDesc half_mat = make_tile(hs, rng, TileType::Mat, DType::F16, kNz, 32, 32);
    TileDesc f32_mat = make_tile(fs, rng, TileType::Mat, DType::F32, kNz, 32, 32);
    TileDesc i8_mat = make_tile(qs, rng, TileType::Mat, DType::I8, kNz, 32, 32);
    half_mat.valid_rows = 19, half_mat.valid_cols = 23;
    // The fixpipe reads an accumulator element by element: any start is legal on the devices too.
    ScopedTarget a5(profile::Target::A5);
    const WindowStart start{13, 21};
    engine::textract(half_mat, acc, start);
    engine::textract(f32_mat, acc, start, ReluPreMode::NormalRelu);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            const float v = f32_at(acc, r + 13, c + 21);
            if (r < 19 && c < 23) {
                ASSERT_EQ(u16_at(half_mat, r, c), quantized_half(v)) << r << "," << c;
            }
            ASSERT_EQ(f32_at(f32_mat, r, c), v < 0.0f ? 0.0f : v) << r << "," << c;
        }
    // A pre-quant scalar, then a table whose words are indexed by the source column.
    const engine::AccQuantization scalar{.scalar = pre_quant(0.37f)};
    engine::textract(i8_mat, acc, start, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, &scalar);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            int8_t got;
            std::memcpy(&got, i8_mat.data + tile_offsets(i8_mat)[size_t(r) * 32 + c], 1);
            ASSERT_EQ(got, quantized_integer<int8_t>(f32_at(acc, r + 13, c + 21) * 0.37f)) << r << "," << c;
        }
    TileDesc table = make_tile(ts, rng, TileType::Scaling, DType::U64, kNd, 1, 64);
    std::vector<float> scales(64);
    for (int c = 0; c < 64; ++c) {
        scales[size_t(c)] = 0.01f * float(c + 1);
        const uint64_t word = pre_quant(scales[size_t(c)], uint64_t(c));
        std::memcpy(table.data + c * 8, &word, 8);
    }
    const engine::AccQuantization per_column{.per_column = &table};
    engine::textract(i8_mat, acc, start, ReluPreMode::NormalRelu, AccToVecMode::SingleModeVec0, &per_column);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            int8_t got;
            std::memcpy(&got, i8_mat.data + tile_offsets(i8_mat)[size_t(r) * 32 + c], 1);
            const float q = std::max(0.0f, f32_at(acc, r + 13, c + 21) * scales[size_t(c + 21)]);
            ASSERT_EQ(got, quantized_integer<int8_t>(q)) << r << "," << c;
        }
}

TEST(Tinsert, AccumulatorIntoAMatWindowLeavesTheRestAsItWas)
{
    std::mt19937 rng(34);
    for (int round = 0; round < 20; ++round) {
        std::vector<std::byte> as, ms, fs;
        TileDesc acc = make_accumulator(as, rng, 16 * pick(rng, 1, 2), 16 * pick(rng, 1, 2));
        acc.valid_rows = pick(rng, 1, acc.rows);
        acc.valid_cols = pick(rng, 1, acc.cols);
        TileDesc mat = make_tile(fs, rng, TileType::Mat, DType::F32, kNz, 64, 64);
        const int row = pick(rng, 0, 64 - acc.valid_rows), col = 8 * pick(rng, 0, (64 - acc.valid_cols) / 8);
        const std::vector<std::byte> before = fs;
        {
            ScopedTarget a2a3(profile::Target::A2A3);  // an Nz f32 destination: starts on 8-column boxes
            engine::tinsert(mat, acc, WindowStart{row, col});
        }
        expect_window(mat, before, acc, row, col, 0, 0, acc.valid_rows, acc.valid_cols);
        // Into half, with ReLU, at any start on the cpu profile.
        TileDesc half_mat = make_tile(ms, rng, TileType::Mat, DType::F16, kNz, 64, 64);
        const std::vector<std::byte> half_before = ms;
        const int hrow = pick(rng, 0, 64 - acc.valid_rows), hcol = pick(rng, 0, 64 - acc.valid_cols);
        engine::tinsert(half_mat, acc, WindowStart{hrow, hcol}, ReluPreMode::NormalRelu);
        const auto at = tile_offsets(half_mat);
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < 64; ++c) {
                const bool inside = r >= hrow && r < hrow + acc.valid_rows && c >= hcol && c < hcol + acc.valid_cols;
                uint16_t want;
                if (inside) {
                    want = quantized_half(std::max(0.0f, f32_at(acc, r - hrow, c - hcol)));
                } else {
                    std::memcpy(&want, half_before.data() + at[size_t(r) * 64 + c] * 2, 2);
                }
                ASSERT_EQ(u16_at(half_mat, r, c), want) << r << "," << c;
            }
    }
}

TEST(Tinsert, QuantizedFormsScaleBySourceColumn)
{
    std::mt19937 rng(35);
    std::vector<std::byte> as, ms, ts;
    const TileDesc acc = make_accumulator(as, rng, 16, 32);
    TileDesc mat = make_tile(ms, rng, TileType::Mat, DType::I8, kNz, 64, 64);
    TileDesc table = make_tile(ts, rng, TileType::Scaling, DType::U64, kNd, 1, 32);
    std::vector<float> scales(32);
    for (int c = 0; c < 32; ++c) {
        scales[size_t(c)] = 0.02f * float(32 - c);
        const uint64_t word = pre_quant(scales[size_t(c)]);
        std::memcpy(table.data + c * 8, &word, 8);
    }
    const engine::AccQuantization per_column{.per_column = &table};
    const std::vector<std::byte> before = ms;
    engine::tinsert(mat, acc, WindowStart{16, 32}, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, &per_column);
    const auto at = tile_offsets(mat);
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c) {
            int8_t got, want;
            std::memcpy(&got, mat.data + at[size_t(r) * 64 + c], 1);
            const bool inside = r >= 16 && r < 32 && c >= 32;
            if (inside) {
                want = quantized_integer<int8_t>(f32_at(acc, r - 16, c - 32) * scales[size_t(c - 32)]);
            } else {
                std::memcpy(&want, before.data() + at[size_t(r) * 64 + c], 1);
            }
            ASSERT_EQ(got, want) << r << "," << c;
        }
}

TEST(Tinsert, VecWindowsAndTheSplitInsertionOfAnNzTile)
{
    std::mt19937 rng(36);
    for (DType t : {DType::F32, DType::F16, DType::I8, DType::U16}) {
        std::vector<std::byte> ss, ds;
        TileDesc src = make_tile(ss, rng, TileType::Vec, t, kNd, 8, 64);
        src.valid_rows = pick(rng, 1, 8);
        src.valid_cols = pick(rng, 1, 64);
        TileDesc dst = make_tile(ds, rng, TileType::Vec, t, kNd, 32, 128);
        const int row = pick(rng, 0, 32 - src.valid_rows), col = pick(rng, 0, 128 - src.valid_cols);
        const std::vector<std::byte> before = ds;
        engine::tinsert(dst, src, WindowStart{row, col});
        expect_window(dst, before, src, row, col, 0, 0, src.valid_rows, src.valid_cols);
    }
    std::vector<std::byte> ss, ds;
    const TileDesc nz = make_tile(ss, rng, TileType::Vec, DType::F16, kNz, 32, 32);
    TileDesc mat = make_tile(ds, rng, TileType::Mat, DType::F16, kNz, 64, 64);
    const std::vector<std::byte> before = ds;
    ScopedTarget a5(profile::Target::A5);
    engine::tinsert(mat, nz, WindowStart{16, 16}, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, nullptr,
                    TInsertMode::SPLIT4);
    expect_window(mat, before, nz, 16, 16, 0, 0, 32, 32);
}

TEST(WindowIntrinsics, EveryOverloadCompilesAndMovesItsWindow)
{
    using MatT = Tile<TileType::Mat, half, 64, 64, BLayout::ColMajor, 64, 64, SLayout::RowMajor>;
    using LeftT = TileLeft<half, 32, 32>;
    using RightT = TileRight<half, 32, 32>;
    MatT mat;
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c) mat.SetValue(uint32_t(GetTileOffset<MatT>(r, c)), half(float(r - c) * 0.25f));
    LeftT left;
    RightT right;
    TEXTRACT(left, mat, 32, 16);
    Event<Op::TEXTRACT_M2LR, Op::TMATMUL> done = TEXTRACT(right, mat);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            ASSERT_EQ(left.GetValue(uint32_t(GetTileOffset<LeftT>(r, c))).bits, half(float(r + 32 - c - 16) * 0.25f).bits);
            ASSERT_EQ(right.GetValue(uint32_t(GetTileOffset<RightT>(r, c))).bits, half(float(r - c) * 0.25f).bits);
        }
    TEXTRACT(left, mat, 0, 32, done);

    using AccT = TileAcc<float, 32, 32>;
    using OutT = Tile<TileType::Mat, half, 64, 64, BLayout::ColMajor, 64, 64, SLayout::RowMajor>;
    using I8T = Tile<TileType::Mat, int8_t, 32, 64, BLayout::ColMajor, 32, 64, SLayout::RowMajor>;
    using VecT = Tile<TileType::Vec, float, 16, 32>;
    using FpT = Tile<TileType::Scaling, uint64_t, 1, 32>;
    AccT acc;
    for (int i = 0; i < 32 * 32; ++i) acc.SetValue(uint32_t(i), float(i % 97) - 48.0f);
    OutT out;
    I8T q;
    VecT vec;
    FpT fp;
    for (int c = 0; c < 32; ++c) fp.SetValue(uint32_t(c), pre_quant(0.5f));
    TINSERT(out, acc, 0, 32);
    TINSERT<OutT, AccT, ReluPreMode::NormalRelu>(out, acc, 32, 0);
    TINSERT<I8T, AccT>(q, acc, pre_quant(0.25f), 0, 32);
    TINSERT_FP(q, acc, fp, 0, 0);
    using Out32T = Tile<TileType::Mat, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor>;
    using Q32T = Tile<TileType::Mat, int8_t, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor>;
    Out32T relu32;
    Q32T scaled, tabled;
    TEXTRACT<Out32T, AccT, ReluPreMode::NormalRelu>(relu32, acc, 0, 0);
    TEXTRACT<Q32T, AccT>(scaled, acc, pre_quant(0.25f), 0, 0);
    TEXTRACT_FP(tabled, acc, fp, 0, 0);
    TEXTRACT<VecT, AccT, AccToVecMode::DualModeSplitM>(vec, acc, 0, 0);
    TEXTRACT<VecT, AccT, AccToVecMode::SingleModeVec0, ReluPreMode::NormalRelu>(vec, acc, 16, 0);
    TEXTRACT<VecT, AccT, FpT, AccToVecMode::SingleModeVec0>(vec, acc, fp, 16, 0);
    TINSERT<VecT, AccT, AccToVecMode::DualModeSplitM>(vec, acc, 0, 0);  // this core's half: rows 0-15
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c)
            ASSERT_EQ(vec.GetValue(uint32_t(r * 32 + c)), acc.GetValue(uint32_t(GetTileOffset<AccT>(r, c))));
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            const float v = acc.GetValue(uint32_t(GetTileOffset<AccT>(r, c)));
            ASSERT_EQ(out.GetValue(uint32_t(GetTileOffset<OutT>(r, c + 32))).bits, half(v).bits);
            ASSERT_EQ(out.GetValue(uint32_t(GetTileOffset<OutT>(r + 32, c))).bits, half(std::max(v, 0.0f)).bits);
            ASSERT_EQ(q.GetValue(uint32_t(GetTileOffset<I8T>(r, c))), quantized_integer<int8_t>(v * 0.5f));
            ASSERT_EQ(q.GetValue(uint32_t(GetTileOffset<I8T>(r, c + 32))), quantized_integer<int8_t>(v * 0.25f));
            ASSERT_EQ(relu32.GetValue(uint32_t(GetTileOffset<Out32T>(r, c))).bits, half(std::max(v, 0.0f)).bits);
            ASSERT_EQ(scaled.GetValue(uint32_t(GetTileOffset<Q32T>(r, c))), quantized_integer<int8_t>(v * 0.25f));
            ASSERT_EQ(tabled.GetValue(uint32_t(GetTileOffset<Q32T>(r, c))), quantized_integer<int8_t>(v * 0.5f));
        }

    // Two windows of one ND Vec tile, each into its own Nz Vec tile.
    using NdT = Tile<TileType::Vec, half, 32, 64>;
    using NzT = Tile<TileType::Vec, half, 16, 32, BLayout::ColMajor, 16, 32, SLayout::RowMajor>;
    NdT nd;
    for (int i = 0; i < 32 * 64; ++i) nd.SetValue(uint32_t(i), half(float(i % 1000)));
    NzT w0, w1;
    TEXTRACT(w0, w1, nd, 0, 0, 16, 32);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c) {
            ASSERT_EQ(w0.GetValue(uint32_t(GetTileOffset<NzT>(r, c))).bits, nd.GetValue(uint32_t(r * 64 + c)).bits);
            ASSERT_EQ(w1.GetValue(uint32_t(GetTileOffset<NzT>(r, c))).bits, nd.GetValue(uint32_t((r + 16) * 64 + c + 32)).bits);
        }
    using MatH = Tile<TileType::Mat, half, 64, 64, BLayout::ColMajor, 64, 64, SLayout::RowMajor>;
    MatH target;
    TINSERT<TInsertMode::SPLIT2>(target, w1, 16, 0);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c)
            ASSERT_EQ(target.GetValue(uint32_t(GetTileOffset<MatH>(r + 16, c))).bits,
                      w1.GetValue(uint32_t(GetTileOffset<NzT>(r, c))).bits);
}

TEST(WindowIllegal, EachRuleNamesItsProblemPerTarget)
{
    std::mt19937 rng(37);
    std::vector<std::byte> a, b, c, d;
    const TileDesc mat = make_tile(a, rng, TileType::Mat, DType::F16, kNz, 64, 64);
    const TileDesc nd_mat = make_tile(d, rng, TileType::Mat, DType::F16, kNd, 64, 64);
    const TileDesc left = make_tile(b, rng, TileType::Left, DType::F16, kNz, 32, 32);
    const TileDesc vec = make_tile(c, rng, TileType::Vec, DType::F16, kNd, 32, 32);
    using profile::Target;
    const auto textract_code = [&](Target t, const TileDesc& dst, const TileDesc& src, WindowStart s) {
        return test::first_code_on(t, [&](const profile::Profile& p, engine::LegalitySink& sink) {
            engine::check_textract(p, dst, src, &s, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, sink);
        });
    };
    EXPECT_EQ(textract_code(Target::A2A3, left, mat, {16, 16}), "none");
    EXPECT_EQ(textract_code(Target::A2A3, left, mat, {8, 16}), "RUN_TEXTRACT_ALIGN");
    EXPECT_EQ(textract_code(Target::A5, left, mat, {16, 8}), "RUN_TEXTRACT_ALIGN");
    EXPECT_EQ(textract_code(Target::Cpu, left, mat, {8, 8}), "none");
    EXPECT_EQ(textract_code(Target::A2A3, left, mat, {48, 0}), "RUN_TEXTRACT_RANGE");
    EXPECT_EQ(textract_code(Target::Cpu, left, mat, {0, -1}), "RUN_TEXTRACT_RANGE");
    EXPECT_EQ(textract_code(Target::A2A3, left, vec, {0, 0}), "LEGAL_TEXTRACT_LOCATION");
    EXPECT_EQ(textract_code(Target::A2A3, left, nd_mat, {0, 0}), "LEGAL_TEXTRACT_LAYOUT");
    EXPECT_EQ(textract_code(Target::Cpu, left, nd_mat, {0, 0}), "none");
    std::vector<std::byte> h;
    const TileDesc vec_part = make_tile(h, rng, TileType::Vec, DType::F16, kNd, 16, 16);
    EXPECT_EQ(textract_code(Target::A2A3, vec_part, vec, {0, 3}), "RUN_TEXTRACT_ALIGN");  // 6 bytes into a row
    EXPECT_EQ(textract_code(Target::A5, vec_part, vec, {0, 3}), "none");
    std::vector<std::byte> e, f;
    TileDesc left_f32 = make_tile(e, rng, TileType::Left, DType::F32, kNz, 32, 32);
    EXPECT_EQ(textract_code(Target::A2A3, left_f32, mat, {0, 0}), "LEGAL_TMOV_DTYPE");
    const TileDesc acc = make_accumulator(f, rng, 32, 32);
    const auto tinsert_code = [&](Target t, const TileDesc& dst, const TileDesc& src, WindowStart s,
                                  std::optional<TInsertMode> mode = std::nullopt) {
        return test::first_code_on(t, [&](const profile::Profile& p, engine::LegalitySink& sink) {
            engine::check_tinsert(p, dst, src, &s, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, sink, nullptr, mode);
        });
    };
    EXPECT_EQ(tinsert_code(Target::A2A3, mat, acc, {3, 16}), "none");  // Nz: any row, a box column
    EXPECT_EQ(tinsert_code(Target::A2A3, mat, acc, {0, 8}), "RUN_TINSERT_ALIGN");
    EXPECT_EQ(tinsert_code(Target::A2A3, mat, acc, {40, 0}), "RUN_TINSERT_RANGE");
    EXPECT_EQ(tinsert_code(Target::A2A3, mat, vec, {0, 0}), "LEGAL_TINSERT_LOCATION");
    EXPECT_EQ(tinsert_code(Target::A5, mat, vec, {0, 0}), "none");
    EXPECT_EQ(tinsert_code(Target::A5, nd_mat, vec, {0, 0}), "LEGAL_TINSERT_LAYOUT");
    EXPECT_EQ(tinsert_code(Target::A5, left, acc, {0, 0}), "LEGAL_TINSERT_LOCATION");
    EXPECT_EQ(tinsert_code(Target::A5, mat, vec, {0, 0}, TInsertMode::SPLIT2), "LEGAL_TINSERT_MODE");  // ND source
    EXPECT_EQ(tinsert_code(Target::A2A3, mat, mat, {0, 0}, TInsertMode::SPLIT2), "LEGAL_TINSERT_MODE");

    // At run time: the diagnostic names the window.
    std::vector<std::byte> g;
    TileDesc small = make_tile(g, rng, TileType::Left, DType::F16, kNz, 32, 32);
    const Diagnostic range = diagnostic_of([&] { engine::textract(small, mat, WindowStart{48, 0}); });
    EXPECT_EQ(range.code, "RUN_TEXTRACT_RANGE");
    EXPECT_TRUE(mentions(range, "32x32 at [48, 0]")) << range.format();
}

TEST(WindowChecked, ReadsOnlyTheWindowTinsertMarksOnlyItsWindowAndCpuOnlyStartsWarn)
{
    ScopedChecked checked;
    using BigT = Tile<TileType::Vec, float, 16, 32>;
    using PartT = Tile<TileType::Vec, float, 8, 16>;
    BigT big;
    PartT part, out;
    Tile<TileType::Vec, float, 8, 8> narrow;
    TASSIGN(big, 0x0);
    TASSIGN(part, 0x1000);
    TASSIGN(out, 0x2000);
    TASSIGN(narrow, 0x3000);
    for (int i = 0; i < 8 * 16; ++i) part.SetValue(uint32_t(i), float(i));
    EXPECT_EQ(diagnostic_of([&] { TINSERT(big, part, 8, 16); }).code, "no error");
    EXPECT_EQ(diagnostic_of([&] { TEXTRACT(out, big, 8, 16); }).code, "no error");
    const Diagnostic unwritten = diagnostic_of([&] { TEXTRACT(out, big, 0, 16); });
    EXPECT_EQ(unwritten.code, "RUN_UNINIT_READ");
    EXPECT_TRUE(mentions(unwritten, "(0, 16)")) << unwritten.format();
    // A start 12 bytes into a row: the cpu profile moves it, a2a3 could not (and a5 moves ND windows
    // anywhere, so no warning names a rule both targets break).
    runtime::clear_warnings();
    TEXTRACT(narrow, big, 8, 19);
    EXPECT_TRUE(runtime::warnings().empty());
    using MatT = Tile<TileType::Mat, float, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor>;
    using LeftT = TileLeft<float, 16, 16>;
    MatT mat;
    LeftT left;
    for (int i = 0; i < 32 * 32; ++i) mat.SetValue(uint32_t(i), float(i));
    TEXTRACT(left, mat, 4, 0);  // not on a 16-row box: both targets load whole fractals
    ASSERT_EQ(runtime::warnings().size(), 1u);
    EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
    EXPECT_TRUE(mentions(runtime::warnings()[0], "RUN_TEXTRACT_ALIGN"));
}

namespace {

const char* kCubeProgram = R"(func.func @windows(%a: !pto.ptr<f16>, %c: !pto.ptr<f32>, %m: !pto.ptr<f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %av = pto.make_tensor_view %a, shape = [%c64, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf16>
  %cv = pto.make_tensor_view %c, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %mv = pto.make_tensor_view %m, shape = [%c64, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf16>
  %mat = pto.alloc_tile : !pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>
  %out = pto.alloc_tile : !pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>
  %l = pto.alloc_tile : !pto.tile_buf<left, 32x32xf16, blayout=col_major, slayout=row_major>
  %r = pto.alloc_tile : !pto.tile_buf<right, 32x32xf16, blayout=row_major, slayout=col_major>
  %acc = pto.alloc_tile : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>
  pto.tload ins(%av : !pto.tensor_view<?x?xf16>) outs(%mat : !pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>)
  pto.tload ins(%av : !pto.tensor_view<?x?xf16>) outs(%out : !pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>)
  pto.textract ins(%mat, %c32, %c16 : !pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>, index, index) outs(%l : !pto.tile_buf<left, 32x32xf16, blayout=col_major, slayout=row_major>)
  %r2 = pto.textract %mat, %c0, %c32 : (!pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>, index, index) -> !pto.tile_buf<right, 32x32xf16, blayout=row_major, slayout=col_major>
  pto.tmatmul ins(%l, %r2 : !pto.tile_buf<left, 32x32xf16, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x32xf16, blayout=row_major, slayout=col_major>) outs(%acc : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>)
  pto.tinsert ins(%acc, %c16, %c32 : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>, index, index) outs(%out : !pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>) {relu = normal_relu}
  pto.tstore ins(%acc : !pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>) outs(%cv : !pto.tensor_view<?x?xf32>)
  pto.tstore ins(%out : !pto.tile_buf<mat, 64x64xf16, blayout=col_major, slayout=row_major>) outs(%mv : !pto.tensor_view<?x?xf16>)
  return
}
)";

}  // namespace

TEST(WindowText, ExtractLeftAndRightWindowsMultiplyAndInsertTheProduct)
{
    std::mt19937 rng(39);
    std::vector<half> a(64 * 64), m(64 * 64);
    std::vector<float> c(32 * 32);
    for (auto& v : a) v = half(std::ldexp(float(int(rng() % 31) - 15), int(rng() % 5) - 4));
    const as::RunResult r = test::run_verified(kCubeProgram, "windows.pto", {test::argument("a", a), test::argument("c", c), test::argument("m", m)},
                                               profile::Target::A2A3);
    ASSERT_TRUE(r.ok()) << test::first_diagnostic(r);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < 32; ++k)
                sum = std::fma(float(a[size_t((32 + i) * 64 + 16 + k)]), float(a[size_t(k * 64 + 32 + j)]), sum);
            ASSERT_EQ(c[size_t(i * 32 + j)], sum) << i << "," << j;
        }
    for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 64; ++j) {
            const bool inside = i >= 16 && i < 48 && j >= 32;
            const uint16_t want = inside ? quantized_half(std::max(0.0f, c[size_t((i - 16) * 32 + j - 32)])) : a[size_t(i * 64 + j)].bits;
            ASSERT_EQ(m[size_t(i * 64 + j)].bits, want) << i << "," << j;
        }
}

TEST(WindowText, TheVerifierReportsAWindowOutsideTheSourceAndAMisalignedStart)
{
    const std::string bad_range = std::string(kCubeProgram).replace(std::string(kCubeProgram).find("%c0, %c32"), 9, "%c0, %c64");
    const as::ParseResult parsed = as::parse(bad_range, "windows.pto");
    ASSERT_TRUE(parsed.ok());
    std::vector<std::string> codes;
    for (const auto& d : as::verify(parsed.module, profile::Target::A2A3)) codes.push_back(d.code);
    EXPECT_NE(std::find(codes.begin(), codes.end(), "RUN_TEXTRACT_RANGE"), codes.end());
    const std::string misaligned =
        std::string(kCubeProgram).replace(std::string(kCubeProgram).find("%mat, %c32, %c16"), 16, "%mat, %c32, %c1");
    const as::ParseResult p2 = as::parse(misaligned, "windows.pto");
    ASSERT_TRUE(p2.ok());
    codes.clear();
    for (const auto& d : as::verify(p2.module, profile::Target::A2A3)) codes.push_back(d.code);
    EXPECT_NE(std::find(codes.begin(), codes.end(), "RUN_TEXTRACT_ALIGN"), codes.end());
}

TEST(Textract, ConvolutionWeightsInFractalZIntoRight)
{
    // [C1HW = 4, N1 = 3, 16, C0 = 16] half: a K = 64 by N = 48 Zn matrix; and [C1, H, W, N, C0] = [2, 1, 2, 32, 16].
    using Weights = ConvTile<TileType::Mat, half, 4 * 3 * 16 * 16 * 2, Layout::FRACTAL_Z, ConvTileShape<4, 3, 16, 16>>;
    using Weights5 = ConvTile<TileType::Mat, half, 2 * 1 * 2 * 32 * 16 * 2, Layout::FRACTAL_Z, ConvTileShape<2, 1, 2, 32, 16>>;
    using RightT = TileRight<half, 32, 16>;
    Weights w;
    Weights5 w5;
    TASSIGN(w, 0x0);
    TASSIGN(w5, 0x8000);
    auto* wp = reinterpret_cast<half*>(w.data());
    auto* w5p = reinterpret_cast<half*>(w5.data());
    for (int i = 0; i < 4 * 3 * 16 * 16; ++i) wp[i] = half(float(i % 2000) * 0.5f);
    for (int i = 0; i < 2 * 2 * 32 * 16; ++i) w5p[i] = half(float(i % 1500) * -0.25f);
    // Element (k, n) of the weights: box (k / 16, n / 16) in row-major box order, then n % 16 columns of
    // 16 consecutive k.
    const auto at = [](int k, int n, int n_boxes) { return ((k / 16) * n_boxes + n / 16) * 256 + (n % 16) * 16 + k % 16; };
    RightT r;
    TEXTRACT(r, w, 16, 32);
    for (int k = 0; k < 32; ++k)
        for (int n = 0; n < 16; ++n)
            ASSERT_EQ(r.GetValue(uint32_t(GetTileOffset<RightT>(k, n))).bits, wp[at(k + 16, n + 32, 3)].bits) << k << "," << n;
    TEXTRACT(r, w5, 32, 16);
    for (int k = 0; k < 32; ++k)
        for (int n = 0; n < 16; ++n)
            ASSERT_EQ(r.GetValue(uint32_t(GetTileOffset<RightT>(k, n))).bits, w5p[at(k + 32, n + 16, 2)].bits) << k << "," << n;
    EXPECT_EQ(diagnostic_of([&] { TEXTRACT(r, w, 48, 0); }).code, "RUN_TEXTRACT_RANGE");
    using Blocked = ConvTile<TileType::Mat, half, 4096, Layout::NC1HWC0, ConvTileShape<1, 1, 8, 16, 16>>;
    Blocked nc1hwc0;
    EXPECT_EQ(diagnostic_of([&] { engine::textract(r.desc(), nc1hwc0.desc(), WindowStart{0, 0}); }).code,
              "LEGAL_TEXTRACT_LAYOUT");
}

TEST(WindowCpuProfile, AnyTilesAnyTypesAndTablesOutsideTheFixpipeIgnored)
{
    // The CPU simulation's windows: Mat -> Mat converting half to float, Vec int32 into Vec float (values
    // converted), TEXTRACT_FP of a Vec tile (no fixpipe: its table is ignored); the real targets reject them.
    using SrcT = Tile<TileType::Mat, half, 32, 32>;
    using DstT = Tile<TileType::Mat, float, 32, 32, BLayout::RowMajor, 16, 8>;
    SrcT src;
    DstT dst;
    for (int i = 0; i < 32 * 32; ++i) src.SetValue(uint32_t(i), half(float(i % 301) * 0.25f - 30.0f));
    TEXTRACT(dst, src, 8, 16);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 8; ++c) ASSERT_EQ(dst.GetValue(uint32_t(r * 32 + c)), float(src.GetValue(uint32_t((r + 8) * 32 + c + 16))));
    using IntT = Tile<TileType::Vec, int32_t, 8, 8>;
    using FloatT = Tile<TileType::Vec, float, 16, 16>;
    IntT ints;
    FloatT floats;
    for (int i = 0; i < 64; ++i) ints.SetValue(uint32_t(i), (i - 30) * 1000003);
    for (int i = 0; i < 256; ++i) floats.SetValue(uint32_t(i), -1.0f);
    TINSERT(floats, ints, 4, 8);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            const bool inside = r >= 4 && r < 12 && c >= 8;
            ASSERT_EQ(floats.GetValue(uint32_t(r * 16 + c)), inside ? float(ints.GetValue(uint32_t((r - 4) * 8 + c - 8))) : -1.0f);
        }
    using FpT = Tile<TileType::Vec, float, 1, 16>;
    FpT fp;
    for (int i = 0; i < 16; ++i) fp.SetValue(uint32_t(i), 3.0f);
    using Part = Tile<TileType::Vec, float, 8, 8>;
    Part part;
    TEXTRACT_FP(part, floats, fp, 4, 8);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) ASSERT_EQ(part.GetValue(uint32_t(r * 8 + c)), floats.GetValue(uint32_t((r + 4) * 16 + c + 8)));
    std::mt19937 rng(40);
    std::vector<std::byte> a, b;
    const TileDesc mat_half = make_tile(a, rng, TileType::Mat, DType::F16, kNd, 32, 32);
    const TileDesc mat_float = make_tile(b, rng, TileType::Mat, DType::F32, kNd, 32, 32);
    const WindowStart at{0, 0};
    for (const profile::Target t : {profile::Target::A2A3, profile::Target::A5})
        EXPECT_EQ(test::first_code_on(t, [&](const profile::Profile& p, engine::LegalitySink& sink) {
                      engine::check_textract(p, mat_float, mat_half, &at, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0, sink);
                  }),
                  "LEGAL_TEXTRACT_LOCATION");
    ScopedChecked checked;
    runtime::clear_warnings();
    TEXTRACT(dst, src, 0, 0);
    ASSERT_EQ(runtime::warnings().size(), 1u);
    EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
}
