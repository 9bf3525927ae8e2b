// A persistent set of worker threads that run one job at a time together with the thread that posts
// it: a launch creates no thread (DESIGN, "Performance principles").
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pto::runtime {

class ThreadPool {
public:
    explicit ThreadPool(unsigned workers);
    ~ThreadPool();  // joins the workers
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned workers() const { return static_cast<unsigned>(threads_.size()); }
    // Calls work() on every worker and on the calling thread at once, and returns when every call has
    // returned. `work` must not throw. One job at a time: callers take turns.
    void run(const std::function<void()>& work);

private:
    void serve();

    std::mutex mutex_;
    std::condition_variable posted_, finished_;
    const std::function<void()>* job_ = nullptr;
    uint64_t generation_ = 0;  // counts the jobs posted, so that a worker runs each one once
    unsigned running_ = 0;     // workers still in the current job
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace pto::runtime
