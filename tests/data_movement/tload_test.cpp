// TLOAD against the reference model: every element type, every layout pair, 5-D tensors with padded
// strides, partial and run-time valid regions, every pad value; and each illegal case.
#include "reference.hpp"

#include <acl/acl.h>
#include <pto/numeric/convert.hpp>

#include <algorithm>
#include <array>
#include <cmath>

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

// Every layout pair TLOAD supports.
const Pairing kPairings[] = {
    {Layout::ND, TileType::Vec, BLayout::RowMajor, SLayout::NoneBox},
    {Layout::DN, TileType::Vec, BLayout::ColMajor, SLayout::NoneBox},
    {Layout::NZ, TileType::Vec, BLayout::ColMajor, SLayout::RowMajor},
    {Layout::ND, TileType::Mat, BLayout::RowMajor, SLayout::NoneBox},
    {Layout::DN, TileType::Mat, BLayout::ColMajor, SLayout::NoneBox},
    {Layout::NZ, TileType::Mat, BLayout::ColMajor, SLayout::RowMajor},
    {Layout::ND, TileType::Mat, BLayout::ColMajor, SLayout::RowMajor},  // ND -> Nz
    {Layout::DN, TileType::Mat, BLayout::RowMajor, SLayout::ColMajor},  // DN -> Zn
};

int pick(std::mt19937& rng, int lo, int hi)
{
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// A random tile of `t` in `p`'s arrangement with a random valid region.
TileDesc random_tile(std::mt19937& rng, DType t, const Pairing& p, std::vector<std::byte>& storage)
{
    TileDesc tile;
    tile.dtype = t;
    tile.loc = p.loc;
    tile.blayout = p.b;
    tile.slayout = p.s;
    int br, bc;
    box_shape(p.s, 512, tile.element_bits(), br, bc);
    const int line = line_elements(t);  // elements in the 32 bytes an unboxed line is a multiple of
    if (p.s != SLayout::NoneBox) {
        tile.rows = br * pick(rng, 1, 2);
        tile.cols = bc * pick(rng, 1, 3);
    } else if (p.b == BLayout::RowMajor) {
        tile.rows = pick(rng, 1, 12);
        tile.cols = line * pick(rng, 1, 3);
    } else {
        tile.rows = line * pick(rng, 1, 3);
        tile.cols = pick(rng, 1, 12);
    }
    tile.valid_rows = pick(rng, 0, 3) == 0 ? tile.rows : pick(rng, 1, tile.rows);
    tile.valid_cols = pick(rng, 0, 3) == 0 ? tile.cols : pick(rng, 1, tile.cols);
    storage = random_bytes(storage_bytes(int64_t(tile.rows) * tile.cols, t), rng);
    tile.data = storage.data();
    return tile;
}

int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

// A random tensor whose 2-D view covers rows x cols.
Global random_global(std::mt19937& rng, Layout layout, bool two_d, int64_t rows, int64_t cols)
{
    Global g;
    g.layout = layout;
    for (int d = 0; d < 3; ++d)
        g.shape[d] = two_d ? 1 : pick(rng, 1, 2);
    const int64_t outer = g.shape[0] * g.shape[1] * g.shape[2];
    if (layout == Layout::ND) {
        g.shape[3] = ceil_div(rows, outer) + pick(rng, 0, 1);
        g.shape[4] = cols + pick(rng, 0, 3);
    } else if (layout == Layout::DN) {
        g.shape[3] = rows + pick(rng, 0, 3);
        g.shape[4] = ceil_div(cols, outer) + pick(rng, 0, 1);
    } else {
        g.shape[2] = 1;
        g.shape[3] = pick(rng, 1, 5);
        g.shape[2] = ceil_div(rows, g.shape[3]) + pick(rng, 0, 1);
        const int64_t col_blocks = g.shape[0] * g.shape[1];
        g.shape[4] = ceil_div(cols, col_blocks) + pick(rng, 0, 1);
    }
    pad_strides(g, rng, true);
    return g;
}

// 64-bit elements move only between ND and DN.
bool supported(DType t, const Pairing& p)
{
    return rules::gm_layout_ok(p.loc, p.global, p.b, p.s, 16, 16, t);
}

bool converts(const Pairing& p)
{
    return (p.global == Layout::ND && p.s != SLayout::NoneBox) || (p.global == Layout::DN && p.s != SLayout::NoneBox);
}

// Loads a random tensor into a random tile and checks every element of the capacity.
void check_random_load(std::mt19937& rng, DType t, const Pairing& p, PadValue pad, uint64_t pad_pattern)
{
    std::vector<std::byte> storage;
    TileDesc tile = random_tile(rng, t, p, storage);
    tile.pad = pad;
    const Global g = random_global(rng, p.global, converts(p), tile.valid_rows, tile.valid_cols);
    std::vector<std::byte> gm = random_bytes(storage_bytes(g.span(), t), rng);
    const std::vector<std::byte> before = storage;

    engine::tload(tile, g.desc(gm.data(), t));

    const auto tile_at = tile_offsets(tile);
    const auto global_at = g.offsets();
    const int bits = bits_of(t);
    for (int r = 0; r < tile.rows; ++r) {
        for (int c = 0; c < tile.cols; ++c) {
            const uint64_t got = element_at(storage.data(), tile_at[size_t(r) * tile.cols + c], bits);
            if (r < tile.valid_rows && c < tile.valid_cols) {
                const uint64_t want = element_at(gm.data(), global_at[size_t(r) * g.cols() + c], bits);
                ASSERT_EQ(got, want)
                    << dtype_name(t) << " element (" << r << ", " << c << ") of a " << tile.rows << "x" << tile.cols
                    << " tile, layout " << int(p.global);
            } else if (pad == PadValue::Null && runtime::active_profile().target != profile::Target::Cpu) {
                const uint64_t was = element_at(before.data(), tile_at[size_t(r) * tile.cols + c], bits);
                ASSERT_EQ(got, was) << "Null pad changed (" << r << ", " << c << ")";
            } else {
                ASSERT_EQ(got, pad_pattern) << "pad at (" << r << ", " << c << ")";
            }
        }
    }
}

}  // namespace

