// Packed fp4 tiles and tensors count values, two to a byte (the even one in the low nibble): TLOAD and
// TSTORE in both doors against a nibble-by-nibble reference, windows that start and end inside a byte,
// element access through the C++ API, and the rules that measure fp4 lines.
#include <acl/acl.h>
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "support/asm_arguments.hpp"
#include "support/element_bits.hpp"
#include "support/test_support.hpp"
#include "support/text_program.hpp"

using namespace pto;
using namespace pto::test;

namespace {

// Value i of a packed buffer.
unsigned nibble(const std::vector<uint8_t>& bytes, int i)
{
    return unsigned(element_at(reinterpret_cast<const std::byte*>(bytes.data()), i, 4));
}

std::vector<uint8_t> random_packed(int values, std::mt19937& rng)
{
    std::vector<uint8_t> bytes(size_t(values + 1) / 2);
    for (uint8_t& b : bytes) b = uint8_t(rng() | 0x11);  // no zero nibble
    return bytes;
}

// A DN window of rows x cols values of a whole_rows x whole_cols tensor (value (r, c) at c * whole_rows + r):
// loaded into a column-major tile and stored into a zeroed tensor of the same shape. Everything outside
// the window stays zero, inside it every value arrives; odd row counts start columns inside a byte.
template <int Rows, int Cols, int WholeRows, int WholeCols>
void round_trip_dn(uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> src = random_packed(WholeRows * WholeCols, rng), dst(src.size(), 0);
    using G = GlobalTensor<float4_e2m1x2_t, Shape<1, 1, 1, Rows, Cols>, Stride<1, 1, 1, 1, WholeRows>, Layout::DN>;
    G from(reinterpret_cast<float4_e2m1x2_t*>(src.data())), to(reinterpret_cast<float4_e2m1x2_t*>(dst.data()));
    Tile<TileType::Vec, float4_e2m1x2_t, 32, Cols, BLayout::ColMajor, DYNAMIC, DYNAMIC> tile(Rows, Cols);
    TLOAD(tile, from);
    TSTORE(to, tile);
    for (int c = 0; c < WholeCols; ++c)
        for (int r = 0; r < WholeRows; ++r) {
            const int i = c * WholeRows + r;
            ASSERT_EQ(nibble(dst, i), r < Rows && c < Cols ? nibble(src, i) : 0u) << "(" << r << ", " << c << ")";
            if (r < Rows && c < Cols) {
                ASSERT_EQ(tile.GetValue(uint32_t(c * 32 + r)).bits, nibble(src, i)) << "tile (" << r << ", " << c << ")";
            }
        }
}

}  // namespace

TEST(Fp4Transfer, DnWindowsOfEveryParity)
{
    round_trip_dn<4, 21, 8, 32>(1);   // the public TSTORE program's case
    round_trip_dn<5, 7, 9, 11>(2);    // odd rows in an odd pitch: columns start on either nibble
    round_trip_dn<32, 3, 33, 5>(3);
}

TEST(Fp4Transfer, NdRowsWithOddWidthsAndPitches)
{
    std::mt19937 rng(4);
    constexpr int kRows = 6, kPitch = 77;
    std::vector<uint8_t> src = random_packed(kRows * kPitch, rng), dst(src.size(), 0);
    using G = GlobalTensor<float4_e1m2x2_t, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, kPitch, 1>>;
    G from(reinterpret_cast<float4_e1m2x2_t*>(src.data()), {kRows, 45});
    G to(reinterpret_cast<float4_e1m2x2_t*>(dst.data()), {kRows, 45});
    Tile<TileType::Vec, float4_e1m2x2_t, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> tile(kRows, 45);
    TLOAD(tile, from);
    TSTORE(to, tile);
    for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kPitch; ++c) {
            const int i = r * kPitch + c;
            ASSERT_EQ(nibble(dst, i), c < 45 ? nibble(src, i) : 0u) << "(" << r << ", " << c << ")";
            if (c < 45) {
                ASSERT_EQ(unsigned(from.GetElement(0, 0, 0, r, c).bits), nibble(src, i));
            }
        }
}

TEST(Fp4Transfer, ElementAccessCountsValues)
{
    Tile<TileType::Vec, float4_e2m1x2_t, 2, 64> tile;
    static_assert(decltype(tile)::GetSizeInBytes() == 64);
    for (uint32_t i = 0; i < 128; ++i) tile.SetValue(i, float4_e2m1x2_t::from_bits(uint8_t(i % 16)));
    const auto* bytes = reinterpret_cast<const uint8_t*>(tile.data());
    for (int i = 0; i < 64; ++i) ASSERT_EQ(bytes[i], uint8_t((2 * i) % 16 | ((2 * i + 1) % 16) << 4)) << i;
    std::vector<uint8_t> gm(16, 0);
    GlobalTensor<float4_e2m1x2_t, Shape<1, 1, 1, 4, 8>, Stride<1, 1, 1, 8, 1>> g(reinterpret_cast<float4_e2m1x2_t*>(gm.data()));
    g.SetElement(0, 0, 0, 1, 3, float4_e2m1x2_t::from_bits(0x9));  // value 11: the high nibble of byte 5
    EXPECT_EQ(gm[5], 0x90);
    EXPECT_EQ(g.GetElement(11).bits, 0x9);
}

