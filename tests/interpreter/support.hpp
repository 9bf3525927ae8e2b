// Helpers of the interpreter tests: parse a program, bind host vectors, run, and random inputs.
#pragma once

#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include <pto/common/event.hpp>
#include <pto/runtime/sync.hpp>

namespace pto::as::testing {

inline std::string read_text(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// PTO_AS examples live beside the tests' source tree.
inline std::string example_path(const std::string& name) { return std::string(PTOSIM_TEST_DATA_DIR) + "/../examples/pto/" + name; }

inline ParseResult parse_ok(const std::string& text, const std::string& file = "test.pto")
{
    ParseResult r = parse(text, file);
    for (const auto& d : r.diagnostics) ADD_FAILURE() << d.format();
    return r;
}

template <typename T>
ArgumentBinding array_arg(const std::string& name, std::vector<T>& data)
{
    ArgumentBinding b;
    b.name = name;
    b.data = reinterpret_cast<std::byte*>(data.data());
    b.bytes = data.size() * sizeof(T);
    return b;
}

inline ArgumentBinding scalar_arg(const std::string& name, double v)
{
    ArgumentBinding b;
    b.name = name;
    b.scalar = v;
    return b;
}

inline RunOptions checked_run(std::string entry = {})
{
    RunOptions o;
    o.entry = std::move(entry);
    o.checked = true;
    return o;
}

inline std::string format_all(const RunResult& r)
{
    std::string out;
    for (const auto& d : r.diagnostics) out += d.format() + "\n";
    return out;
}

template <typename T>
std::vector<T> random_vector(std::size_t n, uint32_t seed, double lo = -100, double hi = 100)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = T(dist(gen));
    return v;
}

// The first code the verifier reports on `text` (a5), or "none".
inline std::string first_static_code(const std::string& text)
{
    const std::vector<pto::Diagnostic> found = verify(parse_ok(text).module, profile::Target::A5);
    return found.empty() ? "none" : found[0].code;
}

// The first code of a checked run of `text`, which the verifier must accept, or "none".
inline std::string first_run_code(const std::string& text, const std::vector<ArgumentBinding>& args = {})
{
    const ParseResult parsed = parse_ok(text);
    for (const auto& d : verify(parsed.module, profile::Target::A5)) ADD_FAILURE() << d.format() << "\n" << text;
    const RunResult r = run(parsed.module, args, checked_run());
    return r.diagnostics.empty() ? "none" : r.diagnostics[0].code;
}

}  // namespace pto::as::testing
