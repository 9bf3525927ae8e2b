// The vector core's buffer-slot protocol (pto.get_buf / pto.rls_buf) and memory barrier (pto.mem_bar)
// from PTO-AS: a double-buffered kernel runs and computes what a reference loop does, both spellings
// of the protocol ops print back as written, and every broken protocol step has its code.
#include <string>
#include <vector>

#include "asm/printer.hpp"
#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

// Two rounds over two slots: MTE2 loads 64-float chunk k into slot k's UB buffer, V doubles it in
// place (with a memory barrier between its store and the next load of the same bytes), MTE3 stores
// it to chunk k; each pipe takes the slot with get_buf and gives it back with rls_buf.
std::string double_buffered(bool pipe_first)
{
    auto protocol = [&](const char* op, const char* id, const char* pipe) {
        return std::string("    pto.") + op + " " + (pipe_first ? std::string("\"") + pipe + "\", %" + id : "%" + std::string(id) + ", \"" + pipe + "\"") +
               ", %mode : i64, i64\n";
    };
    std::string text = R"(func.func @k(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %mode = arith.constant 0 : i64
  %len = arith.constant 256 : i64
  %c256 = arith.constant 256 : i64
  scf.for %k = %c0 to %c2 step %c1 {
    %id = arith.index_cast %k : index to i64
    %at = arith.muli %id, %c256 : i64
    %ub = pto.castptr %at : i64 -> !pto.ptr<f32, ub>
    %off = arith.muli %k, %c64 : index
    %src = pto.addptr %in, %off : !pto.ptr<f32> -> !pto.ptr<f32>
)";
    text += protocol("get_buf", "id", "PIPE_MTE2");
    text += "    pto.copy_gm_to_ubuf %src, %ub, %z, %one, %len, %z, %z, %z, %z, %z, %z : !pto.ptr<f32>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64, i64, i64\n";
    text += protocol("rls_buf", "id", "PIPE_MTE2");
    text += protocol("get_buf", "id", "PIPE_V");
    text += R"(    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %v = pto.vlds %ub[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %w = pto.vadd %v, %v, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %w, %ub[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      pto.mem_bar "VST_VLD"
      %x = pto.vlds %ub[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %y = pto.vadd %x, %v, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
      pto.vsts %y, %ub[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
    }
)";
    text += protocol("rls_buf", "id", "PIPE_V");
    text += protocol("get_buf", "id", "PIPE_MTE3");
    text += "    %dst = pto.addptr %out, %off : !pto.ptr<f32> -> !pto.ptr<f32>\n";
    text += "    pto.copy_ubuf_to_gm %ub, %dst, %z, %one, %len, %z, %z, %z : !pto.ptr<f32, ub>, !pto.ptr<f32>, i64, i64, i64, i64, i64, i64\n";
    text += protocol("rls_buf", "id", "PIPE_MTE3");
    text += "  }\n  return\n}\n";
    return text;
}

TEST(BufferSync, DoubleBufferedKernelRunsInBothSpellings)
{
    for (const bool pipe_first : {true, false}) {
        const std::string text = double_buffered(pipe_first);
        const ParseResult parsed = parse_ok(text);
        ASSERT_TRUE(verify(parsed.module, profile::Target::A5).empty()) << text;
        std::vector<float> in = random_vector<float>(128, 3, -4, 4), out(128, -7.0f);
        const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], in[i] * 3.0f) << i;  // (x + x) + x, exact for these values
        // Printed back as written, and stable when printed again.
        const std::string printed = print(parsed.module);
        EXPECT_NE(printed.find(pipe_first ? "pto.get_buf \"PIPE_MTE2\", %id, %mode" : "pto.get_buf %id, \"PIPE_MTE2\", %mode"), std::string::npos)
            << printed;
        EXPECT_EQ(print(parse_ok(printed).module), printed);
    }
}

TEST(BufferSync, BrokenProtocolsGetStableCodes)
{
    const std::string head = R"(func.func @k() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i64
  %neg = arith.constant -1 : i64
  %f = arith.constant 1.0 : f32
)";
    const std::pair<std::string, std::string> static_cases[] = {
        {"pto.mem_bar \"VST_VST\"", "LEGAL_MEM_BAR_TYPE"},
        {"pto.mem_bar", "LEGAL_MEM_BAR_TYPE"},
        {"pto.get_buf \"PIPE_ALL\", %c0, %c0 : i64, i64", "STRUCT_ATTRIBUTE_VALUE"},
        {"pto.rls_buf \"PIPE_NONE\", %c0, %c0 : i64, i64", "STRUCT_ATTRIBUTE_VALUE"},
        {"pto.get_buf \"PIPE_V\", %f, %c0 : f32, i64", "STRUCT_OPERAND_KIND"},
        {"pto.get_buf \"PIPE_V\", %c0 : i64", "STRUCT_OPERAND_COUNT"},
    };
    for (const auto& [line, code] : static_cases) EXPECT_EQ(first_static_code(head + "  " + line + "\n  return\n}\n"), code) << line;
    const std::pair<std::string, std::string> run_cases[] = {
        {"pto.get_buf \"PIPE_V\", %c1, %c0 : i64, i64\n  pto.get_buf \"PIPE_V\", %c1, %c0 : i64, i64", "RUN_BUF_PROTOCOL"},
        {"pto.rls_buf \"PIPE_MTE2\", %c0, %c0 : i64, i64", "RUN_BUF_PROTOCOL"},
        // a slot held by one pipe is not released by another
        {"pto.get_buf \"PIPE_MTE2\", %c0, %c0 : i64, i64\n  pto.rls_buf \"PIPE_V\", %c0, %c0 : i64, i64", "RUN_BUF_PROTOCOL"},
        {"pto.get_buf \"PIPE_V\", %c32, %c0 : i64, i64", "RUN_BUF_ID"},
        {"pto.rls_buf %neg, \"PIPE_V\", %c0 : i64, i64", "RUN_BUF_ID"},
    };
    for (const auto& [line, code] : run_cases) EXPECT_EQ(first_run_code(head + "  " + line + "\n  return\n}\n"), code) << line;
    // Acquire, release, acquire again: the protocol's own loop is fine.
    EXPECT_EQ(first_run_code(head + "  pto.get_buf \"PIPE_V\", %c1, %c0 : i64, i64\n  pto.rls_buf \"PIPE_V\", %c1, %c0 : i64, i64\n"
                                    "  pto.get_buf \"PIPE_V\", %c1, %c0 : i64, i64\n  pto.rls_buf \"PIPE_V\", %c1, %c0 : i64, i64\n  return\n}\n"),
              "none");
}

}  // namespace
}  // namespace pto::as::testing
