// The pre-v0.6 vector-core DMA from PTO-AS: pto.copy_gm_to_ubuf / copy_ubuf_to_gm repeating their rows
// over the loop registers set by pto.set_loop*_{outtoub,ubtoout}, and pto.copy_ubuf_to_ubuf; each
// against a plain reference of where every byte goes, on random shapes; and their diagnostics.
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

constexpr int kUbBytes = 4096;  // the UB window each test copies back whole

// One copy's rows and the loops around them, in bytes.
struct Pattern {
    int64_t rows = 1, length = 0, src_stride = 0, dst_stride = 0;
    int64_t loop1 = 1, loop1_src = 0, loop1_dst = 0, loop2 = 1, loop2_src = 0, loop2_dst = 0;
    int64_t extent(bool source) const
    {
        return (loop2 - 1) * (source ? loop2_src : loop2_dst) + (loop1 - 1) * (source ? loop1_src : loop1_dst) +
               (rows - 1) * (source ? src_stride : dst_stride) + length;
    }
};

// The reference: every row of every loop iteration, innermost fastest, later rows over earlier ones.
void reference_copy(const Pattern& p, const uint8_t* src, uint8_t* dst)
{
    for (int64_t b = 0; b < p.loop2; ++b)
        for (int64_t a = 0; a < p.loop1; ++a)
            for (int64_t r = 0; r < p.rows; ++r)
                std::memmove(dst + b * p.loop2_dst + a * p.loop1_dst + r * p.dst_stride,
                             src + b * p.loop2_src + a * p.loop1_src + r * p.src_stride, std::size_t(p.length));
}

Pattern random_pattern(std::mt19937& gen, int64_t src_room, int64_t dst_room)
{
    auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(gen); };
    for (;;) {
        Pattern p;
        p.rows = pick(1, 4);
        p.length = pick(1, 72);
        p.src_stride = pick(0, 96);
        p.dst_stride = pick(p.length, 128);
        p.loop1 = pick(1, 3);
        p.loop1_src = pick(0, 400);
        p.loop1_dst = pick(0, 600);
        p.loop2 = pick(1, 3);
        p.loop2_src = pick(0, 1200);
        p.loop2_dst = pick(0, 1600);
        if (p.extent(true) <= src_room && p.extent(false) <= dst_room) return p;
    }
}

std::string constant(const std::string& name, int64_t v) { return "  %" + name + " = arith.constant " + std::to_string(v) + " : i64\n"; }

// Constants %<prefix>rows ... %<prefix>loop2_dst of a pattern.
std::string pattern_constants(const std::string& prefix, const Pattern& p)
{
    return constant(prefix + "rows", p.rows) + constant(prefix + "len", p.length) + constant(prefix + "ss", p.src_stride) +
           constant(prefix + "ds", p.dst_stride) + constant(prefix + "l1", p.loop1) + constant(prefix + "l1s", p.loop1_src) +
           constant(prefix + "l1d", p.loop1_dst) + constant(prefix + "l2", p.loop2) + constant(prefix + "l2s", p.loop2_src) +
           constant(prefix + "l2d", p.loop2_dst);
}

// The lines that set a direction's loop registers to a pattern's loops.
std::string set_loops(const std::string& prefix, const std::string& direction)
{
    const std::string p = "%" + prefix;
    return "  pto.set_loop_size_" + direction + " " + p + "l1, " + p + "l2 : i64, i64\n" + "  pto.set_loop1_stride_" + direction + " " + p +
           "l1s, " + p + "l1d : i64, i64\n" + "  pto.set_loop2_stride_" + direction + " " + p + "l2s, " + p + "l2d : i64, i64\n";
}

