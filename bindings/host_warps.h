// The lanes of a warp as fibers of one host thread, for the kernels whose lanes meet (warp_lanes,
// warp_min, warp_sum, warp_ballot, warp_match: console.h's warp schedule). Each lane runs until it
// reaches a meeting point or ends; when no lane can run, the lanes waiting at one point meet there
// as a GPU warp's lanes do at a reconvergence point: warp_lanes() gives the set of lanes waiting at
// its point (the lowest waiting lane's), the others wait for every lane of the set they are given.
// Which lanes a GPU groups may differ; the kernels give the same results whatever the grouping.
// module_cuda_host.cpp runs a launch this way when asked (warps=True); other launches run thread
// by thread. Host only, included before bindings/cuda_host.h (it needs standard headers).
#pragma once
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define CULE_FIBER_START(save, bottom, size) __sanitizer_start_switch_fiber(save, bottom, size)
#define CULE_FIBER_FINISH(save, bottom, size) __sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define CULE_FIBER_START(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#define CULE_FIBER_FINISH(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

namespace cule::host_warps {

// A lane's or the scheduler's place: `start` readies a new stack whose first switch calls `entry`
// (which never returns), `swap` goes from one place to another. On x86-64 a switch saves only the
// callee-saved registers: glibc's swapcontext saves the signal mask too, a system call each way,
// which took about 70% of a warp schedule test's time. Elsewhere, swapcontext.
#if defined(__x86_64__)
struct Context {
    void* sp = nullptr;

    void start(char* stack, size_t bytes, void (*entry)()) {
        auto top = reinterpret_cast<uintptr_t>(stack + bytes) & ~uintptr_t(15);
        void** words = reinterpret_cast<void**>(top) - 8;   // 6 registers (zero), `ret`'s address, a call's alignment
        for (int i = 0; i < 8; ++i) words[i] = nullptr;
        words[6] = reinterpret_cast<void*>(entry);
        sp = words;
    }
    static void swap(Context& from, Context& to) { switch_stack(&from.sp, to.sp); }

  private:
    __attribute__((naked, noinline)) static void switch_stack(void** /*save*/, void* /*load*/) {
        asm volatile(
            "pushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n\t"
            "movq %rsp, (%rdi)\n\tmovq %rsi, %rsp\n\t"
            "popq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\tpopq %rbp\n\tret");
    }
};
#else
struct Context {
    ucontext_t context;

    void start(char* stack, size_t bytes, void (*entry)()) {
        getcontext(&context);
        context.uc_stack.ss_sp = stack;
        context.uc_stack.ss_size = bytes;
        context.uc_link = nullptr;
        makecontext(&context, entry, 0);
    }
    static void swap(Context& from, Context& to) { swapcontext(&from.context, &to.context); }
};
#endif

enum Meet : unsigned { LANES, MIN, SUM, BALLOT, MATCH };

class Warp {
  public:
    // `body(lane)` runs lane `lane` of `count` (a warp's 32, or fewer at the grid's end);
    // `resumed(lane)` is called each time a lane starts or goes on.
    template <class Body, class Resumed>
    void run(unsigned count, Body& body, Resumed& resumed) {
        lanes_.assign(count, Lane{});
        body_ = [](void* b, unsigned lane) { (*static_cast<Body*>(b))(lane); };
        body_arg_ = &body;
        resumed_ = [](void* r, unsigned lane) { (*static_cast<Resumed*>(r))(lane); };
        resumed_arg_ = &resumed;
        static thread_local std::vector<std::unique_ptr<char[]>> stacks;   // kept for the next launch
        while (stacks.size() < count) stacks.emplace_back(new char[STACK_BYTES]);
        for (unsigned i = 0; i < count; ++i) {
            lanes_[i].stack = stacks[i].get();
            lanes_[i].context.start(lanes_[i].stack, STACK_BYTES, &Warp::entry);
        }
        Warp* outer = current;
        current = this;
        for (;;) {
            bool ran = false;
            for (unsigned i = 0; i < count; ++i) {
                if (lanes_[i].done || lanes_[i].waiting) continue;
                resume(i);
                ran = true;
            }
            if (!ran && !meet_waiting()) break;
        }
        current = outer;
        for (const Lane& l : lanes_)
            if (!l.done) throw std::logic_error("a warp's lanes wait for a lane that has ended");
    }

    // Called by lane `lane_` at meeting point `site`: waits for the meeting, gives its result.
    unsigned meet(const void* site, Meet kind, unsigned mask, unsigned value) {
        Lane& l = lanes_[lane_];
        l.waiting = true;
        l.site = site;
        l.kind = kind;
        l.mask = mask;
        l.value = value;
        yield();
        return l.result;
    }

    static unsigned lane() { return current->lane_; }
    static inline thread_local Warp* current = nullptr;

