// TTRANS of convolution tiles in the PTO-AS text door: `!pto.conv_tile_buf` operands loaded from views of
// their layout, changed and stored back. Random programs of every format change, element size and shape on
// every profile against plain index loops (the logical tensor's element at its place in each layout,
// padding zero); the text door against the C++ door; the illegal cases with their codes and places.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "support/asm_arguments.hpp"
#include "support/text_program.hpp"

using namespace pto;
using namespace pto::test;
using profile::Target;

namespace {

// A format change and the logical tensor it moves: G groups of N x C x D x H x W, C0 channels a block.
struct Change {
    Layout from, to;
    int64_t g = 1, n = 1, c = 1, d = 1, h = 1, w = 1, c0 = 8;
    int bytes = 4;  // element size
    const char* type = "f32";

    int64_t c1() const { return (c + c0 - 1) / c0; }
    int64_t n1() const { return (n + 15) / 16; }

    std::vector<int64_t> shape(Layout l) const
    {
        switch (l) {
            case Layout::NCHW: return {n, c, h, w};
            case Layout::GNCHW: return {g, n, c, h, w};
            case Layout::NCDHW: return {n, c, d, h, w};
            case Layout::NC1HWC0: return {n, c1(), h, w, c0};
            case Layout::GNC1HWC0: return {g, n, c1(), h, w, c0};
            case Layout::FRACTAL_Z: return {g * c1() * h * w, n1(), 16, c0};
            default: return {d * c1() * h * w, n1(), 16, c0};  // FRACTAL_Z_3D
        }
    }

