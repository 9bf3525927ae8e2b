// The memcpy yardstick of the kernel benchmarks: the kernel timed over the state's iterations, then as
// many memcpy calls, both in CPU time of the thread (thread_clock.hpp), so that the ratio holds on a
// machine other processes share.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "thread_clock.hpp"

// Times `run`, then memcpy of `copy_bytes` from one buffer to another (which reads and writes twice as
// many bytes); reports ratio_vs_memcpy (below 1: faster than memcpy) and `bytes_per_call` as the bytes
// processed. Returns the seconds one call of `run` took.
template <typename Fn>
double time_against_memcpy(benchmark::State& state, std::size_t copy_bytes, std::size_t bytes_per_call, Fn&& run)
{
    const double start = thread_seconds();
    for (auto _ : state) {
        run();
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double ours = (thread_seconds() - start) / static_cast<double>(calls);

    // Both buffers in one page-aligned block, `to` whole pages after `from`, as tiles lie in UB. Two heap
    // blocks put `to` 16 bytes past a page multiple after `from`, where glibc's memcpy (rep movsb) runs
    // about 15 times slower on AMD Zen 3, and with it every ratio.
    constexpr std::size_t kPage = 4096;
    const std::size_t distance = (copy_bytes + kPage - 1) / kPage * kPage;
    std::vector<std::byte> block(2 * distance + kPage);
    std::byte* from = block.data() + (kPage - reinterpret_cast<uintptr_t>(block.data()) % kPage) % kPage;
    std::byte* to = from + distance;
    const double copy_start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        std::memcpy(to, from, copy_bytes);
        benchmark::ClobberMemory();
    }
    const double copy = (thread_seconds() - copy_start) / static_cast<double>(calls);

    state.SetBytesProcessed(calls * static_cast<int64_t>(bytes_per_call));
    state.counters["ratio_vs_memcpy"] = ours / copy;
    return ours;
}
