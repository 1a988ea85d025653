// scanvec/primitives/detail/elementwise/map.hpp - map, index and distribute
// over vectors and lazy views: their lengths checked, their views built.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Calls f with the fields of a zipped tuple: f(get<0>(t), get<1>(t), ...).
template <class F, std::size_t N> struct apply_zipped {
    F f;
    template <class Tuple> SCANVEC_HD auto operator()(const Tuple& t) const {
        return call(t, std::make_index_sequence<N>{});
    }
    template <class Tuple, std::size_t... I>
    SCANVEC_HD auto call(const Tuple& t, std::index_sequence<I...>) const {
        return f(thrust::get<I>(t)...);
    }
};

template <class A, class... B> std::size_t common_length(const char* op, const A& a, const B&... b) {
    (void)op;  // unused when there is only a
    (expect_same_length(op, a.size(), b.size()), ...);
    return a.size();
}

/// The element-wise iterator of f over the sequences (one pass, no memory).
template <class F, class A, class... B> auto map_iterator(F f, const A& a, const B&... b) {
    if constexpr (sizeof...(B) == 0) {
        return thrust::make_transform_iterator(reader(a), f);
    } else {
        return thrust::make_transform_iterator(thrust::make_zip_iterator(reader(a), reader(b)...),
                                               apply_zipped<F, 1 + sizeof...(B)>{f});
    }
}

/// The element type of a sequence or of a sv::dist::vector (none for other types).
template <class X, class = void> struct element_of {};
template <class X> struct element_of<X, std::enable_if_t<is_sequence_v<X>>> { using type = value_t<X>; };
template <class T> struct element_of<dist::vector<T>> { using type = T; };
/// What sv::dist::map(f, x...) returns.
template <class F, class... X>
using dist_map_t = dist::vector<std::decay_t<std::invoke_result_t<F, typename element_of<X>::type...>>>;

}  SCANVEC_NAMESPACE_END  // detail
