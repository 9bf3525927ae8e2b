// TLOAD of MX scale tensors (MX_A_ZZ, MX_A_ND, MX_A_DN into Zz tiles; MX_B_NN, MX_B_ND, MX_B_DN into Nn
// tiles) against a reference that places every element by enumerating the tensor's five indices and the
// tile's storage in order; the TileShape2D / BaseShape2D shapes and strides of every layout; the rules.
#include "reference.hpp"

#include <pto/common/pto_tile.hpp>

#include <array>

using namespace pto;
using namespace dmtest;
using engine::GlobalDesc;
using engine::TileDesc;

namespace {

constexpr Layout kALayouts[] = {Layout::MX_A_ZZ, Layout::MX_A_ND, Layout::MX_A_DN};
constexpr Layout kBLayouts[] = {Layout::MX_B_NN, Layout::MX_B_ND, Layout::MX_B_DN};

bool a_side(Layout l)
{
    return l == Layout::MX_A_ZZ || l == Layout::MX_A_ND || l == Layout::MX_A_DN;
}

// A scale tensor of `rows` x `cols` (M x groups, or groups x N) cut out of a larger matrix of
// `parent_rows` x `parent_cols` stored in `layout` (the parent gives the strides, as a split-K kernel
// indexes one slice of its scales). `blocks` stacks MX_A_ZZ row blocks / MX_B_NN column blocks in dim 0.
Global mx_global(Layout layout, int64_t rows, int64_t cols, int64_t parent_rows, int64_t parent_cols,
                 int64_t blocks = 1)
{
    Global g;
    g.layout = layout;
    const int64_t size = parent_rows * parent_cols;
    auto set = [&](std::array<int64_t, 5> shape, std::array<int64_t, 5> stride) {
        for (int d = 0; d < 5; ++d) {
            g.shape[d] = shape[d];
            g.stride[d] = stride[d];
        }
    };
    switch (layout) {
        case Layout::MX_A_ZZ: set({blocks, rows / 16, cols / 2, 16, 2}, {size, parent_cols * 16, 32, 2, 1}); break;
        case Layout::MX_A_ND: set({1, 1, rows, cols / 2, 2}, {size, size, parent_cols, 2, 1}); break;
        case Layout::MX_A_DN: set({1, 1, cols / 2, rows, 2}, {size, size, parent_rows * 2, 2, 1}); break;
        case Layout::MX_B_NN: set({blocks, cols / 16, rows / 2, 16, 2}, {size, parent_rows * 16, 32, 2, 1}); break;
        case Layout::MX_B_ND: set({1, 1, rows / 2, cols, 2}, {size, size, parent_cols * 2, 2, 1}); break;
        default: set({1, 1, cols, rows / 2, 2}, {size, size, parent_rows, 2, 1}); break;  // MX_B_DN
    }
    return g;
}

// The rows and columns of an MX tensor's matrix.
int64_t mx_cols(const Global& g)
{
    const int64_t* s = g.shape;
    switch (g.layout) {
        case Layout::MX_A_ZZ:
        case Layout::MX_A_DN: return s[2] * s[4];
        case Layout::MX_A_ND: return s[3] * s[4];
        case Layout::MX_B_NN:
        case Layout::MX_B_ND: return s[0] * s[1] * s[3];
        default: return s[2];  // MX_B_DN
    }
}

// offset[r * mx_cols(g) + c]: the element offset of logical (r, c) of the tensor's matrix, by visiting
// every index of its five dimensions and placing it as the layout does.
std::vector<int64_t> mx_offsets(const Global& g)
{
    const int64_t* s = g.shape;
    const int64_t cols = mx_cols(g);
    std::vector<int64_t> out(size_t(s[0] * s[1] * s[2] * s[3] * s[4]), -1);
    for (int64_t i0 = 0; i0 < s[0]; ++i0)
        for (int64_t i1 = 0; i1 < s[1]; ++i1)
            for (int64_t i2 = 0; i2 < s[2]; ++i2)
                for (int64_t i3 = 0; i3 < s[3]; ++i3)
                    for (int64_t i4 = 0; i4 < s[4]; ++i4) {
                        int64_t r = 0, c = 0;
                        switch (g.layout) {
                            case Layout::MX_A_ZZ: r = (i0 * s[1] + i1) * 16 + i3; c = i2 * 2 + i4; break;
                            case Layout::MX_B_NN: c = (i0 * s[1] + i1) * 16 + i3; r = i2 * 2 + i4; break;
                            case Layout::MX_A_ND: r = i2; c = i3 * 2 + i4; break;
                            case Layout::MX_A_DN: r = i3; c = i2 * 2 + i4; break;
                            case Layout::MX_B_ND: r = i2 * 2 + i4; c = i3; break;
                            default: r = i3 * 2 + i4; c = i2; break;  // MX_B_DN
                        }
                        out[size_t(r * cols + c)] = i0 * g.stride[0] + i1 * g.stride[1] + i2 * g.stride[2] +
                                                    i3 * g.stride[3] + i4 * g.stride[4];
                    }
    return out;
}

// index[r * cols + c]: the storage element of logical (r, c) of an MX scale tile, by walking its storage:
// Zz is 16 x 2 boxes (row-major inside) along rows of boxes; Nn is 2 x 16 boxes (column-major inside)
// down columns of boxes.
std::vector<int64_t> mx_tile_offsets(const TileDesc& t)
{
    std::vector<int64_t> out(size_t(t.rows) * t.cols, -1);
    int64_t next = 0;
    if (t.blayout == BLayout::RowMajor) {
        for (int br = 0; br < t.rows / 16; ++br)
            for (int bc = 0; bc < t.cols / 2; ++bc)
                for (int ir = 0; ir < 16; ++ir)
                    for (int ic = 0; ic < 2; ++ic)
                        out[size_t(br * 16 + ir) * t.cols + bc * 2 + ic] = next++;
    } else {
        for (int bc = 0; bc < t.cols / 16; ++bc)
            for (int br = 0; br < t.rows / 2; ++br)
                for (int ic = 0; ic < 16; ++ic)
                    for (int ir = 0; ir < 2; ++ir)
                        out[size_t(br * 2 + ir) * t.cols + bc * 16 + ic] = next++;
    }
    return out;
}

TileDesc mx_tile(Layout layout, TileType loc, int rows, int cols, int valid_rows, int valid_cols,
                 std::vector<std::byte>& storage, std::mt19937& rng)
{
    TileDesc t;
    t.dtype = DType::F8E8M0;
    t.loc = loc;
    t.rows = rows;
    t.cols = cols;
    t.valid_rows = valid_rows;
    t.valid_cols = valid_cols;
    const bool a = a_side(layout);
    t.blayout = a ? BLayout::RowMajor : BLayout::ColMajor;
    t.slayout = a ? SLayout::RowMajor : SLayout::ColMajor;
    t.fractal_bytes = TileConfig::fractalMxSize;
    storage = random_bytes(size_t(rows) * cols, rng);  // garbage before the load
    t.data = storage.data();
    return t;
}

// Loads `g` (random bytes) into `tile` and compares every valid element with the reference; on the cpu
// profile the rest of the tile (a Null pad) is zero.
void expect_loaded(const TileDesc& tile, const Global& g, std::mt19937& rng, const std::string& what)
{
    std::vector<std::byte> gm = random_bytes(size_t(g.span()), rng);
    engine::tload(tile, g.desc(gm.data(), DType::F8E8M0));
    const std::vector<int64_t> src = mx_offsets(g);
    const int64_t src_cols = mx_cols(g);
    const std::vector<int64_t> dst = mx_tile_offsets(tile);
    int mismatches = 0;
    for (int r = 0; r < tile.rows; ++r)
        for (int c = 0; c < tile.cols; ++c) {
            const int64_t at = dst[size_t(r) * tile.cols + c];
            ASSERT_GE(at, 0);
            const bool valid = r < tile.valid_rows && c < tile.valid_cols;
            std::byte want{0};
            if (valid) {
                const int64_t from = src[size_t(r * src_cols + c)];
                ASSERT_GE(from, 0) << what << " (" << r << ", " << c << ") is not in the tensor";
                want = gm[size_t(from)];
            }
            if (tile.data[at] != want && ++mismatches <= 5)
                ADD_FAILURE() << what << ": element (" << r << ", " << c << ") of a " << tile.valid_rows << " x "
                              << tile.valid_cols << " load is " << int(tile.data[at]) << ", expected " << int(want);
        }
    EXPECT_EQ(mismatches, 0) << what;
}

std::string name_of(Layout l)
{
    switch (l) {
        case Layout::MX_A_ZZ: return "MX_A_ZZ";
        case Layout::MX_A_ND: return "MX_A_ND";
        case Layout::MX_A_DN: return "MX_A_DN";
        case Layout::MX_B_NN: return "MX_B_NN";
        case Layout::MX_B_ND: return "MX_B_ND";
        default: return "MX_B_DN";
    }
}

}  // namespace

