// TSORT32, MGATHER / MSCATTER and TGATHER's comparison form through the interpreter, in each spelling.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

const std::string S = "!pto.tile_buf<vec, 1x32xf32>", I = "!pto.tile_buf<vec, 1x32xui32>", D = "!pto.tile_buf<vec, 1x64xf32>";

std::string sort_program(const std::string& sort)
{
    return R"(func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<ui32>, %c: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %av = pto.make_tensor_view %a, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %bv = pto.make_tensor_view %b, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xui32>
  %cv = pto.make_tensor_view %c, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %s = pto.alloc_tile : )" + S + R"(
  %i = pto.alloc_tile : )" + I + R"(
  pto.tload ins(%av : !pto.tensor_view<?x?xf32>) outs(%s : )" + S + R"()
  pto.tload ins(%bv : !pto.tensor_view<?x?xui32>) outs(%i : )" + I + R"()
)" + sort + R"(
  pto.tstore ins(%d : )" + D + R"() outs(%cv : !pto.tensor_view<?x?xf32>)
  return
})";
}

TEST(Tsort32, EverySpellingSortsDescendingWithIndices)
{
    const std::vector<std::string> sorts = {
        "  %d = pto.alloc_tile : " + D + "\n  pto.tsort32 ins(%s, %i : " + S + ", " + I + ") outs(%d : " + D + ")",
        "  %d = pto.tsort32 %s, %i : (" + S + ", " + I + ") -> " + D,
        "  %d = pto.alloc_tile : " + D + "\n  tsort32 %d, %s, %i : (" + D + ", " + S + ", " + I + ")",
    };
    for (const std::string& sort : sorts) {
        SCOPED_TRACE(sort);
        const ParseResult parsed = parse_ok(sort_program(sort));
        auto a = random_vector<float>(32, 31);
        a[5] = a[9];  // a tie: the smaller index comes first
        std::vector<uint32_t> idx(32);
        std::iota(idx.begin(), idx.end(), 0u);
        std::vector<float> out(64);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", idx), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        std::vector<uint32_t> order(32);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return a[x] > a[y]; });
        for (std::size_t j = 0; j < 32; ++j) {
            EXPECT_EQ(out[2 * j], a[order[j]]) << j;
            uint32_t got = 0;
            std::memcpy(&got, &out[2 * j + 1], 4);
            EXPECT_EQ(got, order[j]) << j;
        }
    }
}

std::string gather_scatter_program(const std::string& gather, const std::string& scatter)
{
    return R"(func.func @k(%table: !pto.ptr<f32>, %ids: !pto.ptr<i32>, %out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %tv = pto.make_tensor_view %table, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %iv = pto.make_tensor_view %ids, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi32>
  %ov = pto.make_tensor_view %out, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %idx = pto.alloc_tile : !pto.tile_buf<vec, 1x8xi32>
  pto.tload ins(%iv : !pto.tensor_view<?x?xi32>) outs(%idx : !pto.tile_buf<vec, 1x8xi32>)
)" + gather + "\n" + scatter + R"(
  return
})";
}

