// What every test suite needs around the runtime: scoped mode and target switches, and catching a
// diagnostic to look at it.
#pragma once

#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/schedule.hpp>

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
inline bool mentions(const Diagnostic& d, const std::string& text)
{
    return d.message.find(text) != std::string::npos || d.expected.find(text) != std::string::npos ||
           d.actual.find(text) != std::string::npos;
}

}  // namespace pto::test