  private:
    static constexpr size_t STACK_BYTES = 1 << 20;
    struct Lane {
        Context context;
        char* stack = nullptr;
        bool waiting = false, done = false;
        const void* site = nullptr;
        Meet kind = LANES;
        unsigned mask = 0, value = 0, result = 0;
    };

    static void entry() {
        Warp* w = current;
        CULE_FIBER_FINISH(nullptr, &w->scheduler_bottom_, &w->scheduler_size_);
        w->body_(w->body_arg_, w->lane_);
        Lane& l = w->lanes_[w->lane_];
        l.done = true;
        CULE_FIBER_START(nullptr, w->scheduler_bottom_, w->scheduler_size_);   // this fiber is done
        Context::swap(l.context, w->scheduler_);   // never resumed
    }

    void resume(unsigned i) {
        lane_ = i;
        resumed_(resumed_arg_, i);
        void* save = nullptr;
        CULE_FIBER_START(&save, lanes_[i].stack, STACK_BYTES);
        Context::swap(scheduler_, lanes_[i].context);
        CULE_FIBER_FINISH(save, nullptr, nullptr);
    }

    void yield() {
        const unsigned i = lane_;
        void* save = nullptr;
        CULE_FIBER_START(&save, scheduler_bottom_, scheduler_size_);
        Context::swap(lanes_[i].context, scheduler_);
        CULE_FIBER_FINISH(save, &scheduler_bottom_, &scheduler_size_);
        lane_ = i;
    }

    // No lane can run: the lanes waiting at the lowest waiting lane's point meet. Gives whether
    // any did.
    bool meet_waiting() {
        unsigned first = 0;
        while (first < lanes_.size() && !lanes_[first].waiting) ++first;
        if (first == lanes_.size()) return false;
        const Lane& f = lanes_[first];
        unsigned group = 0;
        for (unsigned i = 0; i < lanes_.size(); ++i)
            if (lanes_[i].waiting && lanes_[i].site == f.site) group |= 1u << i;
        if (f.kind != LANES && group != f.mask)
            throw std::logic_error("warp lanes " + std::to_string(group) + " met where lanes " +
                                   std::to_string(f.mask) + " were to");
        unsigned lowest = ~0u, sum = 0, ballot = 0;
        for (unsigned i = 0; i < lanes_.size(); ++i) {
            if (!(group >> i & 1)) continue;
            lowest = lanes_[i].value < lowest ? lanes_[i].value : lowest;
            sum += lanes_[i].value;
            ballot |= (lanes_[i].value != 0) << i;
        }
        for (unsigned i = 0; i < lanes_.size(); ++i) {
            if (!(group >> i & 1)) continue;
            Lane& l = lanes_[i];
            unsigned same = 0;
            if (l.kind == MATCH)
                for (unsigned j = 0; j < lanes_.size(); ++j)
                    same |= (group >> j & 1 && lanes_[j].value == l.value) << j;
            const unsigned results[] = {group, lowest, sum, ballot, same};
            l.result = results[l.kind];
            l.waiting = false;
        }
        return true;
    }

    std::vector<Lane> lanes_;
    Context scheduler_;
    const void* scheduler_bottom_ = nullptr;
    size_t scheduler_size_ = 0;
    unsigned lane_ = 0;
    void (*body_)(void*, unsigned) = nullptr;
    void* body_arg_ = nullptr;
    void (*resumed_)(void*, unsigned) = nullptr;
    void* resumed_arg_ = nullptr;
};

inline unsigned meet(const void* site, Meet kind, unsigned mask, unsigned value) {
    if (!Warp::current) throw std::logic_error("warp lanes meet only in a launch of warps (warps=True)");
    return Warp::current->meet(site, kind, mask, value);
}

// A meeting point of its own for each kind, as each of the GPU's intrinsics is one.
template <Meet kind>
unsigned meet_at(unsigned mask, unsigned value) {
    static const char site = 0;
    return meet(&site, kind, mask, value);
}

}  // namespace cule::host_warps

// The meeting points, as kernels/types.h declares them for the GPU.
#define CULE_HOST_WARPS 1
namespace cule {
inline unsigned warp_lanes() { return host_warps::meet_at<host_warps::LANES>(0, 0); }
inline unsigned warp_min(unsigned lanes, unsigned v) { return host_warps::meet_at<host_warps::MIN>(lanes, v); }
inline unsigned warp_sum(unsigned lanes, unsigned v) { return host_warps::meet_at<host_warps::SUM>(lanes, v); }
inline unsigned warp_ballot(unsigned lanes, bool p) { return host_warps::meet_at<host_warps::BALLOT>(lanes, p); }
inline unsigned warp_match(unsigned lanes, unsigned v) { return host_warps::meet_at<host_warps::MATCH>(lanes, v); }
}  // namespace cule
