// The interpreter per construct: arith, scf.for / if / while, func.call and return.
#include "support.hpp"

namespace pto::as::testing {
namespace {

RunResult run_text(const std::string& text, std::vector<ArgumentBinding> args = {}, const std::string& entry = {})
{
    const ParseResult parsed = parse_ok(text);
    return run(parsed.module, args, checked_run(entry));
}

double run_scalar(const std::string& text, std::vector<ArgumentBinding> args = {})
{
    const RunResult r = run_text(text, std::move(args));
    EXPECT_TRUE(r.ok()) << format_all(r);
    EXPECT_EQ(r.results.size(), 1u);
    return r.results.empty() ? 0 : r.results[0];
}

TEST(Constructs, IntegerArithmetic)
{
    const char* text = R"(func.func @f(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  %m = arith.muli %s, %b : i32
  %d = arith.divsi %m, %a : i32
  %r = arith.remsi %d, %b : i32
  %x = arith.xori %r, %a : i32
  %mx = arith.maxsi %x, %b : i32
  return %mx : i32
})";
    const auto ref = [](int32_t a, int32_t b) {
        int32_t d = ((a + b) * b) / a;
        return std::max((d % b) ^ a, b);
    };
    EXPECT_EQ(run_scalar(text, {scalar_arg("a", 7), scalar_arg("b", 5)}), ref(7, 5));
    EXPECT_EQ(run_scalar(text, {scalar_arg("a", -3), scalar_arg("b", 11)}), ref(-3, 11));
}

TEST(Constructs, IntegerWrapsToItsWidth)
{
    EXPECT_EQ(run_scalar(R"(func.func @f(%a: i8) -> i8 {
  %c = arith.constant 100 : i8
  %s = arith.addi %a, %c : i8
  return %s : i8
})", {scalar_arg("a", 100)}), -56);
    EXPECT_EQ(run_scalar(R"(func.func @f(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %s = arith.shrui %a, %c : i32
  return %s : i32
})", {scalar_arg("a", -2)}), 0x7FFFFFFF);
}

TEST(Constructs, FloatArithmeticRoundsToItsType)
{
    EXPECT_EQ(run_scalar(R"(func.func @f(%a: f32) -> f32 {
  %c = arith.constant 0.1 : f32
  %s = arith.addf %a, %c : f32
  %m = arith.mulf %s, %s : f32
  return %m : f32
})", {scalar_arg("a", 1.0)}), double((1.0f + 0.1f) * (1.0f + 0.1f)));
    // 2049 is not a half: it rounds to 2048 (ties to even).
    EXPECT_EQ(run_scalar(R"(func.func @f(%a: f16) -> f16 {
  %c = arith.constant 1.0 : f16
  %s = arith.addf %a, %c : f16
  return %s : f16
})", {scalar_arg("a", 2048)}), 2048);
}

TEST(Constructs, ComparisonsSelectAndCasts)
{
    const char* text = R"(func.func @f(%a: i32, %x: f32) -> f32 {
  %z = arith.constant 0 : i32
  %neg = arith.cmpi slt, %a, %z : i32
  %fa = arith.sitofp %a : i32 to f32
  %big = arith.cmpf ogt, %fa, %x : f32
  %both = arith.andi %neg, %big : i1
  %pick = arith.select %both, %fa, %x : f32
  %i = arith.fptosi %pick : f32 to i32
  %w = arith.extsi %i : i32 to i64
  %t = arith.trunci %w : i64 to i16
  %r = arith.sitofp %t : i16 to f32
  return %r : f32
})";
    EXPECT_EQ(run_scalar(text, {scalar_arg("a", -2), scalar_arg("x", -7.5)}), -2);
    EXPECT_EQ(run_scalar(text, {scalar_arg("a", 3), scalar_arg("x", -7.5)}), -7);
}

TEST(Constructs, ForWithIterArgs)
{
    const char* text = R"(func.func @sum(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0, %prev = %c1) -> (index, index) {
    %next = arith.addi %acc, %i : index
    scf.yield %next, %acc : index, index
  }
  return %r#0 : index
})";
    EXPECT_EQ(run_scalar(text, {scalar_arg("n", 10)}), 45);
    EXPECT_EQ(run_scalar(text, {scalar_arg("n", 0)}), 0);
}

