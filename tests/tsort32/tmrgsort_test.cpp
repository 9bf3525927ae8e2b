// TMRGSORT: the list merges (2, 3, 4 lists, exhausted or not, dst shorter than the lists) and the block
// form against a plain four-way greedy merge over random sorted lists; unsorted lists; both doors; rules.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
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

struct Pair {
    double value;  // no NaN in these lists: plain comparison is the order
    uint64_t bits;
};

// A pair as TSORT32 stores it: float [value, index], half [value, 0, index].
template <typename T>
uint64_t pair_bits(float value, uint32_t index)
{
    uint64_t bits = uint64_t(index) << 32;
    const T v = T(value);
    uint64_t low = 0;
    std::memcpy(&low, &v, sizeof(T));
    return bits | low;
}

// The reference: take the largest head each time, the lower list on ties; stop after `limit` pairs, or
// with `exhausted` right after a list runs out.
std::vector<uint64_t> greedy_merge(const std::vector<std::vector<Pair>>& lists, std::size_t limit, bool exhausted, uint16_t (&taken)[4])
{
    std::vector<std::size_t> at(lists.size(), 0);
    std::vector<uint64_t> out;
    const auto any_empty = [&] {
        for (std::size_t i = 0; i < lists.size(); ++i)
            if (at[i] == lists[i].size()) return true;
        return false;
    };
    while (out.size() < limit && !(exhausted && any_empty())) {
        int pick = -1;
        for (std::size_t i = 0; i < lists.size(); ++i)
            if (at[i] < lists[i].size() && (pick < 0 || lists[i][at[i]].value > lists[size_t(pick)][at[size_t(pick)]].value)) pick = int(i);
        if (pick < 0) break;
        out.push_back(lists[size_t(pick)][at[size_t(pick)]++].bits);
    }
    for (int i = 0; i < 4; ++i) taken[i] = uint16_t(size_t(i) < at.size() ? at[size_t(i)] : 0);
    return out;
}

template <typename T>
std::vector<Pair> sorted_list(std::mt19937& rng, int n, uint32_t first_index)
{
    std::vector<float> values;
    const float specials[] = {INFINITY, -INFINITY, 0.0f, -0.0f, 7.0f};
    for (int k = 0; k < n; ++k) values.push_back(rng() % 8 == 0 ? specials[rng() % 5] : float(int(rng() % 200) - 100) * 0.5f);
    std::sort(values.begin(), values.end(), std::greater<float>());
    std::vector<Pair> out;
    for (int k = 0; k < n; ++k) out.push_back({double(values[size_t(k)]), pair_bits<T>(values[size_t(k)], first_index + uint32_t(k))});
    return out;
}

template <typename TileT>
void load(TileT& t, const std::vector<Pair>& pairs)
{
    t.SetValidCol(unsigned(pairs.size() * 8 / sizeof(typename TileT::DType)));
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        typename TileT::DType e[8 / sizeof(typename TileT::DType)];
        std::memcpy(e, &pairs[k].bits, 8);
        for (std::size_t i = 0; i < 8 / sizeof(typename TileT::DType); ++i) t.SetValue(uint32_t(k * (8 / sizeof(e[0])) + i), e[i]);
    }
}

