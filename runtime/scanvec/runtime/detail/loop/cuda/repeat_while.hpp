// scanvec/runtime/detail/loop/cuda/repeat_while.hpp - sv::repeat_while as
// one CUDA graph: the body's first call captured into a conditional while
// node, which the device repeats (CUDA).
//
// The body's calls are made once, under capture: nothing runs, each kernel is
// recorded with the addresses it was given, and the memory they take comes
// from the loop's pool (capture_pool.hpp). The captured call reads the state
// where it was before the loop; where the body replaced a state array (a = f(a)
// leaves a in a new block), a copy of the new value back to the old place
// ends the call, so the next call reads it there; after the loop the vectors
// hold their last values in the new blocks. The same launch (end_call.hpp)
// counts the call and sets the loop's condition from the test the call left.
// The host launches the graph and waits once, for the count.
#pragma once

#include <scanvec/runtime/detail/loop/cuda/capture_pool.hpp>
#include <scanvec/runtime/detail/loop/cuda/end_call.hpp>
#include <scanvec/runtime/detail/loop/cuda/graph.hpp>
#include <scanvec/runtime/detail/loop/host.hpp>
#include <scanvec/runtime/detail/loop/state.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace runtime::detail {

/// What the exception being handled says.
inline std::string what_of_current_exception() {
    try {
        throw;
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}

/// After the captured call: what the call's end carries back to the old
/// place, for every state array the body replaced (of a bounded vector's
/// room only the live elements, its length with it); throws for a state the
/// device cannot repeat.
inline std::vector<carried_array> state_to_carry_back(const std::vector<state_array>& arrays, const capture_pool& pool) {
    constexpr const char* op = repeat_while_op;
    expect_lengths_kept(arrays);
    std::vector<carried_array> out;
    std::vector<bool> carried(arrays.size(), false);
    for (std::size_t k = 0; k < arrays.size(); ++k) {
        const state_array& a = arrays[k];
        if (a.now() == a.before || a.size_before == 0) continue;
        if (!pool.freed_from_before(a.before))
            throw error(std::string(op) + ": the state's array " + std::to_string(k) +
                        " moved to a block another vector still holds (a swap of state vectors?); the body must "
                        "give each state vector a new value (a = f(a, b)), not exchange them");
        if (carried[k]) continue;
        carried_array c;
        c.to = static_cast<unsigned char*>(a.before);
        c.from = static_cast<const unsigned char*>(a.now());
        c.elements = a.size_before;
        c.bytes_per_element = a.element_bytes;
        if (a.live) {  // a bounded vector's room: its live elements, and its length if that moved too
            c.live = a.live(a.owner);
            const state_array& length = arrays[a.length_array];
            if (length.now() != length.before && !carried[a.length_array]) {
                c.length_to = static_cast<index_t*>(length.before);
                carried[a.length_array] = true;
            }
        }
        out.push_back(c);
    }
    for (const auto& [p, bytes] : pool.freed_before()) {
        bool state = false;
        for (const state_array& a : arrays) state = state || a.before == p;
        if (!state)
            throw error(std::string(op) + ": the loop body replaced or dropped a vector made before the loop (" +
                        std::to_string(bytes) + " bytes) that is not in the loop's state: name every vector the "
                        "body assigns in the state (sv::repeat_while(std::tie(a, b, ...), body))");
    }
    return out;
}

/// After a failed capture, when nothing has run: every state array gets its
/// value from before the loop back (its old block still holds it: the pool
/// never hands such a block out), in a block of its own; an array that cannot
/// be remade is left empty.
inline void restore_state(const std::vector<state_array>& arrays, stream_t launch) noexcept {
    std::vector<scratch> saved(arrays.size());
    for (std::size_t k = 0; k < arrays.size(); ++k) {  // every old value first: a remake frees blocks
        const state_array& a = arrays[k];
        if (a.now() == a.before && a.size_now() == a.size_before) continue;
        try {
            saved[k] = scratch(a.bytes_before());
            backend::copy_on_device(saved[k].get(), a.before, a.bytes_before(), launch, repeat_while_op);
        } catch (...) {
            saved[k] = scratch();
            a.remake(a.vec, 0);
        }
    }
    for (std::size_t k = 0; k < arrays.size(); ++k) {
        const state_array& a = arrays[k];
        if (!saved[k].get()) continue;
        try {
            a.remake(a.vec, a.size_before);
            backend::copy_on_device(a.now(), saved[k].get(), a.bytes_before(), launch, repeat_while_op);
        } catch (...) {
            a.remake(a.vec, 0);
        }
    }
}

template <class... V, class Body>
std::size_t repeat_while_on_device(const std::tuple<V&...>& state, Body& body, std::size_t every, std::size_t max_calls) {
    constexpr const char* op = repeat_while_op;
    if (::scanvec::detail::this_thread().capture)
        throw error(std::string(op) + ": a loop inside a loop body that the device repeats (loops do not nest)");
    const stream_t launch = current_stream();
    const std::vector<state_array> arrays = arrays_of(state);
    scratch counts(sizeof(repeat_counts));
    const device_value<call_number_t> call(launch);

    const std::shared_ptr<repeat_site>& site = site_of<Body>();
    std::unique_ptr<repeat_graph> graph = std::move(site->kept);
    int device = 0;
    backend::check(cudaGetDevice(&device), op);
    if (!graph || graph->device() != device) graph = std::make_unique<repeat_graph>(op);
    const cudaGraph_t body_graph = graph->empty_body(op);
    const stream_t capture = capture_stream(op);

    capture_pool pool(launch);
    try {
        on scope(capture);
        // relaxed: a block new to the cache is allocated while capturing
        backend::check(cudaStreamBeginCaptureToGraph(capture, body_graph, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed),
                       op);
        try {
            const tally_target tally{counts.as<repeat_counts>(), graph->condition(), max_calls, backend::deferred_record(),
                                     takes_call_number_v<Body> ? call.ptr() : nullptr};
            for (std::size_t k = 1;; ++k) {  // a group of `every` calls, the test read after the last
                decltype(auto) test = call_body(body, call);
                using T = std::decay_t<decltype(*test.ptr())>;
                if (k == every) {
                    launch_end_call<T>(state_to_carry_back(arrays, pool), test.ptr(), tally, capture, op);
                    break;
                }
                expect_lengths_kept(arrays);
                launch_count_call<T>(test.ptr(), tally, capture, op);
            }
        } catch (...) {
            cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
            (void)cudaStreamIsCapturing(capture, &status);
            cudaGraph_t partial = nullptr;
            (void)cudaStreamEndCapture(capture, &partial);
            (void)cudaGetLastError();
            if (status == cudaStreamCaptureStatusInvalidated)  // a call the capture refused (a wait, most likely)
                throw error(std::string(op) + ": the loop body made a call that a captured body cannot (" +
                            what_of_current_exception() + "); a body queues work and waits for nothing");
            throw;
        }
        cudaGraph_t captured = nullptr;
        backend::check(cudaStreamEndCapture(capture, &captured), op);
    } catch (...) {
        pool.stop();
        restore_state(arrays, launch);
        throw;
    }
    pool.stop();
    try {  // nothing has run until the launch
        graph->make_executable(op);
        backend::fill_zero(counts.get(), sizeof(repeat_counts), launch, op);
        if (takes_call_number_v<Body>) backend::fill_zero(call.ptr(), sizeof(call_number_t), launch, op);
        backend::check(cudaGraphLaunch(graph->executable(), launch), op);
    } catch (...) {
        restore_state(arrays, launch);
        throw;
    }
    pool.give_back();  // in the launch stream's order: after the loop
    repeat_counts ran{};
    backend::read_small(&ran, counts.get(), sizeof(ran), launch, op);
    if (!site->kept) site->kept = std::move(graph);
    return std::size_t(ran.calls);
}

}  SCANVEC_NAMESPACE_END  // runtime::detail
