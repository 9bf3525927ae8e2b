// The vector micro-instructions from PTO-AS: every pto.vlds and pto.vsts distribution mode against the
// C formula of its row, predicates, the element-wise operations against a double-precision reference on
// every lane type, masked stores of remainders, and the diagnostics of bad programs.
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>

#include <pto/common/numeric.hpp>

#include "asm/verifier.hpp"
#include "support.hpp"
#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using vector_lanes::kBytes;
using vector_lanes::program;

std::vector<uint8_t> random_bytes(std::size_t n, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = uint8_t(gen());
    return v;
}

// Runs `program(body)` on `in` with the output buffer pre-filled with 0xAB; returns it.
std::vector<uint8_t> run_vector(const std::string& body, const std::vector<uint8_t>& in)
{
    const ParseResult parsed = parse_ok(program(body));
    EXPECT_TRUE(verify(parsed.module, profile::Target::A5).empty()) << body;
    std::vector<uint8_t> input = in, out(kBytes, 0xAB);
    const RunResult r = run(parsed.module, {array_arg("in", input), array_arg("out", out)}, checked_run());
    EXPECT_TRUE(r.ok()) << format_all(r) << body;
    return out;
}

struct LoadCase {
    const char* dist;
    const char* ptr;   // element type of the source pointer
    const char* vreg;  // the register type
    int lane_bytes;
    // The bytes of lane i: `lane_bytes` bytes from the source bytes.
    std::function<void(const uint8_t* src, int lane, uint8_t* out)> lane;
};

void copy_element(const uint8_t* src, int from, uint8_t* out, int to)
{
    std::memset(out, 0, std::size_t(to));
    std::memcpy(out, src, std::size_t(std::min(from, to)));
}

TEST(VectorMicro, EveryLoadDistributionFollowsItsFormula)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 1);
    const LoadCase cases[] = {
        {"NORM", "f32", "64xf32", 4, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 4 * i, 4, o, 4); }},
        {"NORM", "i8", "256xi8", 1, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + i, 1, o, 1); }},
        {"BRC_B8", "ui8", "256xui8", 1, [](const uint8_t* s, int, uint8_t* o) { copy_element(s, 1, o, 1); }},
        {"BRC_B16", "f16", "128xf16", 2, [](const uint8_t* s, int, uint8_t* o) { copy_element(s, 2, o, 2); }},
        {"BRC_B32", "f32", "64xf32", 4, [](const uint8_t* s, int, uint8_t* o) { copy_element(s, 4, o, 4); }},
        {"US_B8", "ui8", "256xui8", 1, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + i / 2, 1, o, 1); }},
        {"US_B16", "bf16", "128xbf16", 2, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 2 * (i / 2), 2, o, 2); }},
        {"DS_B8", "i8", "256xi8", 1, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 2 * i, 1, o, 1); }},
        {"DS_B16", "i16", "128xi16", 2, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 4 * i, 2, o, 2); }},
        {"UNPK_B8", "ui8", "64xui32", 4, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + i, 1, o, 4); }},
        {"UNPK_B8", "ui8", "128xui16", 2, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + i, 1, o, 2); }},
        {"UNPK_B16", "ui16", "64xi32", 4, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 2 * i, 2, o, 4); }},
        {"UNPK_B32", "ui32", "32xui64", 8, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 4 * i, 4, o, 8); }},
        {"SPLT4CHN_B8", "ui8", "256xui8", 1, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 4 * i, 1, o, 1); }},
        {"SPLT2CHN_B8", "ui8", "256xui8", 1, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 2 * i, 1, o, 1); }},
        {"SPLT2CHN_B16", "f16", "128xf16", 2, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 4 * i, 2, o, 2); }},
        {"DINTLV_B32", "f32", "64xf32", 4, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + 8 * i, 4, o, 4); }},
        {"BLK", "f32", "64xf32", 4, [](const uint8_t* s, int i, uint8_t* o) { copy_element(s + (4 * i) % 32, 4, o, 4); }},
    };
    for (const LoadCase& c : cases) {
        // Loaded from element offset 8 (32 bytes for f32: aligned), stored contiguously at the output.
        const int offset_bytes = 64;
        const std::string elements = std::to_string(offset_bytes * 8 / [&] {
            const std::string p = c.ptr;
            return p == "f32" || p == "i32" || p == "ui32" ? 32 : p == "f16" || p == "bf16" || p == "i16" || p == "ui16" ? 16 : 8;
        }());
        const std::string mask = c.lane_bytes == 1 ? "b8" : c.lane_bytes == 2 ? "b16" : "b32";
        const std::string body = "    %off = arith.constant " + elements + " : index\n" +
                                 "    %m = pto.pset_" + mask + " \"PAT_ALL\" : !pto.mask<" + mask + ">\n" +
                                 "    %v = pto.vlds %in_" + c.ptr + "[%off] {dist = \"" + c.dist + "\"} : !pto.ptr<" + c.ptr +
                                 ", ub> -> !pto.vreg<" + c.vreg + ">\n" +
                                 "    pto.vsts %v, %out_ui8[%c0], %m : !pto.vreg<" + c.vreg + ">, !pto.ptr<ui8, ub>, !pto.mask<" + mask + ">\n";
        const std::vector<uint8_t> out = run_vector(body, in);
        std::vector<uint8_t> want(256);
        for (int i = 0; i < 256 / c.lane_bytes; ++i) c.lane(in.data() + offset_bytes, i, want.data() + i * c.lane_bytes);
        for (int b = 0; b < 256; ++b) ASSERT_EQ(out[std::size_t(b)], want[std::size_t(b)]) << c.dist << " " << c.vreg << " byte " << b;
        EXPECT_EQ(out[256], 0xAB) << c.dist;  // nothing past the register
    }
}