// Every MX layout into its Mat tile, on a5 and cpu, over random extents, slices of larger scale
// matrices and partial valid regions.
TEST(TloadMx, EveryLayoutPlacesEveryElement)
{
    std::mt19937 rng(13);
    for (profile::Target target : {profile::Target::Cpu, profile::Target::A5}) {
        ScopedTarget scoped(target);
        for (int round = 0; round < 12; ++round) {
            for (Layout layout : {Layout::MX_A_ZZ, Layout::MX_A_ND, Layout::MX_A_DN, Layout::MX_B_NN,
                                  Layout::MX_B_ND, Layout::MX_B_DN}) {
                const bool a = a_side(layout);
                // A: rows = M (whole 16-row boxes), cols = groups (pairs); B: rows = groups, cols = N.
                const int m_or_n = 16 * pick(rng, 1, 4), groups = 2 * pick(rng, 1, 4);
                const int rows = a ? m_or_n : groups, cols = a ? groups : m_or_n;
                const int parent_rows = rows + (a ? 16 : 2) * pick(rng, 0, 2);
                const int parent_cols = cols + (a ? 2 : 16) * pick(rng, 0, 2);
                const int valid_rows = pick(rng, 0, 2) == 0 ? rows : pick(rng, 1, rows);
                const int valid_cols = pick(rng, 0, 2) == 0 ? cols : pick(rng, 1, cols);
                std::vector<std::byte> storage;
                const TileDesc tile = mx_tile(layout, TileType::Mat, rows, cols, valid_rows, valid_cols, storage, rng);
                const Global g = mx_global(layout, rows, cols, parent_rows, parent_cols);
                if (target == profile::Target::A5) {
                    // a5 leaves a Null pad as it was: compare the valid region only.
                    std::vector<std::byte> gm = random_bytes(size_t(g.span()), rng);
                    engine::tload(tile, g.desc(gm.data(), DType::F8E8M0));
                    const auto src = mx_offsets(g);
                    const auto dst = mx_tile_offsets(tile);
                    for (int r = 0; r < valid_rows; ++r)
                        for (int c = 0; c < valid_cols; ++c)
                            ASSERT_EQ(tile.data[dst[size_t(r) * cols + c]], gm[size_t(src[size_t(r * mx_cols(g) + c)])])
                                << name_of(layout) << " a5 (" << r << ", " << c << ")";
                } else {
                    expect_loaded(tile, g, rng, name_of(layout) + " cpu");
                }
            }
        }
    }
}