TEST(Tload, EveryTypeEveryLayoutPairAgainstTheReference)
{
    std::mt19937 rng(20240611);
    for (DType t : movable_types()) {
        for (const Pairing& p : kPairings) {
            if (!supported(t, p)) continue;
            for (int i = 0; i < 12; ++i)
                check_random_load(rng, t, p, PadValue::Null, 0);
        }
    }
}

// Null pad: the cpu profile zero-fills outside the valid region (as the public CPU simulation does);
// a5 leaves those bytes as they were.
TEST(Tload, NullPadZeroFillsOnCpuAndKeepsTheTileOnRealTargets)
{
    std::mt19937 rng(13);
    for (DType t : {DType::F32, DType::F16, DType::I8, DType::U16}) {
        for (const Pairing& p : kPairings) {
            if (!supported(t, p)) continue;
            check_random_load(rng, t, p, PadValue::Null, 0);
            ScopedTarget a5(profile::Target::A5);
            check_random_load(rng, t, p, PadValue::Null, 0);
        }
    }
}

TEST(Tload, ZeroPadFillsOutsideTheValidRegion)
{
    std::mt19937 rng(7);
    for (DType t : movable_types()) {
        for (const Pairing& p : kPairings) {
            if (supported(t, p)) check_random_load(rng, t, p, PadValue::Zero, 0);
        }
    }
}

