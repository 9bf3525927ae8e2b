// The cross-core flags of a mixed launch (pto/runtime/cross_core_flags.hpp).
#include <pto/runtime/cross_core_flags.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/launch.hpp>
#include <pto/runtime/memory.hpp>

#include "runtime/order_checker.hpp"
#include "runtime/scheduler.hpp"

#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace pto::runtime {

namespace {

constexpr int kCounterMax = 15;

// A semaphore: whose it is (the core that waits on it) and, for the cube's, which vector core counts on it.
struct Semaphore {
    uint64_t cookie;
    uint32_t block;
    CoreKind owner;
    uint32_t from_vector;  // the cube's semaphores: one per vector core; 0 for a vector core's own
    uint32_t owner_vector; // a vector core's semaphores: whose; 0 for the cube's
    int64_t id;
    auto key() const { return std::tie(cookie, block, owner, from_vector, owner_vector, id); }
    bool operator<(const Semaphore& o) const { return key() < o.key(); }
};

struct Flags {
    std::map<Semaphore, int> count;
    // Checked mode: per semaphore, what each set not yet taken carries to its wait, oldest first.
    std::map<Semaphore, std::deque<order::CoreClock>> releases;
};

uint32_t vector_count() { return vector_cores_per_block(); }

void require_mixed(const char* instr)
{
    if (core_kind() == CoreKind::Unified) {
        fail({"RUN_CROSS_CORE_KIND", instr, "", "cross-core flags connect the cube and vector cores of a mixed launch",
              "a core of a mixed launch (sections, launch_mixed)", describe_calling_core() + ", a unified core", ""});
    }
}

// set_cross_core / wait_flag_dev are a2a3's, set_intra_block / wait_intra_core a5's; cpu has both.
void require_target(profile::Target owner, const char* instr)
{
    const profile::Target t = active_target();
    if (t != profile::Target::Cpu && t != owner)
        fail({"LEGAL_CROSS_CORE_TARGET", instr, "", std::string(instr) + " is a flag of another target",
              owner == profile::Target::A2A3 ? "a2a3 (a5 uses set_intra_block / wait_intra_core)"
                                             : "a5 (a2a3 uses set_cross_core / wait_flag_dev)",
              std::string(profile::profile_of(t).name), ""});
}

void require_id(int64_t id, int64_t limit, const char* instr)
{
    if (id < 0 || id >= limit)
        fail({"RUN_CROSS_CORE_ID", instr, "", "the flag id", "0 to " + std::to_string(limit - 1), std::to_string(id), ""});
}

// The checks every flag operation makes: its target, a mixed launch, its id.
void check_flag_operation(const char* instr, profile::Target owner, int64_t id, int64_t ids)
{
    require_target(owner, instr);
    require_mixed(instr);
    require_id(id, ids, instr);
}

Semaphore semaphore(CoreKind owner, uint32_t from_vector, uint32_t owner_vector, int64_t id)
{
    return {task_cookie(), block_idx(), owner, from_vector, owner_vector, id};
}

void signal(const std::vector<Semaphore>& targets, const char* instr)
{
    auto lock = cross_core_lock();
    Flags& flags = cross_core_objects().get<Flags>();
    auto& count = flags.count;
    for (const Semaphore& s : targets) {
        if (count[s] >= kCounterMax)
            fail({"RUN_CROSS_CORE_OVERFLOW", instr, "", "flag " + std::to_string(s.id) + " is set " + std::to_string(kCounterMax + 1) +
                                                           " times without a wait: its 4-bit counter overflows",
                  "at most " + std::to_string(kCounterMax) + " sets ahead of the waits", std::to_string(kCounterMax + 1), ""});
    }
    const order::CoreClock released = order::release();
    for (const Semaphore& s : targets) {
        ++count[s];
        if (order::checking()) flags.releases[s].push_back(released);
    }
    cross_core_changed();
}

// Waits until every semaphore of `sources` counts one, then takes it; `setters` are the cores whose
// sets it waits for (for a deadlock report).
void take(const std::vector<Semaphore>& sources, const char* instr, CoreKind setter_kind)
{
    const uint32_t block = block_idx();
    auto lock = cross_core_lock();
    Flags& flags = cross_core_objects().get<Flags>();
    auto& count = flags.count;
    const auto ready = [&] {
        for (const Semaphore& s : sources)
            if (count[s] == 0) return false;
        return true;
    };
    const auto describe = [&] {
        return WaitReason{"waits in " + std::string(instr) + " for flag " + std::to_string(sources.front().id),
                          block_cores(block, setter_kind)};
    };
    cross_core_wait(lock, ready, describe);
    for (const Semaphore& s : sources) {
        --count[s];
        auto& released = flags.releases[s];
        if (released.empty()) continue;  // set by a core that is not checked
        order::acquire(released.front());
        released.pop_front();
    }
}

}  // namespace

void set_cross_core(int64_t event_id)
{
    InstructionScope scope("set_cross_core");
    check_flag_operation("set_cross_core", profile::Target::A2A3, event_id, 16);
    std::vector<Semaphore> targets;
    if (core_kind() == CoreKind::Cube) {
        for (uint32_t v = 0; v < vector_count(); ++v) targets.push_back(semaphore(CoreKind::Vector, 0, v, event_id));
    } else {
        targets.push_back(semaphore(CoreKind::Cube, subblock_idx(), 0, event_id));
    }
    signal(targets, "set_cross_core");
}

void wait_flag_dev(int64_t event_id)
{
    InstructionScope scope("wait_flag_dev");
    check_flag_operation("wait_flag_dev", profile::Target::A2A3, event_id, 16);
    std::vector<Semaphore> sources;
    if (core_kind() == CoreKind::Cube) {
        for (uint32_t v = 0; v < vector_count(); ++v) sources.push_back(semaphore(CoreKind::Cube, v, 0, event_id));
        take(sources, "wait_flag_dev", CoreKind::Vector);
    } else {
        sources.push_back(semaphore(CoreKind::Vector, 0, subblock_idx(), event_id));
        take(sources, "wait_flag_dev", CoreKind::Cube);
    }
}

void set_intra_block(int64_t sem_id)
{
    InstructionScope scope("set_intra_block");
    check_flag_operation("set_intra_block", profile::Target::A5, sem_id, 32);
    const int64_t id = sem_id % 16;
    if (core_kind() == CoreKind::Cube) {
        signal({semaphore(CoreKind::Vector, 0, uint32_t(sem_id / 16), id)}, "set_intra_block");
    } else {
        signal({semaphore(CoreKind::Cube, subblock_idx(), 0, id)}, "set_intra_block");
    }
}

void wait_intra_core(int64_t sem_id)
{
    InstructionScope scope("wait_intra_core");
    check_flag_operation("wait_intra_core", profile::Target::A5, sem_id, 32);
    const int64_t id = sem_id % 16;
    if (core_kind() == CoreKind::Cube) {
        take({semaphore(CoreKind::Cube, uint32_t(sem_id / 16), 0, id)}, "wait_intra_core", CoreKind::Vector);
    } else {
        take({semaphore(CoreKind::Vector, 0, subblock_idx(), id)}, "wait_intra_core", CoreKind::Cube);
    }
}

}  // namespace pto::runtime
