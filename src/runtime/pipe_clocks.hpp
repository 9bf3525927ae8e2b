// What each pipe of a core knows the other pipes to have finished: the device runs each pipe in order
// and the pipes at once, and only flags, events and PIPE_ALL barriers carry one pipe's progress to
// another. Shared by the run-time synchronisation check and the adversarial schedule.
#pragma once

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>

#include <pto/engine/pipes.hpp>
#include <pto/runtime/sync.hpp>

namespace pto::runtime {

// Clock[p]: how many operations of pipe p are known to have finished.
using PipeClock = std::array<uint32_t, engine::kPipeCount>;

// A flag or event: its pipes and id, or the C++ Event object that stands for it.
struct FlagKey {
    int32_t src, dst, event;
    const void* object;  // a C++ Event's token, or null
    auto operator<=>(const FlagKey&) const = default;
};

// The flag a set or wait record names; none for other records or pipes outside the table.
inline bool flag_of(const SyncRecord& r, FlagKey& key)
{
    const int32_t pipes = int32_t(engine::kPipeCount);
    if (r.src_pipe < 0 || r.dst_pipe < 0 || r.src_pipe >= pipes || r.dst_pipe >= pipes) return false;
    const bool is_event = r.event_object != nullptr;
    key = {r.src_pipe, r.dst_pipe, is_event ? -1 : r.event_id, r.event_object};
    return true;
}

struct PipeClocks {
    PipeClock issued{};                                  // operations issued to each pipe
    std::array<PipeClock, engine::kPipeCount> known{};  // known[q]: what pipe q knows to have finished

    // The number of the next operation of `pipe`, from 1.
    uint32_t issue(std::size_t pipe) { return ++issued[pipe]; }
    // A PIPE_ALL barrier: every pipe knows everything issued before it.
    void barrier_all()
    {
        for (PipeClock& k : known) k = issued;
    }
    // What a set on pipe `src` carries: what it knew, its own operations included.
    PipeClock carried_by_set(std::size_t src) const
    {
        PipeClock c = known[src];
        c[src] = issued[src];
        return c;
    }
    // A wait on pipe `dst` for a set that carried `c`.
    void wait(std::size_t dst, const PipeClock& c)
    {
        PipeClock& waiter = known[dst];
        for (std::size_t p = 0; p < engine::kPipeCount; ++p) waiter[p] = std::max(waiter[p], c[p]);
    }
};

}  // namespace pto::runtime
