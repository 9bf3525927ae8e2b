// TTRANS of convolution tiles: every format change against plain index loops over random data, padding
// as zeros, round trips, and the rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "support/rule_codes.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

template <typename T>
T random_value(std::mt19937& rng)
{
    if constexpr (std::is_integral_v<T>) return T(1 + rng() % 100);
    else return T(float(1 + rng() % 1000) * 0.25f);  // never zero, so padding shows
}

template <typename ConvT>
void fill(ConvT& t, std::mt19937& rng, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) t.data()[i] = random_value<typename ConvT::DType>(rng);
}

template <typename T>
bool same(T a, T b)
{
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T, int N, int C, int H, int W>
void expect_nchw_round_trip(uint32_t seed)
{
    constexpr int C0 = 32 / int(sizeof(T)), C1 = (C + C0 - 1) / C0;
    using Nchw = ConvTile<TileType::Vec, T, N * C * H * W * int(sizeof(T)), Layout::NCHW, ConvTileShape<N, C, H, W>>;
    using Blocked = ConvTile<TileType::Vec, T, N * C1 * H * W * C0 * int(sizeof(T)), Layout::NC1HWC0, ConvTileShape<N, C1, H, W, C0>>;
    Tile<TileType::Vec, T, 1, 32 / sizeof(T)> tmp;
    std::mt19937 rng(seed);
    Nchw src, back;
    Blocked blocked;
    fill(src, rng, N * C * H * W);
    TTRANS(blocked, src, tmp);
    for (int n = 0; n < N; ++n)
        for (int c1 = 0; c1 < C1; ++c1)
            for (int h = 0; h < H; ++h)
                for (int w = 0; w < W; ++w)
                    for (int c0 = 0; c0 < C0; ++c0) {
                        const int c = c1 * C0 + c0;
                        const T got = blocked.data()[(((n * C1 + c1) * H + h) * W + w) * C0 + c0];
                        const T want = c < C ? src.data()[((n * C + c) * H + h) * W + w] : T(0);
                        ASSERT_TRUE(same(got, want)) << n << "," << c << "," << h << "," << w;
                    }
    TTRANS(back, blocked, tmp);
    ASSERT_EQ(0, std::memcmp(back.data(), src.data(), sizeof(T) * N * C * H * W));
}

TEST(TtransConv, NchwToNc1hwc0AndBack)
{
    expect_nchw_round_trip<float, 2, 13, 3, 4>(1);
    expect_nchw_round_trip<half, 1, 20, 2, 5>(2);
    expect_nchw_round_trip<int8_t, 2, 40, 2, 2>(3);
}

TEST(TtransConv, Gnchw)
{
    constexpr int G = 2, N = 2, C = 10, H = 2, W = 3, C0 = 8, C1 = 2;
    using Src = ConvTile<TileType::Vec, float, G * N * C * H * W * 4, Layout::GNCHW, ConvTileShape<G, N, C, H, W>>;
    using Dst = ConvTile<TileType::Vec, float, G * N * C1 * H * W * C0 * 4, Layout::GNC1HWC0, ConvTileShape<G, N, C1, H, W, C0>>;
    Tile<TileType::Vec, float, 1, 8> tmp;
    std::mt19937 rng(4);
    Src src, back;
    Dst dst;
    fill(src, rng, G * N * C * H * W);
    TTRANS(dst, src, tmp);
    for (int g = 0; g < G; ++g)
        for (int n = 0; n < N; ++n)
            for (int c = 0; c < C1 * C0; ++c)
                for (int p = 0; p < H * W; ++p) {
                    const float got = dst.data()[(((g * N + n) * C1 + c / C0) * H * W + p) * C0 + c % C0];
                    ASSERT_EQ(got, c < C ? src.data()[((g * N + n) * C + c) * H * W + p] : 0.0f) << g << "," << n << "," << c << "," << p;
                }
    TTRANS(back, dst, tmp);
    ASSERT_EQ(0, std::memcmp(back.data(), src.data(), sizeof(float) * G * N * C * H * W));
}

TEST(TtransConv, Nc1hwc0ToFractalZ)
{
    constexpr int N = 20, C1 = 2, H = 2, W = 3, C0 = 16, N1 = 2, N0 = 16;
    using Src = ConvTile<TileType::Vec, half, N * C1 * H * W * C0 * 2, Layout::NC1HWC0, ConvTileShape<N, C1, H, W, C0>>;
    using Dst = ConvTile<TileType::Vec, half, C1 * H * W * N1 * N0 * C0 * 2, Layout::FRACTAL_Z, ConvTileShape<C1 * H * W, N1, N0, C0>>;
    Tile<TileType::Vec, half, 1, 16> tmp;
    std::mt19937 rng(5);
    Src src;
    Dst dst;
    fill(src, rng, N * C1 * H * W * C0);
    TTRANS(dst, src, tmp);
    for (int row = 0; row < C1 * H * W; ++row)
        for (int n = 0; n < N1 * N0; ++n)
            for (int c0 = 0; c0 < C0; ++c0) {
                const half got = dst.data()[((row * N1 + n / N0) * N0 + n % N0) * C0 + c0];
                const half want = n < N ? src.data()[(n * C1 * H * W + row) * C0 + c0] : half(0.0f);
                ASSERT_EQ(got.bits, want.bits) << row << "," << n << "," << c0;
            }
}

TEST(TtransConv, NcdhwToFractalZ3d)
{
    constexpr int N = 3, C = 5, D = 2, H = 2, W = 2, C0 = 8, C1 = 1, N1 = 1, N0 = 16;
    using Src = ConvTile<TileType::Vec, float, N * C * D * H * W * 4, Layout::NCDHW, ConvTileShape<N, C, D, H, W>>;
    using Dst = ConvTile<TileType::Vec, float, D * C1 * H * W * N1 * N0 * C0 * 4, Layout::FRACTAL_Z_3D, ConvTileShape<D * C1 * H * W, N1, N0, C0>>;
    Tile<TileType::Vec, float, 1, 8> tmp;
    std::mt19937 rng(6);
    Src src;
    Dst dst;
    fill(src, rng, N * C * D * H * W);
    TTRANS(dst, src, tmp);
    for (int d = 0; d < D; ++d)
        for (int p = 0; p < H * W; ++p)
            for (int n = 0; n < N1 * N0; ++n)
                for (int c = 0; c < C1 * C0; ++c) {
                    const int row = (d * C1 + c / C0) * H * W + p;
                    const float got = dst.data()[((row * N1 + n / N0) * N0 + n % N0) * C0 + c % C0];
                    const float want = n < N && c < C ? src.data()[(((n * C + c) * D + d) * H * W) + p] : 0.0f;
                    ASSERT_EQ(got, want) << d << "," << p << "," << n << "," << c;
                }
}

TEST(TtransConv, Rules)
{
    using Nchw = ConvTile<TileType::Vec, float, 4096, Layout::NCHW, ConvTileShape<1, 8, 4, 4>>;
    using Fractal = ConvTile<TileType::Vec, float, 4096, Layout::FRACTAL_Z, ConvTileShape<16, 1, 16, 8>>;
    using WrongC1 = ConvTile<TileType::Vec, float, 4096, Layout::NC1HWC0, ConvTileShape<1, 2, 4, 4, 8>>;
    Nchw nchw;
    Fractal fractal;
    WrongC1 wrong;
    const auto cpu = profile::Target::Cpu;
    EXPECT_EQ(first_code_on(cpu, [&](auto& p, auto& s) { engine::check_ttrans_conv(p, fractal.desc(), nchw.desc(), s); }), "LEGAL_TTRANS_FORMAT");
    EXPECT_EQ(first_code_on(cpu, [&](auto& p, auto& s) { engine::check_ttrans_conv(p, wrong.desc(), nchw.desc(), s); }), "none");
    std::mt19937 rng(7);
    fill(nchw, rng, 128);
    Tile<TileType::Vec, float, 1, 8> tmp;
    EXPECT_EQ(diagnostic_of([&] { TTRANS(wrong, nchw, tmp); }).code, "RUN_TTRANS_SHAPE");  // C1 is 1 for 8 channels
}

}  // namespace