TEST(Tload, PadValuesPerType)
{
    struct Expect {
        DType type;
        PadValue pad;
        uint64_t bits;
    };
    const Expect cases[] = {
        {DType::F32, PadValue::Max, 0x7F800000},
        {DType::F32, PadValue::Min, 0xFF800000},
        {DType::F32, PadValueCustom(-1.5f), 0xBFC00000},
        {DType::F16, PadValue::Max, 0x7C00},
        {DType::F16, PadValue::Min, 0xFC00},
        {DType::F16, PadValueCustom(-1.5f), 0xBE00},
        {DType::F16, PadValueCustom16(0x1234), 0x1234},
        {DType::BF16, PadValue::Max, 0x7F80},
        {DType::BF16, PadValue::Min, 0xFF80},
        {DType::BF16, PadValueCustom(-1.5f), 0xBFC0},
        {DType::I8, PadValue::Max, 0x7F},
        {DType::I8, PadValue::Min, 0x80},
        {DType::I8, PadCustom<-3>, 0xFD},
        {DType::U8, PadValue::Min, 0x00},
        {DType::U16, PadValue::Max, 0xFFFF},
        {DType::U16, PadCustom<42>, 0x2A},
        {DType::I16, PadValue::Min, 0x8000},
        {DType::I32, PadValue::Max, 0x7FFFFFFF},
        {DType::I32, PadValue::Min, 0x80000000},
        {DType::U32, PadCustom<0x12345678u>, 0x12345678},
        {DType::I64, PadValue::Max, 0x7FFFFFFFFFFFFFFFull},
        {DType::I64, PadCustom<-3>, 0xFFFFFFFFFFFFFFFDull},
        {DType::U64, PadValue::Max, ~0ull},
        {DType::U64, PadCustom<-1>, 0xFFFFFFFFull},
        {DType::F8E4M3, PadValue::Max, 0x7E},
        {DType::F8E4M3, PadValue::Min, 0xFE},  // +-448: no inf
        {DType::F8E4M3, PadValueCustom(2.0f), 0x40},
        {DType::F8E5M2, PadValue::Max, 0x7C},
        {DType::F8E5M2, PadValue::Min, 0xFC},
        {DType::F8E8M0, PadValue::Max, 0xFE},  // 2^127
        {DType::F4E2M1x2, PadValue::Max, 0x7},
        {DType::F4E2M1x2, PadValue::Min, 0xF},  // +-6
        {DType::F4E1M2x2, PadValue::Max, 0x7},
        {DType::F4E1M2x2, PadValueCustom(-0.5f), 0xA},
    };
    for (const Expect& e : cases) {
        std::mt19937 rng(static_cast<unsigned>(e.bits));
        SCOPED_TRACE(std::string(dtype_name(e.type)) + " pad " + std::to_string(static_cast<uint64_t>(e.pad)));
        check_random_load(rng, e.type, kPairings[0], e.pad, e.bits);
        check_random_load(rng, e.type, supported(e.type, kPairings[5]) ? kPairings[5] : kPairings[4], e.pad, e.bits);
    }
}

TEST(Tload, HiFloat8MaxPadIsInfinity)
{
    std::vector<std::byte> storage(64);
    TileDesc tile;
    tile.dtype = DType::HiF8;
    tile.rows = 2;
    tile.cols = 32;
    tile.valid_rows = 1;
    tile.valid_cols = 32;
    tile.pad = PadValue::Max;
    tile.data = storage.data();
    std::vector<uint8_t> gm(32, 0x11);
    Global g;
    g.shape[3] = 1;
    g.shape[4] = 32;
    g.stride[3] = 32;
    engine::tload(tile, g.desc(reinterpret_cast<std::byte*>(gm.data()), DType::HiF8));
    EXPECT_EQ(numeric::to_double(DType::HiF8, storage.data() + 40, 0), HUGE_VAL);
    EXPECT_EQ(std::to_integer<int>(storage[3]), 0x11);
}

TEST(Tload, NonUnitInnerStrideGathersElements)
{
    // Every other float of a 6 x 20 buffer: stride 2 along the columns.
    std::vector<float> gm(6 * 20);
    for (size_t i = 0; i < gm.size(); ++i)
        gm[i] = 0.25f * float(i) + 1.0f;
    using TileT = Tile<TileType::Vec, float, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using G = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, DYNAMIC>>;
    G g(gm.data(), {6, 10}, {20, 2});
    TileT t(6, 10);
    TLOAD(t, g);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 10; ++c)
            ASSERT_EQ(t.GetValue(r * 16 + c), gm[r * 20 + 2 * c]);
}

// --- the C++ front door ----------------------------------------------------------------------------

template <typename T>
class TloadIntrinsic : public ::testing::Test {
};
using IntrinsicTypes = ::testing::Types<float, half, bfloat16_t, int8_t, uint16_t, int32_t, int64_t, float8_e4m3_t>;
TYPED_TEST_SUITE(TloadIntrinsic, IntrinsicTypes);

