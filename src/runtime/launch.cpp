// The launch of a kernel over several blocks on a pool of threads, failing as a serial run would.
#include <pto/runtime/launch.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "runtime/adversarial_schedule.hpp"
#include "runtime/block_scope.hpp"
#include "runtime/order_checker.hpp"
#include "runtime/scheduler.hpp"
#include "runtime/sync_capture.hpp"
#include "runtime/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
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

namespace {

// Runs `cores` (in block order) and fails as a serial run of the blocks would.
void run_cores(std::vector<CoreSpec> cores, uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx)
{
    (void)checked();  // read PTO_CHECK once, here, rather than in every core at once
    const LaunchOrigin origin = launch_origin();
    const size_t count = cores.size();
    std::vector<std::vector<SyncRecord>> records(count);
    std::vector<order::GlobalFootprint> footprints(count);  // checked mode: the global bytes of each core
    std::vector<std::exception_ptr> failures(count);

    const unsigned threads = static_cast<unsigned>(std::min<size_t>(launch_threads(), count));
    std::unique_lock pool_lock(g_pool_mutex, std::defer_lock);
    // A launch nested in a block, or one while another thread's launch holds the pool, runs in place.
    const bool use_pool = threads > 1 && !inside_block() && pool_lock.try_lock();

    std::unique_ptr<Scheduler> scheduler;
    scheduler = std::make_unique<Scheduler>(std::move(cores), use_pool ? threads : 1, [&](uint32_t i) {
        const CoreSpec& core = scheduler->cores()[i];
        try {
            BlockScope scope(origin, core, blocks);
            SyncCapture capture(records[i]);
            order::BlockCheck check;
            adversary::CoreScope schedule;
            body(ctx, core.block);
            schedule.finish();
            footprints[i] = check.finish();
        } catch (const Scheduler::CoreAbandoned&) {
            // Its launch failed or deadlocked elsewhere: that is what is reported.
        } catch (...) {
            failures[i] = std::current_exception();
            scheduler->core_failed(i);
        }
    });
    if (use_pool) {
        pool_of(launch_threads() - 1).run([&] { scheduler->carry(); });
    } else {
        scheduler->carry();
    }
    scheduler->wait_until_done();

    // Cores are started in order, so every core before the first failing one ran to its end (or
    // failed, and then the lowest failure is reported) and the records of those up to it are complete.
    const auto& all = scheduler->cores();
    const auto failed = std::find_if(failures.begin(), failures.end(), [](const auto& f) { return f != nullptr; });
    const uint32_t last_block = failed == failures.end() ? blocks - 1 : all[failed - failures.begin()].block;
    for (size_t i = 0; i < count && all[i].block <= last_block; ++i) append_sync_records(records[i]);
    if (failed != failures.end()) std::rethrow_exception(*failed);
    if (scheduler->deadlock()) std::rethrow_exception(scheduler->deadlock());
    if (checked()) scheduler->check_objects_at_end();
    order::check_cross_core(footprints);
}

}  // namespace

void launch(uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx)
{
    if (blocks == 0) return;
    const LaunchOrigin origin = launch_origin();
    std::vector<CoreSpec> cores;
    cores.reserve(blocks);
    for (uint32_t b = 0; b < blocks; ++b) cores.push_back({b, CoreKind::Unified, origin.subblock_idx, origin.subblock_num});
    run_cores(std::move(cores), blocks, body, ctx);
}

uint32_t vector_cores_per_block() { return 2; }

void launch_mixed(uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx)
{
    if (blocks == 0) return;
    const uint32_t vectors = vector_cores_per_block();
    std::vector<CoreSpec> cores;
    cores.reserve(size_t(blocks) * (1 + vectors));
    for (uint32_t b = 0; b < blocks; ++b) {
        cores.push_back({b, CoreKind::Cube, 0, 1});
        for (uint32_t v = 0; v < vectors; ++v) cores.push_back({b, CoreKind::Vector, v, vectors});
    }
    run_cores(std::move(cores), blocks, body, ctx);
}

}  // namespace pto::runtime
