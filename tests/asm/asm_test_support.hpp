// Helpers shared by the PTO-AS front-end tests.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "asm/ir.hpp"
#include "asm/parser.hpp"
#include "asm/printer.hpp"

namespace pto::as::testing {

// tests/asm/programs: from the build's test data directory when it defines one, else relative to
// this header, so the tests run from any working directory.
inline std::filesystem::path program_directory()
{
#ifdef PTOSIM_TEST_DATA_DIR
    return std::filesystem::path(PTOSIM_TEST_DATA_DIR) / "asm" / "programs";
#else
    return std::filesystem::path(__FILE__).parent_path() / "programs";
#endif
}

inline std::string read_text(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// examples/pto, found the same way.
inline std::filesystem::path example_directory()
{
    return program_directory().parent_path().parent_path().parent_path() / "examples" / "pto";
}

// The .pto files of `directory`, sorted by name.
inline std::vector<std::filesystem::path> programs_in(const std::filesystem::path& directory)
{
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory))
        if (entry.path().extension() == ".pto") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The corpus programs, sorted by name.
inline std::vector<std::filesystem::path> corpus() { return programs_in(program_directory()); }

// The corpus and the example programs.
inline std::vector<std::filesystem::path> corpus_and_examples()
{
    std::vector<std::filesystem::path> files = corpus();
    for (const auto& path : programs_in(example_directory())) files.push_back(path);
    return files;
}

inline std::string diagnostics_text(const std::vector<Diagnostic>& diagnostics)
{
    std::string text;
    for (const Diagnostic& d : diagnostics) text += d.format() + "\n";
    return text;
}

// Parses text that must be free of errors; a failure names every diagnostic.
inline ParseResult parse_clean(std::string_view text, std::string_view filename = "test.pto")
{
    ParseResult result = parse(text, filename);
    EXPECT_TRUE(result.ok()) << diagnostics_text(result.diagnostics) << "in:\n" << text;
    return result;
}

// Wraps operation lines in a function with the given arguments.
inline std::string in_function(std::string_view body, std::string_view arguments = "")
{
    return "func.func @f(" + std::string(arguments) + ") {\n" + std::string(body) + "\n  return\n}\n";
}

// The operations of the first function's entry block.
inline const std::vector<std::unique_ptr<Operation>>& body_of(const Module& module)
{
    static const std::vector<std::unique_ptr<Operation>> kEmpty;
    if (module.functions.empty() || !module.functions.front()->entry_block()) return kEmpty;
    return module.functions.front()->entry_block()->operations;
}

inline std::vector<std::string> codes_of(const ParseResult& result)
{
    std::vector<std::string> codes;
    for (const Diagnostic& d : result.diagnostics) codes.push_back(d.code);
    return codes;
}

}  // namespace pto::as::testing
