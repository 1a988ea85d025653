// scanvec/primitives/detail/common/live.hpp - a step over a bounded
// sequence's capacity that acts on its first *live elements only.
//
// A bounded sequence (runtime/bounded.hpp) keeps its length in device memory,
// so a step on it is launched over the capacity the host knows and each
// position compares itself with the length there: one read of a word every
// thread of the launch shares. A position past the length does nothing (a
// functor of for_each_position) or reads as a value that does not change the
// result (masked: a scan's identity, a flag that is not set).
#pragma once

#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/policy.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// f(k) for the positions k below *live.
template <class F> struct only_live {
    F f;
    const index_t* live;
    SCANVEC_HD void operator()(index_t k) const {
        if (k < read_only(live)) f(k);
    }
};

/// f(k) for k in 0..n-1, or with live (a length on the device) for k below *live only.
template <class F> void for_each_position(std::size_t n, F f, const index_t* live, stream_t s, const char* op) {
    if (n == 0) return;
    if (live) thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), index_t(n), only_live<F>{f, live});
    else thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), index_t(n), f);
    backend::check_launch(op);
}

/// in[k] below *live, fill past it.
template <class It, class T> struct live_or {
    It in;
    const index_t* live;
    T fill;
    SCANVEC_HD T operator()(index_t k) const { return k < read_only(live) ? T(in[k]) : fill; }
};

/// An iterator over in whose positions from *live on read as fill.
template <class T, class It> auto masked(It in, const index_t* live, T fill) {
    return thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), live_or<It, T>{in, live, fill});
}

}  SCANVEC_NAMESPACE_END  // detail