TEST(Constructs, IfElseYields)
{
    // if_else.pto's @clamp_rows also uses pto.tmuls, which the engine does not implement yet.
    const char* text = R"(func.func @clamp(%n: index, %limit: i32) -> index {
  %c8 = arith.constant 8 : index
  %n32 = arith.index_cast %n : index to i32
  %small = arith.cmpi slt, %n32, %limit : i32
  %rows = scf.if %small -> (index) {
    scf.yield %n : index
  } else {
    %half = arith.divsi %n, %c8 : index
    scf.yield %half : index
  }
  return %rows : index
})";
    EXPECT_EQ(run_scalar(text, {scalar_arg("n", 5), scalar_arg("limit", 10)}), 5);
    EXPECT_EQ(run_scalar(text, {scalar_arg("n", 64), scalar_arg("limit", 10)}), 8);
}

TEST(Constructs, WhileWithCondition)
{
    const char* text = R"(func.func @collatz(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r:2 = scf.while (%x = %n, %steps = %c0) : (index, index) -> (index, index) {
    %go = arith.cmpi ne, %x, %c1 : index
    scf.condition(%go) %x, %steps : index, index
  } do {
  ^bb0(%y: index, %s: index):
    %rem = arith.remui %y, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %next = scf.if %even -> (index) {
      %h = arith.divui %y, %c2 : index
      scf.yield %h : index
    } else {
      %t = arith.muli %y, %c3 : index
      %u = arith.addi %t, %c1 : index
      scf.yield %u : index
    }
    %s2 = arith.addi %s, %c1 : index
    scf.yield %next, %s2 : index, index
  }
  return %r#1 : index
})";
    EXPECT_EQ(run_scalar(text, {scalar_arg("n", 27)}), 111);
}

TEST(Constructs, CallAndReturnSeveralValues)
{
    const char* text = R"(module {
  func.func @main(%a: index) -> index {
    %c4 = arith.constant 4 : index
    %n, %e = func.call @area(%a, %c4) : (index, index) -> (index, i1)
    %again:2 = call @area(%n, %c4) : (index, index) -> (index, i1)
    return %again#0 : index
  }
  func.func private @area(%rows: index, %cols: index) -> (index, i1) {
    %a = arith.muli %rows, %cols : index
    %c0 = arith.constant 0 : index
    %empty = arith.cmpi eq, %a, %c0 : index
    return %a, %empty : index, i1
  }
})";
    EXPECT_EQ(run_scalar(text, {scalar_arg("a", 3)}), 48);
}

TEST(Constructs, DivisionByZeroIsADiagnosticWithLocation)
{
    const RunResult r = run_text("func.func @f(%a: i32) -> i32 {\n  %z = arith.constant 0 : i32\n  %d = arith.divsi %a, %z : i32\n  return %d : i32\n}",
                                 {scalar_arg("a", 1)});
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].code, "RUN_DIV_BY_ZERO");
    EXPECT_EQ(r.diagnostics[0].location, "test.pto:3:8");
}

TEST(Constructs, BlockQueriesAndSyncAreRecorded)
{
    const ParseResult parsed = parse_ok(read_text(std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/sync.pto"));
    std::vector<float> gm(64);
    runtime::clear_sync_log();
    const RunResult r = run(parsed.module, {array_arg("gm", gm)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    const auto log = runtime::sync_log();
    ASSERT_EQ(log.size(), 11u);
    EXPECT_EQ(log[0].kind, runtime::SyncKind::SetFlag);
    EXPECT_EQ(log[0].src_pipe, PIPE_MTE2);
    EXPECT_EQ(log[0].dst_pipe, PIPE_V);
    EXPECT_EQ(log[0].event_id, 0);
    EXPECT_EQ(log[1].kind, runtime::SyncKind::WaitFlag);
    EXPECT_EQ(log[4].kind, runtime::SyncKind::EventRecord);
    EXPECT_EQ(log[6].kind, runtime::SyncKind::PipeBarrier);
    EXPECT_EQ(log[6].src_pipe, PIPE_ALL);
}

TEST(Constructs, ArgumentErrors)
{
    const char* text = "func.func @f(%p: !pto.ptr<f32>, %n: index) {\n  return\n}";
    std::vector<float> data(4);
    RunResult r = run_text(text, {scalar_arg("p", 1), scalar_arg("zz", 2)});
    ASSERT_EQ(r.diagnostics.size(), 3u) << format_all(r);
    EXPECT_EQ(r.diagnostics[0].code, "RUN_ARG_KIND");
    EXPECT_EQ(r.diagnostics[1].code, "RUN_ARG_UNKNOWN");
    EXPECT_EQ(r.diagnostics[2].code, "RUN_ARG_MISSING");
    r = run_text(text, {array_arg("p", data), scalar_arg("n", 1)}, "nope");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].code, "RUN_UNKNOWN_ENTRY");
}

}  // namespace
}  // namespace pto::as::testing

