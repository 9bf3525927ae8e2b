// One block of a launch on whichever thread runs it: its own fresh core, its index and count, and
// what the launching thread had chosen for itself, so that a block on a pool thread runs exactly as it
// would on the launching thread.
#pragma once

#include <cstdint>
#include <memory>

#include <pto/runtime/launch.hpp>

namespace pto::runtime {

// One simulated core of a launch.
struct CoreSpec {
    uint32_t block;
    CoreKind kind;
    uint32_t subblock, subblocks;  // a vector core's sub-block; for a unified core, the launching thread's
};

struct Core;

// What a block inherits from the thread that launched it.
struct LaunchOrigin {
    int selected_target;  // select_thread_target(), or -1
    uint32_t subblock_idx, subblock_num;
    uint64_t task_cookie;
};
// The calling thread's, for the blocks it launches.
LaunchOrigin launch_origin();

// True while the calling thread runs a block (a launch from there runs its blocks in place).
bool inside_block();

// Makes the calling thread run `core` of a launch of `blocks` blocks on a fresh core with `origin`'s
// choices until its end, when the thread's previous state comes back.
class BlockScope {
public:
    BlockScope(const LaunchOrigin& origin, const CoreSpec& core, uint32_t blocks);
    ~BlockScope();
    BlockScope(const BlockScope&) = delete;
    BlockScope& operator=(const BlockScope&) = delete;

private:
    void restore();

    std::unique_ptr<Core> core_;
    Core* outer_core_;
    LaunchOrigin outer_;
    uint32_t outer_block_, outer_blocks_;
    CoreKind outer_kind_;
};

}  // namespace pto::runtime
