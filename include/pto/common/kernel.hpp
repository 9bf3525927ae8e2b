// Kernel-side runtime queries and the launch of a kernel over several blocks.
#pragma once

#include <cstdint>
#include <utility>

#include <pto/runtime/launch.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/schedule.hpp>

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

// Runs a mixed kernel over `blocks` blocks, as the device runs one: on each block's cube core
// `cube_kernel(args...)`, on each of its vector cores `vector_kernel(args...)` (get_subblockid() 0 and
// 1), all at once, each core with its own memories; TPUSH/TPOP pipes and SYNCALL connect them. A
// kernel written as one function passes it twice and asks is_cube_core() / is_vector_core() where
// the device's code tests __DAV_CUBE__ / __DAV_VEC__.
template <typename CubeKernel, typename VectorKernel, typename... Args>
void launch_mixed(uint32_t blocks, CubeKernel&& cube_kernel, VectorKernel&& vector_kernel, Args&&... args)
{
    auto call = [&](uint32_t) {
        if (runtime::core_kind() == runtime::CoreKind::Cube) {
            cube_kernel(args...);
        } else {
            vector_kernel(args...);
        }
    };
    using Call = decltype(call);
    runtime::launch_mixed(blocks, [](void* ctx, uint32_t block) { (*static_cast<Call*>(ctx))(block); }, &call);
}

// Whether the calling code runs on a cube core, or on a vector core. A block of a plain launch (and
// code outside launches) runs on a core that is both, as the CPU simulation defines both macros.
inline bool is_cube_core() { return runtime::core_kind() != runtime::CoreKind::Vector; }
inline bool is_vector_core() { return runtime::core_kind() != runtime::CoreKind::Cube; }

// The threads launch() runs blocks on: set_threads(n), else PTO_THREADS, else every core (0 resets).
inline unsigned threads() { return runtime::launch_threads(); }
inline void set_threads(unsigned n) { runtime::set_launch_threads(n); }

// The order each core runs its pipes' work in (pto/runtime/schedule.hpp): set_schedule(s), else
// PTO_SCHEDULE (program or adversarial).
inline runtime::Schedule schedule() { return runtime::schedule(); }
inline void set_schedule(runtime::Schedule s) { runtime::set_schedule(s); }

}  // namespace pto::sim
