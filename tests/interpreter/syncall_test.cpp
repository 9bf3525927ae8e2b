// SYNCALL in text (`pto.syncall`): blocks hand tiles to each other through global memory across the
// barrier, hard and soft, every participant set, in a plain launch and a mixed one, on one thread (a
// block that ran ahead of the barrier would read what its neighbour has not written yet); the soft
// form's workspace counts the arrivals; a core outside the set, a null workspace and a barrier some
// core never reaches are their run-time codes; malformed forms are the verifier's; every form prints
// back and parses to the same program.
#include <string>
#include <vector>

#include <pto/common/kernel.hpp>

#include "asm/printer.hpp"
#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

constexpr int kRows = 16, kCols = 32;

struct OneThread {
    OneThread() { sim::set_threads(1); }
    ~OneThread() { sim::set_threads(0); }
};

const std::string kVec = "!pto.tile_buf<vec, 8x32xf32>";
const std::string kView = "!pto.tensor_view<?x?xf32>";
const std::string kPart = "!pto.partition_tensor_view<8x32xf32>";

// The barrier: hard, soft on every core of the set, or soft on %used of them.
std::string barrier(const std::string& core_type, int form)
{
    const std::string type = "core_type = #pto.sync_core_type<" + core_type + ">";
    if (form == 0) return "    pto.syncall {" + type + "}\n";
    if (form == 1) return "    pto.syncall(%ws : !pto.ptr<i32>) {mode = #pto.sync_all_mode<Soft>, " + type + "}\n";
    return "    pto.syncall(%ws, %used : !pto.ptr<i32>, i32) {mode = #pto.sync_all_mode<Soft>, " + type + "}\n";
}

// Each core moves its 8 rows: in -> mid at its own place, the barrier, then mid at the next block's
// place -> out at its own. Its place: block b, vector sub-block s (0 in a plain launch) of `cores` per
// block, rows (b * cores + s) * 8. In a mixed launch (`mixed`) the moves run in vector sections and
// the barrier where `barrier_text` puts it.
std::string program(int blocks, int cores, bool mixed, const std::string& barrier_text, int used)
{
    const std::string open = mixed ? "    pto.section.vector {\n" : "", close = mixed ? "    }\n" : "";
    const std::string rows = std::to_string(blocks * cores * 8);
    return "func.func @k(%in: !pto.ptr<f32>, %mid: !pto.ptr<f32>, %out: !pto.ptr<f32>, %ws: !pto.ptr<i32>) {\n"
           "    %c0 = arith.constant 0 : index\n"
           "    %c1 = arith.constant 1 : index\n"
           "    %c8 = arith.constant 8 : index\n"
           "    %c32 = arith.constant 32 : index\n"
           "    %rows = arith.constant " + rows + " : index\n"
           "    %blocks = arith.constant " + std::to_string(blocks) + " : index\n"
           "    %cores = arith.constant " + std::to_string(cores) + " : index\n"
           "    %used = arith.constant " + std::to_string(used) + " : i32\n"
           "    %b64 = pto.get_block_idx\n"
           "    %b = arith.index_cast %b64 : i64 to index\n"
           "    %s64 = pto.get_subblock_idx\n"
           "    %s = arith.index_cast %s64 : i64 to index\n"
           "    %b1 = arith.addi %b, %c1 : index\n"
           "    %next = arith.remui %b1, %blocks : index\n"
           "    %own0 = arith.muli %b, %cores : index\n"
           "    %own1 = arith.addi %own0, %s : index\n"
           "    %own = arith.muli %own1, %c8 : index\n"
           "    %nb0 = arith.muli %next, %cores : index\n"
           "    %nb1 = arith.addi %nb0, %s : index\n"
           "    %nb = arith.muli %nb1, %c8 : index\n"
           "    %iv = pto.make_tensor_view %in, shape = [%rows, %c32], strides = [%c32, %c1] : " + kView + "\n"
           "    %mv = pto.make_tensor_view %mid, shape = [%rows, %c32], strides = [%c32, %c1] : " + kView + "\n"
           "    %ov = pto.make_tensor_view %out, shape = [%rows, %c32], strides = [%c32, %c1] : " + kView + "\n" + open +
           "      %t = pto.alloc_tile : " + kVec + "\n"
           "      %src = pto.partition_view %iv, offsets = [%own, %c0], sizes = [%c8, %c32] : " + kView + " -> " + kPart + "\n"
           "      %dst = pto.partition_view %mv, offsets = [%own, %c0], sizes = [%c8, %c32] : " + kView + " -> " + kPart + "\n"
           "      pto.tload ins(%src : " + kPart + ") outs(%t : " + kVec + ")\n"
           "      pto.tstore ins(%t : " + kVec + ") outs(%dst : " + kPart + ")\n" + close + barrier_text + open +
           "      %u = pto.alloc_tile : " + kVec + "\n"
           "      %from = pto.partition_view %mv, offsets = [%nb, %c0], sizes = [%c8, %c32] : " + kView + " -> " + kPart + "\n"
           "      %to = pto.partition_view %ov, offsets = [%own, %c0], sizes = [%c8, %c32] : " + kView + " -> " + kPart + "\n"
           "      pto.tload ins(%from : " + kPart + ") outs(%u : " + kVec + ")\n"
           "      pto.tstore ins(%u : " + kVec + ") outs(%to : " + kPart + ")\n" + close +
           "    return\n}\n";
}