// MX_A_ZZ's dimension 0 stacks blocks of rows, MX_B_NN's blocks of columns (the A5 load stitches them).
TEST(TloadMx, BoxedLayoutsStackBlocksInDimensionZero)
{
    std::mt19937 rng(7);
    std::vector<std::byte> storage;
    const TileDesc a = mx_tile(Layout::MX_A_ZZ, TileType::Mat, 64, 4, 64, 4, storage, rng);
    expect_loaded(a, mx_global(Layout::MX_A_ZZ, 32, 4, 32, 4, 2), rng, "MX_A_ZZ x2");
    std::vector<std::byte> storage_b;
    const TileDesc b = mx_tile(Layout::MX_B_NN, TileType::Mat, 4, 64, 4, 64, storage_b, rng);
    expect_loaded(b, mx_global(Layout::MX_B_NN, 4, 32, 4, 32, 2), rng, "MX_B_NN x2");
}

// The cpu profile also loads straight into the scale tiles (ScaleLeft: Zz, ScaleRight: Nn), as the public
// CPU simulation does; checked mode warns that the devices go through L1.
TEST(TloadMx, CpuLoadsIntoScaleTilesAndWarns)
{
    std::mt19937 rng(3);
    for (Layout layout : kALayouts) {
        std::vector<std::byte> storage;
        const TileDesc t = mx_tile(layout, TileType::ScaleLeft, 32, 4, 30, 4, storage, rng);
        expect_loaded(t, mx_global(layout, 32, 4, 32, 4), rng, name_of(layout) + " -> ScaleLeft");
    }
    for (Layout layout : kBLayouts) {
        std::vector<std::byte> storage;
        const TileDesc t = mx_tile(layout, TileType::ScaleRight, 4, 32, 4, 31, storage, rng);
        expect_loaded(t, mx_global(layout, 4, 32, 4, 32), rng, name_of(layout) + " -> ScaleRight");
    }
    std::vector<std::byte> storage, gm(64 * 4);
    const TileDesc t = mx_tile(Layout::MX_A_ZZ, TileType::ScaleLeft, 32, 4, 32, 4, storage, rng);
    const Global g = mx_global(Layout::MX_A_ZZ, 32, 4, 32, 4);
    runtime::clear_warnings();
    {
        ScopedChecked checked;
        EXPECT_EQ(diagnostic_of([&] { engine::tload(t, g.desc(gm.data(), DType::F8E8M0)); }).code, "no error");
    }
    ASSERT_EQ(runtime::warnings().size(), 1u);
    EXPECT_EQ(runtime::warnings()[0].code, "WARN_CPU_ONLY");
    EXPECT_TRUE(mentions(runtime::warnings()[0], "LEGAL_TLOAD_LOCATION")) << runtime::warnings()[0].message;
    runtime::clear_warnings();
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tload(t, g.desc(gm.data(), DType::F8E8M0)); }).code,
              "LEGAL_TLOAD_LOCATION");
}

