// The launch thread count of the launch tests: a scope that sets it, and "many" threads.
#pragma once

#include <pto/common/kernel.hpp>

#include <algorithm>
#include <thread>

namespace pto::launch_testing {

// The launch thread count for one scope; the default (PTO_THREADS or every core) comes back after.
class ScopedThreads {
public:
    explicit ScopedThreads(unsigned n) { sim::set_threads(n); }
    ~ScopedThreads() { sim::set_threads(0); }
    ScopedThreads(const ScopedThreads&) = delete;
    ScopedThreads& operator=(const ScopedThreads&) = delete;
};

// Every core, and at least two threads, so that blocks run at once even on a one-core machine.
inline unsigned many_threads() { return std::max(2u, std::thread::hardware_concurrency()); }

}  // namespace pto::launch_testing
