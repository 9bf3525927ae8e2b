// The cores of a launch and their waits on one another. A launch runs every core of every block (one
// per block, or a cube core and its vector cores) on at most launch_threads() threads at once; a core
// that must wait for another (a full or empty tile FIFO, a barrier) gives its thread's turn to another
// core, so that no wait can starve for want of a thread, and a wait that no running, ready or
// unstarted core can end is a deadlock, reported with its cycle instead of hanging.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "runtime/block_scope.hpp"

namespace pto::runtime {

// "vector core 1 of block 3", "the cube core of block 0", "block 2".
std::string describe_core(const CoreSpec& core);
// The same for the calling thread's core.
std::string describe_calling_core();

// What a waiting core waits for: the words of the deadlock report, and the cores whose next steps
// could end the wait (indices into the launch's cores).
struct WaitReason {
    std::string what;
    std::vector<uint32_t> on;
};

// The cross-core synchronisation objects of one launch (tile FIFOs, barriers), made on first use, or
// those of the threads outside launches. Guarded by the lock of cross_core_lock().
// An object with `void at_launch_end() const` is asked, once every core of its launch has ended
// without failing, whether the launch left it as a kernel must (checked mode).
class CrossCoreObjects {
public:
    template <typename T>
    T& get()
    {
        auto& slot = objects_[std::type_index(typeid(T))];
        if (!slot) {
            slot = std::shared_ptr<void>(new T(), [](void* p) { delete static_cast<T*>(p); });
            if constexpr (requires(const T& t) { t.at_launch_end(); })
                end_checks_.push_back([object = static_cast<const T*>(slot.get())] { object->at_launch_end(); });
        }
        return *static_cast<T*>(slot.get());
    }
    void at_launch_end() const
    {
        for (const auto& check : end_checks_) check();
    }

private:
    std::unordered_map<std::type_index, std::shared_ptr<void>> objects_;
    std::vector<std::function<void()>> end_checks_;
};

// --- for the synchronisation objects --------------------------------------------------------------
// The lock of the calling thread's launch (or of the threads outside launches), under which every
// cross-core object is read and changed.
std::unique_lock<std::mutex> cross_core_lock();
// The objects of that launch; only under its lock.
CrossCoreObjects& cross_core_objects();
// Blocks the calling core until ready() holds; ready() is called under the lock, which is released
// while the core waits. Inside a launch a wait that cannot end fails the launch with ORDER_DEADLOCK;
// describe() names what it waits for. Outside launches it waits for other threads as they come.
void cross_core_wait(std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready,
                     const std::function<WaitReason()>& describe);
// After a change of cross-core state, under the lock: the cores whose wait it may end go on.
void cross_core_changed();
// The calling core's index in its launch's cores, and those cores (none outside a launch).
std::optional<uint32_t> current_core_index();
const std::vector<CoreSpec>& launch_cores();
// The launch's cores of `kind` in `block`.
std::vector<uint32_t> block_cores(uint32_t block, CoreKind kind);

// --- for the launch -------------------------------------------------------------------------------
class Scheduler {
public:
    // run(i) runs core i on the calling thread and reports its failure (it must not throw).
    Scheduler(std::vector<CoreSpec> cores, unsigned threads, std::function<void(uint32_t)> run);
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    // A thread's share of the launch: starts cores, in order, while fewer than `threads` run. Returns
    // when no core is left to start. Called by the launching thread and the pool's workers.
    void carry();
    // After carry(), on the launching thread: returns once every core has ended.
    void wait_until_done();

    // A core failed: the cores of later blocks are not started, and those of its block and later ones
    // that wait are woken to give up (CoreAbandoned).
    void core_failed(uint32_t core);
    // The deadlock that ended the launch, if one did (a diagnostic to raise).
    std::exception_ptr deadlock() const { return deadlock_; }

    const std::vector<CoreSpec>& cores() const { return cores_; }
    // After wait_until_done(): the launch's cross-core objects' end-of-launch checks.
    void check_objects_at_end() const { objects_.at_launch_end(); }

    // Thrown in a waiting core that is to give up: its launch failed or deadlocked elsewhere.
    struct CoreAbandoned {};

private:
    friend void cross_core_wait(std::unique_lock<std::mutex>&, const std::function<bool()>&,
                                const std::function<WaitReason()>&);
    friend void cross_core_changed();
    friend std::unique_lock<std::mutex> cross_core_lock();
    friend CrossCoreObjects& cross_core_objects();

    enum class State : uint8_t { Unstarted, Running, Waiting, Ready, Done };
    struct Core {
        State state = State::Unstarted;
        bool abandon = false;
        std::condition_variable wake;
        const std::function<bool()>* ready = nullptr;
        const std::function<WaitReason()>* describe = nullptr;
    };

    void wait(uint32_t core, std::unique_lock<std::mutex>& lock, const std::function<bool()>& ready,
              const std::function<WaitReason()>& describe);
    void changed();
    bool startable() const;
    void hand_out_turns(bool caller_carries = false);
    void check_deadlock();
    void abandon(uint32_t from_block);
    void run_core(std::unique_lock<std::mutex>& lock, uint32_t core);

    std::vector<CoreSpec> cores_;
    std::vector<Core> state_;
    std::function<void(uint32_t)> run_;
    std::mutex mutex_;
    std::condition_variable carriers_wake_, done_;
    CrossCoreObjects objects_;
    int free_turns_;             // threads' turns no core holds (a core given up may overdraw them)
    uint32_t next_ = 0;          // the next core to start
    uint32_t done_count_ = 0;
    uint32_t stop_block_;        // cores of later blocks are not started (a failure)
    unsigned idle_carriers_ = 0;
    std::vector<uint32_t> waiting_, ready_;
    std::vector<std::thread> extra_carriers_;  // started when a waiting core left work without a thread
    std::exception_ptr deadlock_;
};

}  // namespace pto::runtime
