// The read-modify-writes of global memory that the device makes atomically: TSTORE's AtomicAdd (plain
// and quantizing), MSCATTER's add, max and min, the fixpipe's atomic modes. The blocks of a launch run
// on several threads (README, "Concurrency: how a launch runs"), so two blocks adding to the same bytes
// would lose an update if each read and wrote on its own: an instruction makes its atomic
// read-modify-writes while it holds this lock, one instruction at a time across the process.
#pragma once

#include <mutex>

namespace pto::engine {

[[nodiscard]] std::unique_lock<std::mutex> lock_global_atomics();

}  // namespace pto::engine
