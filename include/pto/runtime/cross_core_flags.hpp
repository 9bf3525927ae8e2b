// The flags between a block's cube core and its vector cores: each is a counter (a semaphore) that a
// set adds one to and a wait takes one from, waiting while it is zero.
//
// a2a3 (`set_cross_core`, `wait_flag_dev`), 16 ids per block: a set by the cube core counts on id for
// both vector cores (broadcast); a set by vector core v counts on id for the cube core from v; a wait
// by vector core v takes one of its own, a wait by the cube core one from each vector core (reduce).
// a5 (`set_intra_block`, `wait_intra_core`), ids 0-31: from the cube core, id names vector core
// id / 16 and its semaphore id % 16; from a vector core, the semaphore id % 16 of the cube core from
// that vector core; a wait takes one from the semaphore the same id names on the waiting side.
// A counter holds at most 15 (RUN_CROSS_CORE_OVERFLOW); an id out of range is RUN_CROSS_CORE_ID; the
// flags connect the cores of a mixed launch, and a unified core using them is RUN_CROSS_CORE_KIND.
#pragma once

#include <cstdint>

namespace pto::runtime {

void set_cross_core(int64_t event_id);
void wait_flag_dev(int64_t event_id);
void set_intra_block(int64_t sem_id);
void wait_intra_core(int64_t sem_id);

}  // namespace pto::runtime