TYPED_TEST(TloadIntrinsic, StaticShapesRowMajor)
{
    using T = TypeParam;
    constexpr int R = 8, C = 64 / int(sizeof(T));
    using TileT = Tile<TileType::Vec, T, R, C>;
    using G = GlobalTensor<T, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    std::mt19937 rng(11);
    auto bytes = random_bytes(R * C * sizeof(T), rng);
    G g(reinterpret_cast<T*>(bytes.data()));
    TileT t;
    TASSIGN(t, 0x100);
    Event<Op::TLOAD, Op::TADD> loaded = TLOAD(t, g);
    (void)loaded;
    EXPECT_EQ(std::memcmp(t.data(), bytes.data(), bytes.size()), 0);
}

TYPED_TEST(TloadIntrinsic, DynamicValidRegionAndMaxPad5D)
{
    using T = TypeParam;
    constexpr int R = 16, C = 128 / int(sizeof(T));
    using TileT = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC, SLayout::NoneBox,
                       TileConfig::fractalABSize, PadValue::Max>;
    // Two batches of three rows in a tensor with a row pitch wider than the data.
    using G = GlobalTensor<T, Shape<1, 2, 1, DYNAMIC, DYNAMIC>, Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, 1>>;
    const int64_t rows_per_batch = 3, cols = C - 5, pitch = C + 7;
    const int64_t batch = rows_per_batch * pitch + 11;
    std::mt19937 rng(5);
    auto bytes = random_bytes(size_t(2 * batch) * sizeof(T), rng);
    G g(reinterpret_cast<T*>(bytes.data()), {rows_per_batch, cols}, {2 * batch, batch, 2 * batch, pitch});
    TileT t(6, static_cast<unsigned>(cols));
    TLOAD(t, g);

    const auto d = t.desc();
    std::vector<std::byte> max_bits(sizeof(T));
    {
        std::vector<std::byte> probe(R * C * sizeof(T));
        TileDesc tile = d;
        tile.data = probe.data();
        tile.valid_rows = 0;
        tile.valid_cols = 0;
        engine::tload(tile, g.desc());  // an empty transfer: only the pad
        std::memcpy(max_bits.data(), probe.data(), sizeof(T));
    }
    const auto* got = reinterpret_cast<const std::byte*>(t.data());
    for (int r = 0; r < R; ++r) {
        for (int c = 0; c < C; ++c) {
            const uint64_t e = element_at(got, r * C + c, 8 * sizeof(T));
            if (r < 6 && c < cols) {
                const int64_t at = (r / 3) * batch + (r % 3) * pitch + c;
                ASSERT_EQ(e, element_at(bytes.data(), at, 8 * sizeof(T))) << r << ", " << c;
            } else {
                ASSERT_EQ(e, element_at(max_bits.data(), 0, 8 * sizeof(T))) << r << ", " << c;
            }
        }
    }
}

TEST(TloadIntrinsicLayouts, DnIntoColumnMajorAndNdIntoNzMat)
{
    constexpr int R = 16, C = 32;
    std::vector<half> gm(R * C);
    for (int i = 0; i < R * C; ++i)
        gm[i] = half(float(i % 97) - 40.0f);

    // DN: element (r, c) at r + c * R.
    using DnTile = Tile<TileType::Vec, half, R, C, BLayout::ColMajor>;
    using DnG = GlobalTensor<half, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, 1, R>, Layout::DN>;
    DnG dn(gm.data());
    DnTile a;
    TLOAD(a, dn);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            ASSERT_EQ(a.GetValue(c * R + r).bits, gm[r + c * R].bits);

    // ND -> Nz in L1: element (r, c) at r * C + c, stored box by box down each column of boxes.
    using NzTile = Tile<TileType::Mat, half, R, C, BLayout::ColMajor, R, C, SLayout::RowMajor>;
    using NdG = GlobalTensor<half, Shape<1, 1, 1, R, C>, Stride<1, 1, 1, C, 1>>;
    NdG nd(gm.data());
    NzTile b;
    TLOAD(b, nd);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            ASSERT_EQ(b.GetValue(GetTileOffset<NzTile>(r, c)).bits, gm[r * C + c].bits);
}

