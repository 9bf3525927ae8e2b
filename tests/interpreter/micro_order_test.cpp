// The run-time synchronisation check (checked mode) on micro-instructions: each runs on its pipe (the
// vector operations, loads and stores on V, the DMA on MTE2 / MTE3, the cube's moves on MTE2 / MTE1, its
// multiplies on M, the writeback on FIX, scalar loads and stores on S), so a flag left out between two
// of them that touch the same bytes is ORDER_MISSING_SYNC at the second, naming both; two blocks
// whose DMA writes the same global bytes race (ORDER_CROSS_CORE_RACE) unless the fixpipe adds atomically.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <pto/common/type.hpp>

#include "support.hpp"

namespace pto::as::testing {
namespace {

constexpr int kRows = 8, kLanes = 64;

std::string flag_pair(const std::string& src, const std::string& dst, bool set, bool wait)
{
    std::string text;
    if (set) text += "  pto.set_flag[<PIPE_" + src + ">, <PIPE_" + dst + ">, <EVENT_ID0>]\n";
    if (wait) text += "  pto.wait_flag[<PIPE_" + src + ">, <PIPE_" + dst + ">, <EVENT_ID0>]\n";
    return text;
}

// Which synchronisation the vector kernel below writes.
struct VectorFlags {
    bool in_set = true, in_wait = true;    // MTE2 -> V after the copy in
    bool out_set = true, out_wait = true;  // V -> MTE3 before the copy out
    bool scalar = false;                   // then a scalar store into the input, then S -> V (if `scalar_flag`)
    bool scalar_flag = true;
    bool own_rows = true;                  // each block writes its own rows of %y (else all the same ones)
};

// y = x + x over kRows rows of kLanes f32: copied into UB (MTE2), added a register at a time (V), copied
// out (MTE3). The copy in is line 14.
std::string vector_kernel(const VectorFlags& f)
{
    std::string text =
        "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c64 = arith.constant 64 : index\n"
        "  %rows = arith.constant 8 : index\n"
        "  %zero = arith.constant 0 : i64\n"
        "  %n = arith.constant 8 : i64\n"
        "  %row_bytes = arith.constant 256 : i64\n"
        "  %block_elements = arith.constant 512 : i64\n"
        "  %in_at = arith.constant 0 : i64\n"
        "  %out_at = arith.constant 4096 : i64\n"
        "  %ub_x = pto.castptr %in_at : i64 -> !pto.ptr<f32, ub>\n"
        "  %ub_y = pto.castptr %out_at : i64 -> !pto.ptr<f32, ub>\n"
        "  pto.mte_gm_ub %x, %ub_x, %zero, %row_bytes nburst(%n, %row_bytes, %row_bytes)\n"
        "    : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n" +
        flag_pair("MTE2", "V", f.in_set, f.in_wait);
    if (f.scalar) {
        // The scalar unit waits for the copy in before it overwrites one of its elements.
        text += flag_pair("MTE2", "S", true, true) +
                "  %seven = arith.constant 7.0 : f32\n"
                "  %i3 = arith.constant 3 : index\n"
                "  pto.store_scalar %seven, %ub_x[%i3] : !pto.ptr<f32, ub>, f32\n" +
                flag_pair("S", "V", f.scalar_flag, f.scalar_flag);
    }
    text += "  pto.vecscope {\n"
            "    %all = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
            "    scf.for %r = %c0 to %rows step %c1 {\n"
            "      %at = arith.muli %r, %c64 : index\n"
            "      %v = pto.vlds %ub_x[%at] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
            "      %s = pto.vadd %v, %v, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
            "      pto.vsts %s, %ub_y[%at], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
            "    }\n"
            "  }\n" +
            flag_pair("V", "MTE3", f.out_set, f.out_wait);
    // Block b writes rows b * kRows onwards of %y, or (not own_rows) every block the first ones.
    text += std::string("  %b = pto.get_block_idx\n") +
            "  %skip = arith.muli %b, " + (f.own_rows ? "%block_elements" : "%zero") + " : i64\n"
            "  %dst = pto.addptr %y, %skip : !pto.ptr<f32> -> !pto.ptr<f32>\n"
            "  pto.mte_ub_gm %ub_y, %dst, %row_bytes nburst(%n, %row_bytes, %row_bytes)\n"
            "    : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64\n"
            "  return\n}\n";
    return text;
}

// Which cube-pipe flags the matmul below writes (MTE2 -> MTE1, MTE1 -> M, M -> FIX), and its writeback's clauses.
struct CubeFlags {
    bool into_l0 = true, into_mad = true, into_fixpipe = true;
    std::string writeback_clauses = ", nz2nd";
};

// c = a . b for 16 x 16 f16 matrices: repacked into L1 (MTE2), staged into L0A / L0B (MTE1), multiplied
// into L0C (M), written back row-major (FIX).
std::string cube_kernel(const CubeFlags& f)
{
    const std::string frac_types =
        " : !pto.ptr<f16>, !pto.ptr<f16, l1>, i64, i64, i64, i64, i64, i64, i64, i64, i64\n";
    return "func.func @mm(%a: !pto.ptr<f16>, %b: !pto.ptr<f16>, %c: !pto.ptr<f32>) {\n"
           "  %c0 = arith.constant 0 : i64\n"
           "  %c1 = arith.constant 1 : i64\n"
           "  %c16 = arith.constant 16 : i64\n"
           "  %c32 = arith.constant 32 : i64\n"
           "  %c16384 = arith.constant 16384 : i64\n"
           "  %l1a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l1>\n"
           "  %l1b = pto.castptr %c16384 : i64 -> !pto.ptr<f16, l1>\n"
           "  %l0a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0a>\n"
           "  %l0b = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0b>\n"
           "  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>\n"
           "  pto.mte_gm_l1_frac %a, %l1a, nd2nz, shape(%c16, %c16), src_layout(%c32), dst_group(%c1, %c1, %c16, %c0), ctrl(%c0, %c0)" +
           frac_types +
           "  pto.mte_gm_l1_frac %b, %l1b, nd2nz, shape(%c16, %c16), src_layout(%c32), dst_group(%c1, %c1, %c16, %c0), ctrl(%c0, %c0)" +
           frac_types + flag_pair("MTE2", "MTE1", f.into_l0, f.into_l0) +
           "  pto.mte_l1_l0a %l1a, %l0a, %c16, %c16 : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64\n"
           "  pto.mte_l1_l0b %l1b, %l0b, %c16, %c16 : !pto.ptr<f16, l1>, !pto.ptr<f16, l0b>, i64, i64\n" +
           flag_pair("MTE1", "M", f.into_mad, f.into_mad) +
           "  pto.mad %l0a, %l0b, %l0c, %c16, %c16, %c16\n"
           "    : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64\n" +
           flag_pair("M", "FIX", f.into_fixpipe, f.into_fixpipe) +
           "  pto.mte_l0c_gm %l0c, %c, %c16, %c16, %c16, %c16, %c0, %c0" + f.writeback_clauses + "\n"
           "  return\n}\n";
}

struct CubeRun {
    RunResult result;
    std::vector<float> c;
};

CubeRun run_cube(const std::string& text, bool checked = true, int blocks = 1)
{
    const ParseResult parsed = parse_ok(text, "c.pto");
    std::vector<uint16_t> a(256), b(256);
    const std::vector<float> values = random_vector<float>(512, 31, -4, 4);
    for (std::size_t i = 0; i < 256; ++i) {
        a[i] = std::bit_cast<uint16_t>(pto::half(values[i]));
        b[i] = std::bit_cast<uint16_t>(pto::half(values[256 + i]));
    }
    CubeRun out;
    out.c.assign(256, 0.0f);
    RunOptions options;
    options.checked = checked;
    options.blocks = blocks;
    out.result = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", out.c)}, options);
    return out;
}

struct VectorRun {
    RunResult result;
    std::vector<float> x, y;
};

VectorRun run_vector(const std::string& text, bool checked = true, int blocks = 1)
{
    const ParseResult parsed = parse_ok(text, "v.pto");
    VectorRun out;
    out.x = random_vector<float>(std::size_t(kRows) * kLanes, 21);
    out.y.assign(out.x.size() * std::size_t(blocks), -1.0f);
    RunOptions options;
    options.checked = checked;
    options.blocks = blocks;
    out.result = run(parsed.module, {array_arg("x", out.x), array_arg("y", out.y)}, options);
    return out;
}

// "FILE:LINE:COLUMN" of the first occurrence of `needle` in `text`, read from `file`.
std::string place_of(const std::string& file, const std::string& text, const std::string& needle)
{
    const std::size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    const std::size_t line_start = text.rfind('\n', at) + 1;  // npos + 1 = 0 on the first line
    const int line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
    return file + ":" + std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

bool mentions(const Diagnostic& d, const std::string& what) { return d.format().find(what) != std::string::npos; }

// The run of `text` (read from `file`) stopped with ORDER_MISSING_SYNC at `consumer`, which runs on pipe
// `to`, naming `producer` and its pipe `from`.
void expect_missing_sync(const RunResult& r, const std::string& file, const std::string& text, const std::string& consumer,
                         const std::string& producer, const std::string& from, const std::string& to)
{
    ASSERT_FALSE(r.ok()) << consumer;
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.code, "ORDER_MISSING_SYNC") << d.format();
    EXPECT_EQ(d.location, place_of(file, text, consumer)) << d.format();
    EXPECT_TRUE(mentions(d, producer + " at " + file + ":") && mentions(d, "on pipe " + from + ",") && mentions(d, "runs on pipe " + to))
        << d.format();
}

}  // namespace

TEST(OrderCheck, VectorMicroInstructionsWithTheirFlagsRunClean)
{
    const VectorRun r = run_vector(vector_kernel({}));
    ASSERT_TRUE(r.result.ok()) << format_all(r.result);
    for (std::size_t i = 0; i < r.x.size(); ++i) ASSERT_EQ(r.y[i], r.x[i] + r.x[i]) << i;
}

TEST(OrderCheck, AFlagMissingBetweenTheDmaAndTheVectorPipeIsFoundAtTheSecondAccess)
{
    // No MTE2 -> V flag: the vector load reads what the copy in wrote.
    VectorFlags no_in;
    no_in.in_set = no_in.in_wait = false;
    const std::string in_text = vector_kernel(no_in);
    const VectorRun in = run_vector(in_text);
    expect_missing_sync(in.result, "v.pto", in_text, "pto.vlds", "pto.mte_gm_ub", "MTE2", "V");
    ASSERT_FALSE(in.result.ok());
    EXPECT_TRUE(mentions(in.result.diagnostics[0], "pto.mte_gm_ub at v.pto:14:3")) << in.result.diagnostics[0].format();

    // No V -> MTE3 flag: the copy out reads what the vector stores wrote.
    VectorFlags no_out;
    no_out.out_set = no_out.out_wait = false;
    const std::string out_text = vector_kernel(no_out);
    expect_missing_sync(run_vector(out_text).result, "v.pto", out_text, "pto.mte_ub_gm", "pto.vsts", "V", "MTE3");

    // The set without its wait is named as the likely slip.
    VectorFlags no_wait;
    no_wait.in_wait = false;
    const VectorRun unwaited = run_vector(vector_kernel(no_wait));
    ASSERT_FALSE(unwaited.result.ok());
    EXPECT_EQ(unwaited.result.diagnostics[0].code, "ORDER_MISSING_SYNC");
    EXPECT_TRUE(mentions(unwaited.result.diagnostics[0], "without its wait_flag")) << unwaited.result.diagnostics[0].format();

    // A wait with no set stalls the pipe for ever.
    VectorFlags no_set;
    no_set.in_set = false;
    const VectorRun stalled = run_vector(vector_kernel(no_set));
    ASSERT_FALSE(stalled.result.ok());
    EXPECT_EQ(stalled.result.diagnostics[0].code, "ORDER_WAIT_WITHOUT_SET");
}

TEST(OrderCheck, FastModeDoesNotJudgeMicroInstructions)
{
    VectorFlags none;
    none.in_set = none.in_wait = none.out_set = none.out_wait = false;
    none.scalar = true;
    none.scalar_flag = false;
    const VectorRun r = run_vector(vector_kernel(none), /*checked=*/false);
    ASSERT_TRUE(r.result.ok()) << format_all(r.result);
    for (std::size_t i = 0; i < r.x.size(); ++i) ASSERT_EQ(r.y[i], i == 3 ? 14.0f : r.x[i] + r.x[i]) << i;
}

TEST(OrderCheck, AScalarStoreIntoUbNeedsAFlagBeforeTheVectorLoad)
{
    VectorFlags flagged;
    flagged.scalar = true;
    const VectorRun ok = run_vector(vector_kernel(flagged));
    ASSERT_TRUE(ok.result.ok()) << format_all(ok.result);
    EXPECT_EQ(ok.y[3], 14.0f);

    VectorFlags unflagged = flagged;
    unflagged.scalar_flag = false;
    const std::string text = vector_kernel(unflagged);
    expect_missing_sync(run_vector(text).result, "v.pto", text, "pto.vlds", "pto.store_scalar", "S", "V");
}

TEST(OrderCheck, BlocksWhoseDmaWritesTheSameGlobalBytesRace)
{
    // Each block its own rows: nothing to order between them.
    const VectorRun own = run_vector(vector_kernel({}), true, 2);
    ASSERT_TRUE(own.result.ok()) << format_all(own.result);
    for (std::size_t i = 0; i < own.y.size(); ++i) ASSERT_EQ(own.y[i], own.x[i % own.x.size()] * 2) << i;

    // Every block copies its result to the start of %y.
    VectorFlags shared;
    shared.own_rows = false;
    const VectorRun race = run_vector(vector_kernel(shared), true, 2);
    ASSERT_FALSE(race.result.ok());
    const Diagnostic& d = race.result.diagnostics[0];
    EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE") << d.format();
    EXPECT_TRUE(mentions(d, "pto.mte_ub_gm")) << d.format();
}

TEST(OrderCheck, EachCubePipeFlagLeftOutIsFoundAtItsConsumer)
{
    const CubeRun fast = run_cube(cube_kernel({}), /*checked=*/false);
    ASSERT_TRUE(fast.result.ok()) << format_all(fast.result);
    const CubeRun clean = run_cube(cube_kernel({}));
    ASSERT_TRUE(clean.result.ok()) << format_all(clean.result);
    EXPECT_EQ(clean.c, fast.c);
    EXPECT_TRUE(std::any_of(clean.c.begin(), clean.c.end(), [](float x) { return x != 0.0f; }));

    struct Case {
        CubeFlags flags;
        std::string consumer, producer, from, to;
    };
    std::vector<Case> cases(3);
    cases[0].flags.into_l0 = false;
    cases[0].consumer = "pto.mte_l1_l0a", cases[0].producer = "pto.mte_gm_l1_frac", cases[0].from = "MTE2", cases[0].to = "MTE1";
    cases[1].flags.into_mad = false;
    cases[1].consumer = "pto.mad ", cases[1].producer = "pto.mte_l1_l0a", cases[1].from = "MTE1", cases[1].to = "M";
    cases[2].flags.into_fixpipe = false;
    cases[2].consumer = "pto.mte_l0c_gm", cases[2].producer = "pto.mad", cases[2].from = "M", cases[2].to = "FIX";
    for (const Case& c : cases) {
        const std::string text = cube_kernel(c.flags);
        expect_missing_sync(run_cube(text).result, "c.pto", text, c.consumer, c.producer, c.from, c.to);
    }
}

TEST(OrderCheck, AtomicWritebacksOfTwoBlocksToTheSameBytesDoNotRace)
{
    // Plain writebacks of both blocks to the same c race; accumulating ones do not, and add up.
    const CubeRun plain = run_cube(cube_kernel({}), true, 2);
    ASSERT_FALSE(plain.result.ok());
    EXPECT_EQ(plain.result.diagnostics[0].code, "ORDER_CROSS_CORE_RACE") << plain.result.diagnostics[0].format();
    EXPECT_TRUE(mentions(plain.result.diagnostics[0], "pto.mte_l0c_gm")) << plain.result.diagnostics[0].format();

    CubeFlags atomic;
    atomic.writeback_clauses = ", nz2nd, atomic(type = f32, op = add)";
    const CubeRun summed = run_cube(cube_kernel(atomic), true, 2);
    ASSERT_TRUE(summed.result.ok()) << format_all(summed.result);
    const CubeRun once = run_cube(cube_kernel({}), false, 1);
    for (std::size_t i = 0; i < once.c.size(); ++i) ASSERT_EQ(summed.c[i], once.c[i] + once.c[i]) << i;
}

}  // namespace pto::as::testing
