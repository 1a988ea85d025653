// scanvec/primitives/scan.hpp - scans and reductions with any associative operator.
//
//   sv::scan(a, op)            exclusive: r[0] = id, r[i] = a[0] op ... op a[i-1]
//   sv::inclusive_scan(a, op)  r[i] = a[0] op ... op a[i]
//   sv::reduce(a, op)          a[0] op ... op a[n-1]  (id for n = 0)
//   sv::scan_total(a, op)      {exclusive scan, total}: the total without a second pass
//   sv::backward_scan(a, op), sv::backward_inclusive_scan(a, op)
//                              right to left: r[i] = a[i+1] op ... op a[n-1] (exclusive)
//
// op defaults to sv::plus of the element type; operators need not commute.
#pragma once

#include <scanvec/primitives/detail/engine.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/iterator/reverse_iterator.h>

namespace scanvec {
namespace detail {

template <class It> auto reversed(It first, std::size_t n) { return thrust::make_reverse_iterator(first + n); }

/// An iterator writing element n-1-i at position i (into a vector of length n).
template <class T> auto reversed_writer(vector<T>& v) { return reversed(writer(v), v.size()); }
template <class T> auto reversed_writer(vector<T, true>& v) {
    return thrust::make_transform_output_iterator(reversed(v.begin(), v.size()),
                                                  typename soa_codec<fields_of<T>>::encode{});
}

template <class A, class Op> void inclusive_into(const A& a, vector<value_t<A>>& r, Op op, bool backward) {
    auto s = stream_of(a);
    if (backward)
        inclusive_scan_n(reversed(reader(a), a.size()), a.size(), reversed_writer(r), flipped<Op>{op}, s);
    else
        inclusive_scan_n(reader(a), a.size(), writer(r), op, s);
}

template <class A, class Op> void exclusive_into(const A& a, vector<value_t<A>>& r, Op op, bool backward) {
    auto s = stream_of(a);
    using T = value_t<A>;
    if (backward)
        exclusive_scan_n(reversed(reader(a), a.size()), a.size(), reversed_writer(r), flipped<Op>{op},
                         T(op.identity()), s);
    else
        exclusive_scan_n(reader(a), a.size(), writer(r), op, T(op.identity()), s);
}

}  // namespace detail

/// Exclusive scan: r[0] = identity, r[i] = a[0] op ... op a[i-1].
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> scan(const A& a, Op op = {}) {
    return detail::labelled("scan", a.size(), [&] {
        vector<value_t<A>> r(a.size(), no_init);
        detail::exclusive_into(a, r, op, false);
        return r;
    }, a);
}

/// Inclusive scan: r[i] = a[0] op ... op a[i].
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> inclusive_scan(const A& a, Op op = {}) {
    return detail::labelled("inclusive_scan", a.size(), [&] {
        vector<value_t<A>> r(a.size(), no_init);
        detail::inclusive_into(a, r, op, false);
        return r;
    }, a);
}

/// Right-to-left exclusive scan: r[n-1] = identity, r[i] = a[i+1] op ... op a[n-1].
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> backward_scan(const A& a, Op op = {}) {
    return detail::labelled("backward_scan", a.size(), [&] {
        vector<value_t<A>> r(a.size(), no_init);
        detail::exclusive_into(a, r, op, true);
        return r;
    }, a);
}

/// Right-to-left inclusive scan: r[i] = a[i] op ... op a[n-1].
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> backward_inclusive_scan(const A& a, Op op = {}) {
    return detail::labelled("backward_inclusive_scan", a.size(), [&] {
        vector<value_t<A>> r(a.size(), no_init);
        detail::inclusive_into(a, r, op, true);
        return r;
    }, a);
}

/// a[0] op ... op a[n-1]; the identity for an empty vector.
template <class A, class Op = plus<value_t<A>>> value_t<A> reduce(const A& a, Op op = {}) {
    using T = value_t<A>;
    return detail::labelled_scalar("reduce", a.size(), [&] {
        return detail::reduce_n(detail::reader(a), a.size(), op, T(op.identity()), detail::stream_of(a));
    }, a);
}

/// An exclusive scan and the total of all elements.
template <class T> struct scan_result {
    vector<T> values;
    T total;
    std::size_t size() const { return values.size(); }
};

/// The exclusive scan and its total; the total is r[n-1] op a[n-1], read
/// from the ends of the vectors, not a second pass over the data.
template <class A, class Op = plus<value_t<A>>> scan_result<value_t<A>> scan_total(const A& a, Op op = {}) {
    using T = value_t<A>;
    return detail::labelled("scan_total", a.size(), [&] {
        scan_result<T> res{vector<T>(a.size(), no_init), T(op.identity())};
        detail::exclusive_into(a, res.values, op, false);
        if (!a.empty()) res.total = op(res.values[a.size() - 1], detail::element_at(a, a.size() - 1));
        return res;
    }, a);
}

}  // namespace scanvec
