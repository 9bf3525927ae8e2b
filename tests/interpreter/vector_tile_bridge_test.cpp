// Tiles and the vector micro-instructions sharing the unified buffer: a tile loaded with TLOAD is worked
// on through pto.tile_buf_addr and stored with TSTORE; the view queries; strict scopes passing their
// operands; and the rules that keep the two levels apart.
#include <string>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

// c = a + a over rows x 64 floats of a 32 x 64 tile, through the tile's own address; rows and the row
// stride come from the view queries, and a strict scope takes them as operands.
constexpr const char* kProgram = R"(func.func @k(%a: !pto.ptr<f32>, %c: !pto.ptr<f32>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant 8192 : i64
  %av = pto.make_tensor_view %a, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %cv = pto.make_tensor_view %c, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%rows, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<?x64xf32>
  %cp = pto.partition_view %cv, offsets = [%c0, %c0], sizes = [%rows, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<?x64xf32>
  %t = pto.alloc_tile addr = %at valid_row = %rows : !pto.tile_buf<vec, 32x64xf32, valid=?x64>
  pto.tload ins(%ap : !pto.partition_tensor_view<?x64xf32>) outs(%t : !pto.tile_buf<vec, 32x64xf32, valid=?x64>)
  %n = pto.get_tensor_view_dim %av, %c0 : !pto.tensor_view<?x?xf32> -> index
  %stride = pto.get_tensor_view_stride %av, %c0 : !pto.tensor_view<?x?xf32> -> index
  %end = arith.muli %n, %stride : index
  pto.strict_vecscope(%t, %end, %stride) {
  ^bb0(%tile: !pto.tile_buf<vec, 32x64xf32, valid=?x64>, %e: index, %s: index):
    %z = arith.constant 0 : index
    %q = pto.tile_buf_addr %tile : !pto.tile_buf<vec, 32x64xf32, valid=?x64> -> !pto.ptr<f32, ub>
    %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    scf.for %off = %z to %e step %s {
      %v = pto.vlds %q[%off] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %w = pto.vadd %v, %v, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %w, %q[%off], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
    }
  } : (!pto.tile_buf<vec, 32x64xf32, valid=?x64>, index, index) -> ()
  pto.tstore ins(%t : !pto.tile_buf<vec, 32x64xf32, valid=?x64>) outs(%cp : !pto.partition_tensor_view<?x64xf32>)
  return
})";

TEST(VectorTileBridge, ATileIsWorkedOnThroughItsAddress)
{
    const ParseResult parsed = parse_ok(kProgram);
    const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::A5);
    ASSERT_TRUE(found.empty()) << found[0].format();
    for (int rows : {32, 7}) {
        std::vector<float> a = random_vector<float>(std::size_t(rows) * 64, uint32_t(rows)), c(a.size(), -1.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("c", c), scalar_arg("rows", rows)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(c[i], a[i] + a[i]) << rows << " " << i;
    }
}

TEST(VectorTileBridge, TheLevelsStayApart)
{
    const std::string head = R"(func.func @k(%a: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant 0 : i64
  %t = pto.alloc_tile addr = %at : !pto.tile_buf<vec, 8x64xf32>
  %u = pto.alloc_tile : !pto.tile_buf<vec, 8x64xf32>
  %av = pto.make_tensor_view %a, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
)";
    const std::pair<std::string, std::string> static_cases[] = {
        {"  %p = pto.tile_buf_addr %t : !pto.tile_buf<vec, 8x64xf32> -> !pto.ptr<f32, ub>\n", "STRUCT_VECSCOPE"},
        {"  pto.vecscope {\n    pto.tadd ins(%t, %t : !pto.tile_buf<vec, 8x64xf32>, !pto.tile_buf<vec, 8x64xf32>) outs(%t : !pto.tile_buf<vec, 8x64xf32>)\n  }\n",
         "STRUCT_VECSCOPE_TILE"},
        {"  pto.vecscope {\n    %p = pto.tile_buf_addr %t : !pto.tile_buf<vec, 8x64xf32> -> !pto.ptr<f32>\n  }\n", "STRUCT_OPERAND_KIND"},
        {"  %g = pto.tensor_view_addr %av : !pto.tensor_view<?x?xf32> -> !pto.ptr<f32, ub>\n", "STRUCT_OPERAND_KIND"},
    };
    for (const auto& [body, code] : static_cases) {
        const ParseResult parsed = parse_ok(head + body + "  return\n}\n");
        const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::A5);
        ASSERT_FALSE(found.empty()) << body;
        EXPECT_EQ(found[0].code, code) << body;
    }
    const std::pair<std::string, std::string> run_cases[] = {
        // A tile placed by the toolchain has no UB address a pointer could hold.
        {"  pto.vecscope {\n    %p = pto.tile_buf_addr %u : !pto.tile_buf<vec, 8x64xf32> -> !pto.ptr<f32, ub>\n  }\n", "RUN_BAD_OPERAND"},
        {"  %c2 = arith.constant 2 : index\n  %d = pto.get_tensor_view_dim %av, %c2 : !pto.tensor_view<?x?xf32> -> index\n", "RUN_VIEW_DIM"},
    };
    for (const auto& [body, code] : run_cases) {
        const ParseResult parsed = parse_ok(head + body + "  return\n}\n");
        ASSERT_TRUE(verify(parsed.module, profile::Target::A5).empty()) << body;
        std::vector<float> a(64, 1.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a)}, checked_run());
        ASSERT_FALSE(r.ok()) << body;
        EXPECT_EQ(r.diagnostics[0].code, code) << body;
    }
}

// tensor_view_addr gives the view's global address: a scalar read through it sees the array.
TEST(VectorTileBridge, TensorViewAddressReadsTheArray)
{
    const ParseResult parsed = parse_ok(R"(func.func @k(%a: !pto.ptr<f32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %av = pto.make_tensor_view %a, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %g = pto.tensor_view_addr %av : !pto.tensor_view<?x?xf32> -> !pto.ptr<f32, gm>
  %v = pto.load_scalar %g[%c5] : !pto.ptr<f32, gm> -> f32
  return %v : f32
})");
    ASSERT_TRUE(verify(parsed.module, profile::Target::A5).empty());
    std::vector<float> a = random_vector<float>(8, 3);
    const RunResult r = run(parsed.module, {array_arg("a", a)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    EXPECT_EQ(float(r.results.at(0)), a[5]);
}

}  // namespace
}  // namespace pto::as::testing