// A5 loads an ND vector of left scales (an MX GEMV's) into a one-row Zz Mat tile, as the public GEMV
// kernels do; a taller Zz tile from ND is the cpu profile's only.
TEST(TloadMx, A5LoadsAnNdVectorIntoAOneRowZzTile)
{
    std::mt19937 rng(17);
    constexpr int G = 8;
    std::vector<std::byte> storage = random_bytes(G / 2 * 32, rng), gm = random_bytes(G, rng);
    TileDesc t;
    t.dtype = DType::F8E8M0;
    t.loc = TileType::Mat;
    t.rows = t.valid_rows = 1;
    t.cols = t.valid_cols = G;
    t.blayout = BLayout::RowMajor;
    t.slayout = SLayout::RowMajor;
    t.fractal_bytes = TileConfig::fractalMxSize;
    t.data = storage.data();
    Global g;
    g.shape[4] = G;
    g.stride[0] = g.stride[1] = g.stride[2] = g.stride[3] = G;
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tload(t, g.desc(gm.data(), DType::F8E8M0)); }).code, "no error");
    for (int c = 0; c < G; ++c)  // group c in box c / 2, column c % 2 of its first row
        EXPECT_EQ(storage[size_t((c / 2) * 32 + c % 2)], gm[size_t(c)]) << c;
    t.rows = 16;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(t, g.desc(gm.data(), DType::F8E8M0)); }).code, "LEGAL_GM_LAYOUT");
    static_assert(rules::gm_layout_ok(profile::kA5, TileType::Mat, Layout::ND, BLayout::RowMajor, SLayout::RowMajor, 1,
                                      G, DType::F8E8M0));
    static_assert(!rules::gm_layout_ok(profile::kA2A3, TileType::Mat, Layout::ND, BLayout::RowMajor,
                                       SLayout::RowMajor, 1, G, DType::U8));
}

