// scanvec/primitives/write.hpp - writes where several elements may target one position.
//
//   sv::write(dst, idx, vals)                NESL's dst <- {(idx[k], vals[k])}: dst with vals[k]
//                                            written at idx[k] for every k. Where indices repeat,
//                                            exactly one of the values sent there wins; which one
//                                            is unspecified (it may differ between runs and
//                                            backends). A described struct is written whole:
//                                            every field of a position comes from one element.
//   sv::combining_write(dst, idx, vals, op)  the model's combining send: r[j] = dst[j] op v1 op v2 ...
//                                            over every vals[k] with idx[k] == j; op must commute
//                                            (sv::plus, max, min, logical_or/and, bit_or/and/xor,
//                                            or sv::commutative_monoid(op, identity)).
//
// dst is taken by value: `d = sv::write(std::move(d), idx, v)` updates d's own
// memory, and the call costs O(idx.size()) work whatever d's length (a BFS
// level that touches 10 vertices pays for 10). Given an lvalue, dst is copied
// first (O(dst.size())). idx and vals are vectors or lazy views of one length.
//
// Positions not written keep dst's value. Indices out of 0..dst.size()-1
// throw sv::index_error naming the first bad position and its value, before
// anything is written (the caller's dst is unchanged); that check reads idx
// once and waits for the device. In a sv::deferred_checks scope (and in a
// loop body on the device) it does not wait: the indices in range are
// written, and the error is thrown at the thread's next wait. With a last argument sv::unchecked (indices
// the program built and knows to be in range), or SCANVEC_CHECKS=0, there is
// no check and no wait, and a bad index is undefined behaviour. Length
// mismatches of idx and vals throw sv::length_error with both lengths.
//
// Indices whose length lives on the device (sv::bounded): primitives/bounded.hpp.
// How they run: docs/design/writes.md.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/write/checks.hpp>
#include <scanvec/primitives/detail/write/dispatch.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/runtime/bounded.hpp>

SCANVEC_NAMESPACE_BEGIN

/// dst with vals[k] written at idx[k] for every k; where indices repeat, one of
/// the values sent there wins (unspecified which; a struct is written whole).
/// O(idx.size()) work on dst's own memory when dst is moved in, one step; checked,
/// it waits for the device (the index check's verdict).
template <class T, bool S, class Idx, class V, std::enable_if_t<!is_bounded_v<Idx>, int> = 0>
vector<T, S> write(vector<T, S> dst, const Idx& idx, const V& vals) {
    detail::expect_written_values<T, V>();
    return detail::labelled({"write", {"D", "Index", "Values"}, "D"}, idx.size(), [&] {
        detail::expect_write_arguments("write", idx, vals);
        const bool later = detail::checks_targets_later("write", idx, dst.size());
        detail::write_into(dst, idx, vals, later ? "write" : nullptr);
        return std::move(dst);
    }, idx, vals);
}

/// The same for indices the caller guarantees to lie in 0..dst.size()-1 (built
/// by the program, as a pack of checked targets): no check, no wait.
template <class T, bool S, class Idx, class V, std::enable_if_t<!is_bounded_v<Idx>, int> = 0>
vector<T, S> write(vector<T, S> dst, const Idx& idx, const V& vals, unchecked_t) {
    detail::expect_written_values<T, V>();
    return detail::labelled({"write", {"D", "Index", "Values"}, "D"}, idx.size(), [&] {
        detail::expect_write_arguments("write", idx, vals);
        detail::write_into(dst, idx, vals);
        return std::move(dst);
    }, idx, vals);
}

/// r[j] = dst[j] op (every vals[k] with idx[k] == j); op associative and commutative.
/// O(idx.size()) work on dst's own memory when dst is moved in, one step; it
/// waits for the device (the index check's verdict).
template <class T, bool S, class Idx, class V, class Op, std::enable_if_t<!is_bounded_v<Idx>, int> = 0>
vector<T, S> combining_write(vector<T, S> dst, const Idx& idx, const V& vals, Op op) {
    detail::expect_commutative<Op>();
    detail::expect_written_values<T, V>();
    return detail::labelled({"combining_write", {"D", "Index", "Values"}, "D"}, idx.size(), [&] {
        detail::expect_write_arguments("combining_write", idx, vals);
        const bool later = detail::checks_targets_later("combining_write", idx, dst.size());
        detail::combine_into(dst, idx, vals, op, later ? "combining_write" : nullptr);
        return std::move(dst);
    }, idx, vals);
}

/// The same for indices the caller guarantees to lie in 0..dst.size()-1: no check, no wait.
template <class T, bool S, class Idx, class V, class Op, std::enable_if_t<!is_bounded_v<Idx>, int> = 0>
vector<T, S> combining_write(vector<T, S> dst, const Idx& idx, const V& vals, Op op, unchecked_t) {
    detail::expect_commutative<Op>();
    detail::expect_written_values<T, V>();
    return detail::labelled({"combining_write", {"D", "Index", "Values"}, "D"}, idx.size(), [&] {
        detail::expect_write_arguments("combining_write", idx, vals);
        detail::combine_into(dst, idx, vals, op);
        return std::move(dst);
    }, idx, vals);
}

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(write, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(combining_write, dist::vector<T>)

SCANVEC_NAMESPACE_END
