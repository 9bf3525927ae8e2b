// The launch of a kernel over several blocks on a pool of threads, failing as a serial run would.
#include <pto/runtime/launch.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "runtime/block_scope.hpp"
#include "runtime/order_checker.hpp"
#include "runtime/sync_capture.hpp"
#include "runtime/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pto::runtime {

namespace {

std::atomic<unsigned> g_threads_set{0};  // set_launch_threads(); 0: none

// PTO_THREADS, or 0 when unset.
unsigned threads_from_environment()
{
    const char* env = std::getenv("PTO_THREADS");
    if (!env || !env[0]) return 0;
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (*end != '\0' || n < 1 || n > 4096)
        fail({"RUN_LAUNCH_THREADS", "", "", "PTO_THREADS is the number of threads a launch runs its blocks on",
              "an integer from 1 to 4096", std::string(env), ""});
    return static_cast<unsigned>(n);
}

// The pool's workers are the threads of a launch besides the launching one. Never destroyed: a pool
// thread must not be joined during exit while it may still be parked in its wait.
std::mutex g_pool_mutex;  // held by the launch using the pool
ThreadPool* g_pool = nullptr;

ThreadPool& pool_of(unsigned workers)
{
    if (!g_pool || g_pool->workers() != workers) {
        delete g_pool;
        g_pool = new ThreadPool(workers);
    }
    return *g_pool;
}

}  // namespace

unsigned launch_threads()
{
    if (const unsigned set = g_threads_set.load(std::memory_order_relaxed)) return set;
    static const unsigned from_environment = threads_from_environment();
    if (from_environment) return from_environment;
    return std::max(1u, std::thread::hardware_concurrency());
}

void set_launch_threads(unsigned n) { g_threads_set.store(n, std::memory_order_relaxed); }

void launch(uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx)
{
    if (blocks == 0) return;
    (void)checked();  // read PTO_CHECK once, here, rather than in every block at once
    const LaunchOrigin origin = launch_origin();

    constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
    std::vector<std::vector<SyncRecord>> records(blocks);
    std::vector<order::GlobalFootprint> footprints(blocks);  // checked mode: the global bytes of each block
    std::atomic<uint32_t> next{0};
    std::atomic<uint32_t> first_failed{kNone};
    std::exception_ptr failure;
    std::mutex failure_mutex;

    // Blocks are taken in increasing order, so once block f failed every block before it has started:
    // they run to the end (one of them may fail too, and then its failure is the one reported), and the
    // blocks after it are skipped.
    const auto run_blocks = [&] {
        for (uint32_t b; (b = next.fetch_add(1, std::memory_order_relaxed)) < blocks;) {
            if (b > first_failed.load(std::memory_order_relaxed)) return;
            try {
                BlockScope scope(origin, b, blocks);
                SyncCapture capture(records[b]);
                order::BlockCheck check;
                body(ctx, b);
                footprints[b] = check.finish();
            } catch (...) {
                std::lock_guard lock(failure_mutex);
                if (b < first_failed.load(std::memory_order_relaxed)) {
                    first_failed.store(b, std::memory_order_relaxed);
                    failure = std::current_exception();
                }
            }
        }
    };

    const unsigned threads = std::min<unsigned>(launch_threads(), blocks);
    std::unique_lock pool_lock(g_pool_mutex, std::defer_lock);
    // A launch nested in a block, or one while another thread's launch holds the pool, runs in place.
    if (threads > 1 && !inside_block() && pool_lock.try_lock()) {
        pool_of(launch_threads() - 1).run(run_blocks);
    } else {
        run_blocks();
    }

    const uint32_t last = std::min(blocks - 1, first_failed.load());
    for (uint32_t b = 0; b <= last; ++b) append_sync_records(records[b]);
    if (failure) std::rethrow_exception(failure);
    order::check_cross_core(footprints);
}

}  // namespace pto::runtime