TEST(VectorMicro, EveryStoreDistributionWritesOnlyActiveLanes)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 2);
    struct StoreCase {
        const char* dist;
        const char* vreg;
        int lane_bytes, memory_bytes, channels;
    };
    const StoreCase cases[] = {
        {"NORM_B8", "256xi8", 1, 1, 1},   {"NORM_B16", "128xf16", 2, 2, 1}, {"NORM_B32", "64xf32", 4, 4, 1},
        {"PK_B16", "64xi32", 4, 2, 1},    {"PK_B32", "32xi64", 8, 4, 1},    {"MRG4CHN_B8", "256xui8", 1, 1, 4},
        {"MRG2CHN_B8", "256xui8", 1, 1, 2}, {"MRG2CHN_B16", "128xi16", 2, 2, 2},
    };
    for (const StoreCase& c : cases) {
        const int lanes = 256 / c.lane_bytes;
        const int active = lanes * 5 / 8 + 1;  // a remainder mask: the first `active` lanes
        const std::string mask = c.lane_bytes == 1 ? "b8" : c.lane_bytes == 2 ? "b16" : "b32";
        const std::string count = "    %n = arith.constant " + std::to_string(c.lane_bytes == 8 ? 2 * active : active) + " : i32\n";
        const std::string body = count + "    %m, %rest = pto.plt_" + mask + " %n : i32 -> !pto.mask<" + mask + ">, i32\n" +
                                 "    %v = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<" + c.vreg + ">\n" +
                                 "    pto.vsts %v, %out_ui8[%c32], %m {dist = \"" + c.dist + "\"} : !pto.vreg<" + c.vreg +
                                 ">, !pto.ptr<ui8, ub>, !pto.mask<" + mask + ">\n";
        const std::vector<uint8_t> out = run_vector(body, in);
        std::vector<uint8_t> want(kBytes, 0xAB);
        const int per_plane = lanes / c.channels;
        for (int lane = 0; lane < active; ++lane) {
            const int at = (lane % per_plane) * c.channels + lane / per_plane;
            copy_element(in.data() + lane * c.lane_bytes, c.lane_bytes, want.data() + 32 + at * c.memory_bytes, c.memory_bytes);
        }
        for (std::size_t b = 0; b < kBytes; ++b) ASSERT_EQ(out[b], want[b]) << c.dist << " byte " << b;
    }
}

