// scanvec/primitives/scan.hpp - scans and reductions with any associative operator.
//
//   sv::scan(a, op)            exclusive: r[0] = id, r[i] = a[0] op ... op a[i-1]
//   sv::inclusive_scan(a, op)  r[i] = a[0] op ... op a[i]
//   sv::reduce(a, op)          a[0] op ... op a[n-1]  (id for n = 0)
//   sv::reduce_to_device(a, op) the same left on the device (sv::device_value):
//                              the next step's functors read it, no host round trip
//   sv::scan_total(a, op)      {exclusive scan, total}: the total without a second pass
//   sv::backward_scan(a, op), sv::backward_inclusive_scan(a, op)
//                              right to left: r[i] = a[i+1] op ... op a[n-1] (exclusive)
//
// op defaults to sv::plus of the element type; operators need not commute.
#pragma once

#include <scanvec/primitives/detail/scan/passes.hpp>
#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/runtime/interop.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/iterator/reverse_iterator.h>

SCANVEC_NAMESPACE_BEGIN

/// Exclusive scan: r[0] = identity, r[i] = a[0] op ... op a[i-1].
/// O(n) work, one step; queued (no wait).
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> scan(const A& a, Op op = {}) {
    return detail::scan_pass<false, false>("scan", a, op);
}

/// Inclusive scan: r[i] = a[0] op ... op a[i].
/// O(n) work, one step; queued (no wait).
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> inclusive_scan(const A& a, Op op = {}) {
    return detail::scan_pass<true, false>("inclusive_scan", a, op);
}

/// Right-to-left exclusive scan: r[n-1] = identity, r[i] = a[i+1] op ... op a[n-1].
/// O(n) work, one step; queued (no wait).
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> backward_scan(const A& a, Op op = {}) {
    return detail::scan_pass<false, true>("backward_scan", a, op);
}

/// Right-to-left inclusive scan: r[i] = a[i] op ... op a[n-1].
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> backward_inclusive_scan(const A& a, Op op = {}) {
    return detail::scan_pass<true, true>("backward_inclusive_scan", a, op);
}

/// The four scans written into the caller's memory (sv::into): out must hold
/// a.size() elements of a's type (sv::length_error otherwise) and must not
/// overlap a. Return out's view of the result. Queued (no wait).
template <class A, class Op, class S> S scan(const A& a, Op op, output<S> out) {
    return detail::scan_pass<false, false>("scan", a, op, out);
}
template <class A, class S> S scan(const A& a, output<S> out) { return scan(a, plus<value_t<A>>{}, out); }
template <class A, class Op, class S> S inclusive_scan(const A& a, Op op, output<S> out) {
    return detail::scan_pass<true, false>("inclusive_scan", a, op, out);
}
template <class A, class S> S inclusive_scan(const A& a, output<S> out) {
    return inclusive_scan(a, plus<value_t<A>>{}, out);
}
template <class A, class Op, class S> S backward_scan(const A& a, Op op, output<S> out) {
    return detail::scan_pass<false, true>("backward_scan", a, op, out);
}
template <class A, class S> S backward_scan(const A& a, output<S> out) {
    return backward_scan(a, plus<value_t<A>>{}, out);
}
template <class A, class Op, class S> S backward_inclusive_scan(const A& a, Op op, output<S> out) {
    return detail::scan_pass<true, true>("backward_inclusive_scan", a, op, out);
}
template <class A, class S> S backward_inclusive_scan(const A& a, output<S> out) {
    return backward_inclusive_scan(a, plus<value_t<A>>{}, out);
}

/// a[0] op ... op a[n-1]; the identity for an empty vector.
/// O(n) work, one step; waits for the device (the value comes to the host).
template <class A, class Op = plus<value_t<A>>> value_t<A> reduce(const A& a, Op op = {}) {
    using T = value_t<A>;
    return detail::labelled_scalar({"reduce", {"A"}, "Reduce"}, a.size(), [&] {
        return detail::reduce_n(detail::reader(a), a.size(), op, detail::identity_of<T>(op), current_stream());
    }, a);
}

/// a[0] op ... op a[n-1] left on the device, for a later step's functors to read
/// through ptr(); get() brings it to the host.
/// O(n) work, one step; queued (no wait).
template <class A, class Op = plus<value_t<A>>> device_value<value_t<A>> reduce_to_device(const A& a, Op op = {}) {
    using T = value_t<A>;
    return detail::labelled_scalar({"reduce", {"A"}, "Reduce"}, a.size(), [&] {
        device_value<T> r(current_stream());
        detail::reduce_into(detail::reader(a), a.size(), op, detail::identity_of<T>(op), r.ptr(), current_stream());
        return r;
    }, a);
}

/// An exclusive scan and the total of all elements.
template <class T> struct scan_result {
    vector<T> values;
    T total;
    std::size_t size() const { return values.size(); }
};

/// The exclusive scan and its total, from one pass (the scan runs one item
/// further; the values keep that slot as spare capacity).
/// O(n) work, one step; waits for the device (the total comes to the host).
template <class A, class Op = plus<value_t<A>>> scan_result<value_t<A>> scan_total(const A& a, Op op = {}) {
    using T = value_t<A>;
    return detail::labelled({"scan_total", {"A"}, "Scan"}, a.size(), [&] {
        const std::size_t n = a.size();
        const T identity = detail::identity_of<T>(op);
        scan_result<T> res{vector<T>(n + 1, no_init), identity};
        detail::exclusive_scan_with_total_n(detail::reader(a), n, detail::writer(res.values), op, identity,
                                            current_stream());
        res.total = res.values[n];
        res.values.resize(n);
        return res;
    }, a);
}

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(inclusive_scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(backward_scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(backward_inclusive_scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(reduce, T)

SCANVEC_NAMESPACE_END