// A kernel that fills the UB window from %init (no loops set yet: one iteration each), runs `body`
// (with %ub: the window's start, %c0, %c1, %cwin: its size), and copies the window back to %out.
std::string kernel(const std::string& constants, const std::string& body)
{
    return "func.func @k(%in: !pto.ptr<ui8>, %init: !pto.ptr<ui8>, %out: !pto.ptr<ui8>) {\n" + constant("c0", 0) + constant("c1", 1) +
           constant("cwin", kUbBytes) + constants + "  %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n" +
           "  pto.copy_gm_to_ubuf %init, %ub, %c0, %c1, %cwin, %c0, %c0, %c0, %c0, %c0, %c0"
           " : !pto.ptr<ui8>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64, i64, i64, i64, i64\n" +
           body + "  pto.copy_ubuf_to_gm %ub, %out, %c0, %c1, %cwin, %c0, %c0, %c0 : !pto.ptr<ui8, ub>, !pto.ptr<ui8>, i64, i64, i64, i64, i64, i64\n" +
           "  return\n}\n";
}

struct Buffers {
    std::vector<uint8_t> in, init, out;
};

Buffers random_buffers(uint32_t seed)
{
    std::mt19937 gen(seed);
    Buffers b{std::vector<uint8_t>(kUbBytes), std::vector<uint8_t>(kUbBytes), std::vector<uint8_t>(kUbBytes, 0xEE)};
    for (auto& v : b.in) v = uint8_t(gen());
    for (auto& v : b.init) v = uint8_t(gen() | 1);  // never zero, so zero padding shows
    return b;
}

std::vector<uint8_t> run_kernel(const std::string& text, Buffers& b)
{
    const ParseResult parsed = parse_ok(text);
    for (const auto& d : verify(parsed.module, profile::Target::A5)) ADD_FAILURE() << d.format() << "\n" << text;
    const RunResult r = run(parsed.module, {array_arg("in", b.in), array_arg("init", b.init), array_arg("out", b.out)}, checked_run());
    EXPECT_TRUE(r.ok()) << format_all(r) << text;
    return b.out;
}

// GM -> UB over random rows and loops set by the outtoub registers; the window comes back whole.
TEST(DmaLoopRegisters, GmToUbRepeatsRowsOverBothLoops)
{
    std::mt19937 gen(11);
    for (int trial = 0; trial < 12; ++trial) {
        const Pattern p = random_pattern(gen, kUbBytes, kUbBytes);
        Buffers b = random_buffers(uint32_t(trial));
        const std::string body = set_loops("p", "outtoub") +
                                 "  pto.copy_gm_to_ubuf %in, %ub, %c0, %prows, %plen, %c0, %c0, %c0, %c0, %pss, %pds"
                                 " : !pto.ptr<ui8>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64, i64, i64, i64, i64\n";
        const std::vector<uint8_t> out = run_kernel(kernel(pattern_constants("p", p), body), b);
        std::vector<uint8_t> want = b.init;
        reference_copy(p, b.in.data(), want.data());
        ASSERT_EQ(out, want) << "trial " << trial;
    }
}