TEST(MgatherMscatter, EverySpellingMovesTheIndexedRows)
{
    const std::string T = "!pto.tile_buf<vec, 8x16xf32>", X = "!pto.tile_buf<vec, 1x8xi32>", V = "!pto.tensor_view<?x?xf32>";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"  %g = pto.alloc_tile : " + T + "\n  pto.mgather ins(%tv, %idx : " + V + ", " + X + ") outs(%g : " + T + ") {coalesce = #pto<coalesce row>}",
         "  pto.mscatter ins(%g, %idx : " + T + ", " + X + ") outs(%ov : " + V + ")"},
        {"  %g = pto.mgather %tv, %idx : (" + V + ", " + X + ") -> " + T, "  pto.mscatter %g, %idx, %ov : (" + T + ", " + X + ", " + V + ") -> ()"},
        {"  %g = pto.alloc_tile : " + T + "\n  mgather.row %g, %tv, %idx : (" + T + ", " + V + ", " + X + ")",
         "  mscatter.row %ov, %g, %idx : (" + V + ", " + T + ", " + X + ")"},
    };
    for (const auto& [gather, scatter] : cases) {
        SCOPED_TRACE(gather + "\n" + scatter);
        const ParseResult parsed = parse_ok(gather_scatter_program(gather, scatter));
        auto table = random_vector<float>(32 * 16, 41);
        std::vector<int32_t> ids = {7, 3, 31, 0, 12, 19, 25, 4};
        std::vector<float> out(32 * 16, -1.0f);
        const RunResult r = run(parsed.module, {array_arg("table", table), array_arg("ids", ids), array_arg("out", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t row = 0; row < 32; ++row) {
            const bool scattered = std::find(ids.begin(), ids.end(), int32_t(row)) != ids.end();
            for (std::size_t col = 0; col < 16; ++col) ASSERT_EQ(out[row * 16 + col], scattered ? table[row * 16 + col] : -1.0f) << row << "," << col;
        }
    }
}

TEST(TgatherCompare, TileAndScalarThresholds)
{
    const std::string Sf = "!pto.tile_buf<vec, 1x32xf32>", K = "!pto.tile_buf<vec, 1x8xi32, valid=1x1>", Di = "!pto.tile_buf<vec, 1x32xi32>",
                      C = "!pto.tile_buf<vec, 1x8xi32, valid=1x1>";
    const std::vector<std::string> forms = {
        // DPS with a k tile.
        "  %k = pto.alloc_tile : " + K + "\n  pto.tload ins(%kp : !pto.partition_tensor_view<1x1xi32>) outs(%k : " + K + ")\n"
        "  pto.tgather ins(%s, %k : " + Sf + ", " + K + ") outs(%d, %n : " + Di + ", " + C + ") {cmpMode = #pto.cmp<GT>, offset = 100 : i32}",
        // DPS with a scalar threshold.
        "  %kk = arith.constant 10 : i32\n"
        "  pto.tgather ins(%s, %kk : " + Sf + ", i32) outs(%d, %n : " + Di + ", " + C + ") {cmpMode = #pto.cmp<GT>, offset = 100 : i32}",
    };
    for (const std::string& form : forms) {
        SCOPED_TRACE(form);
        const std::string text = R"(func.func @k(%a: !pto.ptr<f32>, %kin: !pto.ptr<i32>, %c: !pto.ptr<i32>, %cnt: !pto.ptr<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %av = pto.make_tensor_view %a, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
  %kv = pto.make_tensor_view %kin, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xi32>
  %kp = pto.partition_view %kv, offsets = [%c0, %c0], sizes = [%c1, %c1] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
  %cv = pto.make_tensor_view %c, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xi32>
  %nv = pto.make_tensor_view %cnt, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xi32>
  %np = pto.partition_view %nv, offsets = [%c0, %c0], sizes = [%c1, %c1] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
  %s = pto.alloc_tile : )" + Sf + R"(
  %d = pto.alloc_tile : )" + Di + R"(
  %n = pto.alloc_tile : )" + C + R"(
  pto.tload ins(%av : !pto.tensor_view<?x?xf32>) outs(%s : )" + Sf + R"()
)" + form + R"(
  pto.tstore ins(%n : )" + C + R"() outs(%np : !pto.partition_tensor_view<1x1xi32>)
  return
})";
        const ParseResult parsed = parse_ok(text);
        std::vector<float> a(32);
        for (std::size_t i = 0; i < 32; ++i) a[i] = float((i * 7) % 23);
        std::vector<int32_t> kin = {10}, dst(32, -1), cnt = {-1};
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("kin", kin), array_arg("c", dst), array_arg("cnt", cnt)},
                                checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        EXPECT_EQ(cnt[0], int32_t(std::count_if(a.begin(), a.end(), [](float v) { return v > 10; })));
    }
}

// A scalar threshold becomes a tile of the threshold type the target accepts: int32 on cpu and a2a3,
// uint32 on a5, where a negative threshold cannot be written and is an error rather than a clamp to 0.
TEST(TgatherCompare, ScalarThresholdTakesTheTargetsThresholdType)
{
    const std::string S = "!pto.tile_buf<vec, 1x64xf32>", D = "!pto.tile_buf<vec, 1x64xi32>", C = "!pto.tile_buf<vec, 1x8xi32, valid=1x1>",
                      T = "!pto.tile_buf<vec, 1x256xi32>";
    const std::string text = R"(func.func @k(%a: !pto.ptr<f32>, %cnt: !pto.ptr<i32>, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %av = pto.make_tensor_view %a, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %nv = pto.make_tensor_view %cnt, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<?x?xi32>
  %np = pto.partition_view %nv, offsets = [%c0, %c0], sizes = [%c1, %c1] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
  %s = pto.alloc_tile : )" + S + R"(
  %d = pto.alloc_tile : )" + D + R"(
  %n = pto.alloc_tile : )" + C + R"(
  %t = pto.alloc_tile : )" + T + R"(
  pto.tload ins(%av : !pto.tensor_view<?x?xf32>) outs(%s : )" + S + R"()
  pto.tgather ins(%s, %k, %t : )" + S + ", i32, " + T + ") outs(%d, %n : " + D + ", " + C + R"() {cmpMode = #pto.cmp<GT>, offset = 0 : i32}
  pto.tstore ins(%n : )" + C + R"() outs(%np : !pto.partition_tensor_view<1x1xi32>)
  return
})";
    const ParseResult parsed = parse_ok(text);
    std::vector<float> a = random_vector<float>(64, 5, -50, 50);
    for (profile::Target target : {profile::Target::Cpu, profile::Target::A2A3, profile::Target::A5}) {
        SCOPED_TRACE(profile::profile_of(target).name);
        EXPECT_TRUE(verify(parsed.module, target).empty()) << profile::profile_of(target).name;
        for (int k : {-7, 12}) {
            std::vector<int32_t> cnt = {-1};
            RunOptions options = checked_run();
            options.target = target;
            const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("cnt", cnt), scalar_arg("k", k)}, options);
            if (target == profile::Target::A5 && k < 0) {
                ASSERT_EQ(r.diagnostics.size(), 1u);
                EXPECT_EQ(r.diagnostics[0].code, "RUN_TGATHER_THRESHOLD") << format_all(r);
                EXPECT_NE(r.diagnostics[0].format().find("u32"), std::string::npos) << format_all(r);
                continue;
            }
            ASSERT_TRUE(r.ok()) << format_all(r);
            EXPECT_EQ(cnt[0], int32_t(std::count_if(a.begin(), a.end(), [&](float v) { return v > float(k); })));
        }
    }
}

}  // namespace
}  // namespace pto::as::testing
