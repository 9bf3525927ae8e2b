// Compiling a test file of illegal intrinsic calls, for the tests that the static_asserts stop them:
// the compiler (CXX, or c++) checks the file's syntax for one PTO_TARGET against the project's headers,
// and the test reads what it reported.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pto::test {

struct CompileResult {
    int status;
    std::string output;  // the compiler's messages
};

// `file` is relative to the tests folder. Empty when there is no compiler to run.
inline std::optional<CompileResult> compile_for_target(const std::string& target, const std::string& file)
{
    const auto run = [](const std::string& command) {
        CompileResult result{-1, ""};
        std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
        if (!pipe) return result;
        std::array<char, 4096> chunk;
        while (std::fgets(chunk.data(), chunk.size(), pipe.get())) result.output += chunk.data();
        result.status = pclose(pipe.release());
        return result;
    };
    const char* cxx = std::getenv("CXX");
    const std::string compiler = cxx && *cxx ? cxx : "c++";
    if (run(compiler + " --version").status != 0) return std::nullopt;
    const std::string dir = PTOSIM_TEST_DATA_DIR;
    return run(compiler + " -std=c++20 -fsyntax-only -DPTO_TARGET=" + target + " -I" + dir + "/../include " + dir + "/" +
               file);
}

// How many times `what` occurs in `text`.
inline int occurrences(const std::string& text, const std::string& what)
{
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Compiles `folder`/compile_fail/illegal_<target>.cpp for `target` and expects exactly `rules`: each code
// reported that many times as a static assertion, and no other error.
inline void expect_static_rules(const std::string& folder, const std::string& target,
                                const std::vector<std::pair<std::string, int>>& rules)
{
    const auto compiled = compile_for_target(target, folder + "/compile_fail/illegal_" + target + ".cpp");
    if (!compiled) GTEST_SKIP() << "no C++ compiler to run";
    EXPECT_NE(compiled->status, 0);
    int errors = 0;
    for (const auto& [rule, n] : rules) {
        EXPECT_EQ(occurrences(compiled->output, "error: static assertion failed: " + rule + ":"), n) << rule << "\n" << compiled->output;
        errors += n;
    }
    EXPECT_EQ(occurrences(compiled->output, "error:"), errors) << compiled->output;
}

}  // namespace pto::test
