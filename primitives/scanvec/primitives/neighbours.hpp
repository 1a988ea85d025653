// scanvec/primitives/neighbours.hpp - each element's neighbours, and the heads of runs.
//
//   sv::previous(a, fill)   r[0] = fill, r[i] = a[i-1]       (the left neighbour)
//   sv::next(a, fill)       r[i] = a[i+1], r[n-1] = fill     (the right neighbour)
//   sv::run_heads(a)        r[0] = true, r[i] = !(a[i] == a[i-1]): the first of every
//                           run of equal elements (in a sorted vector, the first of
//                           each distinct value); a vector<bool>
//
// a is a vector or a view of arithmetic values or described structs (run_heads
// needs a SCANVEC_HD operator== for structs). Each has a lazy twin in sv::lazy
// that returns a view: a neighbour is read inside the primitive consuming it.
#pragma once

#include <scanvec/primitives/detail/neighbours/shifts.hpp>
#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <type_traits>

SCANVEC_NAMESPACE_BEGIN

namespace lazy {

/// r[0] = fill, r[i] = a[i-1]; read when consumed.
template <class A, std::enable_if_t<is_sequence_v<A>, int> = 0> auto previous(const A& a, const value_t<A>& fill) {
    return detail::neighbours<-1>(a, fill);
}

/// r[i] = a[i+1], r[n-1] = fill; read when consumed.
template <class A, std::enable_if_t<is_sequence_v<A>, int> = 0> auto next(const A& a, const value_t<A>& fill) {
    return detail::neighbours<+1>(a, fill);
}

/// r[0] = true, r[i] = !(a[i] == a[i-1]); computed when consumed.
template <class A, std::enable_if_t<is_sequence_v<A>, int> = 0> auto run_heads(const A& a) {
    using F = detail::run_head_at<decltype(detail::reader(a)), value_t<A>>;
    return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), F{detail::reader(a)}),
                a.size());
}

}  // namespace lazy

// (The constraints keep these out of overload sets meant for iterators, such as
// an unqualified next(it, k) that finds scanvec by argument-dependent lookup.)

/// r[0] = fill, r[i] = a[i-1]: each element's left neighbour. O(n) work, one step; queued.
template <class A, std::enable_if_t<is_sequence_v<A>, int> = 0>
vector<value_t<A>> previous(const A& a, const value_t<A>& fill) {
    return detail::labelled("previous", a.size(), [&] { return detail::evaluate_neighbours(lazy::previous(a, fill)); }, a);
}

/// r[i] = a[i+1], r[n-1] = fill: each element's right neighbour. O(n) work, one step; queued.
template <class A, std::enable_if_t<is_sequence_v<A>, int> = 0>
vector<value_t<A>> next(const A& a, const value_t<A>& fill) {
    return detail::labelled("next", a.size(), [&] { return detail::evaluate_neighbours(lazy::next(a, fill)); }, a);
}

/// r[0] = true (n > 0), r[i] = !(a[i] == a[i-1]): the heads of runs of equal elements.
/// O(n) work, one step; queued.
template <class A, std::enable_if_t<is_sequence_v<A>, int> = 0> vector<bool> run_heads(const A& a) {
    return detail::labelled("run_heads", a.size(), [&] { return detail::evaluate_neighbours(lazy::run_heads(a)); }, a);
}

SCANVEC_NAMESPACE_END
