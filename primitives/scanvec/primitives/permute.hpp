// scanvec/primitives/permute.hpp - permute (scatter) and back_permute (gather).
//
//   sv::permute(a, idx)        r[idx[i]] = a[i]   idx a permutation of 0..n-1
//   sv::back_permute(a, idx)   r[i] = a[idx[i]]   r.size() == idx.size()
//
// With checks on (SCANVEC_CHECKS, the default) bad indices (out of range,
// and for permute repeated) throw sv::index_error naming the position and the
// value, and nothing the caller holds is changed; a checked call waits for the
// device to read its verdict. With checks off bad indices are undefined
// behaviour and the calls only queue work. How the checks run and what they
// cost: docs/design/permutes.md.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/permute/checks.hpp>
#include <scanvec/primitives/detail/permute/dispatch.hpp>
#include <scanvec/runtime/interop.hpp>

#include <thrust/iterator/permutation_iterator.h>

SCANVEC_NAMESPACE_BEGIN

/// Tag: the caller guarantees the indices (a program that builds them from a
/// scan, as split does); the validation pass is skipped.
struct unchecked_t {};
inline constexpr unchecked_t unchecked{};

/// r[idx[i]] = a[i]; idx must be a permutation of 0..n-1 (not checked: bad
/// indices are undefined behaviour). O(n) work, O(1) steps; only queues work.
template <class A, class Idx> vector<value_t<A>> permute(const A& a, const Idx& idx, unchecked_t) {
    detail::expect_indices<Idx>();
    return detail::labelled({"permute", {"A", "Index"}, "Permuted", runtime::picture::scatter}, a.size(), [&] {
        detail::expect_same_length("permute", a.size(), idx.size());
        vector<value_t<A>> r(a.size(), no_init);
        detail::scatter_into(a, idx, r);
        return r;
    }, a, idx);
}

/// r[idx[i]] = a[i]; idx must be a permutation of 0..n-1. O(n) work, O(1) steps.
/// Checked (unless SCANVEC_CHECKS=0): sv::index_error on a bad index, and the
/// call waits for the device to read the check's verdict.
template <class A, class Idx> vector<value_t<A>> permute(const A& a, const Idx& idx) {
    detail::expect_indices<Idx>();
    return detail::labelled({"permute", {"A", "Index"}, "Permuted", runtime::picture::scatter}, a.size(), [&] {
        detail::expect_same_length("permute", a.size(), idx.size());
        vector<value_t<A>> r(a.size(), no_init);
        detail::permute_into(a, idx, r);
        return r;
    }, a, idx);
}

/// r[i] = a[idx[i]]; every idx value in 0..a.size()-1; r.size() == idx.size().
/// O(n) work, O(1) steps. Checked (unless SCANVEC_CHECKS=0): sv::index_error
/// on an index out of range, and the call waits for the device to read it;
/// in a sv::deferred_checks scope (or a loop body on the device) it does not
/// wait, a bad index reads T{}, and the error comes at the next wait.
template <class A, class Idx> vector<value_t<A>> back_permute(const A& a, const Idx& idx) {
    detail::expect_indices<Idx>();
    return detail::labelled({"back_permute", {"A", "Index"}, "Gathered", runtime::picture::gather}, idx.size(), [&] {
        vector<value_t<A>> r(idx.size(), no_init);
        detail::back_permute_into(a, idx, r);
        return r;
    }, a, idx);
}

/// r[i] = a[idx[i]]; every idx value must lie in 0..a.size()-1 (not checked:
/// a bad index is undefined behaviour). O(n) work, O(1) steps; only queues
/// work (so it may run in a loop on the device, sv::repeat_while).
template <class A, class Idx> vector<value_t<A>> back_permute(const A& a, const Idx& idx, unchecked_t) {
    detail::expect_indices<Idx>();
    return detail::labelled({"back_permute", {"A", "Index"}, "Gathered", runtime::picture::gather}, idx.size(), [&] {
        vector<value_t<A>> r(idx.size(), no_init);
        detail::gather_into(a, idx, r);
        return r;
    }, a, idx);
}

/// permute and back_permute written into the caller's memory (sv::into): out
/// holds the result's length (a.size(), idx.size()) of a's type and does not
/// overlap the inputs. Checked as above; return out's view of the result.
template <class A, class Idx, class S> S permute(const A& a, const Idx& idx, output<S> out) {
    detail::expect_indices<Idx>();
    return detail::labelled({"permute", {"A", "Index"}, "Permuted", runtime::picture::scatter}, a.size(), [&] {
        detail::expect_same_length("permute", a.size(), idx.size());
        detail::check_output<value_t<A>>("permute", out, a.size());
        detail::permute_into(a, idx, out.target);
        return out.target;
    }, a, idx);
}
template <class A, class Idx, class S> S back_permute(const A& a, const Idx& idx, output<S> out) {
    detail::expect_indices<Idx>();
    return detail::labelled({"back_permute", {"A", "Index"}, "Gathered", runtime::picture::gather}, idx.size(), [&] {
        detail::check_output<value_t<A>>("back_permute", out, idx.size());
        detail::back_permute_into(a, idx, out.target);
        return out.target;
    }, a, idx);
}

namespace lazy {
/// r[i] = a[idx[i]], read when consumed (no bounds check: the gather happens inside the consumer).
template <class A, class Idx> auto back_permute(const A& a, const Idx& idx) {
    return view(thrust::make_permutation_iterator(detail::reader(a), detail::reader(idx)), idx.size());
}
}  // namespace lazy

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(permute, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(back_permute, dist::vector<T>)

SCANVEC_NAMESPACE_END
