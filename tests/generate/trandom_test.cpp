// TRANDOM: Philox4x32's published known-answer vectors, the layout over the tile against a plain
// reference, determinism, both doors and the rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "support/asm_arguments.hpp"
#include "support/rule_codes.hpp"
#include "support/test_support.hpp"
#include "support/text_program.hpp"

using namespace pto;
using namespace pto::test;

namespace {

using Block = std::array<uint32_t, 4>;

// Philox4x32-R written from the paper's definition: a round is a pair of 32x32 -> 64-bit products, the
// key bumped by the golden-ratio constants between rounds.
Block reference_philox(Block ctr, std::array<uint32_t, 2> key, int rounds)
{
    for (int i = 0; i < rounds; ++i) {
        if (i > 0) {
            key[0] += 0x9E3779B9u;
            key[1] += 0xBB67AE85u;
        }
        const uint64_t a = uint64_t(0xD2511F53u) * ctr[0];
        const uint64_t b = uint64_t(0xCD9E8D57u) * ctr[2];
        ctr = {uint32_t(b >> 32) ^ ctr[1] ^ key[0], uint32_t(b), uint32_t(a >> 32) ^ ctr[3] ^ key[1], uint32_t(a)};
    }
    return ctr;
}

Block plus(Block c, uint64_t n)
{
    for (uint32_t& w : c) {
        n += w;
        w = uint32_t(n);
        n >>= 32;
    }
    return c;
}

// The first block of a 1x256 tile: columns 0, 64, 128 and 192 hold the four words of counter + 0.
Block first_block(uint32_t k0, uint32_t k1, Block c)
{
    Tile<TileType::Vec, uint32_t, 1, 256> t;
    TRandomKey key = {k0, k1};
    TRandomCounter counter = {c[0], c[1], c[2], c[3]};
    TRANDOM(t, key, counter);
    return {t.GetValue(0), t.GetValue(64), t.GetValue(128), t.GetValue(192)};
}

TEST(Trandom, PhiloxKnownAnswers)
{
    // Random123's kat_vectors for philox4x32_10.
    EXPECT_EQ(first_block(0, 0, {0, 0, 0, 0}), (Block{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
    EXPECT_EQ(first_block(0xffffffffu, 0xffffffffu, {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}),
              (Block{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
    EXPECT_EQ(first_block(0xa4093822u, 0x299f31d0u, {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}),
              (Block{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

template <typename T, int R, int C, uint16_t Rounds>
void expect_layout(uint32_t seed)
{
    using Dst = Tile<TileType::Vec, T, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 3; ++trial) {
        const int rows = 1 + int(rng() % R), cols = 1 + int(rng() % C);
        Dst dst(rows, cols);
        TRandomKey key = {uint32_t(rng()), uint32_t(rng())};
        TRandomCounter counter = {uint32_t(rng()), 0xffffffffu, uint32_t(rng()), uint32_t(rng())};  // carries cross words
        for (int i = 0; i < R * C; ++i) dst.SetValue(uint32_t(i), T(0x5a5a5a5a));
        TRANDOM<Rounds>(dst, key, counter);
        const int chunks = (cols + 255) / 256;
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) {
                const T got = dst.GetValue(uint32_t(r * C + c));
                if (r >= rows || c >= cols) {
                    ASSERT_EQ(got, T(0x5a5a5a5a)) << "outside the valid region " << r << "," << c;
                    continue;
                }
                const int l = c / 256, w = c % 256 / 64, n = c % 64;
                const Block base = plus({counter[0], counter[1], counter[2], counter[3]}, (uint64_t(r) * uint64_t(chunks) + uint64_t(l)) * (C / 4));
                const Block want = reference_philox(plus(base, uint64_t(n)), {key[0], key[1]}, Rounds);
                ASSERT_EQ(uint32_t(got), want[size_t(w)]) << r << "," << c;
            }
    }
}

TEST(Trandom, TileLayoutMatchesTheReference)
{
    expect_layout<uint32_t, 4, 512, 10>(1);
    expect_layout<int32_t, 3, 64, 7>(2);
    expect_layout<uint32_t, 2, 1024, 7>(3);
}

TEST(Trandom, SameKeyAndCounterSameNumbers)
{
    Tile<TileType::Vec, int32_t, 4, 256> a, b;
    TRandomKey key = {0x12345678u, 0x9abcdef0u};
    TRandomCounter counter = {0u, 1u, 2u, 3u};
    TRANDOM(a, key, counter);
    TRANDOM(b, key, counter);
    EXPECT_EQ(key[0], 0x12345678u);  // not advanced
    EXPECT_EQ(counter[1], 1u);
    int distinct = 0;
    for (int i = 0; i < 1024; ++i) {
        ASSERT_EQ(a.GetValue(uint32_t(i)), b.GetValue(uint32_t(i)));
        distinct += i > 0 && a.GetValue(uint32_t(i)) != a.GetValue(uint32_t(i - 1));
    }
    EXPECT_GT(distinct, 1000);
}

TEST(Trandom, Rules)
{
    const auto code = [](profile::Target t, const engine::TileDesc& d, int rounds) {
        return first_code_on(t, [&](const profile::Profile& p, engine::LegalitySink& s) { engine::check_trandom(p, d, rounds, s); });
    };
    Tile<TileType::Vec, uint32_t, 1, 64> u;
    Tile<TileType::Vec, float, 1, 64> f;
    EXPECT_EQ(code(profile::Target::A5, u.desc(), 10), "none");
    EXPECT_EQ(code(profile::Target::A2A3, u.desc(), 10), "LEGAL_TRANDOM_TARGET");
    EXPECT_EQ(code(profile::Target::A5, f.desc(), 10), "LEGAL_TRANDOM_DTYPE");
    EXPECT_EQ(code(profile::Target::A5, u.desc(), 8), "LEGAL_TRANDOM_ROUNDS");
}

TEST(TrandomText, KeyAndCounterTilesRun)
{
    const char* program = R"(func.func @f(%k: !pto.ptr<ui32>, %c: !pto.ptr<ui32>, %y: !pto.ptr<ui32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %kv = pto.make_tensor_view %k, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xui32>
  %cv = pto.make_tensor_view %c, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xui32>
  %yv = pto.make_tensor_view %y, shape = [%c2, %c256], strides = [%c256, %c1] : !pto.tensor_view<?x?xui32>
  %tk = pto.alloc_tile : !pto.tile_buf<vec, 1x8xui32>
  %tc = pto.alloc_tile : !pto.tile_buf<vec, 1x8xui32>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 2x256xui32>
  pto.tload ins(%kv : !pto.tensor_view<?x?xui32>) outs(%tk : !pto.tile_buf<vec, 1x8xui32>)
  pto.tload ins(%cv : !pto.tensor_view<?x?xui32>) outs(%tc : !pto.tile_buf<vec, 1x8xui32>)
  pto.trandom ins(%tk, %tc : !pto.tile_buf<vec, 1x8xui32>, !pto.tile_buf<vec, 1x8xui32>) outs(%ty : !pto.tile_buf<vec, 2x256xui32>) {rounds = 7}
  pto.tstore ins(%ty : !pto.tile_buf<vec, 2x256xui32>) outs(%yv : !pto.tensor_view<?x?xui32>)
  return
}
)";
    std::vector<uint32_t> k = {7, 9, 0, 0, 0, 0, 0, 0}, c = {100, 0, 5, 0, 0, 0, 0, 0}, y(512);
    const as::RunResult r = run_verified(program, "random.pto", {argument("k", k), argument("c", c), argument("y", y)});
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    Tile<TileType::Vec, uint32_t, 2, 256> t;
    TRandomKey key = {7, 9};
    TRandomCounter counter = {100, 0, 5, 0};
    TRANDOM<7>(t, key, counter);
    for (int i = 0; i < 512; ++i) ASSERT_EQ(y[size_t(i)], t.GetValue(uint32_t(i))) << i;
}

}  // namespace
