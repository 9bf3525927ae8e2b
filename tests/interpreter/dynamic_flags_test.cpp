// Flags with event ids the kernel computes (pto.set_flag_dyn / pto.wait_flag_dyn) and the event-id
// arrays that hold them (pto.declare_eventid_array, eventid_array_set / _get): they pair up at run
// time, so the static check leaves such functions alone and the run-time check (checked mode) judges
// them; every form prints back and parses to the same program; bad ids and indices have their codes.
#include <string>
#include <vector>

#include "asm/printer.hpp"
#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

// TLOAD %a into %ta on MTE2, TADD on V, TSTORE to %c on MTE3, ordered by two dynamic flags whose ids
// an event-id array holds: the ids set are `set_ids`, the ids waited `wait_ids` (indices into the array,
// which holds 3 at 0 and 5 at 1).
std::string kernel(int set0, int wait0, int set1, int wait1)
{
    const std::string tile = "!pto.tile_buf<vec, 16x16xf32>", view = "!pto.tensor_view<?x?xf32>", arr = "!pto.eventid_array<2>";
    auto get = [&](const std::string& name, int i) {
        return "    %" + name + " = pto.eventid_array_get %ids[%c" + std::to_string(i) + "] : " + arr + "\n";
    };
    return "func.func @k(%a: !pto.ptr<f32>, %c: !pto.ptr<f32>) {\n"
           "    %c0 = arith.constant 0 : index\n"
           "    %c1 = arith.constant 1 : index\n"
           "    %c3 = arith.constant 3 : index\n"
           "    %c5 = arith.constant 5 : index\n"
           "    %c16 = arith.constant 16 : index\n"
           "    %av = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : " + view + "\n"
           "    %cv = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : " + view + "\n"
           "    %ta = pto.alloc_tile : " + tile + "\n"
           "    %tc = pto.alloc_tile : " + tile + "\n"
           "    %ids = pto.declare_eventid_array -> " + arr + "\n"
           "    pto.eventid_array_set %ids[%c0], %c3 : " + arr + "\n"
           "    pto.eventid_array_set %ids[%c1], %c5 : " + arr + "\n" +
           get("s0", set0) + get("w0", wait0) + get("s1", set1) + get("w1", wait1) +
           "    pto.tload ins(%av : " + view + ") outs(%ta : " + tile + ")\n"
           "    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %s0]\n"
           "    pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %w0]\n"
           "    pto.tadd ins(%ta, %ta : " + tile + ", " + tile + ") outs(%tc : " + tile + ")\n"
           "    pto.set_flag_dyn [#pto.pipe<PIPE_V>, #pto.pipe<PIPE_MTE3>, %s1]\n"
           "    pto.wait_flag_dyn [#pto.pipe<PIPE_V>, #pto.pipe<PIPE_MTE3>, %w1]\n"
           "    pto.tstore ins(%tc : " + tile + ") outs(%cv : " + view + ")\n"
           "    return\n}\n";
}

struct Outcome {
    std::string static_code, run_code;
    std::vector<float> out;
};

Outcome run_kernel(const std::string& text)
{
    const ParseResult parsed = parse_ok(text, "d.pto");
    const std::vector<Diagnostic> found = verify(parsed.module, profile::Target::A2A3);
    std::vector<float> in = random_vector<float>(256, 7), out(256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("a", in), array_arg("c", out)}, checked_run());
    Outcome o{found.empty() ? "none" : found[0].code, r.ok() ? "none" : r.diagnostics[0].code + "@" + r.diagnostics[0].location, out};
    if (r.ok()) {
        for (std::size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], in[i] + in[i]) << i;
    }
    return o;
}

}  // namespace

TEST(DynamicFlags, MatchingIdsRunCleanAndMismatchedOnesAreFoundAtRunTime)
{
    EXPECT_EQ(run_kernel(kernel(0, 0, 1, 1)).run_code, "none");
    EXPECT_EQ(run_kernel(kernel(0, 0, 0, 0)).run_code, "none");  // one id for both pipe pairs is fine
    // Statically the ids are unknown: the function is left to the run-time check.
    const Outcome wrong_wait = run_kernel(kernel(0, 1, 1, 1));
    EXPECT_EQ(wrong_wait.static_code, "none");
    EXPECT_EQ(wrong_wait.run_code, "ORDER_WAIT_WITHOUT_SET@d.pto:20:5");
    // The second flag set with the first flag's id... and waited with the second's.
    EXPECT_EQ(run_kernel(kernel(0, 0, 0, 1)).run_code, "ORDER_WAIT_WITHOUT_SET@d.pto:23:5");
}

TEST(DynamicFlags, EveryFormPrintsBackToTheSameProgram)
{
    const ParseResult parsed = parse_ok(kernel(0, 0, 1, 1), "d.pto");
    const std::string preserved = print(parsed.module);
    EXPECT_NE(preserved.find("pto.set_flag_dyn[#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %s0]"), std::string::npos) << preserved;
    EXPECT_NE(preserved.find("%ids = pto.declare_eventid_array -> !pto.eventid_array<2>"), std::string::npos) << preserved;
    for (const Form form : {Form::Preserve, Form::Asm, Form::SSA, Form::DPS, Form::Generic}) {
        const std::string printed = print(parsed.module, form);
        const ParseResult again = parse_ok(printed, "d.pto");
        EXPECT_EQ(print(again.module, form), printed);
        EXPECT_EQ(print(again.module), print(parse_ok(print(again.module)).module));
        std::vector<float> in = random_vector<float>(256, 8), out(256, 0.0f);
        const RunResult r = run(again.module, {array_arg("a", in), array_arg("c", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r) << printed;
        for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], in[i] + in[i]) << i;
    }
}

TEST(DynamicFlags, BadIdsAndIndicesHaveTheirCodes)
{
    auto program = [](const std::string& body) {
        return "func.func @k() {\n"
               "    %c0 = arith.constant 0 : index\n"
               "    %c4 = arith.constant 4 : index\n"
               "    %c8 = arith.constant 8 : index\n"
               "    %ids = pto.declare_eventid_array -> !pto.eventid_array<4>\n" +
               body + "    return\n}\n";
    };
    const std::string arr = " : !pto.eventid_array<4>\n";
    EXPECT_EQ(first_run_code(program("    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %c8]\n")), "RUN_EVENT_ID");
    EXPECT_EQ(first_run_code(program("    pto.eventid_array_set %ids[%c0], %c8" + arr)), "RUN_EVENT_ID");
    EXPECT_EQ(first_run_code(program("    pto.eventid_array_set %ids[%c4], %c0" + arr)), "RUN_EVENTID_INDEX");
    EXPECT_EQ(first_run_code(program("    %e = pto.eventid_array_get %ids[%c0]" + arr)), "RUN_EVENTID_UNSET");
    EXPECT_EQ(first_run_code(program("    pto.eventid_array_set %ids[%c0], %c4" + arr + "    %e = pto.eventid_array_get %ids[%c0]" + arr +
                                     "    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]\n"
                                     "    pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]\n")),
              "none");
    // A flag left set is found at the end of the run.
    EXPECT_EQ(first_run_code(program("    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %c4]\n")), "ORDER_UNWAITED_SET");
    const std::string zero = "func.func @k() {\n    %ids = pto.declare_eventid_array -> !pto.eventid_array<0>\n    return\n}\n";
    EXPECT_EQ(first_run_code(zero), "RUN_BAD_OPERAND");
}

}  // namespace pto::as::testing
