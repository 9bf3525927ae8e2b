// The launch of a kernel over several blocks: the blocks run at once on a persistent pool of threads,
// each on its own simulated core, and a kernel without races between its blocks gives the same bytes
// whatever the number of threads.
#pragma once

#include <cstdint>

namespace pto::runtime {

// Runs body(ctx, b) for every block b in [0, blocks), each on a fresh core (fresh memories, poisoned
// in checked mode) with block_idx() = b and block_num() = blocks, and with the launching thread's
// target selection, execution context and task cookie. Blocks run on launch_threads() threads, the
// calling thread among them; a launch from inside a block, or while another thread's launch holds the
// pool, runs its blocks one after another on the calling thread. If blocks fail, the failure of the
// lowest-numbered failing block is rethrown here, as a serial run would throw it; blocks after it may
// not run. Synchronisation records reach the log in block order.
void launch(uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx);

// Threads a launch runs its blocks on: set_launch_threads(n), else PTO_THREADS in the environment
// (a positive integer, else RUN_LAUNCH_THREADS), else every core of the machine.
unsigned launch_threads();
// n = 0 returns to PTO_THREADS or every core. Not to be called while a launch runs.
void set_launch_threads(unsigned n);

}  // namespace pto::runtime
