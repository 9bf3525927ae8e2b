// The vector core's DMA from PTO-AS (pto.mte_gm_ub, mte_ub_gm, mte_ub_ub): strided rows with outer
// loops and row padding, against a plain reference of where each byte goes; and their diagnostics.
#include <bit>
#include <cstring>
#include <string>

#include <pto/common/numeric.hpp>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

// Two matrices of 5 x 13 halves in GM (rows 20 halves apart, matrices 128 halves apart) go to UB as
// padded rows 64 bytes apart (matrices 512 bytes apart): 2 fill halves, the 13 values, 1 fill half,
// then fill to the 32-byte boundary. The padded rows come back to `out`, 32 bytes each, one after
// another.
TEST(VectorDma, RowsLoopsAndPaddingReachTheirBytes)
{
    const char* text = R"(func.func @k(%in: !pto.ptr<f16>, %out: !pto.ptr<f16>, %fill: f16) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c5 = arith.constant 5 : i64
  %c26 = arith.constant 26 : i64
  %c32 = arith.constant 32 : i64
  %c40 = arith.constant 40 : i64
  %c64 = arith.constant 64 : i64
  %c160 = arith.constant 160 : i64
  %c256 = arith.constant 256 : i64
  %c512 = arith.constant 512 : i64
  %ub = pto.castptr %c0 : i64 -> !pto.ptr<f16, ub>
  pto.mte_gm_ub %in, %ub, %c0, %c26
    nburst(%c5, %c40, %c64)
    loop(%c2, %c256, %c512)
    pad(%fill, %c2, %c1)
    : !pto.ptr<f16, gm>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64, loop i64, i64, i64, pad f16, i64, i64
  pto.mte_ub_gm %ub, %out, %c32 nburst(%c5, %c64, %c32) loop(%c2, %c512, %c160)
    : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64, loop i64, i64, i64
  return
})";
    const ParseResult parsed = parse_ok(text);
    ASSERT_TRUE(verify(parsed.module, profile::Target::A5).empty());
    std::vector<uint16_t> in(256), out(160, 0x7777);
    const std::vector<float> values = random_vector<float>(in.size(), 4, -8, 8);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::bit_cast<uint16_t>(pto::half(values[i]));
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out), scalar_arg("fill", -1.5)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    const uint16_t fill = std::bit_cast<uint16_t>(pto::half(-1.5f));
    for (int m = 0; m < 2; ++m)
        for (int row = 0; row < 5; ++row)
            for (int e = 0; e < 16; ++e) {
                const uint16_t want = e >= 2 && e < 15 ? in[std::size_t(m * 128 + row * 20 + e - 2)] : fill;
                ASSERT_EQ(out[std::size_t(m * 80 + row * 16 + e)], want) << m << " " << row << " " << e;
            }
}

// mte_ub_ub counts its length and gaps in 32-byte blocks: three one-block bursts, one block apart in
// the source, packed together in the destination.
TEST(VectorDma, UbToUbCountsBlocksAndGaps)
{
    const char* text = R"(func.func @k(%in: !pto.ptr<i32>, %out: !pto.ptr<i32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %c96 = arith.constant 96 : i64
  %c192 = arith.constant 192 : i64
  %c1024 = arith.constant 1024 : i64
  %src = pto.castptr %c0 : i64 -> !pto.ptr<i32, ub>
  %dst = pto.castptr %c1024 : i64 -> !pto.ptr<i32, ub>
  pto.mte_gm_ub %in, %src, %c0, %c192 nburst(%c1, %c0, %c0) : !pto.ptr<i32>, !pto.ptr<i32, ub>, i64, i64, i64, i64, i64
  pto.mte_ub_ub %src, %dst, %c1 nburst(%c3, %c1, %c0) : !pto.ptr<i32, ub>, !pto.ptr<i32, ub>, i64, i64, i64, i64
  pto.mte_ub_gm %dst, %out, %c96 nburst(%c1, %c0, %c0) : !pto.ptr<i32, ub>, !pto.ptr<i32>, i64, i64, i64, i64
  return
})";
    const ParseResult parsed = parse_ok(text);
    ASSERT_TRUE(verify(parsed.module, profile::Target::A5).empty());
    std::vector<int32_t> in(48), out(24, -1);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 7919 % 1000) - 500;
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (int i = 0; i < 24; ++i) ASSERT_EQ(out[std::size_t(i)], in[std::size_t((i / 8) * 16 + i % 8)]) << i;
}

TEST(VectorDma, BadTransfersGetStableCodes)
{
    const std::string head = R"(func.func @k(%in: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i64
  %c64 = arith.constant 64 : i64
  %big = arith.constant 100000000 : i64
  %most = arith.constant 1000000 : i64
  %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>
  %odd = pto.castptr %c4 : i64 -> !pto.ptr<f32, ub>
  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<f32, l1>
)";
    const std::pair<std::string, std::string> cases[] = {
        {"pto.mte_gm_ub %in, %ub, %c0, %c64", "STRUCT_CLAUSE"},                                   // no nburst
        {"pto.mte_gm_ub %in, %l1, %c0, %c64 nburst(%c1, %c0, %c0)", "STRUCT_OPERAND_KIND"},       // not UB
        {"pto.mte_gm_ub %in, %ub, %c0, %c64 nburst(%c1, %c0, %c0) pad(%c0, %c1)", "STRUCT_CLAUSE"},  // one count
    };
    for (const auto& [line, code] : cases) {
        const ParseResult parsed = parse_ok(head + "  " + line + "\n  return\n}\n");
        const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::A5);
        ASSERT_FALSE(found.empty()) << line;
        EXPECT_EQ(found[0].code, code) << line;
    }
    const std::pair<std::string, std::string> at_run_time[] = {
        {"pto.mte_gm_ub %in, %odd, %c0, %c64 nburst(%c1, %c0, %c0)", "RUN_POINTER_ALIGN"},
        {"pto.mte_gm_ub %in, %ub, %c0, %c64 nburst(%c4, %c64, %big)", "RUN_POINTER_RANGE"},
        {"pto.mte_gm_ub %in, %ub, %c0, %most nburst(%c1, %c0, %c0)", "RUN_POINTER_RANGE"},  // past UB and the source
        {"pto.mte_gm_ub %in, %ub, %c0, %big nburst(%c1, %c0, %c0)", "RUN_CUBE_EXTENT"},     // past any extent
    };
    for (const auto& [line, code] : at_run_time) {
        const ParseResult parsed = parse_ok(head + "  " + line + "\n  return\n}\n");
        ASSERT_TRUE(verify(parsed.module, profile::Target::A5).empty()) << line;
        std::vector<float> in(16, 1.0f);
        const RunResult r = run(parsed.module, {array_arg("in", in)}, checked_run());
        ASSERT_FALSE(r.ok()) << line;
        EXPECT_EQ(r.diagnostics[0].code, code) << line;
    }
}

}  // namespace
}  // namespace pto::as::testing
