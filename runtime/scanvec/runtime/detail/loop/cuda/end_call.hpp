// scanvec/runtime/detail/loop/cuda/end_call.hpp - the one launch that ends a
// captured call (or group of calls) of sv::repeat_while: the replaced state
// carried back, the call tallied and the loop's condition set (CUDA).
//
// Every node of a loop's body costs the device about as much as a small
// kernel, whatever it does, so what a call needs after the body's own work
// is one node: a copy per replaced array (for a bounded vector's room, only
// its live elements, and its length) and the tally, which reads the test,
// are independent and share one launch. A state of more arrays than one
// launch's parameters describe takes more launches, the tally in the last.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/detail/loop/cuda/graph.hpp>
#include <scanvec/runtime/detail/loop/state.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace runtime::detail {

/// An array carried back: bytes_per_element times the elements to carry
/// (*live of them for a bounded vector's room, else `elements`) from `from`
/// to `to`; and, when length_to is set, the length *live to it.
struct carried_array {
    unsigned char* to = nullptr;
    const unsigned char* from = nullptr;
    std::size_t elements = 0;
    std::size_t bytes_per_element = 0;
    const index_t* live = nullptr;
    index_t* length_to = nullptr;
};

/// The arrays one launch carries (its parameters stay far below their limit).
inline constexpr int carries_per_launch = 16;
struct carried_arrays {
    carried_array a[carries_per_launch];
    int count = 0;
};

/// The bytes of one carried array, copied by the whole grid: in words of 8
/// bytes (every block of the memory cache, and so every array, is aligned to
/// more), the tail byte by byte.
__device__ inline void carry_bytes(const carried_array& c) {
    const std::size_t n = c.live ? std::min<std::size_t>(std::size_t(*c.live < 0 ? 0 : *c.live), c.elements) : c.elements;
    const std::size_t bytes = n * c.bytes_per_element, words = bytes / 8;
    const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x, step = std::size_t(gridDim.x) * blockDim.x;
    auto* to = reinterpret_cast<unsigned long long*>(c.to);
    const auto* from = reinterpret_cast<const unsigned long long*>(c.from);
    for (std::size_t i = first; i < words; i += step) to[i] = from[i];
    for (std::size_t i = words * 8 + first; i < bytes; i += step) c.to[i] = c.from[i];
    if (c.length_to && first == 0) *c.length_to = index_t(n);
}

/// What the tally of a call needs besides its test: where it counts, the
/// loop's condition, the limit of calls, the deferred record, and (when the
/// body takes it) the body's call number, advanced to the next call's.
struct tally_target {
    repeat_counts* counts;
    cudaGraphConditionalHandle loop;
    unsigned long long limit;
    const ::scanvec::detail::deferred_failure* failure;
    std::uint64_t* call_number;
};

/// A call counted, up to and including the first whose test is 0, that
/// reaches the limit or whose deferred check failed (with tests every k calls,
/// the calls of the last group after it count nothing).
template <class Test> __device__ void count_call(const Test* test, const tally_target& tally) {
    repeat_counts* c = tally.counts;
    if (c->done) return;
    c->calls += 1;
    const bool failed = tally.failure && *static_cast<const char* const volatile*>(&tally.failure->op);
    if (*test == Test(0) || c->calls >= tally.limit || failed) c->done = 1;
    if (tally.call_number) *tally.call_number = c->calls;
}

/// A call inside a group of calls per test: counted only.
template <class Test> __global__ void count_call_kernel(const Test* test, tally_target tally) { count_call(test, tally); }

/// The end of a group of calls: the arrays carried back, then (test set) the
/// last call counted and the loop's condition set: go on while no call has
/// ended the count.
template <class Test> __global__ void end_call(carried_arrays arrays, const Test* test, tally_target tally) {
    for (int k = 0; k < arrays.count; ++k) carry_bytes(arrays.a[k]);
    if (test && blockIdx.x == 0 && threadIdx.x == 0) {
        count_call(test, tally);
        cudaGraphSetConditional(tally.loop, tally.counts->done ? 0u : 1u);
    }
}

/// Queues the count of a call that does not end its group on `capture`.
template <class Test> void launch_count_call(const Test* test, const tally_target& tally, stream_t capture, const char* op) {
    count_call_kernel<Test><<<1, 1, 0, capture>>>(test, tally);
    backend::check_launch(op);
}

/// Queues the end of a group of calls on `capture`: the carries, then the tally of test.
template <class Test>
void launch_end_call(const std::vector<carried_array>& carries, const Test* test, const tally_target& tally,
                     stream_t capture, const char* op) {
    std::size_t k = 0;
    do {
        carried_arrays part;
        std::size_t widest = 0;
        for (; k < carries.size() && int(part.count) < carries_per_launch; ++k) {
            part.a[part.count++] = carries[k];
            widest = std::max(widest, carries[k].elements * carries[k].bytes_per_element);
        }
        const bool last = k == carries.size();
        const unsigned blocks = unsigned(std::clamp<std::size_t>((widest / 8 + 255) / 256, 1, 1024));
        end_call<Test><<<blocks, 256, 0, capture>>>(part, last ? test : nullptr, tally);
        backend::check_launch(op);
    } while (k < carries.size());
}

}  SCANVEC_NAMESPACE_END  // runtime::detail