TEST(TloadMxIllegal, LayoutDtypeShapeAndTarget)
{
    std::mt19937 rng(5);
    std::vector<std::byte> storage, gm(64 * 8);
    // An A-side tensor into an Nn tile: the scale arrangement of the other operand.
    TileDesc nn = mx_tile(Layout::MX_B_NN, TileType::Mat, 4, 32, 4, 32, storage, rng);
    const Global a = mx_global(Layout::MX_A_ZZ, 32, 4, 32, 4);
    auto d = diagnostic_of([&] { engine::tload(nn, a.desc(gm.data(), DType::F8E8M0)); });
    EXPECT_EQ(d.code, "LEGAL_GM_LAYOUT");
    EXPECT_TRUE(mentions(d, "MX_A_ZZ") && mentions(d, "Nn")) << d.message;
    // A Zz tile of 512-byte fractals is not a scale tile.
    TileDesc zz512 = mx_tile(Layout::MX_A_ZZ, TileType::Mat, 32, 32, 32, 4, storage, rng);
    zz512.fractal_bytes = TileConfig::fractalABSize;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(zz512, a.desc(gm.data(), DType::F8E8M0)); }).code, "LEGAL_GM_LAYOUT");
    // Not f8e8m0: a5 refuses, cpu moves any one-byte element.
    TileDesc zz = mx_tile(Layout::MX_A_ZZ, TileType::Mat, 32, 4, 32, 4, storage, rng);
    zz.dtype = DType::U8;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(zz, a.desc(gm.data(), DType::U8)); }).code, "no error");
    {
        ScopedTarget a5(profile::Target::A5);
        d = diagnostic_of([&] { engine::tload(zz, a.desc(gm.data(), DType::U8)); });
        EXPECT_EQ(d.code, "LEGAL_GM_MX_DTYPE");
        EXPECT_TRUE(mentions(d, "u8")) << d.message;
    }
    zz.dtype = DType::F8E8M0;
    // Boxes other than 16 x 2, and an ND form that is not 3-D.
    Global bad = a;
    bad.shape[1] = 4;
    bad.shape[3] = 8;
    d = diagnostic_of([&] { engine::tload(zz, bad.desc(gm.data(), DType::F8E8M0)); });
    EXPECT_EQ(d.code, "LEGAL_GM_MX_SHAPE");
    EXPECT_TRUE(mentions(d, "16 x 2")) << d.message;
    Global nd = mx_global(Layout::MX_A_ND, 16, 4, 16, 4);
    nd.shape[1] = 2;
    nd.shape[2] = 8;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(zz, nd.desc(gm.data(), DType::F8E8M0)); }).code, "LEGAL_GM_MX_SHAPE");
    // A valid region larger than the tensor's view.
    const Global small = mx_global(Layout::MX_A_ZZ, 16, 4, 16, 4);
    d = diagnostic_of([&] { engine::tload(zz, small.desc(gm.data(), DType::F8E8M0)); });
    EXPECT_EQ(d.code, "RUN_GLOBAL_SHAPE");
    EXPECT_TRUE(mentions(d, "MX_A_ZZ")) << d.message;
    // a2a3 has no MX (nor f8e8m0 tiles: a u8 tile meets the layout rule).
    ScopedTarget a2a3(profile::Target::A2A3);
    zz.dtype = DType::U8;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(zz, a.desc(gm.data(), DType::U8)); }).code, "LEGAL_GM_LAYOUT");
}

