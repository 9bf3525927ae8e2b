// TLOAD / TSTORE of convolution tiles against a reference loop: random layouts, 1..6 dimensions, every
// element size, tensors larger than the tile with padded and non-unit strides; the public NDC1HWC0
// round trip through the C++ door; and each illegal case with its code.
#include "reference.hpp"

#include <acl/acl.h>

#include <array>

using namespace pto;
using namespace dmtest;
using engine::ConvTileDesc;
using engine::GlobalDesc;

namespace {

struct ConvCase {
    ConvTileDesc tile;
    GlobalDesc global;
    std::vector<std::byte> tile_bytes, global_bytes;
};

// Dense element index of the tile for `index`, and the tensor's element offset for it: tile dimension
// d < 5 is the tensor's dimension d, a sixth follows contiguously.
int64_t tile_offset(const ConvTileDesc& t, const std::array<int64_t, 6>& index)
{
    int64_t offset = 0;
    for (int d = 0; d < t.dims; ++d) offset = offset * t.shape[d] + index[d];
    return offset;
}
int64_t global_offset(const ConvTileDesc& t, const GlobalDesc& g, const std::array<int64_t, 6>& index)
{
    int64_t offset = t.dims == 6 ? index[5] : 0;
    for (int d = 0; d < std::min(t.dims, 5); ++d) offset += index[d] * g.stride[d];
    return offset;
}

// Calls fn(index) for every index of the tile's shape.
template <typename Fn>
void for_each_index(const ConvTileDesc& t, Fn&& fn)
{
    std::array<int64_t, 6> index{};
    for (int64_t n = 0; n < t.elements(); ++n) {
        int64_t rest = n;
        for (int d = t.dims - 1; d >= 0; --d) {
            index[d] = rest % t.shape[d];
            rest /= t.shape[d];
        }
        fn(index);
    }
}

ConvCase random_case(std::mt19937& rng, DType type)
{
    constexpr Layout kLayouts[] = {Layout::NC1HWC0, Layout::NDC1HWC0, Layout::FRACTAL_Z, Layout::NHWC,
                                   Layout::FRACTAL_Z_3D};
    ConvCase c;
    ConvTileDesc& t = c.tile;
    t.dtype = type;
    t.loc = pick(rng, 0, 1) ? TileType::Mat : TileType::Vec;
    t.layout = kLayouts[pick(rng, 0, 4)];
    t.dims = pick(rng, 1, 6);
    for (int d = 0; d < t.dims; ++d) t.shape[d] = pick(rng, 1, 4);
    const int64_t bytes = t.elements() * (bits_of(type) / 8);
    t.buffer_bytes = bytes + 32 * pick(rng, 0, 2);
    c.tile_bytes = random_bytes(size_t(t.buffer_bytes), rng);
    t.data = c.tile_bytes.data();

    GlobalDesc& g = c.global;
    g.dtype = type;
    g.layout = t.layout;
    const int64_t inner = t.dims == 6 ? t.shape[5] : 1;
    int64_t stride = inner + pick(rng, 0, 1) * pick(rng, 1, 3);  // sometimes gaps between runs
    for (int d = 4; d >= 0; --d) {
        g.shape[d] = (d < t.dims ? t.shape[d] : 1) + pick(rng, 0, 2);
        g.stride[d] = stride;
        stride *= g.shape[d] + pick(rng, 0, 1);
    }
    c.global_bytes = random_bytes(size_t(stride) * (bits_of(type) / 8), rng);
    g.data = c.global_bytes.data();
    return c;
}

}  // namespace

TEST(ConvTransfer, LoadAndStoreAgainstTheReference)
{
    std::mt19937 rng(20261123);
    for (DType type : {DType::F32, DType::F16, DType::I8, DType::U64, DType::BF16, DType::I32}) {
        for (int i = 0; i < 40; ++i) {
            ConvCase c = random_case(rng, type);
            const int size = (bits_of(type) / 8);
            engine::tload(c.tile, c.global);
            for_each_index(c.tile, [&](const std::array<int64_t, 6>& index) {
                ASSERT_EQ(std::memcmp(c.tile_bytes.data() + tile_offset(c.tile, index) * size,
                                      c.global_bytes.data() + global_offset(c.tile, c.global, index) * size, size),
                          0)
                    << "load, " << c.tile.dims << " dims, case " << i;
            });

            ConvCase s = random_case(rng, type);
            const std::vector<std::byte> before = s.global_bytes;
            engine::tstore(s.global, s.tile);
            std::vector<bool> stored(s.global_bytes.size() / size);
            for_each_index(s.tile, [&](const std::array<int64_t, 6>& index) {
                const int64_t at = global_offset(s.tile, s.global, index);
                stored[size_t(at)] = true;
                ASSERT_EQ(std::memcmp(s.global_bytes.data() + at * size,
                                      s.tile_bytes.data() + tile_offset(s.tile, index) * size, size),
                          0)
                    << "store, " << s.tile.dims << " dims, case " << i;
            });
            for (size_t e = 0; e < stored.size(); ++e) {
                if (stored[e]) continue;
                ASSERT_EQ(std::memcmp(s.global_bytes.data() + e * size, before.data() + e * size, size), 0)
                    << "store touched element " << e;
            }
        }
    }
}