// A register carried around a loop: each slot holds its own register, so the loop's block argument is
// a copy of its initial value and each vadd leaves the value passed in as it was. The first iteration
// takes the steps' general path (a slot's first write), the later ones their inline one.
TEST(VectorMicro, ALoopCarriedRegisterLeavesItsInitialValueAlone)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 9);
    const std::string body = R"(    %x = pto.vlds %in_i32[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>
    %y = pto.vlds %in_i32[%c64] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>
    %c3 = arith.constant 3 : index
    %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (!pto.vreg<64xi32>) {
      %next = pto.vadd %acc, %y, %all_b32 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
      scf.yield %next : !pto.vreg<64xi32>
    }
    pto.vsts %x, %out_i32[%c0], %all_b32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>
    pto.vsts %sum, %out_i32[%c64], %all_b32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>
)";
    const std::vector<uint8_t> out = run_vector(body, in);
    for (int lane = 0; lane < 64; ++lane) {
        int32_t x = 0, y = 0, initial = 0, sum = 0;
        std::memcpy(&x, in.data() + 4 * lane, 4);
        std::memcpy(&y, in.data() + 256 + 4 * lane, 4);
        std::memcpy(&initial, out.data() + 4 * lane, 4);
        std::memcpy(&sum, out.data() + 256 + 4 * lane, 4);
        EXPECT_EQ(initial, x) << "lane " << lane;
        EXPECT_EQ(sum, int32_t(uint32_t(x) + 3 * uint32_t(y))) << "lane " << lane;  // wrapping, as vadd on i32
    }
}

// Two registers carried and swapped by the yield, (a, b) -> (b, a + b), with the old %a read after the
// new value is written: every carried value is a copy, so no write reaches a value still to be read.
TEST(VectorMicro, CarriedRegistersSwappedByTheYieldKeepTheirValues)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 11);
    const std::string body = R"(    %x = pto.vlds %in_i32[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>
    %y = pto.vlds %in_i32[%c64] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>
    %c3 = arith.constant 3 : index
    %r:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %x, %b = %y) -> (!pto.vreg<64xi32>, !pto.vreg<64xi32>) {
      %sum = pto.vadd %a, %b, %all_b32 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
      %old_b = pto.vsub %sum, %a, %all_b32 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
      scf.yield %old_b, %sum : !pto.vreg<64xi32>, !pto.vreg<64xi32>
    }
    pto.vsts %r#0, %out_i32[%c0], %all_b32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>
    pto.vsts %r#1, %out_i32[%c64], %all_b32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>
    pto.vsts %x, %out_i32[%c128], %all_b32 : !pto.vreg<64xi32>, !pto.ptr<i32, ub>, !pto.mask<b32>
)";
    const std::vector<uint8_t> out = run_vector(body, in);
    for (int lane = 0; lane < 64; ++lane) {
        uint32_t x = 0, y = 0, got[3] = {};
        std::memcpy(&x, in.data() + 4 * lane, 4);
        std::memcpy(&y, in.data() + 256 + 4 * lane, 4);
        for (int k = 0; k < 3; ++k) std::memcpy(&got[k], out.data() + 256 * k + 4 * lane, 4);
        uint32_t a = x, b = y;
        for (int k = 0; k < 3; ++k) {
            const uint32_t sum = a + b;  // wrapping, as vadd and vsub on i32
            a = b;
            b = sum;
        }
        EXPECT_EQ(got[0], a) << "lane " << lane;
        EXPECT_EQ(got[1], b) << "lane " << lane;
        EXPECT_EQ(got[2], x) << "lane " << lane;
    }
}