template <typename T, int Lists>
void expect_merge(uint32_t seed, bool exhausted, bool short_dst)
{
    constexpr int kMaxPairs = 64, kElems = kMaxPairs * 8 / int(sizeof(T));
    using List = Tile<TileType::Vec, T, 1, kElems, BLayout::RowMajor, 1, DYNAMIC>;
    using Dst = Tile<TileType::Vec, T, 1, Lists * kElems, BLayout::RowMajor, 1, DYNAMIC>;
    using Tmp = Tile<TileType::Vec, T, 1, Lists * kElems>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 6; ++trial) {
        std::vector<std::vector<Pair>> lists;
        std::size_t total = 0;
        for (int i = 0; i < Lists; ++i) {
            lists.push_back(sorted_list<T>(rng, 1 + int(rng() % kMaxPairs), uint32_t(i * 1000)));
            total += lists.back().size();
        }
        const std::size_t room = short_dst ? 1 + rng() % total : total;
        List l[4];
        for (int i = 0; i < Lists; ++i) load(l[i], lists[size_t(i)]);
        Dst dst(static_cast<unsigned>(room * 8 / sizeof(T)));
        Tmp tmp;
        MrgSortExecutedNumList executed{9, 9, 9, 9};
        if constexpr (Lists == 2) {
            if (exhausted) TMRGSORT<Dst, Tmp, List, List, true>(dst, executed, tmp, l[0], l[1]);
            else TMRGSORT<Dst, Tmp, List, List, false>(dst, executed, tmp, l[0], l[1]);
        } else if constexpr (Lists == 3) {
            if (exhausted) TMRGSORT<Dst, Tmp, List, List, List, true>(dst, executed, tmp, l[0], l[1], l[2]);
            else TMRGSORT<Dst, Tmp, List, List, List, false>(dst, executed, tmp, l[0], l[1], l[2]);
        } else {
            if (exhausted) TMRGSORT<Dst, Tmp, List, List, List, List, true>(dst, executed, tmp, l[0], l[1], l[2], l[3]);
            else TMRGSORT<Dst, Tmp, List, List, List, List, false>(dst, executed, tmp, l[0], l[1], l[2], l[3]);
        }
        uint16_t taken[4];
        const std::vector<uint64_t> want = greedy_merge(lists, room, exhausted, taken);
        EXPECT_EQ(executed.mrgSortList0, taken[0]);
        EXPECT_EQ(executed.mrgSortList1, taken[1]);
        EXPECT_EQ(executed.mrgSortList2, taken[2]);
        EXPECT_EQ(executed.mrgSortList3, taken[3]);
        for (std::size_t k = 0; k < want.size(); ++k) {
            uint64_t got;
            std::memcpy(&got, reinterpret_cast<const char*>(dst.data()) + 8 * k, 8);
            ASSERT_EQ(got, want[k]) << "pair " << k << " of " << want.size();
        }
    }
}

TEST(Tmrgsort, TwoThreeFourListsEveryMode)
{
    for (bool exhausted : {false, true})
        for (bool short_dst : {false, true}) {
            expect_merge<float, 2>(1, exhausted, short_dst);
            expect_merge<float, 3>(2, exhausted, short_dst);
            expect_merge<float, 4>(3, exhausted, short_dst);
            expect_merge<half, 2>(4, exhausted, short_dst);
            expect_merge<half, 4>(5, exhausted, short_dst);
        }
}

TEST(Tmrgsort, EqualValuesTakeTheLowerListFirst)
{
    using List = Tile<TileType::Vec, float, 1, 8, BLayout::RowMajor, 1, DYNAMIC>;
    using Dst = Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, DYNAMIC>;
    List a, b;
    load(a, {{2.0, pair_bits<float>(2.0f, 0)}, {1.0, pair_bits<float>(1.0f, 1)}});
    load(b, {{2.0, pair_bits<float>(2.0f, 10)}, {1.0, pair_bits<float>(-0.0f, 11)}, {0.0, pair_bits<float>(0.0f, 12)}});
    Dst dst(10);
    Tile<TileType::Vec, float, 1, 16> tmp;
    MrgSortExecutedNumList executed;
    TMRGSORT<Dst, decltype(tmp), List, List, false>(dst, executed, tmp, a, b);
    const uint32_t want_index[] = {0, 10, 1, 11, 12};  // -0 and +0 are equal: list order
    for (int k = 0; k < 5; ++k) EXPECT_EQ(std::bit_cast<uint32_t>(dst.GetValue(uint32_t(2 * k + 1))), want_index[k]) << k;
}

