// The threads of the CPU backend's loops over environments. They sleep between calls (after a
// short spin) where OpenMP's spin on: in a training loop torch and Python run between steps, and
// spinning threads took the cores from them and from other jobs. 16 envs of Pong at v5 settings,
// 2 cores (benchmarks/results/threads-2026-11-24.json): beside one busy core 6,991 frames/s with
// these threads, 5,321 with OpenMP's (one thread alone: 6,716-7,104); on a quiet machine 11,904
// and 11,592.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "types.h"

namespace cule::bindings {

class ThreadPool {
  public:
    // `threads` in all: the caller of for_each and threads - 1 workers.
    explicit ThreadPool(i32 threads) {
        for (i32 w = 1; w < threads; ++w) workers_.emplace_back([this, w] { work(w); });
    }
    ~ThreadPool() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
    }
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    i32 size() const { return (i32)workers_.size() + 1; }

    // task(i, thread) for every i in [0, n), one i at a time to whichever thread is free (steps
    // of different games and moments take very different times); `thread` is in [0, size()).
    // Returns when every task has run.
    void for_each(i32 n, const std::function<void(i32, i32)>& task) {
        if (workers_.empty() || n <= 1) {
            for (i32 i = 0; i < n; ++i) task(i, 0);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            task_ = &task;
            n_ = n;
            next_.store(0);
            busy_ = (i32)workers_.size();
            generation_.fetch_add(1);
        }
        wake_.notify_all();
        run(0);
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return busy_ == 0; });
        task_ = nullptr;
    }

  private:
    // A spinning thread's pause. Not a yield: under other load, a yield hands the core to another
    // process for a whole time slice (milliseconds), with the loop's next call waiting on it.
    // 16 envs of v5 Pong beside one busy core (benchmarks/results/threads-2026-11-25.json):
    // 17,475 frames/s against 14,330 yielding (one thread alone 18,733; quiet, 34,411 and 34,105).
    static void relax() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

    void run(i32 thread) {
        for (i32 i = next_.fetch_add(1); i < n_; i = next_.fetch_add(1)) (*task_)(i, thread);
    }

    void work(i32 thread) {
        u64 seen = 0;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            lock.unlock();
            // A short spin before sleeping: a step's second loop (its observations) follows the
            // first within microseconds, and waking a sleeping thread takes tens of them.
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(SPIN_MICROSECONDS);
            while (generation_.load() == seen && std::chrono::steady_clock::now() < until) relax();
            lock.lock();
            wake_.wait(lock, [&] { return stop_ || generation_.load() != seen; });
            if (stop_) return;
            seen = generation_.load();
            lock.unlock();
            run(thread);
            lock.lock();
            if (--busy_ == 0) done_.notify_one();
        }
    }

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    static constexpr i32 SPIN_MICROSECONDS = 200;
    std::atomic<u64> generation_{0};   // one per for_each: a worker runs each once
    i32 busy_ = 0;         // workers not yet through the current for_each
    bool stop_ = false;
    const std::function<void(i32, i32)>* task_ = nullptr;
    i32 n_ = 0;
    std::atomic<i32> next_{0};
};

}  // namespace cule::bindings