struct Outcome {
    RunResult result;
    std::vector<float> in, out;
    std::vector<int32_t> ws;
};

Outcome run_program(const std::string& text, int blocks, int cores)
{
    const ParseResult parsed = parse_ok(text, "syncall.pto");
    for (const auto& d : verify(parsed.module, profile::Target::Cpu)) ADD_FAILURE() << d.format();
    Outcome o;
    o.in = random_vector<float>(size_t(blocks) * cores * 8 * kCols, 7 + blocks);
    std::vector<float> mid(o.in.size(), 0.0f);
    o.out.assign(o.in.size(), -1.0f);
    o.ws.assign(8, 0);
    RunOptions options;
    options.blocks = uint32_t(blocks);
    o.result = run(parsed.module, {array_arg("in", o.in), array_arg("mid", mid), array_arg("out", o.out), array_arg("ws", o.ws)}, options);
    return o;
}

// out at each core's place holds in at the same core's place of the next block.
std::vector<float> reference(const std::vector<float>& in, int blocks, int cores)
{
    std::vector<float> out(in.size());
    const std::size_t part = std::size_t(8) * kCols;
    for (int b = 0; b < blocks; ++b)
        for (int s = 0; s < cores; ++s)
            for (std::size_t e = 0; e < part; ++e) out[(b * cores + s) * part + e] = in[(((b + 1) % blocks) * cores + s) * part + e];
    return out;
}

TEST(TextSyncall, BlocksOfAPlainLaunchMeetOnOneThread)
{
    OneThread one;
    constexpr int kBlocks = 4;
    for (const std::string type : {"AIVOnly", "AICOnly", "Mix"})
        for (const int form : {0, 1, 2}) {
            SCOPED_TRACE(type + " form " + std::to_string(form));
            const Outcome o = run_program(program(kBlocks, 1, false, barrier(type, form), kBlocks), kBlocks, 1);
            ASSERT_TRUE(o.result.ok()) << format_all(o.result);
            EXPECT_EQ(o.out, reference(o.in, kBlocks, 1));
            EXPECT_EQ(o.ws[0], form == 0 ? 0 : kBlocks);  // one arrival per core; the hard form leaves it
        }
    // Without the barrier, block 0 reads block 1's place before block 1 ran: the test sees it.
    const Outcome racing = run_program(program(kBlocks, 1, false, "", kBlocks), kBlocks, 1);
    ASSERT_TRUE(racing.result.ok()) << format_all(racing.result);
    EXPECT_NE(racing.out, reference(racing.in, kBlocks, 1));
}

TEST(TextSyncall, TheCoresOfAMixedLaunchMeetInTheirSets)
{
    OneThread one;
    constexpr int kBlocks = 2;
    // The vector cores in their sections (AIVOnly: 4 of them), or every core at the top level (Mix: 6).
    for (const bool all : {false, true})
        for (const int form : {0, 1, 2}) {
            const std::string type = all ? "Mix" : "AIVOnly";
            const int participants = kBlocks * (all ? 3 : 2);
            SCOPED_TRACE(type + " form " + std::to_string(form));
            std::string sync = barrier(type, form);
            if (!all) sync = "    pto.section.vector {\n  " + sync + "    }\n";
            const Outcome o = run_program(program(kBlocks, 2, true, sync, participants), kBlocks, 2);
            ASSERT_TRUE(o.result.ok()) << format_all(o.result);
            EXPECT_EQ(o.out, reference(o.in, kBlocks, 2));
            EXPECT_EQ(o.ws[0], form == 0 ? 0 : participants);
        }
}

