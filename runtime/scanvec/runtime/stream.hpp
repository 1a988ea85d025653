// scanvec/runtime/stream.hpp - which stream a thread's scanvec work is queued on.
//
//   {
//       sv::on scope(my_stream);       // everything this thread calls in here
//       auto r = sv::scan(a);          // runs on my_stream
//   }                                  // back to the stream before
//
// A vector belongs to the stream current when it was made: its memory goes
// back to scanvec's cache in that stream's order, so nothing reuses it while
// work queued there may still touch it. The stream must outlive the vectors
// made on it. A vector made on one stream may be read on another once the
// work that wrote it has finished (sv::synchronize(), or an event the user
// records). How blocks move between streams: docs/design/memory.md.
#pragma once

#include <scanvec/runtime/config.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cuda_runtime.h>
#endif

SCANVEC_NAMESPACE_BEGIN

#if defined(SCANVEC_BACKEND_CUDA)
using stream_t = cudaStream_t;
#else
/// The host backend has no streams; a stream is an opaque handle that changes nothing.
using stream_t = void*;
#endif

SCANVEC_NAMESPACE_END

#include <scanvec/runtime/detail/thread_context.hpp>

SCANVEC_NAMESPACE_BEGIN

namespace detail {
inline stream_t& thread_stream() noexcept { return this_thread().stream; }
}  // namespace detail

/// The stream scanvec work from this thread is queued on: the innermost
/// sv::on scope's, else the default stream (nullptr).
inline stream_t current_stream() noexcept { return detail::thread_stream(); }

/// A scope in which this thread's scanvec calls (primitives, vector
/// constructors, copies, reads to the host) are queued on `stream`. Scopes
/// nest; the destructor restores the stream before. Never waits.
class on {
public:
    explicit on(stream_t stream) noexcept : before_(detail::thread_stream()) { detail::thread_stream() = stream; }
    ~on() { detail::thread_stream() = before_; }
    on(const on&) = delete;
    on& operator=(const on&) = delete;

private:
    stream_t before_;
};

SCANVEC_NAMESPACE_END
