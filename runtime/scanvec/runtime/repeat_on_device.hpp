// scanvec/runtime/repeat_on_device.hpp - rounds that the device repeats without the host.
//
//   sv::device_value<sv::index_t> test;
//   auto ran = sv::runtime::repeat_on_device(2, [&] {
//       ...queue one round, which leaves in test whether to go on...
//       return test.ptr();
//   });
//   // ran.calls rounds ran, ran.nonzero of them left their test nonzero
//
//   auto loop = sv::runtime::prepare_repeat(2, round);   // captured now (while earlier work runs)
//   auto ran = loop.run();                                // launched later, if at all
//
// A program of rounds (quicksort) decides after each round, from a number
// the round leaves on the device, whether to go on. Driven from the host,
// every round pays its launches and the host's read; where the kernels are
// short that is the time. Here the rounds are queued once and the device
// repeats them: on CUDA one graph, a conditional while node whose body is
// `period` calls of body(), after each of which a one-thread launch tallies
// the call and (after the period's last) sets the loop's condition to
// test != 0. The host launches it and waits once, at the end. On the host
// backend the calls simply run in a loop.
//
// The body queues its work on current_stream() and returns where that work
// leaves its test (an index_t in the backend's memory, written by the work).
// On CUDA it is called `period` times, once each, while prepare_repeat
// captures the calls (nothing runs until run()), and what the device runs
// again and again is those calls' work: the program's state must come back
// to the same memory after `period` calls (a state that alternates between
// two sets of buffers has period 2), and the body must not allocate, free or
// wait for the device (on CUDA an allocation or a free throws sv::error). The loop ends after the first
// period whose last call leaves its test 0, so a program whose rounds stay
// done once done may run up to period - 1 rounds past the one that ended it.
//
// A graph is instantiated once per call site (per type of body) and
// thread, and kept: a later call at that site captures its calls again into
// the kept loop and updates its executable graph in place, which costs the
// host much less than instantiating a new one. A loop prepared while the
// site's graph is held by another loop not yet run makes one of its own.
//
// SCANVEC_HOST_ROUNDS=1 in the environment (read once) turns the graphs off:
// run() then calls the body in a loop from the host, reading the test after
// each call, as on the host backend. For tools that cannot follow a graph's
// conditional loop: compute-sanitizer (CUDA 13.0) stops such a graph with an
// illegal address where the program alone runs clean (docs/design/small-calls.md).
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/memory.hpp>
#include <scanvec/runtime/stream.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/runtime/detail/loop/cuda/graph.hpp>
#endif

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace runtime {

/// Whether loops run on the device as graphs: on CUDA, unless
/// SCANVEC_HOST_ROUNDS is set (and not 0) in the environment.
inline bool device_loops() {
#if defined(SCANVEC_BACKEND_CUDA)
    static const bool on = [] {
        const char* v = std::getenv("SCANVEC_HOST_ROUNDS");
        return !v || !*v || std::string(v) == "0";
    }();
    return on;
#else
    return false;
#endif
}

/// What a loop on the device ran: calls of the body (a whole number of
/// periods), and of them those whose test was nonzero.
struct repeat_tally {
    std::uint64_t calls = 0;
    std::uint64_t nonzero = 0;
};

namespace detail {

inline void check_period(int period) {
    if (period < 1)
        throw error("sv::runtime::repeat_on_device: period " + std::to_string(period) + " (needs at least 1 call)");
}

#if defined(SCANVEC_BACKEND_CUDA)

/// Whether the cache handed out or took back a block between two looks.
inline bool memory_moved(const memory_stats& a, const memory_stats& b) {
    return a.cache_hits != b.cache_hits || a.backend_allocations != b.backend_allocations ||
           a.bytes_in_use != b.bytes_in_use;
}

#endif

inline constexpr const char* repeat_op = "sv::runtime::repeat_on_device";

}  // namespace detail

/// A loop made by prepare_repeat: run() has the device repeat it and returns
/// its tally (waits once). Run it at most once; not copyable.
class repeat_loop {
public:
    repeat_loop(const repeat_loop&) = delete;
    repeat_loop& operator=(const repeat_loop&) = delete;
    repeat_loop(repeat_loop&& o) noexcept { swap(o); }
    repeat_loop& operator=(repeat_loop&& o) noexcept {
        repeat_loop gone(std::move(o));
        swap(gone);
        return *this;
    }
    ~repeat_loop() {
#if defined(SCANVEC_BACKEND_CUDA)
        // the graph goes back to its site for the next call there, if the site is free
        // (and only on the site's own thread, while it lives)
        if (!graph_ || owner_ != std::this_thread::get_id()) return;
        if (const auto site = site_.lock(); site && !site->kept) site->kept = std::move(graph_);
#endif
    }

    repeat_tally run() {
#if defined(SCANVEC_BACKEND_CUDA)
        if (!graph_) return run_from_host();
        const stream_t launch = current_stream();
        backend::fill_zero(counts_.get(), sizeof(detail::repeat_counts), launch, detail::repeat_op);
        backend::check(cudaGraphLaunch(graph_->executable(), launch), detail::repeat_op);
        detail::repeat_counts ran{};
        backend::read_small(&ran, counts_.get(), sizeof(ran), launch, detail::repeat_op);
        return {ran.calls, ran.nonzero};
#else
        return run_from_host();
#endif
    }

private:
    template <class Body> friend repeat_loop prepare_repeat(int period, Body body);
    repeat_loop() = default;
    /// The calls from the host, the test read after each.
    repeat_tally run_from_host() {
        repeat_tally ran;
        for (;;) {
            bool go = false;
            for (int k = 0; k < period_; ++k) {
                index_t test = 0;
                backend::read_small(&test, body_(), sizeof(test), current_stream(), detail::repeat_op);
                go = test != 0;
                ++ran.calls;
                ran.nonzero += go ? 1 : 0;
            }
            if (!go) return ran;
        }
    }
    void swap(repeat_loop& o) noexcept {
        std::swap(period_, o.period_);
        std::swap(body_, o.body_);
#if defined(SCANVEC_BACKEND_CUDA)
        std::swap(graph_, o.graph_);
        std::swap(site_, o.site_);
        std::swap(owner_, o.owner_);
        std::swap(counts_, o.counts_);
#endif
    }

    int period_ = 1;
    std::function<const index_t*()> body_;  ///< kept where run() calls it (no graph)
#if defined(SCANVEC_BACKEND_CUDA)
    std::unique_ptr<detail::repeat_graph> graph_;  ///< as captured for this loop; null: the calls run from the host
    std::weak_ptr<detail::repeat_site> site_;
    std::thread::id owner_;
    scratch counts_;
#endif
};

/// Captures `period` calls of body() into a loop that run() repeats until a
/// period's last call leaves its test 0 (the contract above). On CUDA the
/// calls are made here, their work captured, not run; on the host backend
/// (or without device_loops()) body is kept and called by run(). Does not
/// wait for the device.
template <class Body> repeat_loop prepare_repeat(int period, Body body) {
    detail::check_period(period);
    repeat_loop loop;
    loop.period_ = period;
    if (!device_loops()) {
        loop.body_ = std::move(body);
        return loop;
    }
#if defined(SCANVEC_BACKEND_CUDA)
    constexpr const char* op = detail::repeat_op;
    loop.counts_ = scratch(sizeof(detail::repeat_counts));
    // the site's kept graph if it is free and of this device, else a new one
    const std::shared_ptr<detail::repeat_site>& site = detail::site_of<Body>();
    std::unique_ptr<detail::repeat_graph> graph = std::move(site->kept);
    int device = 0;
    backend::check(cudaGetDevice(&device), op);
    if (!graph || graph->device() != device) graph = std::make_unique<detail::repeat_graph>(op);
    const cudaGraph_t body_graph = graph->empty_body(op);
    const cudaGraphConditionalHandle condition = graph->condition();

    const stream_t capture = detail::capture_stream(op);
    const memory_stats before = memory().stats();
    {
        on scope(capture);
        backend::check(cudaStreamBeginCaptureToGraph(capture, body_graph, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal),
                       op);
        try {
            for (int k = 0; k < period; ++k) {
                const index_t* test = body();
                detail::repeat_tally_call<<<1, 1, 0, capture>>>(test, loop.counts_.as<detail::repeat_counts>(), condition,
                                                                k + 1 == period, ~0ull, nullptr);
                backend::check_launch(op);
            }
        } catch (...) {
            cudaGraph_t partial = nullptr;
            (void)cudaStreamEndCapture(capture, &partial);
            (void)cudaGetLastError();
            throw;
        }
        cudaGraph_t captured = nullptr;
        backend::check(cudaStreamEndCapture(capture, &captured), op);
    }
    if (detail::memory_moved(before, memory().stats()))
        throw error(std::string(op) + ": the body allocated or freed memory while it was captured; its rounds must reuse "
                                      "the same memory every " + std::to_string(period) + " calls");
    graph->make_executable(op);
    loop.graph_ = std::move(graph);
    loop.site_ = site;
    loop.owner_ = std::this_thread::get_id();
#endif
    return loop;
}

/// Repeats `period` calls of body() on the device until a period's last call
/// leaves its test 0 (the contract above): prepare_repeat(period, body).run().
/// Returns the calls run and those whose test was nonzero. Waits for the
/// device once, at the end.
template <class Body> repeat_tally repeat_on_device(int period, Body&& body) {
    return prepare_repeat(period, std::forward<Body>(body)).run();
}

}  SCANVEC_NAMESPACE_END  // runtime
