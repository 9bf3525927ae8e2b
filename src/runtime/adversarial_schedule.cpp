#include "runtime/adversarial_schedule.hpp"

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/schedule.hpp>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/order_checker.hpp"
#include "runtime/pipe_clocks.hpp"

namespace pto::runtime {

namespace {

// -1 until PTO_SCHEDULE is read, then the Schedule.
std::atomic<int> g_schedule{-1};

Schedule schedule_from_environment()
{
    const char* env = std::getenv("PTO_SCHEDULE");
    if (!env || !env[0] || std::strcmp(env, "program") == 0) return Schedule::Program;
    if (std::strcmp(env, "adversarial") == 0) return Schedule::Adversarial;
    fail({"RUN_SCHEDULE", "", "", "PTO_SCHEDULE names the order in which a core runs its pipes' work", "program or adversarial",
          env, ""});
}

}  // namespace

Schedule schedule()
{
    int s = g_schedule.load(std::memory_order_relaxed);
    if (s < 0) {
        s = int(schedule_from_environment());
        g_schedule.store(s, std::memory_order_relaxed);
    }
    return Schedule(s);
}

void set_schedule(Schedule s) { g_schedule.store(int(s), std::memory_order_relaxed); }

namespace adversary {

namespace {
thread_local CoreSchedule* t_schedule = nullptr;
}  // namespace

class CoreSchedule {
public:
    void hold_back(std::size_t pipe, std::function<void()> run)
    {
        const uint32_t seq = clocks_.issue(pipe);
        held_[pipe].push_back({seq, clocks_.known[pipe], next_order_++, std::move(run)});
        ++held_count_;
        detail::t_held_back_work = true;
    }

    void note_sync(const SyncRecord& r)
    {
        synchronised_ = true;
        if (r.kind == SyncKind::PipeBarrier && r.src_pipe == PIPE_ALL) return clocks_.barrier_all();
        FlagKey key;
        if (!flag_of(r, key)) return;
        if (r.kind == SyncKind::SetFlag || r.kind == SyncKind::EventRecord) {
            flags_[key] = clocks_.carried_by_set(std::size_t(key.src));
        } else if (r.kind == SyncKind::WaitFlag || r.kind == SyncKind::EventWait) {
            // The device's pipe would stall here for ever: the schedule cannot go on either.
            const auto it = flags_.find(key);
            if (it == flags_.end())
                fail({"ORDER_WAIT_WITHOUT_SET", r.kind == SyncKind::WaitFlag ? "wait_flag" : "wait_event", "",
                      "no set_flag for this wait: the waiting pipe stalls for ever, and the adversarial schedule with it",
                      "an earlier set_flag with this pipe pair and event", "none outstanding", ""});
            clocks_.wait(std::size_t(key.dst), it->second);
            flags_.erase(it);
        }
    }

    bool settling() const { return settling_; }

    // An instruction that is not held back runs once everything before it has.
    void run_now(const std::function<void()>& run)
    {
        settle();
        settling_ = true;
        struct Reset {
            bool& flag;
            ~Reset() { flag = false; }
        } reset{settling_};
        run();
    }

    // Runs every held-back instruction: repeatedly, of the pipes' first held-back instructions whose
    // predecessors have run, the one issued last. The earliest issued is always free to run (all it
    // waits for was issued before it), so this ends. A core that has not synchronised yet is taken to
    // be written for automatic synchronisation (the compiler places its flags), as the checker takes
    // it: its instructions run in program order.
    void settle()
    {
        if (settling_ || held_count_ == 0) return;
        struct Settling {
            CoreSchedule& s;
            explicit Settling(CoreSchedule& schedule) : s(schedule) { s.settling_ = true; }
            ~Settling()
            {
                s.settling_ = false;
                s.drop();  // frees what waited; drops the rest if an instruction failed (the core ends with it)
                detail::t_held_back_work = false;
            }
        } guard(*this);
        while (held_count_ != 0) {
            std::size_t next = engine::kPipeCount;
            for (std::size_t p = 0; p < engine::kPipeCount; ++p) {
                if (held_[p].empty() || !free_to_run(held_[p].front())) continue;
                if (next == engine::kPipeCount || (held_[p].front().order > held_[next].front().order) == synchronised_) next = p;
            }
            Held h = std::move(held_[next].front());
            held_[next].pop_front();
            --held_count_;
            h.run();
            done_[next] = h.seq;
        }
    }

    void drop()
    {
        for (auto& queue : held_) queue.clear();
        held_count_ = 0;
        release_retired();
    }

    // Frees what waited for the held-back work to run.
    void release_retired()
    {
        for (auto& release : std::exchange(retired_, {})) release();
    }

    bool holds_work() const { return held_count_ != 0; }
    void retire(std::function<void()> release) { retired_.push_back(std::move(release)); }

private:
    struct Held {
        uint32_t seq;        // its number on its pipe
        PipeClock needs;     // what its pipe knew finished when it was issued
        uint64_t order;      // its number among the core's held-back instructions
        std::function<void()> run;
    };

    bool free_to_run(const Held& h) const
    {
        for (std::size_t p = 0; p < engine::kPipeCount; ++p)
            if (done_[p] < h.needs[p]) return false;
        return true;
    }

    PipeClocks clocks_;
    std::map<FlagKey, PipeClock> flags_;  // set and not yet waited: what each carries
    std::array<std::deque<Held>, engine::kPipeCount> held_;
    std::size_t held_count_ = 0;
    PipeClock done_{};  // per pipe, the number of its last instruction that ran
    uint64_t next_order_ = 0;
    bool settling_ = false;
    bool synchronised_ = false;  // a synchronisation operation was issued
    std::vector<std::function<void()>> retired_;  // memory to free once the held-back work has run
};

CoreScope::CoreScope() : previous_(t_schedule)
{
    if (schedule() != Schedule::Adversarial) return;
    schedule_ = std::make_unique<CoreSchedule>();
    t_schedule = schedule_.get();
}

CoreScope::~CoreScope()
{
    if (!schedule_) return;
    schedule_->drop();
    detail::t_held_back_work = false;
    t_schedule = previous_;
}

void CoreScope::finish()
{
    if (schedule_) schedule_->settle();
}

bool holds_back() { return t_schedule && !t_schedule->settling() && current_instruction() == nullptr; }

void hold_back(const char* name, std::optional<TileType> src, std::optional<TileType> dst, std::function<void()> run)
{
    const auto pipe = order::tracked_pipe(name, src, dst);
    if (!pipe) return t_schedule->run_now(run);
    t_schedule->hold_back(*pipe, std::move(run));
}

void settle()
{
    if (t_schedule) t_schedule->settle();
}

void note_sync(const SyncRecord& record)
{
    if (t_schedule) t_schedule->note_sync(record);
}

void after_held_back_work(std::function<void()> release)
{
    if (t_schedule && t_schedule->holds_work()) return t_schedule->retire(std::move(release));
    release();
}

}  // namespace adversary

namespace detail {
thread_local bool t_held_back_work = false;
void run_held_back_work() { adversary::settle(); }
}  // namespace detail

}  // namespace pto::runtime