TEST(Tmrgsort, InPlaceOnItsFirstListLeavesTheRestOfDst)
{
    using List = Tile<TileType::Vec, float, 1, 8, BLayout::RowMajor, 1, DYNAMIC>;
    using Dst = Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, DYNAMIC>;
    using Tmp = Tile<TileType::Vec, float, 1, 16>;
    Dst dst(16);
    List a, b;
    Tmp tmp;
    TASSIGN(dst, 0x0);
    TASSIGN(a, 0x0);  // list 0 lives in dst's first columns
    TASSIGN(b, 0x1000);
    TASSIGN(tmp, 0x2000);
    for (int i = 0; i < 16; ++i) dst.SetValue(uint32_t(i), -7.0f);
    load(a, {{5.0, pair_bits<float>(5.0f, 0)}, {3.0, pair_bits<float>(3.0f, 1)}, {1.0, pair_bits<float>(1.0f, 2)}});
    load(b, {{4.0, pair_bits<float>(4.0f, 10)}, {2.0, pair_bits<float>(2.0f, 11)}});
    MrgSortExecutedNumList executed;
    TMRGSORT<Dst, Tmp, List, List, true>(dst, executed, tmp, a, b);
    EXPECT_EQ(executed.mrgSortList0, 2);  // 5, 4, 3, 2: list 1 runs out
    EXPECT_EQ(executed.mrgSortList1, 2);
    const float want[] = {5.0f, 4.0f, 3.0f, 2.0f};
    for (int k = 0; k < 4; ++k) EXPECT_EQ(dst.GetValue(uint32_t(2 * k)), want[k]) << k;
    EXPECT_EQ(dst.GetValue(8), -7.0f);  // past the merged pairs dst keeps its bytes
}

template <typename T>
void expect_blocks(uint32_t seed, int block_len, int repeats)
{
    constexpr int kCols = 4096;
    using Row = Tile<TileType::Vec, T, 1, kCols, BLayout::RowMajor, 1, DYNAMIC>;
    const int per_pair = 8 / int(sizeof(T)), block_pairs = block_len / per_pair, cols = 4 * block_len * repeats;
    std::mt19937 rng(seed);
    std::vector<Pair> all;
    std::vector<std::vector<std::vector<Pair>>> groups;
    for (int g = 0; g < repeats; ++g) {
        groups.emplace_back();
        for (int b = 0; b < 4; ++b) {
            groups.back().push_back(sorted_list<T>(rng, block_pairs, uint32_t((g * 4 + b) * block_pairs)));
            all.insert(all.end(), groups.back().back().begin(), groups.back().back().end());
        }
    }
    Row src, dst(static_cast<unsigned>(cols));
    load(src, all);
    TMRGSORT(dst, src, uint32_t(block_len));
    for (int g = 0; g < repeats; ++g) {
        uint16_t taken[4];
        const auto want = greedy_merge(groups[size_t(g)], SIZE_MAX, false, taken);
        for (std::size_t k = 0; k < want.size(); ++k) {
            uint64_t got;
            std::memcpy(&got, reinterpret_cast<const char*>(dst.data()) + 8 * (size_t(g * 4 * block_pairs) + k), 8);
            ASSERT_EQ(got, want[k]) << "group " << g << " pair " << k;
        }
    }
}

TEST(Tmrgsort, BlockFormMergesEachGroupOfFour)
{
    expect_blocks<float>(11, 64, 3);
    expect_blocks<float>(12, 256, 2);
    expect_blocks<half>(13, 128, 2);
    Tile<TileType::Vec, float, 1, 512> src, dst;
    for (int i = 0; i < 512; ++i) src.SetValue(uint32_t(i), 1.0f);
    EXPECT_EQ(diagnostic_of([&] { TMRGSORT(dst, src, 96u); }).code, "RUN_TMRGSORT_BLOCK");  // not a multiple of 64
    EXPECT_EQ(diagnostic_of([&] { TMRGSORT(dst, src, 256u); }).code, "RUN_TMRGSORT_BLOCK");  // 512 is not 4 blocks of 256
}

