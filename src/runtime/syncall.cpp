// SYNCALL: a barrier over the cores of a launch, the hard form (the device's cross-core flags) and the
// soft form (a counter in global memory that every arriving core increments).
#include <pto/runtime/syncall.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "runtime/order_checker.hpp"
#include "runtime/scheduler.hpp"

#include <array>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pto::runtime {

namespace {

const char* participants_name(SyncCoreType type)
{
    switch (type) {
        case SyncCoreType::AIVOnly: return "vector cores";
        case SyncCoreType::AICOnly: return "cube cores";
        case SyncCoreType::Mix: break;
    }
    return "cores";
}

bool takes_part(SyncCoreType type, CoreKind kind)
{
    if (kind == CoreKind::Unified || type == SyncCoreType::Mix) return true;
    return (type == SyncCoreType::AIVOnly) == (kind == CoreKind::Vector);
}

// The launch's cores that take part (indices into launch_cores()).
std::vector<uint32_t> participants(SyncCoreType type)
{
    std::vector<uint32_t> cores;
    const auto& all = launch_cores();
    for (uint32_t i = 0; i < all.size(); ++i)
        if (takes_part(type, all[i].kind)) cores.push_back(i);
    return cores;
}

// The hard barriers of a launch, one per participant set.
struct Barriers {
    struct Barrier {
        uint64_t generation = 0;
        std::set<uint32_t> arrived;
        order::CoreClock arriving, completed;  // checked mode: what the arrivals of this round and the last one carry
    };
    std::array<Barrier, 3> of_type;
};

// Checked mode: what the arrivals of each round of a soft SYNCALL carry, by workspace and round.
struct SoftRounds {
    std::map<std::pair<const int32_t*, int64_t>, order::CoreClock> of;
};

std::vector<uint32_t> missing(const std::vector<uint32_t>& expected, const std::set<uint32_t>& arrived)
{
    std::vector<uint32_t> cores;
    for (uint32_t c : expected)
        if (!arrived.count(c)) cores.push_back(c);
    return cores;
}

void require_participant(SyncCoreType type)
{
    if (!takes_part(type, core_kind())) {
        fail({"RUN_SYNCALL_CORE", "SYNCALL", "", describe_calling_core() + " calls a SYNCALL of the " + participants_name(type),
              std::string("a call from one of the ") + participants_name(type), describe_calling_core(), ""});
    }
}

}  // namespace

void syncall(SyncCoreType type)
{
    InstructionScope scope("SYNCALL");
    require_participant(type);
    const auto core = current_core_index();
    if (!core) return;  // a thread outside launches is the only core of its barrier
    const std::vector<uint32_t> expected = participants(type);
    auto lock = cross_core_lock();
    auto& barrier = cross_core_objects().get<Barriers>().of_type[static_cast<int>(type)];
    const uint64_t generation = barrier.generation;
    barrier.arrived.insert(*core);
    barrier.arriving.join(order::release());
    if (barrier.arrived.size() == expected.size()) {
        barrier.arrived.clear();
        ++barrier.generation;
        barrier.completed = std::exchange(barrier.arriving, {});
        order::acquire(barrier.completed);
        cross_core_changed();
        return;
    }
    cross_core_wait(
        lock, [&] { return barrier.generation != generation; },
        [&] {
            return WaitReason{"waits in SYNCALL for the " + std::string(participants_name(type)) + " that have not arrived",
                              missing(expected, barrier.arrived)};
        });
    // No later round can end before this core arrives at it: `completed` is still its round's.
    order::acquire(barrier.completed);
}

void syncall_soft(SyncCoreType type, int32_t* counter, int32_t used_cores)
{
    InstructionScope scope("SYNCALL");
    require_participant(type);
    if (!counter) {
        fail({"RUN_SYNCALL_WORKSPACE", "SYNCALL", "gmWorkspace", "the soft SYNCALL counts arrivals in its workspace's first int32",
              "a global tensor with data", "a null pointer", ""});
    }
    const auto core = current_core_index();
    const std::vector<uint32_t> all = core ? participants(type) : std::vector<uint32_t>{0};
    const int64_t used = used_cores > 0 ? used_cores : static_cast<int64_t>(all.size());
    order::note_global_access(counter, sizeof(int32_t), sizeof(int32_t), 1, true, /*atomic=*/true);
    auto lock = cross_core_lock();
    const int64_t ticket = (*counter)++;
    const int64_t release_at = (ticket / used + 1) * used;  // this round ends when `used` cores arrived
    order::CoreClock& round = cross_core_objects().get<SoftRounds>().of[{counter, ticket / used}];
    round.join(order::release());
    cross_core_changed();
    cross_core_wait(
        lock, [&] { return int64_t(*counter) >= release_at; },
        [&] {
            return WaitReason{"waits in a soft SYNCALL until its counter reaches " + std::to_string(release_at) + " (it holds " +
                                  std::to_string(*counter) + ")",
                              all};
        });
    order::acquire(round);
}

}  // namespace pto::runtime
