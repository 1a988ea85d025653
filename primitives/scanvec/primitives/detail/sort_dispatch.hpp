// scanvec/primitives/detail/sort_dispatch.hpp - the stable key-value sort the rank family stands on.
#pragma once

#include <scanvec/runtime/policy.hpp>

#include <thrust/sort.h>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct ascending {
    template <class T> SCANVEC_HD bool operator()(const T& a, const T& b) const { return a < b; }
};

/// Stable sort of (key, value) pairs by key. On CUDA: CUB's radix sort. On the
/// host a comparison sort: Thrust's sequential radix sort (CCCL 3.0) widens int
/// keys to 64 bits and so orders negative ints after the positive ones.
template <class K, class V> void stable_sort_pairs(K first, K last, V values, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    thrust::stable_sort_by_key(policy(s), first, last, values);
#else
    thrust::stable_sort_by_key(policy(s), first, last, values, ascending{});
#endif
}

}  SCANVEC_NAMESPACE_END  // detail