// --- illegal cases ---------------------------------------------------------------------------------

namespace {

struct SmallLoad {
    std::vector<std::byte> storage = std::vector<std::byte>(4 * 64 * 4, std::byte{1});
    std::vector<float> host = std::vector<float>(4 * 64, 2.0f);
    TileDesc tile;
    Global global;

    SmallLoad()
    {
        tile.dtype = DType::F32;
        tile.rows = 4;
        tile.cols = 64;
        tile.valid_rows = 4;
        tile.valid_cols = 64;
        tile.data = storage.data();
        global.shape[3] = 4;
        global.shape[4] = 64;
        global.stride[3] = 64;
    }
    GlobalDesc desc() { return global.desc(reinterpret_cast<std::byte*>(host.data()), DType::F32); }
};

}  // namespace

TEST(TloadIllegal, ElementSizeMismatch)
{
    SmallLoad s;
    GlobalDesc g = s.desc();
    g.dtype = DType::F16;
    const auto d = diagnostic_of([&] { engine::tload(s.tile, g); });
    EXPECT_EQ(d.code, "LEGAL_GM_ELEMENT_SIZE");
    EXPECT_EQ(d.instruction, "TLOAD");
    EXPECT_TRUE(mentions(d, "f32") && mentions(d, "f16")) << d.message;
    // Same size, different type: the bits move unchanged.
    g.dtype = DType::I32;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, g); }).code, "no error");
    static_assert(!rules::element_size_match(DType::F32, DType::F16));
}

TEST(TloadIllegal, LayoutPairs)
{
    SmallLoad s;
    GlobalDesc g = s.desc();
    g.layout = Layout::DN;  // DN tensor into a row-major tile: no real target, the cpu profile only
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, g); }).code, "no error");
    {  // checked mode tells a kernel meant for hardware
        runtime::clear_warnings();
        runtime::set_checked(true);
        EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, g); }).code, "no error");
        runtime::set_checked(false);
        ASSERT_EQ(runtime::warnings().size(), 1u);
        EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
        EXPECT_TRUE(mentions(runtime::warnings()[0], "LEGAL_GM_LAYOUT")) << runtime::warnings()[0].message;
        runtime::clear_warnings();
    }
    {
        ScopedTarget a5(profile::Target::A5);
        auto d = diagnostic_of([&] { engine::tload(s.tile, g); });
        EXPECT_EQ(d.code, "LEGAL_GM_LAYOUT");
        EXPECT_TRUE(mentions(d, "DN")) << d.message;
    }
    // A Vec tile does not convert ND -> Nz; a Mat tile does.
    static_assert(
        !rules::gm_layout_ok(TileType::Vec, Layout::ND, BLayout::ColMajor, SLayout::RowMajor, 16, 16, DType::F16));
    static_assert(
        rules::gm_layout_ok(TileType::Mat, Layout::ND, BLayout::ColMajor, SLayout::RowMajor, 16, 16, DType::F16));
    static_assert(
        rules::gm_layout_ok(TileType::Mat, Layout::DN, BLayout::RowMajor, SLayout::ColMajor, 16, 16, DType::F16));
    // 64-bit elements only ND/DN; a single row is both ND and DN.
    static_assert(
        !rules::gm_layout_ok(TileType::Vec, Layout::NZ, BLayout::ColMajor, SLayout::RowMajor, 16, 4, DType::I64));
    static_assert(
        rules::gm_layout_ok(TileType::Vec, Layout::DN, BLayout::RowMajor, SLayout::NoneBox, 1, 64, DType::F32));
    static_assert(rules::gm_layout_ok(TileType::Vec, Layout::MX_A_ND, BLayout::RowMajor, SLayout::NoneBox, 8, 64,
                                      DType::F32) == false);
}

