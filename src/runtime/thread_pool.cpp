#include "runtime/thread_pool.hpp"

namespace pto::runtime {

ThreadPool::ThreadPool(unsigned workers)
{
    threads_.reserve(workers);
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { serve(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    posted_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void ThreadPool::run(const std::function<void()>& work)
{
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return job_ == nullptr; });  // the previous job's workers are all out
    job_ = &work;
    ++generation_;
    running_ = workers();
    lock.unlock();
    posted_.notify_all();
    work();
    lock.lock();
    finished_.wait(lock, [&] { return running_ == 0; });
    job_ = nullptr;
    lock.unlock();
    finished_.notify_all();
}

void ThreadPool::serve()
{
    uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        posted_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        const std::function<void()>* job = job_;
        lock.unlock();
        (*job)();
        lock.lock();
        if (--running_ == 0) finished_.notify_all();
    }
}

}  // namespace pto::runtime
