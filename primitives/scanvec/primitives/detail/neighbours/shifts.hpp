// scanvec/primitives/detail/neighbours/shifts.hpp - the shifts behind previous
// and next: each element's neighbour read in place.
#pragma once

#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// r(i) = a[i + Offset], or fill where that is outside 0..n-1.
template <class In, class T, int Offset> struct neighbour_at {
    In in;
    index_t n;
    T fill;
    SCANVEC_HD T operator()(index_t i) const {
        const index_t j = i + Offset;
        if (j < 0 || j >= n) return fill;
        return T(in[j]);
    }
};

/// r(i) = a[i] starts a run of equal elements (i == 0, or it differs from a[i-1]).
template <class In, class T> struct run_head_at {
    In in;
    SCANVEC_HD bool operator()(index_t i) const {
        if (i == 0) return true;
        const T here = in[i];
        const T before = in[i - 1];
        return !(here == before);
    }
};

template <int Offset, class A> auto neighbours(const A& a, const value_t<A>& fill) {
    using In = decltype(reader(a));
    using F = neighbour_at<In, value_t<A>, Offset>;
    return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                F{reader(a), index_t(a.size()), fill}),
                a.size());
}

/// Evaluates a lazy neighbour view, on the current stream.
template <class V> vector<value_t<V>> evaluate_neighbours(const V& v) {
    vector<value_t<V>> r(v.size(), no_init);
    if (!v.empty()) {
        thrust::copy_n(policy(current_stream()), reader(v), v.size(), writer(r));
        backend::check_launch("neighbours");
    }
    return r;
}

}  SCANVEC_NAMESPACE_END  // detail
