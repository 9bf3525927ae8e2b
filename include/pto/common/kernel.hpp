// Kernel-side runtime queries and the launch of a kernel over several blocks.
#pragma once

#include <cstdint>
#include <utility>

#include <pto/runtime/launch.hpp>
#include <pto/runtime/memory.hpp>

inline int64_t get_block_idx() { return pto::runtime::block_idx(); }
inline int64_t get_block_num() { return pto::runtime::block_num(); }
inline int64_t get_subblockid() { return pto::runtime::subblock_idx(); }
inline int64_t get_subblockdim() { return pto::runtime::subblock_num(); }
// The value the harness set with pto::cpu_sim::set_task_cookie for the calling thread.
inline uint64_t get_task_cookie() { return pto::runtime::task_cookie(); }

namespace pto::sim {

// Runs `kernel(args...)` once per block, as `kernel<<<blocks, ...>>>(args...)` does on the device:
// each block gets its own core (fresh on-chip memories) and get_block_idx() returns its index. The
// blocks run at once on threads(); the failure of the lowest-numbered failing block is rethrown here.
template <typename Kernel, typename... Args>
void launch(uint32_t blocks, Kernel&& kernel, Args&&... args)
{
    auto call = [&](uint32_t) { kernel(args...); };
    using Call = decltype(call);
    runtime::launch(blocks, [](void* ctx, uint32_t block) { (*static_cast<Call*>(ctx))(block); }, &call);
}

// The threads launch() runs blocks on: set_threads(n), else PTO_THREADS, else every core (0 resets).
inline unsigned threads() { return runtime::launch_threads(); }
inline void set_threads(unsigned n) { runtime::set_launch_threads(n); }

}  // namespace pto::sim
