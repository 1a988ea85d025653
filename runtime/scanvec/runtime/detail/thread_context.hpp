// scanvec/runtime/detail/thread_context.hpp - what scanvec keeps for each host thread, in one place.
//
// Each host thread that calls scanvec has one context, made at its first call
// and destroyed when the thread ends: the stream its calls are queued on
// (sv::on), the trace's state (label.hpp), and on CUDA the pinned buffer for
// small results, the pinned slots of asynchronous reads, the event and the
// side streams that order streams (backend.hpp), the stream that captures
// loops and, while a loop body is captured, where its memory requests go
// (runtime/detail/loop/), and the blocks of device memory the checks
// keep between calls (detail/permute/cuda/check_state.hpp), which come from
// the memory cache and go back to it when the thread ends. What belongs to a
// call site rather than to a thread (a loop body's graph, the temporary size
// of one CUB call, a device attribute) stays at the call site.
//
// Included by stream.hpp, after stream_t.
#pragma once

#include <scanvec/runtime/config.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cuda_runtime.h>
#endif

#include <cstddef>
#include <deque>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

namespace runtime {
struct observer;

/// The names of the vectors of one call, in the model's terms: its inputs in
/// order, then its result (null: not named).
struct roles {
    const char* in[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    const char* out = nullptr;
};

/// The trace's state on a thread (label.hpp).
struct observer_state {
    observer* current = nullptr;
    int level = 0;
    bool made_call = false;  // the running call has called a primitive itself
    bool has_roles = false;  // next_roles names the next call's vectors
    roles next_roles;
};
}  // namespace runtime

namespace detail {

/// Where a thread's memory requests go while a loop body is captured (CUDA,
/// runtime/detail/loop/cuda/capture_pool.hpp): the process-wide cache sends
/// them here instead of serving them itself.
struct capture_memory {
    virtual void* allocate(std::size_t bytes) = 0;
    virtual void deallocate(void* p, std::size_t bytes) noexcept = 0;

protected:
    ~capture_memory() = default;
};

/// The first failure a deferred check found (sv::deferred_checks), written
/// where the check ran (on CUDA a kernel's store into pinned host memory) and
/// read by the host at its next wait: op is the call's name (a string
/// literal's address, so device code can store it), null while none.
struct deferred_failure {
    const char* op;
    long long position, value, bound;
    /// 0: idx[position] = value is out of range for length bound; 1: a
    /// result of value elements exceeded its capacity bound.
    int kind;
};

/// Bytes of the buffer for small results (backend::result_buffer).
inline constexpr std::size_t result_buffer_bytes = 256;

#if defined(SCANVEC_BACKEND_CUDA)
/// A block of device memory a thread keeps from call to call, on one device,
/// for one kind of state (its owner's tag); release gives it back to where it
/// came from (the memory cache). The other members are the owner's to use.
struct kept_block {
    const void* kind = nullptr;
    int device = -1;
    void* p = nullptr;
    std::size_t bytes = 0;
    void (*release)(void*, std::size_t) = nullptr;
    unsigned epoch = 0;
    bool busy = false, clean = false;
    cudaStream_t stream = nullptr;  ///< for state kept per stream (a deferred check's word)
};

/// A pinned host slot and the event that says its copy has landed (backend::async_read).
struct pinned_slot {
    void* host = nullptr;
    cudaEvent_t done = nullptr;
};
#endif

struct thread_context {
    stream_t stream = nullptr;  ///< the innermost sv::on scope's, else the default stream
    runtime::observer_state observation;
    capture_memory* capture = nullptr;  ///< while a loop body is captured (sv::repeat_while; CUDA only)
    int deferring = 0;                  ///< sv::deferred_checks scopes open on this thread
#if defined(SCANVEC_BACKEND_CUDA)
    void* result_buffer = nullptr;           ///< pinned, result_buffer_bytes; made at first use
    std::vector<pinned_slot> free_reads;     ///< the asynchronous reads' slots not in use
    cudaEvent_t order_event = nullptr;       ///< backend::order_after's
    std::vector<cudaStream_t> side_streams;  ///< backend::side_stream's, by device ordinal
    cudaStream_t capture_stream = nullptr;   ///< repeat_on_device's (capture needs a stream of its own)
    deferred_failure* deferred = nullptr;    ///< pinned; made at the first deferred check
    std::deque<kept_block> kept;             ///< a deque: references stay valid as blocks are added

    thread_context() = default;
    thread_context(const thread_context&) = delete;
    thread_context& operator=(const thread_context&) = delete;
    /// Gives everything back, leaving no handle set: a static object destroyed
    /// after the main thread's context (a vector returning its block at exit)
    /// still reads the stream, and would make anew what it asks for.
    ~thread_context() {
        release_kept();
        for (pinned_slot& s : free_reads) {
            (void)cudaFreeHost(s.host);
            (void)cudaEventDestroy(s.done);
        }
        free_reads.clear();
        if (result_buffer) (void)cudaFreeHost(result_buffer);
        result_buffer = nullptr;
        if (deferred) (void)cudaFreeHost(deferred);
        deferred = nullptr;
        if (order_event) (void)cudaEventDestroy(order_event);
        order_event = nullptr;
        for (cudaStream_t s : side_streams)
            if (s) (void)cudaStreamDestroy(s);
        side_streams.clear();
        if (capture_stream) (void)cudaStreamDestroy(capture_stream);
        capture_stream = nullptr;
    }
    /// Gives the kept blocks back (the next check that needs one makes it again).
    void release_kept() noexcept {
        for (kept_block& b : kept)
            if (b.p && b.release) b.release(b.p, b.bytes);
        kept.clear();
    }
#else
    void release_kept() noexcept {}
    alignas(16) unsigned char result_buffer[result_buffer_bytes];  ///< what work stores directly
    deferred_failure deferred[1] = {};                              ///< what deferred checks store
    unsigned long long deferred_word = ~0ull;                       ///< a deferred check's first bad position
#endif
};

/// This thread's context.
inline thread_context& this_thread() noexcept {
    thread_local thread_context context;
    return context;
}

}  // namespace detail

SCANVEC_NAMESPACE_END