    // Where element (gi, ni, ci, di, hi, wi) of the logical tensor sits in layout l.
    int64_t place(Layout l, int64_t gi, int64_t ni, int64_t ci, int64_t di, int64_t hi, int64_t wi) const
    {
        switch (l) {
            case Layout::NCHW: case Layout::GNCHW: case Layout::NCDHW:
                return ((((gi * n + ni) * c + ci) * d + di) * h + hi) * w + wi;
            case Layout::NC1HWC0: case Layout::GNC1HWC0:
                return ((((gi * n + ni) * c1() + ci / c0) * h + hi) * w + wi) * c0 + ci % c0;
            default: {  // FRACTAL_Z rows are (G, C1, H, W); FRACTAL_Z_3D rows (D, C1, H, W)
                const int64_t row = (((gi + di) * c1() + ci / c0) * h + hi) * w + wi;
                return ((row * n1() + ni / 16) * 16 + ni % 16) * c0 + ci % c0;
            }
        }
    }
};

int64_t elements(const std::vector<int64_t>& shape)
{
    int64_t e = 1;
    for (int64_t s : shape) e *= s;
    return e;
}

std::string layout_word(Layout l)
{
    switch (l) {
        case Layout::NCHW: return "nchw";
        case Layout::GNCHW: return "#pto.layout<GNCHW>";
        case Layout::NCDHW: return "ncdhw";
        case Layout::NC1HWC0: return "nc1hwc0";
        case Layout::GNC1HWC0: return "gnc1hwc0";
        case Layout::FRACTAL_Z: return "#pto.layout<fractal_z>";
        default: return "fractal_z_3d";
    }
}

std::string conv_type(const std::vector<int64_t>& shape, const char* type, Layout l, const char* loc = "vec")
{
    std::string dims;
    for (int64_t s : shape) dims += std::to_string(s) + "x";
    return std::string("!pto.conv_tile_buf<") + loc + ", " + dims + type + ", " + layout_word(l) + ">";
}

std::string view_layout(Layout l)
{
    std::string w = layout_word(l);
    return w[0] == '#' ? w : "#pto.layout<" + w + ">";
}

// A dense 5-dimensional view over a tile of `shape`: a sixth dimension is each position's contiguous run,
// a missing fifth a run of one.
std::string view_of(const std::string& name, const std::string& pointer, const std::vector<int64_t>& shape, const char* type,
                    Layout l, std::vector<int64_t>& constants, std::string& view_type)
{
    std::vector<int64_t> dims(5, 1), strides(5);
    for (size_t k = 0; k < 5 && k < shape.size(); ++k) dims[k] = shape[k];
    int64_t stride = shape.size() == 6 ? shape[5] : 1;
    for (int k = 4; k >= 0; --k) strides[size_t(k)] = stride, stride *= dims[size_t(k)];
    auto list = [&](const std::vector<int64_t>& v) {
        std::string out;
        for (int64_t x : v) out += (out.empty() ? "%k" : ", %k") + std::to_string(x), constants.push_back(x);
        return out;
    };
    view_type = std::string("!pto.tensor_view<?x?x?x?x?x") + type + ", " + view_layout(l) + ">";
    return "  " + name + " = pto.make_tensor_view " + pointer + ", shape = [" + list(dims) + "], strides = [" + list(strides) +
           "] : " + view_type + "\n";
}

// %a (src's layout) loaded, changed by TTRANS (with a tmp tile when `with_tmp`) and stored to %b.
std::string program_of(const Change& k, bool with_tmp)
{
    std::vector<int64_t> constants;
    std::string src_view, dst_view;
    const std::string views = view_of("%av", "%a", k.shape(k.from), k.type, k.from, constants, src_view) +
                              view_of("%bv", "%b", k.shape(k.to), k.type, k.to, constants, dst_view);
    std::sort(constants.begin(), constants.end());
    constants.erase(std::unique(constants.begin(), constants.end()), constants.end());
    const std::string src = conv_type(k.shape(k.from), k.type, k.from), dst = conv_type(k.shape(k.to), k.type, k.to);
    const std::string tmp = "!pto.tile_buf<vec, 1x" + std::to_string(32 / k.bytes) + "x" + k.type + ">";
    std::string s = std::string("func.func @f(%a: !pto.ptr<") + k.type + ">, %b: !pto.ptr<" + k.type + ">) {\n";
    for (int64_t c : constants) s += "  %k" + std::to_string(c) + " = arith.constant " + std::to_string(c) + " : index\n";
    s += views;
    s += "  %src = pto.alloc_tile : " + src + "\n  %dst = pto.alloc_tile : " + dst + "\n";
    if (with_tmp) s += "  %tmp = pto.alloc_tile : " + tmp + "\n";
    s += "  pto.tload ins(%av : " + src_view + ") outs(%src : " + src + ")\n";
    s += with_tmp ? "  pto.ttrans ins(%src, %tmp : " + src + ", " + tmp + ") outs(%dst : " + dst + ")\n"
                  : "  pto.ttrans ins(%src : " + src + ") outs(%dst : " + dst + ")\n";
    s += "  pto.tstore ins(%dst : " + dst + ") outs(%bv : " + dst_view + ")\n  return\n}\n";
    return s;
}

// dst as the plain loops say: each element of the logical tensor from its place in src to its place in
// dst, every other element of dst zero.
std::vector<uint8_t> reference(const Change& k, const std::vector<uint8_t>& src)
{
    std::vector<uint8_t> dst(size_t(elements(k.shape(k.to)) * k.bytes), 0);
    for (int64_t g = 0; g < k.g; ++g)
        for (int64_t n = 0; n < k.n; ++n)
            for (int64_t c = 0; c < k.c; ++c)
                for (int64_t d = 0; d < k.d; ++d)
                    for (int64_t h = 0; h < k.h; ++h)
                        for (int64_t w = 0; w < k.w; ++w)
                            std::memcpy(&dst[size_t(k.place(k.to, g, n, c, d, h, w) * k.bytes)],
                                        &src[size_t(k.place(k.from, g, n, c, d, h, w) * k.bytes)], size_t(k.bytes));
    return dst;
}

// Random bytes, no element all zero (so padding shows); floats take any pattern, NaNs and infinities too.
std::vector<uint8_t> random_elements(std::mt19937& rng, int64_t count, int bytes)
{
    std::vector<uint8_t> v(size_t(count * bytes));
    for (uint8_t& b : v) b = uint8_t(rng());
    for (int64_t i = 0; i < count; ++i) v[size_t(i * bytes)] |= 1;
    return v;
}

struct ElementType {
    const char* name;
    int bytes;
};
constexpr ElementType kTypes[] = {{"f32", 4}, {"f16", 2}, {"bf16", 2}, {"i8", 1}, {"i32", 4}, {"i16", 2}};
constexpr Layout kChanges[][2] = {{Layout::NCHW, Layout::NC1HWC0},      {Layout::NC1HWC0, Layout::NCHW},
                                  {Layout::GNCHW, Layout::GNC1HWC0},    {Layout::GNC1HWC0, Layout::GNCHW},
                                  {Layout::NC1HWC0, Layout::FRACTAL_Z}, {Layout::GNC1HWC0, Layout::FRACTAL_Z},
                                  {Layout::NCDHW, Layout::FRACTAL_Z_3D}};

Change random_change(std::mt19937& rng, const Layout (&pair)[2], const ElementType& t)
{
    Change k;
    k.from = pair[0], k.to = pair[1];
    k.type = t.name, k.bytes = t.bytes;
    const bool grouped = k.from == Layout::GNCHW || k.from == Layout::GNC1HWC0;
    k.g = grouped ? 1 + rng() % 3 : 1;
    k.d = k.from == Layout::NCDHW ? 1 + rng() % 3 : 1;
    k.n = 1 + rng() % 20;
    k.h = 1 + rng() % 3;
    k.w = 1 + rng() % 4;
    // C0 is 32 bytes of elements; NCHW and GNCHW also block by 4.
    k.c0 = (k.from == Layout::NCHW || k.from == Layout::GNCHW) && rng() % 3 == 0 ? 4 : 32 / t.bytes;
    k.c = 1 + rng() % (2 * k.c0 + 3);
    if (k.to == Layout::FRACTAL_Z) k.c = k.c1() * k.c0;  // from blocks: every channel of them is moved
    return k;
}

void expect_random_changes(Target target, uint32_t seed)
{
    std::mt19937 rng(seed);
    for (const auto& pair : kChanges)
        for (const ElementType& t : kTypes)
            for (int trial = 0; trial < 2; ++trial) {
                const Change k = random_change(rng, pair, t);
                const std::string text = program_of(k, trial == 1);
                SCOPED_TRACE(std::string(profile::profile_of(target).name) + "\n" + text);
                std::vector<uint8_t> a = random_elements(rng, elements(k.shape(k.from)), k.bytes);
                std::vector<uint8_t> b(size_t(elements(k.shape(k.to)) * k.bytes), 0xA5);
                const TextVerdict v = verdict_on(target, text, "ttrans.pto", {argument("a", a), argument("b", b)});
                ASSERT_TRUE(v.verified.empty()) << v.verified[0];
                ASSERT_EQ(v.ran, "");
                ASSERT_TRUE(b == reference(k, a));
            }
}

TEST(TtransConvText, EveryChangeAndElementSizeOnCpu) { expect_random_changes(Target::Cpu, 1); }
TEST(TtransConvText, EveryChangeAndElementSizeOnA2A3) { expect_random_changes(Target::A2A3, 2); }
TEST(TtransConvText, EveryChangeAndElementSizeOnA5) { expect_random_changes(Target::A5, 3); }

// The same change through both doors gives the same bytes.
template <typename T, Layout From, Layout To, typename SrcShape, typename DstShape>
void expect_same_as_cpp(const Change& k, uint32_t seed)
{
    using Src = ConvTile<TileType::Vec, T, 1 << 15, From, SrcShape>;
    using Dst = ConvTile<TileType::Vec, T, 1 << 15, To, DstShape>;
    std::mt19937 rng(seed);
    std::vector<uint8_t> a = random_elements(rng, elements(k.shape(From)), int(sizeof(T)));
    std::vector<uint8_t> b(size_t(elements(k.shape(To))) * sizeof(T));
    Src src;
    Dst dst;
    Tile<TileType::Vec, T, 1, 32 / sizeof(T)> tmp;
    std::memcpy(src.data(), a.data(), a.size());
    TTRANS(dst, src, tmp);
    const TextVerdict v = verdict_on(Target::Cpu, program_of(k, true), "ttrans.pto", {argument("a", a), argument("b", b)});
    ASSERT_TRUE(v.verified.empty()) << v.verified[0];
    ASSERT_EQ(v.ran, "");
    EXPECT_EQ(std::memcmp(b.data(), dst.data(), b.size()), 0);
}

TEST(TtransConvText, AgreesWithTheCppDoor)
{
    Change k{Layout::NCHW, Layout::NC1HWC0, 1, 2, 19, 1, 3, 2, 16, 2, "f16"};
    expect_same_as_cpp<half, Layout::NCHW, Layout::NC1HWC0, ConvTileShape<2, 19, 3, 2>, ConvTileShape<2, 2, 3, 2, 16>>(k, 4);
    k = {Layout::GNC1HWC0, Layout::FRACTAL_Z, 2, 18, 16, 1, 2, 2, 8, 4, "f32"};
    expect_same_as_cpp<float, Layout::GNC1HWC0, Layout::FRACTAL_Z, ConvTileShape<2, 18, 2, 2, 2, 8>, ConvTileShape<16, 2, 16, 8>>(k, 5);
    k = {Layout::NCDHW, Layout::FRACTAL_Z_3D, 1, 5, 40, 2, 2, 1, 32, 1, "i8"};
    expect_same_as_cpp<int8_t, Layout::NCDHW, Layout::FRACTAL_Z_3D, ConvTileShape<5, 40, 2, 2, 1>, ConvTileShape<8, 1, 16, 32>>(k, 6);
}

// One TTRANS (line 4) between tiles of the given types.
TextVerdict ttrans_verdict(Target target, const std::string& src, const std::string& dst, const std::string& op = "pto.ttrans")
{
    const std::string text = "func.func @f() {\n  %src = pto.alloc_tile : " + src + "\n  %dst = pto.alloc_tile : " + dst + "\n  " +
                             op + " ins(%src : " + src + ") outs(%dst : " + dst + ")\n  return\n}\n";
    return verdict_on(target, text, "bad.pto");
}

TEST(TtransConvTextIllegal, RulesWithTheirCodesAndPlaces)
{
    using Codes = std::vector<std::string>;
    const std::string nchw = "!pto.conv_tile_buf<vec, 1x8x4x4xf32, nchw>", blocked = "!pto.conv_tile_buf<vec, 1x1x4x4x8xf32, nc1hwc0>";
    struct Case {
        Target target;
        std::string src, dst;
        Codes verified;
        std::string ran;
    };
    const std::vector<Case> cases = {
        {Target::A2A3, "!pto.conv_tile_buf<mat, 1x8x4x4xf32, nchw>", blocked, {"LEGAL_TTRANS_LOCATION@bad.pto:4:3"}, ""},
        {Target::A5, nchw, "!pto.conv_tile_buf<mat, 1x1x4x4x8xf32, nc1hwc0>", {"LEGAL_TTRANS_LOCATION@bad.pto:4:3"}, ""},
        {Target::Cpu, nchw, "!pto.conv_tile_buf<vec, 1x1x4x4x8xi32, nc1hwc0>", {"LEGAL_TTRANS_DTYPE@bad.pto:4:3"}, ""},
        {Target::Cpu, nchw, "!pto.conv_tile_buf<vec, 4x1x16x8xf32, fractal_z>", {"LEGAL_TTRANS_FORMAT@bad.pto:4:3"}, ""},
        {Target::A5, blocked, "!pto.conv_tile_buf<vec, 1x1x4x4x8xf32, ndc1hwc0>", {"LEGAL_TTRANS_FORMAT@bad.pto:4:3"}, ""},
        {Target::Cpu, "!pto.conv_tile_buf<vec, 1x1x8x4x4xf32, nchw>", blocked, {"LEGAL_TTRANS_FORMAT@bad.pto:4:3"}, ""},
        // Every rule two operands break, each at the op.
        {Target::Cpu, "!pto.conv_tile_buf<mat, 1x8x4x4xf32, nchw>", "!pto.conv_tile_buf<mat, 1x8x4x4xf32, nchw>",
         {"LEGAL_TTRANS_LOCATION@bad.pto:4:3", "LEGAL_TTRANS_LOCATION@bad.pto:4:3", "LEGAL_TTRANS_FORMAT@bad.pto:4:3"}, ""},
        // The shapes are the run's rule (C1 is 1 for 8 channels of 8), as in C++.
        {Target::Cpu, nchw, "!pto.conv_tile_buf<vec, 1x2x4x4x8xf32, nc1hwc0>", {}, "RUN_TTRANS_SHAPE@bad.pto:4:3"},
        {Target::A2A3, "!pto.conv_tile_buf<vec, 20x1x2x2x16xf16, nc1hwc0>", "!pto.conv_tile_buf<vec, 4x1x16x16xf16, fractal_z>", {},
         "RUN_TTRANS_SHAPE@bad.pto:4:3"},
        // A convolution tile changes into a convolution tile only.
        {Target::Cpu, nchw, "!pto.tile_buf<vec, 8x16xf32>", {"STRUCT_OPERAND_KIND@bad.pto:4:3"}, ""},
        {Target::Cpu, "!pto.tile_buf<vec, 8x16xf32>", blocked, {"STRUCT_OPERAND_KIND@bad.pto:4:3"}, ""},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(profile::profile_of(c.target).name) + ": " + c.src + " -> " + c.dst);
        const TextVerdict v = ttrans_verdict(c.target, c.src, c.dst);
        EXPECT_EQ(v.verified, c.verified);
        EXPECT_EQ(v.ran, c.ran);
    }
}

}  // namespace
