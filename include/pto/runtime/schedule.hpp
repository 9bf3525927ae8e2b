// The order in which a core runs the work of its pipes.
//
// Program (the default): every instruction runs when it is issued, so a kernel whose flags are missing
// still computes what it means; checked mode reports the missing flags (ORDER_*).
// Adversarial: the device's freedom used against the kernel. Each tile instruction is held back and
// runs as late as its pipe's order and the flags, events and barriers issued before it allow, and
// among the instructions free to run the one issued last runs first. A kernel whose synchronisation is
// complete computes the same bytes either way; one with a missing flag computes the wrong answer the
// device could compute. Chosen by PTO_SCHEDULE=adversarial in the environment or set_schedule().
#pragma once

#include <cstdint>

namespace pto::runtime {

enum class Schedule : uint8_t { Program, Adversarial };

Schedule schedule();
void set_schedule(Schedule s);

namespace detail {
extern thread_local bool t_held_back_work;
void run_held_back_work();
}  // namespace detail

// Before the kernel's own code touches simulated memory (a tile's GetValue or SetValue), the work the
// adversarial schedule holds back runs. Inline: one thread-local test otherwise.
inline void settle_held_back_work()
{
    if (detail::t_held_back_work) [[unlikely]]
        detail::run_held_back_work();
}

}  // namespace pto::runtime
