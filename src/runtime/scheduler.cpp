#include "runtime/scheduler.hpp"

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <limits>
#include <utility>

namespace pto::runtime {

namespace {

thread_local Scheduler* t_scheduler = nullptr;  // the launch whose core the thread runs
thread_local uint32_t t_core = 0;

// The threads outside launches (a harness driving its own threads) share these.
struct OutsideLaunches {
    std::mutex mutex;
    std::condition_variable changed;
    CrossCoreObjects objects;
};
OutsideLaunches& outside()
{
    static OutsideLaunches* state = new OutsideLaunches();  // never destroyed: threads may outlive main
    return *state;
}

const std::vector<CoreSpec> kNoCores;

}  // namespace

std::string describe_core(const CoreSpec& core)
{
    const std::string block = "block " + std::to_string(core.block);
    switch (core.kind) {
        case CoreKind::Cube: return "the cube core of " + block;
        case CoreKind::Vector: return "vector core " + std::to_string(core.subblock) + " of " + block;
        case CoreKind::Unified: break;
    }
    return block;
}

std::string describe_calling_core()
{
    return describe_core({block_idx(), core_kind(), subblock_idx(), subblock_num()});
}

// --- the synchronisation objects' side ------------------------------------------------------------

std::unique_lock<std::mutex> cross_core_lock()
{
    return std::unique_lock<std::mutex>(t_scheduler ? t_scheduler->mutex_ : outside().mutex);
}

CrossCoreObjects& cross_core_objects() { return t_scheduler ? t_scheduler->objects_ : outside().objects; }

void cross_core_wait(std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready,
                     const std::function<WaitReason()>& describe)
{
    if (t_scheduler) {
        t_scheduler->wait(t_core, lock, ready, describe);
    } else {
        outside().changed.wait(lock, ready);
    }
}

void cross_core_changed()
{
    if (t_scheduler) {
        t_scheduler->changed();
    } else {
        outside().changed.notify_all();
    }
}

std::optional<uint32_t> current_core_index()
{
    if (!t_scheduler) return std::nullopt;
    return t_core;
}

const std::vector<CoreSpec>& launch_cores() { return t_scheduler ? t_scheduler->cores() : kNoCores; }

std::vector<uint32_t> block_cores(uint32_t block, CoreKind kind)
{
    std::vector<uint32_t> cores;
    const auto& all = launch_cores();
    for (uint32_t i = 0; i < all.size(); ++i)
        if (all[i].block == block && all[i].kind == kind) cores.push_back(i);
    return cores;
}

// --- the launch's side ----------------------------------------------------------------------------

Scheduler::Scheduler(std::vector<CoreSpec> cores, unsigned threads, std::function<void(uint32_t)> run)
    : cores_(std::move(cores)),
      state_(cores_.size()),
      run_(std::move(run)),
      free_turns_(static_cast<int>(std::max(1u, threads))),
      stop_block_(std::numeric_limits<uint32_t>::max())
{
}

Scheduler::~Scheduler()
{
    for (std::thread& t : extra_carriers_) t.join();
}

bool Scheduler::startable() const { return next_ < cores_.size() && cores_[next_].block <= stop_block_; }

void Scheduler::carry()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        if (startable() && free_turns_ > 0 && ready_.empty()) {
            const uint32_t core = next_++;
            --free_turns_;
            run_core(lock, core);
            ++free_turns_;
            hand_out_turns(/*caller_carries=*/true);
            check_deadlock();
            continue;
        }
        if (!startable()) break;
        ++idle_carriers_;
        carriers_wake_.wait(lock);
        --idle_carriers_;
    }
    // Cores never to be started (a failure stopped the launch) count as ended.
    while (next_ < cores_.size() && !startable()) {
        state_[next_++].state = State::Done;
        ++done_count_;
    }
    if (done_count_ == cores_.size()) done_.notify_all();
    carriers_wake_.notify_all();
}

void Scheduler::run_core(std::unique_lock<std::mutex>& lock, uint32_t core)
{
    state_[core].state = State::Running;
    lock.unlock();
    Scheduler* const outer = t_scheduler;
    const uint32_t outer_core = t_core;
    t_scheduler = this;
    t_core = core;
    run_(core);
    t_scheduler = outer;
    t_core = outer_core;
    lock.lock();
    state_[core].state = State::Done;
    if (++done_count_ == cores_.size()) done_.notify_all();
    changed();  // a core that waits for this one may now wait for nothing
}

void Scheduler::wait_until_done()
{
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return done_count_ == cores_.size(); });
}

