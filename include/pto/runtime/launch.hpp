// The launch of a kernel over several blocks: the cores of every block run at once on a persistent
// pool of threads, each on its own simulated core, and a kernel without races between its cores gives
// the same bytes whatever the number of threads.
#pragma once

#include <cstdint>

namespace pto::runtime {

// The core a kernel runs on. A plain launch runs each block on one unified core, which has every
// memory and pipe of the target; a mixed launch runs each block on a cube core and its vector cores.
enum class CoreKind : uint8_t { Unified, Cube, Vector };
// The calling thread's (Unified outside launches).
CoreKind core_kind();

// Runs body(ctx, b) for every block b in [0, blocks), each on a fresh core (fresh memories, poisoned
// in checked mode) with block_idx() = b and block_num() = blocks, and with the launching thread's
// target selection, execution context and task cookie. Cores run on launch_threads() threads, the
// calling thread among them; a core that waits for another (a tile FIFO, a barrier) lends its thread
// to the next one, and a launch whose cores all wait for one another fails with ORDER_DEADLOCK. A
// launch from inside a block, or while another thread's launch holds the pool, runs its cores on the
// calling thread (and on more threads only while some wait). If blocks fail, the failure of the
// lowest-numbered failing block is rethrown here, as a serial run would throw it; blocks after it may
// not run. Synchronisation records reach the log in block order.
void launch(uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx);

// The same for a mixed (cube and vector) kernel: body runs on every core of each block, the cube core
// (core_kind() Cube, sub-block 0 of 1) and vector_cores_per_block() vector cores (core_kind() Vector,
// get_subblockid() 0, 1, ... of that many), all at once.
void launch_mixed(uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx);
// Vector cores beside each cube core: 2 on every target (a2a3, a5 and the cpu profile).
uint32_t vector_cores_per_block();

// Threads a launch runs its cores on: set_launch_threads(n), else PTO_THREADS in the environment
// (a positive integer, else RUN_LAUNCH_THREADS), else every core of the machine.
unsigned launch_threads();
// n = 0 returns to PTO_THREADS or every core. Not to be called while a launch runs.
void set_launch_threads(unsigned n);

}  // namespace pto::runtime
