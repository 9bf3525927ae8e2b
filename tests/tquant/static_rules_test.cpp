// The intrinsics stop illegal TQUANTs at compile time, each at the static_assert naming its rule: the
// compiler (CXX, or c++) compiles compile_fail/illegal_<target>.cpp for its target and must report
// exactly the broken rules, one per illegal call, and nothing about the legal one.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

struct CommandResult {
    int status;
    std::string output;
};

CommandResult run(const std::string& command)
{
    CommandResult result{-1, ""};
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
    if (!pipe) return result;
    std::array<char, 4096> chunk;
    while (std::fgets(chunk.data(), chunk.size(), pipe.get())) result.output += chunk.data();
    result.status = pclose(pipe.release());
    return result;
}

int count(const std::string& text, const std::string& what)
{
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

void expect_rules(const std::string& target, const std::vector<std::pair<std::string, int>>& rules)
{
    const char* cxx = std::getenv("CXX");
    const std::string compiler = cxx && *cxx ? cxx : "c++";
    if (run(compiler + " --version").status != 0) GTEST_SKIP() << "no C++ compiler to run: " << compiler;
    const std::string dir = PTOSIM_TEST_DATA_DIR;
    const CommandResult compiled = run(compiler + " -std=c++20 -fsyntax-only -DPTO_TARGET=" + target + " -I" + dir +
                                       "/../include " + dir + "/tquant/compile_fail/illegal_" + target + ".cpp");
    EXPECT_NE(compiled.status, 0);
    int errors = 0;
    for (const auto& [rule, n] : rules) {
        EXPECT_EQ(count(compiled.output, "error: static assertion failed: " + rule + ":"), n) << rule << "\n" << compiled.output;
        errors += n;
    }
    EXPECT_EQ(count(compiled.output, "error:"), errors) << compiled.output;
}

TEST(TquantStaticRules, OnA2A3MxAndTheFormWithoutTmpAndASmallTmpStop) { expect_rules("a2a3", {{"LEGAL_TQUANT_FORM", 2}, {"LEGAL_TQUANT_TMP", 1}}); }

TEST(TquantStaticRules, OnA5Mxfp4FromFloatDnRowsAndTheZzFormStop)
{
    expect_rules("a5", {{"LEGAL_TQUANT_DTYPE", 1}, {"LEGAL_TQUANT_SHAPE", 1}, {"LEGAL_TQUANT_FORM", 1}});
}

}  // namespace
