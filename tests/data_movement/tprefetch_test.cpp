// TPREFETCH: the blocking load the page defines for the CPU simulation, the same bytes and rules as TLOAD,
// reported under its own name; both doors.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;

namespace {

TEST(Tprefetch, LoadsWhatTloadLoads)
{
    std::vector<half> data(32 * 64);
    std::mt19937 rng(1);
    for (auto& v : data) v = half(float(int(rng() % 2001) - 1000) / 16.0f);
    GlobalTensor<half, Shape<1, 1, 1, 32, 64>, Stride<1, 1, 1, 64, 1>> g(data.data());
    Tile<TileType::Vec, half, 32, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> fetched(20, 48), loaded(20, 48);
    TPREFETCH(fetched, g);
    TLOAD(loaded, g);
    for (int r = 0; r < 20; ++r) ASSERT_EQ(0, std::memcmp(fetched.data() + r * 64, loaded.data() + r * 64, 48 * sizeof(half))) << r;
    Tile<TileType::Vec, half, 64, 64> too_tall;
    const Diagnostic d = diagnostic_of([&] { TPREFETCH(too_tall, g); });
    EXPECT_EQ(d.code, "RUN_GLOBAL_SHAPE");
    EXPECT_EQ(d.instruction, "TPREFETCH");
}

TEST(Tprefetch, FromATileIsAPlainMove)
{
    Tile<TileType::Vec, int32_t, 8, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> src(5, 16), dst(5, 16);
    for (int i = 0; i < 128; ++i) src.SetValue(uint32_t(i), i * 7 - 300);
    TPREFETCH(dst, src);
    for (int i = 0; i < 5 * 16; ++i) ASSERT_EQ(dst.GetValue(uint32_t(i)), i * 7 - 300) << i;
}

TEST(TprefetchText, Runs)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %xv = pto.make_tensor_view %x, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %yv = pto.make_tensor_view %y, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %t = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
  pto.tprefetch ins(%xv : !pto.tensor_view<?x?xf32>) outs(%t : !pto.tile_buf<vec, 8x8xf32>)
  pto.tstore ins(%t : !pto.tile_buf<vec, 8x8xf32>) outs(%yv : !pto.tensor_view<?x?xf32>)
  return
}
)";
    const as::ParseResult parsed = as::parse(program, "prefetch.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A2A3);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::vector<float> x(64), y(64);
    for (int i = 0; i < 64; ++i) x[size_t(i)] = float(i) * 1.5f;
    const as::RunResult r = as::run(parsed.module, {argument("x", x), argument("y", y)}, {});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
    EXPECT_EQ(x, y);
}

}  // namespace
