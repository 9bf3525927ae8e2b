// What the public library's CPU simulation (`-D__CPU_SIM`) adds to a kernel's translation unit: the
// host runtime (acl), the execution context a harness that drives its own threads sets, its hooks and
// task cookie, and the (empty) instruction trace.
#pragma once

#include <cstdint>

#include <acl/acl.h>
#include <pto/common/kernel.hpp>
#include <pto/common/type.hpp>
#include <pto/cpu/trace.hpp>
#include <pto/runtime/memory.hpp>

// On the CPU an aclFloat16 is a half, which converts to float directly.
#define aclFloat16ToFloat(x) (static_cast<float>(x))

namespace pto::cpu_sim {

// Makes the calling thread run as block `block_idx`, sub-block `subblock_id` of `subblock_dim`.
inline void set_execution_context(uint32_t block_idx, uint32_t subblock_id, uint32_t subblock_dim = 1)
{
    runtime::set_execution_context(block_idx, subblock_id, subblock_dim);
}
// Block 0, sub-block 0 of 1, task cookie 0.
inline void reset_execution_context()
{
    runtime::set_execution_context(0, 0, 1);
    runtime::set_task_cookie(0);
}

// The calling thread's task cookie, which get_task_cookie() returns (no ptosim instruction reads it).
inline void set_task_cookie(uint64_t task_cookie) { runtime::set_task_cookie(task_cookie); }

// A harness's hooks, for every thread: `get_subblock_id` (uint32_t (*)()) answers get_subblockid() and
// the sub-block every instruction sees (TMOV's split modes) until nullptr replaces it;
// `get_pipe_shared_state` is accepted and unused: ptosim keeps the TPUSH/TPOP pipes' state itself (per
// task cookie and block, pto/engine/ops/tile_pipe.hpp).
inline void register_hooks(void* get_subblock_id, void* get_pipe_shared_state)
{
    (void)get_pipe_shared_state;
    runtime::set_subblock_hook(reinterpret_cast<uint32_t (*)()>(get_subblock_id));
}

// set_execution_context for a scope; the previous context comes back at its end.
class ScopedExecutionContext {
public:
    ScopedExecutionContext(uint32_t block_idx, uint32_t subblock_id, uint32_t subblock_dim = 1)
        : block_(runtime::block_idx()), subblock_(runtime::subblock_idx()), subblocks_(runtime::subblock_num())
    {
        set_execution_context(block_idx, subblock_id, subblock_dim);
    }
    ~ScopedExecutionContext() { set_execution_context(block_, subblock_, subblocks_); }
    ScopedExecutionContext(const ScopedExecutionContext&) = delete;
    ScopedExecutionContext& operator=(const ScopedExecutionContext&) = delete;

private:
    uint32_t block_, subblock_, subblocks_;
};

}  // namespace pto::cpu_sim