TEST(TloadIllegal, FractalConversionNeedsA2DTensor)
{
    std::vector<std::byte> storage(16 * 16 * 2);
    TileDesc tile;
    tile.dtype = DType::F16;
    tile.loc = TileType::Mat;
    tile.rows = tile.cols = tile.valid_rows = tile.valid_cols = 16;
    tile.blayout = BLayout::ColMajor;
    tile.slayout = SLayout::RowMajor;
    tile.data = storage.data();
    std::vector<half> host(2 * 8 * 16);
    Global g;
    g.shape[0] = 2;
    g.shape[3] = 8;
    g.shape[4] = 16;
    std::mt19937 rng(1);
    pad_strides(g, rng, false);
    const auto d =
        diagnostic_of([&] { engine::tload(tile, g.desc(reinterpret_cast<std::byte*>(host.data()), DType::F16)); });
    EXPECT_EQ(d.code, "LEGAL_GM_FRACTAL");
    static_assert(!rules::gm_fractal_conversion_ok(Layout::ND, BLayout::ColMajor, SLayout::RowMajor, 512, 2, 1, 1));
    static_assert(
        rules::gm_fractal_conversion_ok(Layout::ND, BLayout::ColMajor, SLayout::RowMajor, 512, DYNAMIC, 1, 1));
    static_assert(!rules::gm_fractal_conversion_ok(Layout::ND, BLayout::ColMajor, SLayout::RowMajor, 1024, 1, 1, 1));
}

TEST(TloadIllegal, LocationAndTypePerProfile)
{
    SmallLoad s;
    s.tile.loc = TileType::Acc;  // loads into Acc: the cpu profile only
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "no error");
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "LEGAL_TLOAD_LOCATION");
    }
    static_assert(!rules::tload_location_ok(TileType::Left));

    std::vector<uint8_t> host(4 * 64, 0x38);
    TileDesc fp8 = s.tile;
    fp8.loc = TileType::Vec;
    fp8.dtype = DType::F8E4M3;
    GlobalDesc g = s.desc();
    g.dtype = DType::F8E4M3;
    g.data = reinterpret_cast<std::byte*>(host.data());
    EXPECT_EQ(diagnostic_of([&] { engine::tload(fp8, g); }).code, "no error");
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        const auto d = diagnostic_of([&] { engine::tload(fp8, g); });
        EXPECT_EQ(d.code, "LEGAL_TLOAD_DTYPE");
        EXPECT_TRUE(mentions(d, "f8e4m3") && mentions(d, "a2a3")) << d.message;
    }
    static_assert(!rules::tload_dtype_ok(profile::kA2A3, DType::HiF8));
    static_assert(rules::tload_dtype_ok(profile::kA5, DType::F8E8M0));
    static_assert(!rules::tload_dtype_ok(profile::kA5, DType::I4) && rules::tload_dtype_ok(profile::kCpu, DType::I4));
}

TEST(TloadIllegal, SixtyFourBitPadOnA5)
{
    std::vector<std::byte> storage(4 * 8 * 8);
    std::vector<int64_t> host(4 * 8, 9);
    TileDesc tile;
    tile.dtype = DType::I64;
    tile.rows = 4;
    tile.cols = 8;
    tile.valid_rows = 2;
    tile.valid_cols = 8;
    tile.pad = PadValue::Max;
    tile.data = storage.data();
    Global g;
    g.shape[3] = 4;
    g.shape[4] = 8;
    g.stride[3] = 8;
    const GlobalDesc desc = g.desc(reinterpret_cast<std::byte*>(host.data()), DType::I64);
    EXPECT_EQ(diagnostic_of([&] { engine::tload(tile, desc); }).code, "no error");
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tload(tile, desc); }).code, "LEGAL_TLOAD_PAD");
    tile.pad = PadValue::Zero;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(tile, desc); }).code, "no error");
}

TEST(TloadIllegal, StaticShapeRuleOfA5)
{
    constexpr int64_t shape[5] = {1, 2, 1, 8, 64};
    static_assert(
        rules::tload_static_shape_ok(profile::kA5, Layout::ND, BLayout::RowMajor, SLayout::NoneBox, 16, 64, shape));
    static_assert(
        !rules::tload_static_shape_ok(profile::kA5, Layout::ND, BLayout::RowMajor, SLayout::NoneBox, 8, 64, shape));
    static_assert(
        rules::tload_static_shape_ok(profile::kCpu, Layout::ND, BLayout::RowMajor, SLayout::NoneBox, 8, 64, shape));
    static_assert(rules::tload_static_shape_ok(profile::kA5, Layout::ND, BLayout::RowMajor, SLayout::NoneBox, DYNAMIC,
                                               64, shape));
}

