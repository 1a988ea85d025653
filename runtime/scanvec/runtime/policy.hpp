// scanvec/runtime/policy.hpp - the Thrust execution policy every primitive runs with.
//
// Temporaries that Thrust needs come from the runtime's cache, and on CUDA the
// policy never synchronises: work is ordered on the stream, and the host waits
// only when a result must come back to it.
#pragma once

#include <scanvec/runtime/memory.hpp>

#include <thrust/execution_policy.h>
#if defined(SCANVEC_BACKEND_CUDA)
#  include <thrust/system/cuda/execution_policy.h>
#else
#  include <thrust/system/omp/execution_policy.h>
#  if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#    error "scanvec host backend: Thrust's device system must be OMP (link scanvec::scanvec), not CUDA"
#  endif
#endif

SCANVEC_NAMESPACE_BEGIN namespace detail {

inline runtime::cached_allocator& thrust_allocator() {
    static runtime::cached_allocator alloc;
    return alloc;
}

/// The policy for work on stream s (by default this thread's current stream).
inline auto policy(stream_t s = current_stream()) {
#if defined(SCANVEC_BACKEND_CUDA)
    return thrust::cuda::par_nosync(thrust_allocator()).on(s);
#else
    (void)s;
    return thrust::omp::par(thrust_allocator());
#endif
}

}  SCANVEC_NAMESPACE_END  // detail