TEST(Tmrgsort, UnsortedListsAreReportedInCheckedModeAndMergedGreedilyOtherwise)
{
    using List = Tile<TileType::Vec, float, 1, 8, BLayout::RowMajor, 1, DYNAMIC>;
    using Dst = Tile<TileType::Vec, float, 1, 16, BLayout::RowMajor, 1, DYNAMIC>;
    std::vector<std::vector<Pair>> lists = {
        {{1.0, pair_bits<float>(1.0f, 0)}, {9.0, pair_bits<float>(9.0f, 1)}},
        {{5.0, pair_bits<float>(5.0f, 2)}},
        {{3.0, pair_bits<float>(3.0f, 3)}, {4.0, pair_bits<float>(4.0f, 4)}}};
    List a, b, c;
    load(a, lists[0]);
    load(b, lists[1]);
    load(c, lists[2]);
    Dst dst(10);
    Tile<TileType::Vec, float, 1, 24> tmp;
    MrgSortExecutedNumList executed;
    {
        ScopedChecked checked;
        const Diagnostic d = diagnostic_of([&] { TMRGSORT<Dst, decltype(tmp), List, List, List, false>(dst, executed, tmp, a, b, c); });
        EXPECT_EQ(d.code, "RUN_TMRGSORT_ORDER");
        EXPECT_EQ(d.operand, "src0");
    }
    ScopedChecked fast(false);
    TMRGSORT<Dst, decltype(tmp), List, List, List, false>(dst, executed, tmp, a, b, c);
    uint16_t taken[4];
    const auto want = greedy_merge(lists, 5, false, taken);
    for (std::size_t k = 0; k < want.size(); ++k) {
        uint64_t got;
        std::memcpy(&got, reinterpret_cast<const char*>(dst.data()) + 8 * k, 8);
        ASSERT_EQ(got, want[k]) << k;
    }
}

TEST(Tmrgsort, Rules)
{
    Tile<TileType::Vec, float, 1, 64> f;
    Tile<TileType::Vec, float, 1, 128> wide;
    Tile<TileType::Vec, int32_t, 1, 64> i32;
    Tile<TileType::Vec, float, 2, 64> two_rows;
    const engine::TileDesc fd = f.desc(), id = i32.desc(), rd = two_rows.desc();
    const engine::TileDesc* ok[] = {&fd, &fd};
    const engine::TileDesc* ints[] = {&id, &id};
    const engine::TileDesc* rows[] = {&fd, &rd};
    const engine::TileDesc small = f.desc(), big = wide.desc();
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tmrgsort(p, big, &big, ok, s); }), "none");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tmrgsort(p, big, &small, ok, s); }), "LEGAL_TMRGSORT_TMP");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tmrgsort(p, id, nullptr, ints, s); }), "LEGAL_TMRGSORT_DTYPE");
    EXPECT_EQ(first_code_on(profile::Target::A5, [&](auto& p, auto& s) { engine::check_tmrgsort(p, big, nullptr, rows, s); }), "LEGAL_TMRGSORT_LAYOUT");
    Tile<TileType::Vec, float, 1, 16384> huge;
    const engine::TileDesc hd = huge.desc();
    const engine::TileDesc* huge_lists[] = {&hd, &hd, &hd, &hd};
    EXPECT_EQ(first_code_on(profile::Target::A2A3, [&](auto& p, auto& s) { engine::check_tmrgsort(p, hd, nullptr, huge_lists, s); }), "LEGAL_TMRGSORT_UB");
}