TEST(TloadIllegal, ValidRegionLargerThanTheTensor)
{
    SmallLoad s;
    s.global.shape[3] = 3;  // 3 x 64 view, 4 x 64 valid region
    const auto d = diagnostic_of([&] { engine::tload(s.tile, s.desc()); });
    EXPECT_EQ(d.code, "RUN_GLOBAL_SHAPE");
    EXPECT_TRUE(mentions(d, "4 x 64") && mentions(d, "3 x 64")) << d.message;

    s.global.shape[3] = 4;
    s.global.shape[1] = 0;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "RUN_GLOBAL_SHAPE");
}

TEST(TloadIllegal, NegativeStrideAndNullPointer)
{
    SmallLoad s;
    s.global.stride[3] = -64;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "RUN_GLOBAL_STRIDE");
    s.global.stride[3] = 64;
    GlobalDesc g = s.desc();
    g.data = nullptr;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, g); }).code, "RUN_NULL_POINTER");
    TileDesc no_storage = s.tile;
    no_storage.data = nullptr;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(no_storage, s.desc()); }).code, "RUN_NULL_POINTER");
}

TEST(TloadIllegal, ReadPastTheAllocationIsReportedInFastMode)
{
    // 4 rows of 64 floats with a row pitch of 64, from an allocation 16 bytes short.
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 4 * 64 * 4 - 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    using TileT = Tile<TileType::Vec, float, 4, 64>;
    using G = GlobalTensor<float, Shape<1, 1, 1, 4, 64>, Stride<1, 1, 1, 64, 1>>;
    G g(static_cast<float*>(p));
    TileT t;
    const auto d = diagnostic_of([&] { TLOAD(t, g); });
    EXPECT_EQ(d.code, "RUN_GLOBAL_OOB");
    EXPECT_TRUE(mentions(d, "1023") && mentions(d, "1008")) << d.message;  // farthest byte, allocation size
    // The same tensor at one row less fits.
    Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, 3, 64> three_rows;
    EXPECT_EQ(diagnostic_of([&] { TLOAD(three_rows, g); }).code, "no error");
    aclrtFree(p);
}

TEST(TloadIllegal, EmptyTransferOnA2A3)
{
    SmallLoad s;
    s.tile.valid_rows = 0;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "no error");
    ScopedTarget a2a3(profile::Target::A2A3);
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "RUN_EMPTY_TRANSFER");
}

TEST(TloadIllegal, MalformedTileDescriptor)
{
    SmallLoad s;
    s.tile.valid_cols = 65;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "RUN_VALID_SHAPE");
    s.tile.valid_cols = 64;
    s.tile.slayout = SLayout::RowMajor;  // 4 rows are not a whole number of 16-row boxes in L1
    s.tile.loc = TileType::Mat;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(s.tile, s.desc()); }).code, "LEGAL_TILE_BOX");
}

// --- checked mode ----------------------------------------------------------------------------------

TEST(TloadChecked, MarksTheValidRegionOrTheWholePaddedTile)
{
    ScopedChecked checked;
    ScopedTarget a5(profile::Target::A5);  // where a Null pad leaves the rest of the tile unwritten
    std::vector<float> host(8 * 64, 3.0f);
    using G = GlobalTensor<float, Shape<1, 1, 1, 8, 64>, Stride<1, 1, 1, 64, 1>>;
    G g(host.data());
    using Partial = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    Partial a(3, 64);
    TASSIGN(a, 0x0);
    TLOAD(a, g);
    a.SetValidShape(4, 64);  // row 3 was never written
    auto d = diagnostic_of([&] { TSTORE(g, a); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.instruction, "TSTORE");

    using Padded = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC, SLayout::NoneBox,
                        TileConfig::fractalABSize, PadValue::Zero>;
    Padded b(3, 64);
    TASSIGN(b, 0x800);
    TLOAD(b, g);
    b.SetValidShape(8, 64);  // the pad wrote the rest
    EXPECT_EQ(diagnostic_of([&] { TSTORE(g, b); }).code, "no error");
    EXPECT_EQ(host[7 * 64], 0.0f);
}
