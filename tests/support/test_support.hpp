// What every test suite needs around the runtime: scoped mode and target switches, and catching a
// diagnostic to look at it.
#pragma once

#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/schedule.hpp>

#include <cctype>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace pto::test {

// Checked mode on (or off) for one scope; the previous mode comes back after.
class ScopedChecked {
public:
    explicit ScopedChecked(bool on = true) : previous_(runtime::checked()) { runtime::set_checked(on); }
    ~ScopedChecked() { runtime::set_checked(previous_); }
    ScopedChecked(const ScopedChecked&) = delete;
    ScopedChecked& operator=(const ScopedChecked&) = delete;

private:
    bool previous_;
};

// The schedule (pto/runtime/schedule.hpp) for one scope.
class ScopedSchedule {
public:
    explicit ScopedSchedule(runtime::Schedule s) : previous_(runtime::schedule()) { runtime::set_schedule(s); }
    ~ScopedSchedule() { runtime::set_schedule(previous_); }
    ScopedSchedule(const ScopedSchedule&) = delete;
    ScopedSchedule& operator=(const ScopedSchedule&) = delete;

private:
    runtime::Schedule previous_;
};

// A run-time target for one scope; tests run on the cpu target otherwise.
class ScopedTarget {
public:
    explicit ScopedTarget(profile::Target t) { runtime::set_target(t); }
    ~ScopedTarget() { runtime::set_target(profile::Target::Cpu); }
    ScopedTarget(const ScopedTarget&) = delete;
    ScopedTarget& operator=(const ScopedTarget&) = delete;
};

// Calls fn(std::integral_constant<decltype(V), V>{}) for each V in turn: runs one test body for every
// value of an enum that an intrinsic takes as a template argument.
template <auto... Values, typename Fn>
void for_each_constant(Fn&& fn)
{
    (fn(std::integral_constant<decltype(Values), Values>{}), ...);
}

// The diagnostic f() raised, or one with code "no error".
template <typename F>
Diagnostic diagnostic_of(F&& f)
{
    try {
        f();
    } catch (const SimError& e) {
        return e.diagnostic();
    }
    return {"no error", "", "", "", "", "", ""};
}

// n floats drawn uniformly from [-bound, bound) by a generator seeded with `seed`.
inline std::vector<float> random_floats(std::size_t n, uint32_t seed, float bound = 10.f)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-bound, bound);
    std::vector<float> v(n);
    for (float& x : v) x = dist(gen);
    return v;
}

// Whether the diagnostic's message, expected or actual text contains `text`.
// `text` without the C++ kernel lines run-time findings name when the test binary has line tables
// (" at order_checker_test.cpp:42", as in a sanitizer build), so that one expectation holds either way.
inline std::string without_source_lines(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t cpp = text.compare(i, 4, " at ") == 0 ? text.find(".cpp:", i + 4) : std::string::npos;
        std::size_t end = cpp + 5;
        while (cpp != std::string::npos && end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
        if (cpp != std::string::npos && end > cpp + 5 && text.find_first_of(" ,()", i + 4) >= cpp) {
            i = end;  // " at file.cpp:42" left out
        } else {
            out += text[i++];
        }
    }
    return out;
}

inline bool mentions(const Diagnostic& d, const std::string& text)
{
    for (const std::string* field : {&d.message, &d.expected, &d.actual})
        if (field->find(text) != std::string::npos || without_source_lines(*field).find(text) != std::string::npos) return true;
    return false;
}

}  // namespace pto::test