TEST(Fp4Transfer, TheTensorMustHoldTheValuesNotTheirBytes)
{
    // 2 x 128 values are 128 bytes: a 100-byte allocation is too small, a 128-byte one is enough.
    void* small = nullptr;
    void* enough = nullptr;
    aclrtMalloc(&small, 100, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&enough, 128, ACL_MEM_MALLOC_HUGE_FIRST);
    using G = GlobalTensor<float4_e2m1x2_t, Shape<1, 1, 1, 2, 128>, Stride<1, 1, 1, 128, 1>>;
    Tile<TileType::Vec, float4_e2m1x2_t, 2, 128> tile;
    G fits(static_cast<float4_e2m1x2_t*>(enough)), overflows(static_cast<float4_e2m1x2_t*>(small));
    TLOAD(tile, fits);
    const Diagnostic d = diagnostic_of([&] { TLOAD(tile, overflows); });
    EXPECT_EQ(d.code, "RUN_GLOBAL_OOB");
    EXPECT_NE(d.message.find("offset 127"), std::string::npos) << d.message;
    aclrtFree(small);
    aclrtFree(enough);
}

TEST(Fp4Transfer, LinesOf32ValuesAreAligned)
{
    // The public Tile measures an fp4 line one byte per value: 32 values (16 bytes) pass, 16 do not.
    static_assert(rules::unboxed_alignment_ok(BLayout::ColMajor, SLayout::NoneBox, 32, 21, 4));
    static_assert(!rules::unboxed_alignment_ok(BLayout::RowMajor, SLayout::NoneBox, 2, 16, 4));
    // A fractal box holds 512 bytes: 16 x 64 values.
    static_assert(rules::box_cols(SLayout::RowMajor, 512, 4) == 64 && rules::box_rows(SLayout::ColMajor, 512, 4) == 64);
    SUCCEED();
}

TEST(Fp4TransferText, CopiesAnOddWindow)
{
    const char* program = R"(func.func @f(%x: !pto.ptr<f4e2m1x2>, %y: !pto.ptr<f4e2m1x2>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c45 = arith.constant 45 : index
  %xv = pto.make_tensor_view %x, shape = [%c3, %c45], strides = [%c64, %c1] : !pto.tensor_view<?x?xf4e2m1x2>
  %yv = pto.make_tensor_view %y, shape = [%c3, %c45], strides = [%c64, %c1] : !pto.tensor_view<?x?xf4e2m1x2>
  %t = pto.alloc_tile valid_row = %c3 valid_col = %c45 : !pto.tile_buf<vec, 4x64xf4e2m1x2, valid=?x?>
  pto.tload ins(%xv : !pto.tensor_view<?x?xf4e2m1x2>) outs(%t : !pto.tile_buf<vec, 4x64xf4e2m1x2, valid=?x?>)
  pto.tstore ins(%t : !pto.tile_buf<vec, 4x64xf4e2m1x2, valid=?x?>) outs(%yv : !pto.tensor_view<?x?xf4e2m1x2>)
  return
}
)";
    std::mt19937 rng(5);
    std::vector<uint8_t> x = random_packed(3 * 64, rng), y(x.size(), 0);
    const as::RunResult r = run_verified(program, "fp4.pto", {argument("x", x), argument("y", y)});
    ASSERT_TRUE(r.ok()) << first_diagnostic(r);
    for (int row = 0; row < 3; ++row)
        for (int c = 0; c < 64; ++c) {
            const int i = row * 64 + c;
            ASSERT_EQ(nibble(y, i), c < 45 ? nibble(x, i) : 0u) << row << ", " << c;
        }
}

// int4 moves as the fp4 types do, on the cpu profile only (the public CPU simulation's TCVT program
// loads and stores it; no target's TLOAD or TSTORE page lists it).
TEST(Fp4Transfer, Int4RoundTripsOnTheCpuProfileOnly)
{
    std::mt19937 rng(6);
    std::vector<uint8_t> src = random_packed(4 * 64, rng), dst(src.size(), 0);
    using G = GlobalTensor<int4b_t, Shape<1, 1, 1, 4, 64>, Stride<1, 1, 1, 64, 1>>;
    G from(reinterpret_cast<int4b_t*>(src.data())), to(reinterpret_cast<int4b_t*>(dst.data()));
    Tile<TileType::Vec, int4b_t, 4, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> tile(4, 33);
    TLOAD(tile, from);
    TSTORE(to, tile);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 64; ++c) ASSERT_EQ(nibble(dst, r * 64 + c), c < 33 ? nibble(src, r * 64 + c) : 0u) << r << ", " << c;
    ScopedTarget a5(profile::Target::A5);
    EXPECT_EQ(diagnostic_of([&] { engine::tload(tile.desc(), from.desc()); }).code, "LEGAL_TLOAD_DTYPE");
    EXPECT_EQ(diagnostic_of([&] { engine::tstore(to.desc(), tile.desc()); }).code, "LEGAL_TSTORE_DTYPE");
}