// UB -> GM reads its strides in the page's order (dst_stride, then src_stride) and the ubtoout loops;
// the outtoub loops set before do not reach it.
TEST(DmaLoopRegisters, UbToGmUsesItsOwnLoopsAndOperandOrder)
{
    std::mt19937 gen(12);
    for (int trial = 0; trial < 12; ++trial) {
        const Pattern p = random_pattern(gen, kUbBytes, kUbBytes);
        Pattern other = random_pattern(gen, kUbBytes, kUbBytes);
        other.loop1 = other.loop2 = 3;
        Buffers b = random_buffers(uint32_t(100 + trial));
        const std::string text = "func.func @k(%in: !pto.ptr<ui8>, %out: !pto.ptr<ui8>) {\n" + constant("c0", 0) + constant("c1", 1) +
                                 constant("cwin", kUbBytes) + pattern_constants("p", p) + pattern_constants("q", other) +
                                 "  %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n"
                                 "  pto.copy_gm_to_ubuf %in, %ub, %c0, %c1, %cwin, %c0, %c0, %c0, %c0, %c0, %c0"
                                 " : !pto.ptr<ui8>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64, i64, i64, i64, i64\n" +
                                 set_loops("q", "outtoub") + set_loops("p", "ubtoout") +
                                 "  pto.copy_ubuf_to_gm %ub, %out, %c0, %prows, %plen, %c0, %pds, %pss"
                                 " : !pto.ptr<ui8, ub>, !pto.ptr<ui8>, i64, i64, i64, i64, i64, i64\n  return\n}\n";
        const ParseResult parsed = parse_ok(text);
        ASSERT_TRUE(verify(parsed.module, profile::Target::A5).empty());
        const RunResult r = run(parsed.module, {array_arg("in", b.in), array_arg("out", b.out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        std::vector<uint8_t> want(kUbBytes, 0xEE);
        reference_copy(p, b.in.data(), want.data());
        ASSERT_EQ(b.out, want) << "trial " << trial;
    }
}

// data_select_bit set: each UB row is `left` zero bytes, the burst, `right` zero bytes, then zeros to
// its 32-byte boundary; clear: the padding counts change nothing.
TEST(DmaLoopRegisters, PaddingWritesZeroBytesAroundEachRow)
{
    std::mt19937 gen(13);
    for (int trial = 0; trial < 10; ++trial) {
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
        const int rows = pick(1, 5), length = pick(1, 50), left = pick(0, 9), right = pick(0, 9);
        const int row_bytes = (left + length + right + 31) / 32 * 32, src_stride = pick(length, 64);
        for (const bool select : {true, false}) {
            Buffers b = random_buffers(uint32_t(200 + trial));
            const std::string constants = constant("rows", rows) + constant("len", length) + constant("left", left) +
                                          constant("right", right) + "  %sel = arith.constant " + std::string(select ? "1" : "0") + " : i1\n" + constant("ss", src_stride) +
                                          constant("ds", row_bytes);
            const std::string body = "  pto.copy_gm_to_ubuf %in, %ub, %c0, %rows, %len, %left, %right, %sel, %c0, %ss, %ds"
                                     " : !pto.ptr<ui8>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64, i1, i64, i64, i64\n";
            const std::vector<uint8_t> out = run_kernel(kernel(constants, body), b);
            std::vector<uint8_t> want = b.init;
            for (int r = 0; r < rows; ++r) {
                uint8_t* row = want.data() + r * row_bytes;
                if (select) {
                    std::fill(row, row + row_bytes, 0);
                    std::memcpy(row + left, b.in.data() + r * src_stride, std::size_t(length));
                } else {
                    std::memcpy(row, b.in.data() + r * src_stride, std::size_t(length));
                }
            }
            ASSERT_EQ(out, want) << "trial " << trial << " select " << select;
        }
    }
}

// copy_ubuf_to_ubuf has no loops; overlapping rows read the source as it was before the copy.
TEST(DmaLoopRegisters, UbToUbReadsTheSourceBeforeTheCopy)
{
    std::mt19937 gen(14);
    for (int trial = 0; trial < 12; ++trial) {
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
        Pattern p;
        p.rows = pick(1, 6);
        p.length = pick(1, 96);
        p.src_stride = pick(0, 128);
        p.dst_stride = pick(p.length, 160);
        const int src_at = 32 * pick(0, 40), dst_at = 32 * pick(0, 40);  // often overlapping
        if (src_at + p.extent(true) > kUbBytes || dst_at + p.extent(false) > kUbBytes) continue;
        Buffers b = random_buffers(uint32_t(300 + trial));
        const std::string constants = pattern_constants("p", p) + constant("sat", src_at) + constant("dat", dst_at) +
                                      "  %src = pto.castptr %sat : i64 -> !pto.ptr<ui8, ub>\n"
                                      "  %dst = pto.castptr %dat : i64 -> !pto.ptr<ui8, ub>\n";
        // Loops set for both GM directions must not reach the UB-to-UB copy.
        const std::string body = constant("three", 3) + "  pto.set_loop_size_outtoub %three, %three : i64, i64\n" +
                                 "  pto.set_loop_size_ubtoout %three, %three : i64, i64\n" +
                                 "  pto.copy_ubuf_to_ubuf %src, %dst, %c0, %prows, %plen, %pss, %pds"
                                 " : !pto.ptr<ui8, ub>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n" +
                                 "  pto.set_loop_size_ubtoout %c1, %c1 : i64, i64\n";
        const std::vector<uint8_t> out = run_kernel(kernel(constants, body), b);
        std::vector<uint8_t> want = b.init;
        const std::vector<uint8_t> before = want;
        reference_copy(p, before.data() + src_at, want.data() + dst_at);
        ASSERT_EQ(out, want) << "trial " << trial;
    }
}

TEST(DmaLoopRegisters, BadCopiesGetStableCodes)
{
    const std::string head = "func.func @k(%in: !pto.ptr<ui8>) {\n" + constant("c0", 0) + constant("c1", 1) + constant("c8", 8) +
                             constant("c64", 64) + constant("neg", -1) + constant("big", 1 << 20) +
                             "  %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n"
                             "  %odd = pto.castptr %c8 : i64 -> !pto.ptr<ui8, ub>\n"
                             "  %l1 = pto.castptr %c0 : i64 -> !pto.ptr<ui8, l1>\n";
    const std::string gm_ub_types = " : !pto.ptr<ui8>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64, i64, i64, i64, i64";
    const std::pair<std::string, std::string> static_cases[] = {
        {"pto.copy_gm_to_ubuf %in, %ub, %c0, %c1, %c64, %c0, %c0, %c0, %c0, %c0 : !pto.ptr<ui8>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64, i64, i64, i64",
         "STRUCT_OPERAND_COUNT"},
        {"pto.copy_gm_to_ubuf %in, %l1, %c0, %c1, %c64, %c0, %c0, %c0, %c0, %c0, %c0 : !pto.ptr<ui8>, !pto.ptr<ui8, l1>, i64, i64, i64, i64, i64, i64, i64, i64, i64",
         "STRUCT_OPERAND_KIND"},
        {"pto.set_loop_size_outtoub %c1 : i64", "STRUCT_OPERAND_COUNT"},
    };
    for (const auto& [line, code] : static_cases) EXPECT_EQ(first_static_code(head + "  " + line + "\n  return\n}\n"), code) << line;
    const std::pair<std::string, std::string> run_cases[] = {
        {"pto.copy_gm_to_ubuf %in, %odd, %c0, %c1, %c64, %c0, %c0, %c0, %c0, %c0, %c0" + gm_ub_types, "RUN_POINTER_ALIGN"},
        {"pto.copy_gm_to_ubuf %in, %ub, %c0, %c64, %c64, %c0, %c0, %c0, %c0, %c0, %big" + gm_ub_types, "RUN_POINTER_RANGE"},
        {"pto.copy_gm_to_ubuf %in, %ub, %c0, %neg, %c64, %c0, %c0, %c0, %c0, %c0, %c0" + gm_ub_types, "RUN_BURST_PATTERN"},
        {"pto.set_loop_size_outtoub %c1, %neg : i64, i64", "RUN_BURST_PATTERN"},
        {"pto.set_loop1_stride_ubtoout %neg, %c0 : i64, i64", "RUN_BURST_PATTERN"},
        // loops that run the rows past the end of UB
        {"pto.set_loop2_stride_outtoub %c0, %big : i64, i64\n  pto.set_loop_size_outtoub %c1, %c64 : i64, i64\n"
         "  pto.copy_gm_to_ubuf %in, %ub, %c0, %c1, %c64, %c0, %c0, %c0, %c0, %c0, %c0" + gm_ub_types,
         "RUN_POINTER_RANGE"},
    };
    std::vector<uint8_t> in(256, 1);
    for (const auto& [line, code] : run_cases) EXPECT_EQ(first_run_code(head + "  " + line + "\n  return\n}\n", {array_arg("in", in)}), code) << line;
}

}  // namespace
}  // namespace pto::as::testing
