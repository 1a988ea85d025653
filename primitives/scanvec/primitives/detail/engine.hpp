// scanvec/primitives/detail/engine.hpp - the passes every scan-like primitive is built on.
//
// Three operations over (iterator, length): inclusive scan, exclusive scan and
// reduce. On CUDA they call CUB's single-pass decoupled look-back scan and its
// reduction directly, with temporary storage from the runtime's cache (no
// allocation, no synchronisation except to return a reduction to the host).
// On the host backend they are Thrust's OpenMP algorithms.
#pragma once

#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/policy.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cub/device/device_reduce.cuh>
#  include <cub/device/device_scan.cuh>
#else
#  include <thrust/reduce.h>
#  include <thrust/scan.h>
#endif

namespace scanvec::detail {

#if defined(SCANVEC_BACKEND_CUDA)
/// Runs a CUB device algorithm with the two-phase temporary storage hidden:
/// `call(temp, bytes)` is invoked once to size and once to run.
template <class Call> void cub_run(const char* op, Call&& call) {
    std::size_t bytes = 0;
    backend::check(call(nullptr, bytes), op);
    runtime::scratch temp(bytes ? bytes : 1);  // CUB reads a null pointer as a size query
    backend::check(call(temp.get(), bytes), op);
    backend::check_launch(op);
}
#endif

template <class In, class Out, class Op>
void inclusive_scan_n(In in, std::size_t n, Out out, Op op, stream_t s) {
    if (n == 0) return;
#if defined(SCANVEC_BACKEND_CUDA)
    cub_run("inclusive scan (cub::DeviceScan::InclusiveScan)", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::InclusiveScan(t, b, in, out, op, static_cast<index_t>(n), s);
    });
#else
    thrust::inclusive_scan(policy(s), in, in + n, out, op);
#endif
}

template <class In, class Out, class Op, class T>
void exclusive_scan_n(In in, std::size_t n, Out out, Op op, T init, stream_t s) {
    if (n == 0) return;
#if defined(SCANVEC_BACKEND_CUDA)
    cub_run("exclusive scan (cub::DeviceScan::ExclusiveScan)", [&](void* t, std::size_t& b) {
        return cub::DeviceScan::ExclusiveScan(t, b, in, out, op, init, static_cast<index_t>(n), s);
    });
#else
    thrust::exclusive_scan(policy(s), in, in + n, out, init, op);
#endif
}

/// Reduces n values to one, returned to the host (the one synchronisation).
template <class In, class Op, class T> T reduce_n(In in, std::size_t n, Op op, T init, stream_t s) {
    if (n == 0) return init;
#if defined(SCANVEC_BACKEND_CUDA)
    runtime::scratch result(sizeof(T));
    T* d_out = result.as<T>();
    cub_run("reduce (cub::DeviceReduce::Reduce)", [&](void* t, std::size_t& b) {
        return cub::DeviceReduce::Reduce(t, b, in, d_out, static_cast<index_t>(n), op, init, s);
    });
    T h;
    backend::read_small(&h, d_out, sizeof(T), s, "reduce (copy result)");
    return h;
#else
    return thrust::reduce(policy(s), in, in + n, init, op);
#endif
}

}  // namespace scanvec::detail
