// scanvec/primitives/elementwise.hpp - map, index, distribute.
//
//   sv::map(f, a, b, ...)   r[i] = f(a[i], b[i], ...)
//   sv::index(n)            r[i] = i
//   sv::distribute(v, n)    n copies of v
//
// Each has a lazy twin in sv::lazy that returns a view: nothing is computed
// until a primitive consumes it, inside that primitive's own pass.
#pragma once

#include <scanvec/primitives/detail/elementwise/map.hpp>
#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/runtime/bounded.hpp>
#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

SCANVEC_NAMESPACE_BEGIN

/// Result type of sv::map(f, a, b...).
template <class F, class... X> using map_result_t = std::decay_t<std::invoke_result_t<F, value_t<X>...>>;

namespace lazy {

/// r[i] = f(a[i], b[i], ...), computed when consumed. (With a lazy scan among
/// the arguments, see lazy_scan.hpp.)
template <class F, class A, class... B, std::enable_if_t<(is_sequence_v<A> && ... && is_sequence_v<B>), int> = 0>
auto map(F f, const A& a, const B&... b) {
    std::size_t n = detail::common_length("map", a, b...);
    return view(detail::map_iterator(f, a, b...), n);
}

/// r[i] = i (as sv::index_t, or I), computed when consumed.
template <class I = index_t> auto index(std::size_t n) { return view(thrust::counting_iterator<I>(0), n); }

/// n copies of v, computed when consumed.
template <class T> auto distribute(const T& v, std::size_t n) { return view(thrust::constant_iterator<T>(v), n); }

}  // namespace lazy

/// r[i] = f(a[i], b[i], ...). Struct results are stored as struct-of-arrays.
/// O(n) work, one step; queued (no wait).
template <class F, class A, class... B,
          std::enable_if_t<!detail::any_dist_vector_v<A, B...> && !(is_bounded_v<A> || ... || is_bounded_v<B>), int> = 0>
auto map(F f, const A& a, const B&... b) {
    static_assert(is_sequence_v<A> && (is_sequence_v<B> && ...), "sv::map(f, a, ...): a, ... must be vectors or views");
    return detail::labelled({"map", {"A", "B", "C", "D", "E", "F"}, "Map"}, a.size(), [&] {
        std::size_t n = detail::common_length("map", a, b...);
        vector<map_result_t<F, A, B...>> r(n, no_init);
        if (n) {
            auto s = current_stream();
            if constexpr (sizeof...(B) == 0)
                thrust::transform(detail::policy(s), detail::reader(a), detail::reader(a) + n, detail::writer(r), f);
            else
                thrust::copy_n(detail::policy(s), detail::map_iterator(f, a, b...), n, detail::writer(r));
            backend::check_launch("map");
        }
        return r;
    }, a, b...);
}

/// sv::map given a sv::dist::vector among its sequences: one error that names
/// sv::dist::map (detail/common/one_device_only.hpp). sv::dist::map takes a pack of
/// vectors too, so the usual guard and it would tie for one vector; this one
/// has the form of sv::map above and is chosen exactly where that one is not,
/// and sv::dist::map is the more specialised of the two. (Its condition is in
/// the return type: g++ does not order it below sv::dist::map as a template
/// parameter after the pack.)
template <class F, class A, class... B>
auto map(F, const A&, const B&...)
    -> std::enable_if_t<detail::any_dist_vector_v<A, B...>, detail::dist_map_t<F, A, B...>> {
    static_assert(detail::one_device_guard_called<A>, SCANVEC_DETAIL_ONE_DEVICE_MESSAGE(map));
    return detail::never_returned<detail::dist_map_t<F, A, B...>, A>();
}

/// r[i] = i, as sv::index_t (or I). O(n) work, one step; queued (no wait).
template <class I = index_t> vector<I> index(std::size_t n) {
    return detail::labelled({"index", {}, "Index"}, n, [&] { return materialize(lazy::index<I>(n)); });
}

/// n copies of v. O(n) work, one step; queued (no wait).
template <class T> vector<T> distribute(const T& v, std::size_t n) {
    return detail::labelled({"distribute", {"A"}, "Distributed"}, n, [&] { return vector<T>(n, v); });
}

SCANVEC_NAMESPACE_END