TEST(VectorMicro, PatternsAndRemaindersActivateTheDocumentedLanes)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 3);
    const std::pair<const char*, std::function<bool(int, int)>> patterns[] = {
        {"PAT_ALL", [](int, int) { return true; }},         {"PAT_ALLF", [](int, int) { return false; }},
        {"PAT_H", [](int i, int n) { return i >= n / 2; }},  {"PAT_Q", [](int i, int n) { return i >= n - n / 4; }},
        {"PAT_M3", [](int i, int) { return i % 3 == 0; }},   {"PAT_M4", [](int i, int) { return i % 4 == 0; }},
        {"PAT_VL1", [](int i, int) { return i < 1; }},       {"PAT_VL12", [](int i, int) { return i < 12; }},
        {"PAT_VL64", [](int i, int) { return i < 64; }},
    };
    for (const auto& [width, vreg] : {std::pair<int, std::string>{1, "256xui8"}, {2, "128xi16"}, {4, "64xf32"}}) {
        const std::string mask = "b" + std::to_string(width * 8);
        for (const auto& [token, active] : patterns) {
            const std::string body = "    %m = pto.pset_" + mask + " \"" + token + "\" : !pto.mask<" + mask + ">\n" +
                                     "    %v = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<" + vreg + ">\n" +
                                     "    pto.vsts %v, %out_ui8[%c0], %m : !pto.vreg<" + vreg + ">, !pto.ptr<ui8, ub>, !pto.mask<" + mask + ">\n";
            const std::vector<uint8_t> out = run_vector(body, in);
            const int lanes = 256 / width;
            for (int b = 0; b < 256; ++b) ASSERT_EQ(out[std::size_t(b)], active(b / width, lanes) ? in[std::size_t(b)] : 0xAB) << token << " " << mask << " byte " << b;
        }
    }
    // plt: three vectors of a 150-element remainder of f32 give 64, 64 and 22 lanes, and leave 0.
    const std::string body = R"(    %n = arith.constant 150 : i32
    %m0, %r0 = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32
    %m1, %r1 = pto.plt_b32 %r0 : i32 -> !pto.mask<b32>, i32
    %m2, %r2 = pto.plt_b32 %r1 : i32 -> !pto.mask<b32>, i32
    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    pto.vsts %v, %out_f32[%c0], %m0 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
    pto.vsts %v, %out_f32[%c64], %m1 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
    pto.vsts %v, %out_f32[%c128], %m2 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
    %left = arith.index_cast %r2 : i32 to index
    pto.vsts %v, %out_f32[%c256], %m2 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
)";
    const std::vector<uint8_t> out = run_vector(body, in);
    for (int f = 0; f < 320; ++f) {
        const int lane = f % 64, vector = f / 64;
        const bool written = vector < 2 || ((vector == 2 || vector == 4) && lane < 22);
        for (int b = 0; b < 4; ++b)
            ASSERT_EQ(out[std::size_t(4 * f + b)], written ? in[std::size_t(4 * lane + b)] : 0xAB) << "float " << f;
    }
}

// The first diagnostic the verifier reports for `body` in the test program, else the run's.
std::string first_code(const std::string& body, bool run_it)
{
    const ParseResult parsed = parse_ok(program(body));
    if (!run_it) {
        const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::A5);
        return found.empty() ? "" : found[0].code;
    }
    EXPECT_TRUE(verify(parsed.module, profile::Target::A5).empty()) << body;
    std::vector<uint8_t> in = random_bytes(kBytes, 9), out(kBytes);
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out)}, checked_run());
    return r.diagnostics.empty() ? "" : r.diagnostics[0].code;
}

