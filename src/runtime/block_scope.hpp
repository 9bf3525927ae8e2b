// One block of a launch on whichever thread runs it: its own fresh core, its index and count, and
// what the launching thread had chosen for itself, so that a block on a pool thread runs exactly as it
// would on the launching thread.
#pragma once

#include <cstdint>
#include <memory>

namespace pto::runtime {

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

// Makes the calling thread run block `block` of `blocks` on a fresh core with `origin`'s choices until
// its end, when the thread's previous state comes back.
class BlockScope {
public:
    BlockScope(const LaunchOrigin& origin, uint32_t block, uint32_t blocks);
    ~BlockScope();
    BlockScope(const BlockScope&) = delete;
    BlockScope& operator=(const BlockScope&) = delete;

private:
    void restore();

    std::unique_ptr<Core> core_;
    Core* outer_core_;
    LaunchOrigin outer_;
    uint32_t outer_block_, outer_blocks_;
};

}  // namespace pto::runtime
