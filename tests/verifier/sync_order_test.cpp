// The ORDER_* check: pipe hazards on tiles and global memory must be separated by a matching
// set_flag / wait_flag pair (or event pair, or a PIPE_ALL barrier); flags are set and waited in pairs.
// Every straight-line program here also runs with the run-time check, which must find the same first problem.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"

namespace pto::as {
namespace {

const std::string kTile = "!pto.tile_buf<vec, 16x16xf32>";
const std::string kView = "!pto.tensor_view<?x?xf32>";

// A kernel whose body starts on line 11: %ta, %tb, %tc are 16x16 Vec tiles, %av / %cv views of the
// pointer arguments %a / %c, %n a run-time count, %cond a run-time condition.
std::string kernel(const std::vector<std::string>& body, const std::string& extra_functions = "")
{
    std::string text = "func.func @k(%a: !pto.ptr<f32>, %c: !pto.ptr<f32>, %n: index) {\n"
                       "  %c0 = arith.constant 0 : index\n"
                       "  %c1 = arith.constant 1 : index\n"
                       "  %c16 = arith.constant 16 : index\n"
                       "  %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : " + kView + "\n"
                       "  %cv = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : " + kView + "\n"
                       "  %cond = arith.cmpi slt, %n, %c16 : index\n"
                       "  %ta = pto.alloc_tile : " + kTile + "\n"
                       "  %tb = pto.alloc_tile : " + kTile + "\n";
    text += "  %tc = pto.alloc_tile : " + kTile + "\n";
    for (const std::string& line : body) text += "  " + line + "\n";
    return text + "  return\n}\n" + extra_functions;
}

std::string load(const std::string& tile = "%ta", const std::string& view = "%av")
{
    return "pto.tload ins(" + view + " : " + kView + ") outs(" + tile + " : " + kTile + ")";
}
std::string add(const std::string& src = "%ta", const std::string& dst = "%tc")
{
    return "pto.tadd ins(" + src + ", " + src + " : " + kTile + ", " + kTile + ") outs(" + dst + " : " + kTile + ")";
}
std::string store(const std::string& tile = "%tc", const std::string& view = "%cv")
{
    return "pto.tstore ins(" + tile + " : " + kTile + ") outs(" + view + " : " + kView + ")";
}
std::string set(const std::string& src, const std::string& dst, int event = 0)
{
    return "pto.set_flag[<PIPE_" + src + ">, <PIPE_" + dst + ">, <EVENT_ID" + std::to_string(event) + ">]";
}
std::string wait(const std::string& src, const std::string& dst, int event = 0)
{
    return "pto.wait_flag[<PIPE_" + src + ">, <PIPE_" + dst + ">, <EVENT_ID" + std::to_string(event) + ">]";
}

// The run-time check (checked mode) on a straight-line program it can run must stop at the static
// check's first finding, or run clean when it finds nothing: every pointer argument is bound to 256
// elements of data, every index to 16.
void expect_run_time_check_agrees(const Module& module, const std::string& text, const std::vector<Diagnostic>& found_statically)
{
    if (text.find("scf.") != std::string::npos || text.find("func.call") != std::string::npos) return;  // paths the run may not take
    if (!found_statically.empty() && found_statically[0].code.rfind("ORDER_", 0) != 0) return;
    const Function& fn = *module.functions.front();
    std::vector<std::vector<uint32_t>> arrays;
    std::vector<ArgumentBinding> args;
    for (const Value* param : fn.arguments()) {
        ArgumentBinding b;
        b.name = param->name;
        if (param->type.is<PtrType>()) {
            arrays.emplace_back(256, 0x3C003C00u);  // 1.0 as two halves; 0.5 as a float
            b.data = reinterpret_cast<std::byte*>(arrays.back().data());
            b.bytes = 256 * sizeof(uint32_t);
        } else {
            b.scalar = 16;
        }
        args.push_back(b);
    }
    RunOptions options;
    options.target = profile::Target::A2A3;
    options.checked = true;
    const RunResult r = run(module, args, options);
    if (!r.diagnostics.empty() && r.diagnostics[0].code.rfind("ORDER_", 0) != 0) return;  // a program the run cannot finish (it reads never-written tiles)
    const std::string at_run = r.diagnostics.empty() ? "none" : r.diagnostics[0].code + "@" + r.diagnostics[0].location;
    const std::string statically = found_statically.empty() ? "none" : found_statically[0].code + "@" + found_statically[0].location;
    EXPECT_EQ(at_run, statically) << text << (r.diagnostics.empty() ? "" : r.diagnostics[0].format());
}

std::vector<Diagnostic> check(const std::string& text, SyncChecking mode = SyncChecking::Auto)
{
    ParseResult parsed = parse(text, "s.pto");
    for (const auto& d : parsed.diagnostics) ADD_FAILURE() << d.format();
    std::vector<Diagnostic> found = verify(parsed.module, profile::Target::A2A3, mode);
    if (mode == SyncChecking::Auto) expect_run_time_check_agrees(parsed.module, text, found);
    return found;
}

std::string listing(const std::vector<Diagnostic>& ds)
{
    std::string out;
    for (const auto& d : ds) out += d.format() + "\n";
    return out;
}

// The diagnostics as "CODE@line:col", in the order reported.
std::vector<std::string> found(const std::vector<Diagnostic>& ds)
{
    std::vector<std::string> out;
    for (const auto& d : ds) out.push_back(d.code + "@" + d.location.substr(std::string("s.pto:").size()));
    return out;
}

using Found = std::vector<std::string>;

TEST(SyncOrder, CorrectSyncPasses)
{
    const auto ds = check(kernel({load(), set("MTE2", "V"), wait("MTE2", "V"), add(), set("V", "MTE3"), wait("V", "MTE3"), store()}));
    EXPECT_TRUE(ds.empty()) << listing(ds);
}

TEST(SyncOrder, MissingSyncNamesBothOpsPipesAndLines)
{
    // Line 11 loads %ta on MTE2; line 14 reads it on V after a wait for the wrong producer.
    const auto ds = check(kernel({load(), set("V", "MTE3"), wait("V", "MTE3"), add()}));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@14:3"})) << listing(ds);
    EXPECT_EQ(ds[0].format(),
              "s.pto:14:3: error[ORDER_MISSING_SYNC]: TADD: reads tile %ta, which TLOAD at line 11 wrote on pipe MTE2, while TADD runs on "
              "pipe V \xE2\x80\x94 expected set_flag(MTE2, V, EVENT_IDn) / wait_flag(MTE2, V, EVENT_IDn) between line 11 and line 14, got no "
              "synchronisation from MTE2 to V");
}

TEST(SyncOrder, MissingWait)
{
    const auto ds = check(kernel({load(), set("MTE2", "V"), add()}));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@13:3", "ORDER_UNWAITED_SET@12:3"})) << listing(ds);
    EXPECT_EQ(ds[0].actual, "set_flag(MTE2, V, EVENT_ID0) at line 12 without its wait_flag");
}

TEST(SyncOrder, WrongEventId)
{
    const auto ds = check(kernel({load(), set("MTE2", "V", 0), wait("MTE2", "V", 1), add()}));
    EXPECT_EQ(found(ds), (Found{"ORDER_WAIT_WITHOUT_SET@13:3", "ORDER_MISSING_SYNC@14:3", "ORDER_UNWAITED_SET@12:3"})) << listing(ds);
}

TEST(SyncOrder, WrongPipePair)
{
    const auto ds = check(kernel({load(), set("MTE3", "V"), wait("MTE3", "V"), add()}));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@14:3"})) << listing(ds);
    EXPECT_EQ(ds[0].actual, "no synchronisation from MTE2 to V");
}

TEST(SyncOrder, OrderingComposesThroughAThirdPipe)
{
    // MTE3 reads %tc written on V, and V waited for MTE2: the store needs no flag from MTE2.
    const auto ds = check(kernel({load("%tc"), set("MTE2", "V"), wait("MTE2", "V"), add("%tc", "%tc"), set("V", "MTE3"), wait("V", "MTE3"),
                                  store()}));
    EXPECT_TRUE(ds.empty()) << listing(ds);
}

TEST(SyncOrder, WriteAfterReadAndWriteAfterWrite)
{
    // TLOAD on MTE2 overwrites %ta while TADD on V may still read it; then overwrites %tc TADD wrote.
    const auto ds = check(kernel({load(), set("MTE2", "V"), wait("MTE2", "V"), add(), load("%ta"), load("%tc")}));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@15:3", "ORDER_MISSING_SYNC@16:3"})) << listing(ds);
    EXPECT_NE(ds[0].message.find("overwrites tile %ta, which TADD at line 14 read on pipe V"), std::string::npos) << ds[0].message;
    EXPECT_NE(ds[1].message.find("overwrites tile %tc, which TADD at line 14 wrote on pipe V"), std::string::npos) << ds[1].message;
}

TEST(SyncOrder, SamePipeNeedsNoFlag)
{
    const auto ds = check(kernel({load(), set("MTE2", "V"), wait("MTE2", "V"), add("%ta", "%tb"), add("%tb", "%tc")}));
    EXPECT_TRUE(ds.empty()) << listing(ds);
}

TEST(SyncOrder, SetTwice)
{
    const auto ds = check(kernel({set("MTE2", "V"), set("MTE2", "V"), wait("MTE2", "V")}));
    ASSERT_EQ(found(ds), (Found{"ORDER_SET_TWICE@12:3"})) << listing(ds);
    EXPECT_NE(ds[0].message.find("set at line 11"), std::string::npos) << ds[0].message;
    EXPECT_TRUE(check(kernel({set("MTE2", "V"), wait("MTE2", "V"), set("MTE2", "V"), wait("MTE2", "V")})).empty());
    EXPECT_TRUE(check(kernel({set("MTE2", "V", 0), set("MTE2", "V", 1), wait("MTE2", "V", 0), wait("MTE2", "V", 1)})).empty());
}

TEST(SyncOrder, WaitWithoutSet)
{
    const auto ds = check(kernel({wait("MTE2", "V")}));
    ASSERT_EQ(found(ds), (Found{"ORDER_WAIT_WITHOUT_SET@11:3"})) << listing(ds);
    EXPECT_EQ(ds[0].expected, "an earlier set_flag(MTE2, V, EVENT_ID0)");
    EXPECT_EQ(found(check(kernel({set("MTE2", "V"), wait("MTE2", "V"), wait("MTE2", "V")}))), (Found{"ORDER_WAIT_WITHOUT_SET@13:3"}));
}

TEST(SyncOrder, UnwaitedSetOnlyWhereNothingCallsTheFunction)
{
    EXPECT_EQ(found(check(kernel({set("MTE3", "MTE2")}))), (Found{"ORDER_UNWAITED_SET@11:3"}));
    // A helper may leave a flag for its caller, which waits for it.
    const std::string helper = "func.func @helper() {\n  " + set("MTE3", "MTE2") + "\n  return\n}\n";
    const auto ds = check(kernel({"func.call @helper() : () -> ()", wait("MTE3", "MTE2")}, helper));
    EXPECT_TRUE(ds.empty()) << listing(ds);
}

TEST(SyncOrder, BarrierOfTheRightKind)
{
    const auto all = check(kernel({load(), "pipe_barrier(PIPE_ALL)", add(), "pto.barrier #pto.pipe<PIPE_ALL>", store()}));
    EXPECT_TRUE(all.empty()) << listing(all);
    // A barrier on one pipe orders that pipe with itself only.
    const auto vec = check(kernel({load(), "pto.barrier(#pto.sync_op_type<TVEC>)", add()}));
    EXPECT_EQ(found(vec), (Found{"ORDER_MISSING_SYNC@13:3"})) << listing(vec);
    const auto v = check(kernel({load(), "pipe_barrier(PIPE_V)", add()}));
    EXPECT_EQ(found(v), (Found{"ORDER_MISSING_SYNC@13:3"})) << listing(v);
}

TEST(SyncOrder, EventsNameTheirPipesByOperationClass)
{
    const std::string record = "pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TVEC>, #pto.event<EVENT_ID0>]";
    const std::string await = "pto.wait_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TVEC>, #pto.event<EVENT_ID0>]";
    const auto ok = check(kernel({load(), record, await, add()}));
    EXPECT_TRUE(ok.empty()) << listing(ok);
    const std::string to_cube = "pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TMATMUL>, #pto.event<EVENT_ID0>]";
    const std::string cube_waits = "pto.wait_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TMATMUL>, #pto.event<EVENT_ID0>]";
    EXPECT_EQ(found(check(kernel({load(), to_cube, cube_waits, add()}))), (Found{"ORDER_MISSING_SYNC@14:3"}));
}

TEST(SyncOrder, HazardAcrossTheLoopBackEdge)
{
    // Each iteration is ordered within itself, but the next TLOAD overwrites %ta the previous TADD
    // read, and the next TADD overwrites %tc the previous TSTORE read.
    const auto ds = check(kernel({"scf.for %i = %c0 to %n step %c1 {", "  " + load(), "  " + set("MTE2", "V"), "  " + wait("MTE2", "V"), "  " + add(),
                                  "  " + set("V", "MTE3"), "  " + wait("V", "MTE3"), "  " + store(), "}"}));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@12:5", "ORDER_MISSING_SYNC@15:5"})) << listing(ds);
    EXPECT_NE(ds[0].expected.find("between line 15 and line 12"), std::string::npos) << ds[0].expected;
    EXPECT_NE(ds[1].expected.find("set_flag(MTE3, V, EVENT_IDn)"), std::string::npos) << ds[1].expected;
}

TEST(SyncOrder, LoopWithFlagsAroundTheBackEdgePasses)
{
    // The usual pipeline: flags primed before the loop, waited at the top of each iteration, set
    // again at its end, and drained after the loop.
    const auto ds = check(kernel({set("V", "MTE2"), set("MTE3", "V"), "scf.for %i = %c0 to %n step %c1 {", "  " + wait("V", "MTE2"), "  " + load(),
                                  "  " + set("MTE2", "V"), "  " + wait("MTE2", "V"), "  " + wait("MTE3", "V"), "  " + add(), "  " + set("V", "MTE2"),
                                  "  " + set("V", "MTE3"), "  " + wait("V", "MTE3"), "  " + store(), "  " + set("MTE3", "V"), "}", wait("V", "MTE2"),
                                  wait("MTE3", "V")}));
    EXPECT_TRUE(ds.empty()) << listing(ds);
}

TEST(SyncOrder, PipelinedProgramPassesAndEveryFlagInItMatters)
{
    std::ifstream in(std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/pipelined_sync.pto");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const auto ds = check(text, SyncChecking::Explicit);
    EXPECT_TRUE(ds.empty()) << listing(ds);
    // Without any one of its set_flag / wait_flag lines the program is wrong somewhere.
    std::size_t removed = 0;
    for (std::size_t at = text.find("pto.set_flag"), next; at != std::string::npos; at = next) {
        const std::size_t wait_at = text.find("pto.wait_flag", at + 1), set_at = text.find("pto.set_flag", at + 1);
        next = std::min(wait_at, set_at);
        const std::size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at);
        std::string without = text;
        without.erase(begin, end - begin + 1);
        EXPECT_FALSE(check(without).empty()) << "still clean without: " << text.substr(begin, end - begin);
        ++removed;
    }
    EXPECT_EQ(removed, 12u);
}

TEST(SyncOrder, FlagSetInEveryIterationWithoutWaitIsSetTwice)
{
    const auto ds = check(kernel({"scf.for %i = %c0 to %n step %c1 {", "  " + set("MTE2", "V"), "}"}));
    EXPECT_EQ(found(ds), (Found{"ORDER_SET_TWICE@12:5"})) << listing(ds);
}

TEST(SyncOrder, HazardInOnlyOneIfBranch)
{
    // The then-branch reloads %ta without a flag; the else-branch leaves it alone.
    const auto ds = check(kernel({load(), set("MTE2", "V"), wait("MTE2", "V"), "scf.if %cond {", "  " + load(), "}", add()}));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@17:3"})) << listing(ds);
    EXPECT_NE(ds[0].message.find("TLOAD at line 15"), std::string::npos) << ds[0].message;
    const auto both = check(kernel({load(), set("MTE2", "V"), wait("MTE2", "V"), "scf.if %cond {", "  " + load(), "  " + set("MTE2", "V"),
                                    "  " + wait("MTE2", "V"), "}", add()}));
    EXPECT_TRUE(both.empty()) << listing(both);
}

TEST(SyncOrder, APendingAccessInOneBranchDoesNotTaintOtherStorage)
{
    // The then-branch leaves its load of %ta unordered; TADD reads only %tb, ordered on both paths.
    const auto ds = check(kernel({load("%tb"), set("MTE2", "V"), wait("MTE2", "V"), "scf.if %cond {", "  " + load("%ta"), "} else {",
                                  "  " + load("%tb"), "  " + set("MTE2", "V"), "  " + wait("MTE2", "V"), "}", add("%tb", "%tc")}));
    EXPECT_TRUE(ds.empty()) << listing(ds);
}

TEST(SyncOrder, FlagSetInOneBranchIsNeitherCertainlySetNorCertainlyFree)
{
    const auto ds = check(kernel({"scf.if %cond {", "  " + set("MTE2", "V"), "}", wait("MTE2", "V"), set("MTE2", "V"), wait("MTE2", "V")}));
    EXPECT_TRUE(ds.empty()) << listing(ds);
}

TEST(SyncOrder, TilesAliasThroughConstantAddresses)
{
    // %x covers bytes [0, 1024) of UB, %y [512, 1536), %z [1024, 2048): only %y overlaps %x.
    const auto ds = check(kernel({"%c512 = arith.constant 512 : index", "%c1024 = arith.constant 1024 : index",
                                  "%x = pto.alloc_tile addr = %c0 : " + kTile, "%y = pto.alloc_tile addr = %c512 : " + kTile,
                                  "%z = pto.alloc_tile addr = %c1024 : " + kTile, load("%x"), "pipe_barrier(PIPE_V)", add("%z", "%tc"),
                                  add("%y", "%tb")}));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@19:3"})) << listing(ds);
    EXPECT_NE(ds[0].message.find("reads tile %y, which TLOAD at line 16 wrote"), std::string::npos) << ds[0].message;
    // Another memory at the same offset is other storage.
    const std::string mat = "!pto.tile_buf<mat, 16x16xf32>";
    const auto apart = check(kernel({"%m = pto.alloc_tile addr = %c0 : " + mat, "%v = pto.alloc_tile addr = %c0 : " + kTile,
                                     "pto.tload ins(%av : " + kView + ") outs(%m : " + mat + ")", "pipe_barrier(PIPE_V)", add("%v", "%tc")}));
    EXPECT_TRUE(apart.empty()) << listing(apart);
}

TEST(SyncOrder, GlobalMemoryThroughViewsOfOnePointer)
{
    // TSTORE writes %c's memory on MTE3; a TLOAD of the same pointer on MTE2 must wait for it.
    const std::string part = "%cp = pto.partition_view %cv, offsets = [%c0, %c0], sizes = [%c16, %c16] : " + kView +
                             " -> !pto.partition_tensor_view<16x16xf32>";
    const std::string reload = "pto.tload ins(%cp : !pto.partition_tensor_view<16x16xf32>) outs(%tb : " + kTile + ")";
    const std::vector<std::string> pipeline{load(), set("MTE2", "V"), wait("MTE2", "V"), add(), set("V", "MTE3"), wait("V", "MTE3"), store(), part};
    std::vector<std::string> racy = pipeline;
    racy.push_back(reload);
    const auto ds = check(kernel(racy));
    ASSERT_EQ(found(ds), (Found{"ORDER_MISSING_SYNC@19:3"})) << listing(ds);
    EXPECT_NE(ds[0].message.find("reads global memory of %c, which TSTORE at line 17 wrote on pipe MTE3"), std::string::npos) << ds[0].message;
    std::vector<std::string> ordered = pipeline;
    ordered.insert(ordered.end(), {set("MTE3", "MTE2"), wait("MTE3", "MTE2"), reload});
    EXPECT_TRUE(check(kernel(ordered)).empty());
}

TEST(SyncOrder, PipesOfDataMovementFollowTheLocations)
{
    // TMOV Mat -> Left runs on MTE1: it needs the MTE2 load of its source ordered before it.
    const std::string mat = "!pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>";
    const std::string left = "!pto.tile_buf<left, 16x16xf16, blayout=row_major, slayout=row_major>";
    const std::string body = "func.func @k(%a: !pto.ptr<f16>) {\n  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n"
                             "  %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf16>\n"
                             "  %m = pto.alloc_tile : " + mat + "\n  %l = pto.alloc_tile : " + left + "\n"
                             "  pto.tload ins(%av : !pto.tensor_view<?x?xf16>) outs(%m : " + mat + ")\n  SYNC\n"
                             "  pto.tmov ins(%m : " + mat + ") outs(%l : " + left + ")\n  return\n}\n";
    auto with = [&](const std::string& sync) { return std::string(body).replace(body.find("SYNC"), 4, sync); };
    const auto wrong = check(with(set("MTE2", "V") + "\n  " + wait("MTE2", "V")));
    ASSERT_EQ(found(wrong), (Found{"ORDER_MISSING_SYNC@10:3"})) << listing(wrong);
    EXPECT_NE(wrong[0].message.find("TMOV runs on pipe MTE1"), std::string::npos) << wrong[0].message;
    const auto right = check(with(set("MTE2", "MTE1") + "\n  " + wait("MTE2", "MTE1")));
    EXPECT_TRUE(right.empty()) << listing(right);
}

TEST(SyncOrder, FunctionsWithoutSyncOpsAreLeftToTheAssemblerUnlessExplicit)
{
    const std::string unsynced = kernel({load(), add(), store()});
    EXPECT_TRUE(check(unsynced).empty());
    EXPECT_EQ(found(check(unsynced, SyncChecking::Explicit)), (Found{"ORDER_MISSING_SYNC@12:3", "ORDER_MISSING_SYNC@13:3"}));
    // One sync operation anywhere in the function makes it explicitly synchronised.
    EXPECT_EQ(found(check(kernel({load(), add(), store(), "pipe_barrier(PIPE_ALL)"}))),
              (Found{"ORDER_MISSING_SYNC@12:3", "ORDER_MISSING_SYNC@13:3"}));
}

TEST(SyncOrder, DeepNestingStaysBounded)
{
    // Each loop level doubles the work of the levels inside it; the analysis gives up past a budget
    // instead of running for ever, and says that it did.
    std::vector<std::string> body{set("MTE2", "V"), wait("MTE2", "V")};
    for (int depth = 0; depth < 40; ++depth) {
        body.insert(body.begin(), "scf.for %i" + std::to_string(depth) + " = %c0 to %n step %c1 {");
        body.push_back("}");
    }
    const auto diagnostics = check(kernel(body));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].code, "ORDER_ANALYSIS_LIMIT");
}

}  // namespace
}  // namespace pto::as