// The rules as the static checks see them.
static_assert(rules::mx_load_layout_ok(profile::kA5, TileType::Mat, Layout::MX_A_ZZ, BLayout::RowMajor,
                                       SLayout::RowMajor, 32));
static_assert(rules::mx_load_layout_ok(profile::kA5, TileType::Mat, Layout::MX_B_DN, BLayout::ColMajor,
                                       SLayout::ColMajor, 32));
static_assert(!rules::mx_load_layout_ok(profile::kA5, TileType::ScaleLeft, Layout::MX_A_ZZ, BLayout::RowMajor,
                                        SLayout::RowMajor, 32));
static_assert(rules::mx_load_layout_ok(profile::kCpu, TileType::ScaleLeft, Layout::MX_A_ZZ, BLayout::RowMajor,
                                       SLayout::RowMajor, 32));
static_assert(!rules::mx_load_layout_ok(profile::kA2A3, TileType::Mat, Layout::MX_A_ZZ, BLayout::RowMajor,
                                        SLayout::RowMajor, 32));
static_assert(!rules::mx_load_layout_ok(profile::kCpu, TileType::Mat, Layout::MX_B_NN, BLayout::RowMajor,
                                        SLayout::RowMajor, 32));
static_assert(rules::mx_global_shape_ok(Layout::MX_A_ZZ, 3, 4, 16, 2));
static_assert(!rules::mx_global_shape_ok(Layout::MX_B_NN, 1, 4, 16, 4));
static_assert(rules::mx_global_shape_ok(Layout::MX_B_ND, 1, 1, 64, DYNAMIC));
static_assert(!rules::mx_global_shape_ok(Layout::MX_A_DN, 1, 2, 64, 2));
static_assert(!rules::gm_layout_ok(profile::kCpu, TileType::Mat, Layout::MX_A_ZZ, BLayout::RowMajor, SLayout::RowMajor,
                                   32, 4, DType::F8E8M0));  // TSTORE does not write MX layouts

// --- TileShape2D / BaseShape2D ------------------------------------------------------------------------