namespace pto::as::testing {
namespace {

TEST(Constructs, MultiBlockLaunchSplitsWorkByBlockIndex)
{
    // Each block adds its own 16-row slice: block b covers rows [16b, 16b + 16).
    const std::string T = "!pto.tile_buf<vec, 16x64xf32>", V = "!pto.partition_tensor_view<16x64xf32>";
    const std::string text = R"(func.func @k(%a: !pto.ptr<f32>, %c: !pto.ptr<f32>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %b64 = pto.get_block_idx
  %n64 = pto.get_block_num
  %b = arith.index_cast %b64 : i64 to index
  %n = arith.index_cast %n64 : i64 to index
  %rows = arith.muli %n, %c16 : index
  %row = arith.muli %b, %c16 : index
  %av = pto.make_tensor_view %a, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %cv = pto.make_tensor_view %c, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %ap = pto.partition_view %av, offsets = [%row, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> )" + V + R"(
  %cp = pto.partition_view %cv, offsets = [%row, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> )" + V + R"(
  %t = pto.tload %ap : )" + V + " -> " + T + R"(
  %s = pto.tadd %t, %t : ()" + T + ", " + T + ") -> " + T + R"(
  pto.tstore ins(%s : )" + T + ") outs(%cp : " + V + R"()
  return %n : index
})";
    const ParseResult parsed = parse_ok(text);
    auto a = random_vector<float>(4 * 16 * 64, 51);
    std::vector<float> c(a.size(), 0.0f);
    RunOptions options = checked_run();
    options.blocks = 4;
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("c", c)}, options);
    ASSERT_TRUE(r.ok()) << format_all(r);
    EXPECT_EQ(r.results, std::vector<double>{4});
    for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + a[i]) << i;
}

}  // namespace
}  // namespace pto::as::testing

namespace pto::as::testing {
namespace {

TEST(Robustness, EveryFrontEndProgramLowersOrReportsWithoutCrashing)
{
    // Programs using instructions the engine does not implement yet report RUN_UNSUPPORTED_OP at the
    // operation; the others run (their arguments unbound: RUN_ARG_MISSING).
    for (const char* name : {"call.pto", "if_else.pto", "mgather.pto", "multi_tile_loop.pto", "scalars.pto", "sections.pto", "sync.pto",
                             "tgather.pto", "tile_types.pto", "tsort32.pto", "vector_add_asm.pto", "vector_add_dps.pto", "vector_add_ssa.pto", "vector_register_form.pto",
                             "while_loop.pto"}) {
        SCOPED_TRACE(name);
        const ParseResult parsed = parse(read_text(std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/" + name), name);
        ASSERT_TRUE(parsed.ok());
        const Interpreter interpreter(parsed.module);
        const RunResult r = interpreter.run({}, checked_run());
        for (const Diagnostic& d : r.diagnostics) {
            EXPECT_TRUE(d.code == "RUN_UNSUPPORTED_OP" || d.code == "RUN_ARG_MISSING" || d.code.rfind("LEGAL_", 0) == 0 ||
                        d.code.rfind("RUN_", 0) == 0)
                << d.format();
            EXPECT_FALSE(d.location.empty()) << d.format();
        }
    }
}

}  // namespace
}  // namespace pto::as::testing