TEST(TextSyncall, RunTimeCodes)
{
    OneThread one;
    // The cube core of a mixed launch is no AIV core.
    const Outcome outside = run_program(program(2, 2, true, barrier("AIVOnly", 0), 0), 2, 2);
    ASSERT_FALSE(outside.result.ok());
    EXPECT_EQ(outside.result.diagnostics[0].code, "RUN_SYNCALL_CORE") << outside.result.diagnostics[0].format();
    EXPECT_NE(outside.result.diagnostics[0].location.find("syncall.pto:"), std::string::npos) << outside.result.diagnostics[0].format();

    // A soft barrier on a null workspace.
    std::string null_ws = program(2, 1, false, barrier("AIVOnly", 1), 0);
    null_ws.replace(null_ws.find("    pto.syncall(%ws"), 0, "    %zero = arith.constant 0 : i64\n    %nowhere = pto.castptr %zero : i64 -> !pto.ptr<i32>\n");
    null_ws.replace(null_ws.find("pto.syncall(%ws"), 15, "pto.syncall(%nowhere");
    const Outcome null = run_program(null_ws, 2, 1);
    ASSERT_FALSE(null.result.ok());
    EXPECT_EQ(null.result.diagnostics[0].code, "RUN_SYNCALL_WORKSPACE") << null.result.diagnostics[0].format();

    // Block 1 never reaches the barrier block 0 waits in.
    std::string skipped = program(2, 1, false, "", 0);
    skipped.replace(skipped.find("      %u = pto.alloc_tile"), 0,
                    "    %first = arith.cmpi eq, %b, %c0 : index\n    scf.if %first {\n  " + barrier("AIVOnly", 0) + "    }\n");
    const Outcome dead = run_program(skipped, 2, 1);
    ASSERT_FALSE(dead.result.ok());
    EXPECT_EQ(dead.result.diagnostics[0].code, "ORDER_DEADLOCK") << dead.result.diagnostics[0].format();
    EXPECT_NE(dead.result.diagnostics[0].message.find("SYNCALL"), std::string::npos) << dead.result.diagnostics[0].format();
}

TEST(TextSyncall, MalformedFormsAreTheVerifiersAndARunsCodes)
{
    struct Case {
        std::string sync, code, says;
    };
    const std::vector<Case> cases = {
        {"    pto.syncall {core_type = #pto.sync_core_type<AllCores>}\n", "STRUCT_ATTRIBUTE_VALUE", "participant set"},
        {"    pto.syncall {mode = #pto.sync_all_mode<Sometimes>}\n", "STRUCT_ATTRIBUTE_VALUE", "mode"},
        {"    pto.syncall {mode = #pto.sync_all_mode<Soft>}\n", "STRUCT_OPERAND_COUNT", "counts arrivals in a workspace"},
        {"    %h = pto.castptr %c0 : index -> !pto.ptr<f16>\n    pto.syncall(%h : !pto.ptr<f16>) {mode = #pto.sync_all_mode<Soft>}\n",
         "STRUCT_OPERAND_KIND", "32-bit arrival counters"},
        {"    %onchip = pto.castptr %c0 : index -> !pto.ptr<i32, ub>\n    pto.syncall(%onchip : !pto.ptr<i32, ub>) {mode = #pto.sync_all_mode<Soft>}\n",
         "STRUCT_OPERAND_KIND", "in global memory"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.code + ": " + c.says);
        const std::string text = program(2, 1, false, c.sync, 0);
        const ParseResult parsed = parse_ok(text, "bad.pto");
        const std::vector<Diagnostic> found = verify(parsed.module, profile::Target::Cpu);
        ASSERT_FALSE(found.empty());
        EXPECT_EQ(found[0].code, c.code) << found[0].format();
        EXPECT_NE(found[0].format().find(c.says), std::string::npos) << found[0].format();
        std::vector<float> in(2 * 8 * kCols, 1.0f), mid(in.size()), out(in.size());
        std::vector<int32_t> ws(8, 0);
        RunOptions options;
        options.blocks = 2;
        const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("mid", mid), array_arg("out", out), array_arg("ws", ws)}, options);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.diagnostics[0].code, c.code) << r.diagnostics[0].format();
    }
}

TEST(TextSyncall, EveryFormPrintsBackAndParsesToTheSameProgram)
{
    for (const int form : {0, 1, 2}) {
        const ParseResult parsed = parse_ok(program(2, 1, false, barrier("Mix", form), 2), "forms.pto");
        for (const Form f : {Form::Preserve, Form::SSA, Form::Asm, Form::Generic}) {
            const std::string printed = print(parsed.module, f);
            EXPECT_EQ(print(parse_ok(printed, "again.pto").module, Form::Generic), print(parsed.module, Form::Generic)) << printed;
        }
        const std::string preserved = print(parsed.module, Form::Preserve);
        EXPECT_NE(preserved.find(barrier("Mix", form).substr(4)), std::string::npos) << preserved;
    }
}

}  // namespace
}  // namespace pto::as::testing
