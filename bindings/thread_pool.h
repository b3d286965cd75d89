// The host threads of both modules' loops: the CPU backend's loops over environments, and the
// host-run CUDA kernels' blocks. They sleep between calls (after a short spin) where OpenMP's
// spin on: in a training loop torch and Python run between steps, and spinning threads took the
// cores from them and from other jobs. 16 envs of Pong at v5 settings, 2 cores
// (benchmarks/results/threads-2026-11-24.json): beside one busy core 6,991 frames/s with these
// threads, 5,321 with OpenMP's (one thread alone: 6,716-7,104); on a quiet machine 11,904 and
// 11,592.
//
// A pool survives fork(): a child process has only the thread that forked, so a pool made before
// the fork runs its loops on that thread alone, and leaves the parent's threads and their
// synchronisation alone (joining them, or destroying a condition variable they waited on, would
// hang the child). Standard headers only: module_cuda_host.cpp includes it before bindings/cuda_host.h.
#pragma once
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace cule::bindings {

class ThreadPool {
  public:
    // `threads` in all: the caller of for_each and threads - 1 workers. A thread that cannot be
    // started (a pids limit, an address-space limit) stops the others and raises, naming it.
    explicit ThreadPool(int threads) : owner_(getpid()), shared_(std::make_unique<Shared>()) {
        try {
            for (int w = 1; w < threads; ++w) workers_.emplace_back([s = shared_.get(), w] { work(*s, w); });
        } catch (const std::system_error& e) {
            const size_t started = workers_.size();
            stop_and_join();
            throw std::runtime_error("num_threads=" + std::to_string(threads) + ": could not start thread " +
                                     std::to_string(started + 2) + " (" + e.what() + "); " +
                                     std::to_string(started + 1) + " started: pass num_threads=" +
                                     std::to_string(started + 1) + " or fewer");
        }
    }
    ~ThreadPool() {
        if (forked()) {   // the parent's threads and their state: not this process's to touch
            new std::vector<std::thread>(std::move(workers_));
            shared_.release();
            return;
        }
        stop_and_join();
    }
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return (int)workers_.size() + 1; }

    // task(i, thread) for every i in [0, n), one i at a time to whichever thread is free (steps
    // of different games and moments take very different times); `thread` is in [0, size()).
    // Returns when every task has run.
    void for_each(int n, const std::function<void(int, int)>& task) {
        if (workers_.empty() || n <= 1 || forked()) {
            for (int i = 0; i < n; ++i) task(i, 0);
            return;
        }
        Shared& s = *shared_;
        {
            std::lock_guard<std::mutex> lock(s.mutex);
            s.task = &task;
            s.n = n;
            s.next.store(0);
            s.busy = (int)workers_.size();
            s.generation.fetch_add(1);
        }
        s.wake.notify_all();
        run(s, 0);
        std::unique_lock<std::mutex> lock(s.mutex);
        s.done.wait(lock, [&] { return s.busy == 0; });
        s.task = nullptr;
    }

  private:
    // What the workers share with the caller; its own allocation, so that a forked child can
    // leave it as it is.
    struct Shared {
        std::mutex mutex;
        std::condition_variable wake, done;
        std::atomic<std::uint64_t> generation{0};   // one per for_each: a worker runs each once
        int busy = 0;         // workers not yet through the current for_each
        bool stop = false;
        const std::function<void(int, int)>* task = nullptr;
        int n = 0;
        std::atomic<int> next{0};
    };
    static constexpr int SPIN_MICROSECONDS = 200;

    bool forked() const { return getpid() != owner_; }

    void stop_and_join() {
        {
            std::lock_guard<std::mutex> lock(shared_->mutex);
            shared_->stop = true;
        }
        shared_->wake.notify_all();
        for (std::thread& t : workers_) t.join();
        workers_.clear();
    }

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

    static void run(Shared& s, int thread) {
        for (int i = s.next.fetch_add(1); i < s.n; i = s.next.fetch_add(1)) (*s.task)(i, thread);
    }

    static void work(Shared& s, int thread) {
        std::uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(s.mutex);
        for (;;) {
            lock.unlock();
            // A short spin before sleeping: a step's second loop (its observations) follows the
            // first within microseconds, and waking a sleeping thread takes tens of them.
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(SPIN_MICROSECONDS);
            while (s.generation.load() == seen && std::chrono::steady_clock::now() < until) relax();
            lock.lock();
            s.wake.wait(lock, [&] { return s.stop || s.generation.load() != seen; });
            if (s.stop) return;
            seen = s.generation.load();
            lock.unlock();
            run(s, thread);
            lock.lock();
            if (--s.busy == 0) s.done.notify_one();
        }
    }

    pid_t owner_;   // the process whose threads these are
    std::unique_ptr<Shared> shared_;
    std::vector<std::thread> workers_;
};

}  // namespace cule::bindings