// The public program's NDC1HWC0 round trip: N D C1 H W in the tensor, C0 = 32 bytes of elements after W.
TEST(ConvTransfer, Ndc1hwc0RoundTripThroughTheCppDoor)
{
    constexpr int N = 2, D = 3, C1 = 4, H = 1, W = 7, C0 = 8;
    constexpr size_t kElements = size_t(N) * D * C1 * H * W * C0;
    using G = GlobalTensor<float, Shape<N, D, C1, H, W>,
                           Stride<D * C1 * H * W * C0, C1 * H * W * C0, H * W * C0, W * C0, C0>, Layout::NDC1HWC0>;
    using T = ConvTile<TileType::Mat, float, kElements * sizeof(float), Layout::NDC1HWC0,
                       ConvTileShape<N, D, C1, H, W, C0>>;
    float *in = nullptr, *out = nullptr;
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&in), kElements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&out), kElements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    for (size_t i = 0; i < kElements; ++i) in[i] = float(i) * 0.5f - 7.0f;
    ScopedChecked checked;
    T tile;
    TASSIGN(tile, 0x0);
    G src(in), dst(out);
    TLOAD(tile, src);
    TSTORE(dst, tile);
    EXPECT_EQ(std::memcmp(in, out, kElements * sizeof(float)), 0);
    EXPECT_EQ(tile.data()[C0 * W + 3], in[C0 * W + 3]);
    aclrtFree(in);
    aclrtFree(out);
}

TEST(ConvTransferIllegal, EachRuleWithItsCode)
{
    std::mt19937 rng(5);
    ConvCase c = random_case(rng, DType::F32);
    c.tile.layout = Layout::NC1HWC0;
    c.global.layout = Layout::NDC1HWC0;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(c.tile, c.global); }).code, "LEGAL_GM_LAYOUT");
    c.tile.layout = c.global.layout = Layout::ND;  // not a convolution layout
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(c.global, c.tile); }).code, "LEGAL_GM_LAYOUT");
    c.tile.layout = c.global.layout = Layout::NC1HWC0;
    c.global.dtype = DType::F16;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(c.tile, c.global); }).code, "LEGAL_GM_ELEMENT_SIZE");
    c.global.dtype = DType::F32;
    c.tile.loc = TileType::Acc;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(c.tile, c.global); }).code, "LEGAL_TLOAD_LOCATION");
    c.tile.loc = TileType::Mat;
    {
        ScopedTarget a5(profile::Target::A5);
        EXPECT_EQ(diagnostic_of([&] { engine::tstore(c.global, c.tile); }).code, "LEGAL_TSTORE_LOCATION");
    }
    const ConvCase ok = c;
    c.tile.shape[0] = c.global.shape[0] + 1;
    c.tile.buffer_bytes = 1 << 20;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(c.tile, c.global); }).code, "RUN_GLOBAL_SHAPE");
    c = ok;
    c.tile.buffer_bytes = c.tile.elements() * 4 - 4;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(c.tile, c.global); }).code, "RUN_VALID_SHAPE");
    c = ok;
    c.tile.dims = 0;
    EXPECT_EQ(diagnostic_of([&] { engine::tload(c.tile, c.global); }).code, "RUN_VALID_SHAPE");
}

TEST(ConvTransferIllegal, PastTheAllocationAndUnwrittenTile)
{
    using G = GlobalTensor<float, Shape<1, 2, 4, 4, 8>, Stride<256, 128, 32, 8, 1>, Layout::NC1HWC0>;
    using T = ConvTile<TileType::Vec, float, 256 * 4, Layout::NC1HWC0, ConvTileShape<1, 2, 4, 4, 8>>;
    float* gm = nullptr;
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&gm), 256 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    G g(gm), one_short(gm + 1);
    T tile;
    TASSIGN(tile, 0x0);
    EXPECT_EQ(diagnostic_of([&] { TLOAD(tile, g); }).code, "no error");
    EXPECT_EQ(diagnostic_of([&] { TLOAD(tile, one_short); }).code, "RUN_GLOBAL_OOB");
    {
        ScopedChecked checked;
        runtime::clear_memories();
        T fresh;
        TASSIGN(fresh, 0x1000);
        const Diagnostic d = diagnostic_of([&] { TSTORE(g, fresh); });
        EXPECT_EQ(d.code, "RUN_UNINIT_READ");
        EXPECT_EQ(d.instruction, "TSTORE");
    }
    aclrtFree(gm);
}