namespace {

template <typename S>
constexpr bool shape_is(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e)
{
    return S::staticShape[0] == a && S::staticShape[1] == b && S::staticShape[2] == c && S::staticShape[3] == d &&
           S::staticShape[4] == e;
}
template <typename S>
constexpr bool stride_is(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e)
{
    return S::staticStride[0] == a && S::staticStride[1] == b && S::staticStride[2] == c &&
           S::staticStride[3] == d && S::staticStride[4] == e;
}

using E8 = float8_e8m0_t;

// Plain and NZ (half: 16 elements in 32 bytes).
static_assert(shape_is<TileShape2D<float, 8, 24>>(1, 1, 1, 8, 24));
static_assert(stride_is<BaseShape2D<float, 8, 24>>(192, 192, 192, 24, 1));
static_assert(shape_is<TileShape2D<float, 8, 24, Layout::DN>>(1, 1, 1, 8, 24));
static_assert(stride_is<BaseShape2D<float, 8, 24, Layout::DN>>(192, 192, 192, 1, 8));
static_assert(shape_is<TileShape2D<half, 32, 48, Layout::NZ>>(1, 3, 2, 16, 16));
static_assert(stride_is<BaseShape2D<half, 32, 48, Layout::NZ>>(1536, 512, 256, 16, 1));
static_assert(shape_is<TileShape2D<float, DYNAMIC, 24>>(1, 1, 1, DYNAMIC, 24));
static_assert(stride_is<BaseShape2D<float, DYNAMIC, 24>>(DYNAMIC, DYNAMIC, DYNAMIC, 24, 1));
// MX, for a 64 x 6 A-side and a 6 x 48 B-side scale matrix.
static_assert(shape_is<TileShape2D<E8, 64, 6, Layout::MX_A_ZZ>>(1, 4, 3, 16, 2));
static_assert(stride_is<BaseShape2D<E8, 64, 6, Layout::MX_A_ZZ>>(384, 96, 32, 2, 1));
static_assert(shape_is<TileShape2D<E8, 64, 6, Layout::MX_A_ND>>(1, 1, 64, 3, 2));
static_assert(stride_is<BaseShape2D<E8, 64, 6, Layout::MX_A_ND>>(384, 384, 6, 2, 1));
static_assert(shape_is<TileShape2D<E8, 64, 6, Layout::MX_A_DN>>(1, 1, 3, 64, 2));
static_assert(stride_is<BaseShape2D<E8, 64, 6, Layout::MX_A_DN>>(384, 384, 128, 2, 1));
static_assert(shape_is<TileShape2D<E8, 6, 48, Layout::MX_B_NN>>(1, 3, 3, 16, 2));
static_assert(stride_is<BaseShape2D<E8, 6, 48, Layout::MX_B_NN>>(288, 96, 32, 2, 1));
static_assert(shape_is<TileShape2D<E8, 6, 48, Layout::MX_B_ND>>(1, 1, 3, 48, 2));
static_assert(stride_is<BaseShape2D<E8, 6, 48, Layout::MX_B_ND>>(288, 288, 96, 2, 1));
static_assert(shape_is<TileShape2D<E8, 6, 48, Layout::MX_B_DN>>(1, 1, 48, 3, 2));
static_assert(stride_is<BaseShape2D<E8, 6, 48, Layout::MX_B_DN>>(288, 288, 6, 2, 1));
// HIF4 (shapes only).
static_assert(shape_is<TileShape2D<uint8_t, 32, 8, Layout::HIF4_A_ZZ>>(1, 2, 8, 16, 4));
static_assert(stride_is<BaseShape2D<uint8_t, 32, 8, Layout::HIF4_A_ZZ>>(256, 128, 64, 4, 1));
static_assert(shape_is<TileShape2D<uint8_t, 8, 32, Layout::HIF4_B_NN>>(1, 2, 8, 16, 4));
static_assert(stride_is<BaseShape2D<uint8_t, 8, 32, Layout::HIF4_B_NN>>(256, 128, 64, 4, 1));

}  // namespace

// The BaseShape2D strides place each element where the layout's formula (shape2d.hpp) puts it, and the
// run-time (rows, cols) constructors give what the static ones do.
TEST(Shape2D, StridesFollowTheLayoutFormulas)
{
    constexpr int M = 48, G = 6, N = 32;
    auto at = [](const auto& stride, int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4) {
        return i0 * stride.get(0) + i1 * stride.get(1) + i2 * stride.get(2) + i3 * stride.get(3) + i4 * stride.get(4);
    };
    const BaseShape2D<E8, M, G, Layout::MX_A_ZZ> zz;
    const BaseShape2D<E8, G, N, Layout::MX_B_NN> nn;
    const BaseShape2D<E8, M, G, Layout::MX_A_DN> adn;
    const BaseShape2D<E8, G, N, Layout::MX_B_ND> bnd;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < G; ++c) {
            EXPECT_EQ(at(zz, 0, r / 16, c / 2, r % 16, c % 2), (r / 16) * 16 * G + (c / 2) * 32 + (r % 16) * 2 + c % 2);
            EXPECT_EQ(at(adn, 0, 0, c / 2, r, c % 2), (c / 2) * 2 * M + r * 2 + c % 2);
        }
    for (int r = 0; r < G; ++r)
        for (int c = 0; c < N; ++c) {
            EXPECT_EQ(at(nn, 0, c / 16, r / 2, c % 16, r % 2), (c / 16) * 16 * G + (r / 2) * 32 + (c % 16) * 2 + r % 2);
            EXPECT_EQ(at(bnd, 0, 0, r / 2, c, r % 2), (r / 2) * 2 * N + c * 2 + r % 2);
        }

    const TileShape2D<E8, DYNAMIC, DYNAMIC, Layout::MX_A_ZZ> dyn_shape(M, G);
    const BaseShape2D<E8, DYNAMIC, DYNAMIC, Layout::MX_A_ZZ> dyn_stride(M, G);
    const TileShape2D<E8, M, G, Layout::MX_A_ZZ> static_shape;
    for (int d = 0; d < 5; ++d) {
        EXPECT_EQ(dyn_shape.get(d), static_shape.get(d)) << d;
        EXPECT_EQ(dyn_stride.get(d), zz.get(d)) << d;
    }
    const TileShape2D<half, DYNAMIC, DYNAMIC, Layout::NZ> nz(32, 48);
    EXPECT_EQ(nz.get(1), 3);
    EXPECT_EQ(nz.get(2), 2);
    const BaseShape2D<float, DYNAMIC, DYNAMIC, Layout::DN> dn(8, 24);
    EXPECT_EQ(dn.get(4), 8);
    EXPECT_EQ(dn.get(0), 192);
}