TEST(TmrgsortText, ListsWithCountsAndBlocksRun)
{
    const char* program = R"(func.func @f(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %y: !pto.ptr<f32>, %n: !pto.ptr<i16>, %s: !pto.ptr<f32>, %t: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %bl = arith.constant 64 : i32
  %av = pto.make_tensor_view %a, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %bv = pto.make_tensor_view %b, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %nv = pto.make_tensor_view %n, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi16>
  %sv = pto.make_tensor_view %s, shape = [%c1, %c512], strides = [%c512, %c1] : !pto.tensor_view<?x?xf32>
  %tv = pto.make_tensor_view %t, shape = [%c1, %c512], strides = [%c512, %c1] : !pto.tensor_view<?x?xf32>
  %ta = pto.alloc_tile : !pto.tile_buf<vec, 1x16xf32>
  %tb = pto.alloc_tile : !pto.tile_buf<vec, 1x16xf32>
  %ty = pto.alloc_tile : !pto.tile_buf<vec, 1x32xf32>
  %tn = pto.alloc_tile : !pto.tile_buf<vec, 1x16xi16>
  %ts = pto.alloc_tile : !pto.tile_buf<vec, 1x512xf32>
  %tt = pto.alloc_tile : !pto.tile_buf<vec, 1x512xf32>
  pto.tload ins(%av : !pto.tensor_view<?x?xf32>) outs(%ta : !pto.tile_buf<vec, 1x16xf32>)
  pto.tload ins(%bv : !pto.tensor_view<?x?xf32>) outs(%tb : !pto.tile_buf<vec, 1x16xf32>)
  pto.tload ins(%sv : !pto.tensor_view<?x?xf32>) outs(%ts : !pto.tile_buf<vec, 1x512xf32>)
  pto.tmrgsort ins(%ta, %tb : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>) outs(%ty, %tn : !pto.tile_buf<vec, 1x32xf32>, !pto.tile_buf<vec, 1x16xi16>) {exhausted = true}
  pto.tmrgsort ins(%ts, %bl : !pto.tile_buf<vec, 1x512xf32>, i32) outs(%tt : !pto.tile_buf<vec, 1x512xf32>)
  pto.tstore ins(%ty : !pto.tile_buf<vec, 1x32xf32>) outs(%yv : !pto.tensor_view<?x?xf32>)
  pto.tstore ins(%tn : !pto.tile_buf<vec, 1x16xi16>) outs(%nv : !pto.tensor_view<?x?xi16>)
  pto.tstore ins(%tt : !pto.tile_buf<vec, 1x512xf32>) outs(%tv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    std::mt19937 rng(21);
    const auto a_pairs = sorted_list<float>(rng, 8, 0), b_pairs = sorted_list<float>(rng, 8, 100);
    std::vector<float> a(16), b(16), y(32, 0.0f), s(512), t(512);
    std::vector<int16_t> n(16, -1);
    for (int k = 0; k < 8; ++k) {
        std::memcpy(&a[size_t(2 * k)], &a_pairs[size_t(k)].bits, 8);
        std::memcpy(&b[size_t(2 * k)], &b_pairs[size_t(k)].bits, 8);
    }
    std::vector<std::vector<Pair>> groups[2];
    for (int g = 0; g < 2; ++g)
        for (int blk = 0; blk < 4; ++blk) {
            groups[g].push_back(sorted_list<float>(rng, 32, uint32_t((g * 4 + blk) * 32)));
            for (int k = 0; k < 32; ++k) std::memcpy(&s[size_t(g * 256 + blk * 64 + 2 * k)], &groups[g].back()[size_t(k)].bits, 8);
        }
    const as::RunResult r = run_verified(program, "merge.pto", {argument("a", a), argument("b", b), argument("y", y), argument("n", n), argument("s", s), argument("t", t)});
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    uint16_t taken[4];
    const auto want = greedy_merge({a_pairs, b_pairs}, 16, true, taken);
    EXPECT_EQ(n[0], int16_t(taken[0]));
    EXPECT_EQ(n[1], int16_t(taken[1]));
    EXPECT_EQ(n[2], 0);
    for (std::size_t k = 0; k < want.size(); ++k) {
        uint64_t got;
        std::memcpy(&got, &y[2 * k], 8);
        ASSERT_EQ(got, want[k]) << k;
    }
    for (int g = 0; g < 2; ++g) {
        const auto merged = greedy_merge(groups[g], SIZE_MAX, false, taken);
        for (std::size_t k = 0; k < merged.size(); ++k) {
            uint64_t got;
            std::memcpy(&got, &t[size_t(g * 256) + 2 * k], 8);
            ASSERT_EQ(got, merged[k]) << g << "," << k;
        }
    }
}

}  // namespace
