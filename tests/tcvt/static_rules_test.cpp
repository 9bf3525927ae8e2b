// The intrinsics stop illegal TCVTs at compile time, each at the static_assert naming its rule: the
// compiler (CXX, or c++) compiles compile_fail/illegal_calls.cpp for a2a3 and must report exactly the
// four broken rules, one per illegal call, and nothing about the legal one.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

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

}  // namespace

TEST(TcvtStaticRules, EachIllegalCallStopsAtItsRulesStaticAssert)
{
    const char* cxx = std::getenv("CXX");
    const std::string compiler = cxx && *cxx ? cxx : "c++";
    if (run(compiler + " --version").status != 0) GTEST_SKIP() << "no C++ compiler to run: " << compiler;
    const std::string dir = PTOSIM_TEST_DATA_DIR;
    const CommandResult compiled = run(compiler + " -std=c++20 -fsyntax-only -DPTO_TARGET=a2a3 -I" + dir + "/../include " + dir +
                             "/tcvt/compile_fail/illegal_calls.cpp");
    EXPECT_NE(compiled.status, 0);
    for (const char* rule : {"LEGAL_TCVT_PAIR:", "LEGAL_TCVT_LOCATION:", "LEGAL_TCVT_LAYOUT:", "RUN_VALID_SHAPE:"}) {
        EXPECT_EQ(count(compiled.output, rule), 1) << rule << "\n" << compiled.output;
    }
    EXPECT_EQ(count(compiled.output, "error:"), 4) << compiled.output;
}