// The public programs' form: GlobalTensor<E8M0, TileShape2D<..>, BaseShape2D<..>, MX_*> loaded with TLOAD
// into a Mat tile of 16 x 2 fractals, here a split-K slice of a larger scale matrix.
TEST(Shape2D, GlobalTensorsOfTheHelpersLoad)
{
    constexpr int M = 32, KMX = 8, BASEKMX = 2, N = 32;
    std::mt19937 rng(11);
    std::vector<std::byte> a_gm = random_bytes(M * KMX, rng), b_gm = random_bytes(KMX * N, rng);
    using GA = GlobalTensor<E8, TileShape2D<E8, M, BASEKMX, Layout::MX_A_ZZ>, BaseShape2D<E8, M, KMX, Layout::MX_A_ZZ>,
                            Layout::MX_A_ZZ>;
    using GB = GlobalTensor<E8, TileShape2D<E8, BASEKMX, N, Layout::MX_B_NN>, BaseShape2D<E8, KMX, N, Layout::MX_B_NN>,
                            Layout::MX_B_NN>;
    using TA = Tile<TileType::Mat, E8, M, BASEKMX, BLayout::RowMajor, M, BASEKMX, SLayout::RowMajor, 32>;
    using TB = Tile<TileType::Mat, E8, BASEKMX, N, BLayout::ColMajor, BASEKMX, N - 1, SLayout::ColMajor, 32>;
    for (int slice = 0; slice < KMX / BASEKMX; ++slice) {
        GA ga(reinterpret_cast<E8*>(a_gm.data()) + slice * BASEKMX * 16);
        GB gb(reinterpret_cast<E8*>(b_gm.data()) + slice * BASEKMX * 16);
        TA ta;
        TB tb;
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        for (int r = 0; r < M; ++r)
            for (int c = 0; c < BASEKMX; ++c) {
                const int k = slice * BASEKMX + c;  // group of the whole matrix
                const size_t from = size_t((r / 16) * 16 * KMX + (k / 2) * 32 + (r % 16) * 2 + k % 2);
                ASSERT_EQ(ta.GetValue(uint32_t(GetTileOffset<TA>(r, c))).bits, uint8_t(a_gm[from])) << r << ", " << c;
            }
        for (int r = 0; r < BASEKMX; ++r)
            for (int c = 0; c < N - 1; ++c) {
                const int k = slice * BASEKMX + r;
                const size_t from = size_t((c / 16) * 16 * KMX + (k / 2) * 32 + (c % 16) * 2 + k % 2);
                ASSERT_EQ(tb.GetValue(uint32_t(GetTileOffset<TB>(r, c))).bits, uint8_t(b_gm[from])) << r << ", " << c;
            }
    }
}