void Scheduler::wait(uint32_t core, std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready,
                     const std::function<WaitReason()>& describe)
{
    Core& me = state_[core];
    // Made ready, a core may find the condition gone again by the time it runs (another core took
    // what it waited for): it waits again.
    while (true) {
        if (me.abandon) throw CoreAbandoned{};
        if (ready()) return;
        me.state = State::Waiting;
        me.ready = &ready;
        me.describe = &describe;
        waiting_.push_back(core);
        ++free_turns_;
        hand_out_turns();
        check_deadlock();
        me.wake.wait(lock, [&] { return me.state == State::Running || me.abandon; });
        me.ready = nullptr;
        me.describe = nullptr;
        if (me.abandon) {
            std::erase(waiting_, core);
            std::erase(ready_, core);
            // It ends on its thread: with a turn, as the carrier that started it gives one back at its end.
            if (me.state != State::Running) --free_turns_;
            me.state = State::Running;
            throw CoreAbandoned{};
        }
    }
}

void Scheduler::changed()
{
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        Core& c = state_[*it];
        if ((*c.ready)()) {
            c.state = State::Ready;
            ready_.push_back(*it);
            it = waiting_.erase(it);
        } else {
            ++it;
        }
    }
    hand_out_turns();
}

void Scheduler::hand_out_turns(bool caller_carries)
{
    while (free_turns_ > 0 && !ready_.empty()) {
        const uint32_t core = ready_.front();
        ready_.erase(ready_.begin());
        state_[core].state = State::Running;
        --free_turns_;
        state_[core].wake.notify_one();
    }
    if (free_turns_ > 0 && startable() && !caller_carries) {
        if (idle_carriers_ > 0) {
            carriers_wake_.notify_one();
        } else {
            // Every thread of the launch holds a core that waits: one more thread starts the next.
            extra_carriers_.emplace_back([this] { carry(); });
        }
    }
}

void Scheduler::check_deadlock()
{
    if (waiting_.empty() || !ready_.empty() || startable()) return;  // (a launch whose cores never wait stops here)
    if (std::any_of(state_.begin(), state_.end(), [](const Core& c) { return c.state == State::Running; })) return;

    // Nothing runs and nothing will: every waiting core waits for good. Follow what each one waits
    // for from the lowest one until a core repeats (the cycle) or a core that waits for nothing does.
    if (!deadlock_) {
        // The waits describe themselves with this launch's cores, whichever thread finds the deadlock.
        Scheduler* const outer = std::exchange(t_scheduler, this);
        std::vector<int> seen(cores_.size(), -1);
        std::vector<uint32_t> path;
        uint32_t at = *std::min_element(waiting_.begin(), waiting_.end());
        std::string chain;
        std::string ends;
        for (;;) {
            seen[at] = static_cast<int>(path.size());
            path.push_back(at);
            const WaitReason reason = (*state_[at].describe)();
            uint32_t next = std::numeric_limits<uint32_t>::max();
            for (uint32_t candidate : reason.on) {
                if (state_[candidate].state == State::Waiting) {
                    next = candidate;
                    break;
                }
            }
            if (!chain.empty()) chain += ", which ";
            chain += (chain.empty() ? describe_core(cores_[at]) + " " : "") + reason.what;
            if (next == std::numeric_limits<uint32_t>::max()) {
                ends = reason.on.empty() ? "; no core can end that wait"
                                         : "; " + describe_core(cores_[reason.on.front()]) + " has ended";
                break;
            }
            chain += " (" + describe_core(cores_[next]) + ")";
            if (seen[next] >= 0) {
                ends = "; the cycle closes at " + describe_core(cores_[next]);
                break;
            }
            at = next;
        }
        // Not fail(): the instruction running on this thread is not the deadlock's.
        deadlock_ = std::make_exception_ptr(
            SimError({"ORDER_DEADLOCK", "", "", "no core of the launch can go on: " + chain + ends, "", "", ""}));
        t_scheduler = outer;
    }
    abandon(0);
}

void Scheduler::core_failed(uint32_t core)
{
    std::lock_guard lock(mutex_);
    const uint32_t block = cores_[core].block;
    stop_block_ = std::min(stop_block_, block);
    abandon(block);
}

void Scheduler::abandon(uint32_t from_block)
{
    for (uint32_t i = 0; i < cores_.size(); ++i) {
        if (cores_[i].block < from_block) continue;
        Core& c = state_[i];
        if (c.state == State::Waiting || c.state == State::Ready || c.state == State::Running) c.abandon = true;
        if (c.state == State::Waiting || c.state == State::Ready) c.wake.notify_one();
    }
    carriers_wake_.notify_all();
}

}  // namespace pto::runtime