TEST(VectorMicro, BadProgramsGetStableCodes)
{
    const std::string all32 = "    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n";
    const std::string load = "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n";
    const std::pair<std::string, std::string> illegal[] = {
        {"    %v = pto.vlds %in_f32[%c0] {dist = \"FOO\"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n", "LEGAL_VLDS_DIST"},
        {"    %v = pto.vlds %in_f32[%c0] {dist = \"US_B8\"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n", "LEGAL_VLDS_DIST"},
        {"    %v = pto.vlds %in_f32[%c0] {dist = \"UNPK_B32\"} : !pto.ptr<f32, ub> -> !pto.vreg<64xi32>\n", "LEGAL_VLDS_DIST"},
        {load + all32 + "    pto.vsts %v, %out_f32[%c0], %m {dist = \"NORM_B16\"} : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n", "LEGAL_VSTS_DIST"},
        {"    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<32xf32>\n", "LEGAL_VREG_SHAPE"},
        {load + "    %m = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n    %r = pto.vadd %v, %v, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b16> -> !pto.vreg<64xf32>\n", "LEGAL_VECTOR_MASK_WIDTH"},
        {load + all32 + "    %r = pto.vand %v, %v, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n", "LEGAL_VECTOR_DTYPE"},
        {"    %v = pto.vlds %in_i32[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>\n" + all32 + "    %r = pto.vdiv %v, %v, %m : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>\n", "LEGAL_VECTOR_DTYPE"},
        {load + all32 + "    %r = pto.vadd %v, %v, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xi32>\n", "STRUCT_OPERAND_KIND"},
        {"    %m = pto.pset_b32 \"PAT_VL65\" : !pto.mask<b32>\n", "LEGAL_PSET_PATTERN"},
        {"    %m = pto.pset_b32 \"PAT_SOME\" : !pto.mask<b32>\n", "LEGAL_PSET_PATTERN"},
        {"    %g = pto.castptr %in_at : i64 -> !pto.ptr<f32, l1>\n    %v = pto.vlds %g[%c0] : !pto.ptr<f32, l1> -> !pto.vreg<64xf32>\n", "LEGAL_VECTOR_SPACE"},
        {"    pto.vecscope {\n" + load + "    }\n", "STRUCT_VECSCOPE_NESTED"},
    };
    for (const auto& [body, code] : illegal) EXPECT_EQ(first_code(body, false), code) << body;
    // The scope rules, on programs of their own: a register outside any vector interval, and a strict
    // scope using an outside value.
    const std::string head = R"(func.func @k() {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %p = pto.castptr %z : i64 -> !pto.ptr<f32, ub>
)";
    const std::pair<std::string, std::string> scopes[] = {
        {"  %v = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n", "STRUCT_VECSCOPE"},
        {"  pto.strict_vecscope(%p) {\n  ^bb0(%q: !pto.ptr<f32, ub>):\n    %v = pto.vlds %q[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n  } : (!pto.ptr<f32, ub>) -> ()\n",
         "STRUCT_VECSCOPE_CAPTURE"},
        {"  pto.strict_vecscope(%p, %c0) {\n  ^bb0(%q: !pto.ptr<f32, ub>):\n  } : (!pto.ptr<f32, ub>, index) -> ()\n", "STRUCT_OPERAND_COUNT"},
    };
    for (const auto& [body, code] : scopes) {
        const ParseResult parsed = parse_ok(head + body + "  return\n}\n");
        const std::vector<pto::Diagnostic> found = verify(parsed.module, profile::Target::A5);
        ASSERT_FALSE(found.empty()) << body;
        EXPECT_EQ(found[0].code, code) << body;
    }

    // What only the run knows: alignment, the buffer's end (even with every lane masked off), and a
    // mask whose width its type left open.
    const std::pair<std::string, std::string> at_run_time[] = {
        {"    %v = pto.vlds %in_f32[%c1] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n", "RUN_POINTER_ALIGN"},
        {"    %far = arith.constant 1000000 : index\n    %v = pto.vlds %in_f32[%far] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n", "RUN_POINTER_RANGE"},
        {load + "    %none = pto.pset_b32 \"PAT_ALLF\" : !pto.mask<b32>\n    %far = arith.constant 1000000 : index\n"
                "    pto.vsts %v, %out_f32[%far], %none : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n", "RUN_POINTER_RANGE"},
        {load + "    %m = pto.pset_b16 \"PAT_ALL\" : !pto.mask<G>\n    %r = pto.vadd %v, %v, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<G> -> !pto.vreg<64xf32>\n", "RUN_MASK_WIDTH"},
    };
    for (const auto& [body, code] : at_run_time) EXPECT_EQ(first_code(body, true), code) << body;
}

// Checked mode: a vector load of UB bytes nothing wrote is RUN_UNINIT_READ; what a masked store wrote
// (its active lanes only) may be loaded back.
TEST(VectorMicro, CheckedModeFindsReadsOfNeverWrittenBytes)
{
    const std::string head = R"(func.func @k() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %at = arith.constant 65536 : i64
  %p = pto.castptr %at : i64 -> !pto.ptr<f32, ub>
  pto.vecscope {
    %v = pto.vlds %p[%c0] {dist = "BRC_B32"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
)";
    auto code_of = [&](const std::string& body) {
        const ParseResult parsed = parse_ok(head + body + "  }\n  return\n}\n");
        EXPECT_TRUE(verify(parsed.module, profile::Target::A5).empty()) << body;
        const RunResult r = run(parsed.module, {}, checked_run());
        return r.diagnostics.empty() ? std::string() : r.diagnostics[0].code;
    };
    // The first load already reads a never-written float.
    EXPECT_EQ(code_of(""), "RUN_UNINIT_READ");
}

TEST(VectorMicro, CheckedModeTracksWhatMaskedStoresWrote)
{
    const std::string text = program(R"(    %n = arith.constant 40 : i32
    %m, %rest = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32
    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %far = arith.constant 16384 : index
    pto.vsts %v, %in_f32[%far], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
    %w = pto.vlds %in_f32[%far] {dist = "DINTLV_B32"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
)");
    const ParseResult parsed = parse_ok(text);
    std::vector<uint8_t> in = random_bytes(kBytes, 5), out(kBytes);
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out)}, checked_run());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "RUN_UNINIT_READ");  // DINTLV reads floats 0, 2, ..., 126: 40 on are unwritten
    RunOptions fast;
    EXPECT_TRUE(run(parsed.module, {array_arg("in", in), array_arg("out", out)}, fast).ok());
}

}  // namespace
}  // namespace pto::as::testing
