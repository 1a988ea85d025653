// scanvec/primitives/detail/sort/dispatch.hpp - the stable sorts the rank family and the combining writes stand on.
#pragma once

#include <scanvec/runtime/policy.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <thrust/sort.h>
#else
#  include <scanvec/primitives/detail/sort/host.hpp>  // ascending
#  include <thrust/memory.h>
#endif

SCANVEC_NAMESPACE_BEGIN namespace detail {

// On the host none of these sorts through Thrust: its OpenMP sort allocates
// inside a parallel region, where an out-of-memory terminates (sort/host.hpp).

/// Stable sort of (key, value) pairs by key (contiguous ranges). On CUDA:
/// CUB's radix sort. On the host sort/host.hpp's (integer keys: radix sorted tiles, merged).
template <class K, class V> void stable_sort_pairs(K first, K last, V values, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    thrust::stable_sort_by_key(policy(s), first, last, values);
#else
    (void)s;
    omp_stable_sort_by_key(thrust::raw_pointer_cast(first), index_t(last - first), thrust::raw_pointer_cast(values),
                           ascending{});
#endif
}

/// Sort of (key, value) pairs by key, stability not needed (contiguous ranges).
template <class K, class V> void sort_pairs(K first, K last, V values, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    thrust::sort_by_key(policy(s), first, last, values);
#else
    stable_sort_pairs(first, last, values, s);
#endif
}

/// Stable sort of a contiguous range by comp.
template <class It, class C> void stable_sort_by(It first, It last, C comp, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    thrust::stable_sort(policy(s), first, last, comp);
#else
    (void)s;
    omp_stable_sort(thrust::raw_pointer_cast(first), index_t(last - first), comp);
#endif
}

}  SCANVEC_NAMESPACE_END  // detail
