// scanvec/primitives/multisplit.hpp - histogram and the stable m-way split.
//
//   sv::histogram(digits, m)             r[b] = number of i with digits[i] == b   (b in 0..m-1)
//   sv::multisplit(a, digits, m)         stable: the elements whose digit is 0, then 1, ..., then m-1,
//                                        each class in its original order (split is m = 2)
//   sv::lazy::radix_digit(keys, lo, k)   r[i] = the k-bit digit at bit lo of keys[i] in key order:
//                                        bits of the key with its sign bit flipped when signed,
//                                        so digits order negative keys before positive ones; an
//                                        sv::radix_digit_view, which says keys(), lo() and bits()
//
// digits is any integral vector or view (a lazy map of a key, typically) with
// values in 0..m-1. With checks on (SCANVEC_CHECKS) other values throw
// sv::index_error (multisplit reads the digits once more for it; histogram
// tallies them while it counts). With checks off histogram leaves them
// uncounted, and for multisplit they are undefined behaviour (elements lost
// or written out of bounds).
//
// In the model a multisplit is split with m classes instead of two:
//
//   procedure multisplit(A, D, m)
//       Counts <- histogram(D, m)           the size of each class
//       Starts <- +-scan(Counts)            where each class begins
//       Rank   <- multi-enumerate(D)        the equal digits before i: m enumerates at once
//       permute(A, Starts[D] + Rank)
//
// run as a counting sort by tiles, two or three passes over the data whatever
// m is: CUB's onesweep radix sort on CUDA (detail/multisplit/cuda/passes.hpp), a
// count, scan and scatter per tile on the host (detail/multisplit/host.hpp).
// How they run and what they measured: docs/design/multisplit.md; tuning:
// detail/multisplit/policy.hpp.
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/multisplit/checks.hpp>
#include <scanvec/primitives/detail/multisplit/dispatch.hpp>

#include <string>

SCANVEC_NAMESPACE_BEGIN

/// r[b] = the number of digits equal to b, for b in 0..m-1. Digits outside
/// 0..m-1 throw sv::index_error with their number (checks on; with checks off
/// they are not counted). Any m in 1..2^31, in O(m) memory: few bins are
/// counted per block or tile, many into one shared array (histogram_policy).
/// Model: O(n + m) work, 1 step. Waits for the device only with checks on (to
/// read the count of digits outside 0..m-1).
template <class D> vector<index_t> histogram(const D& digits, index_t m) {
    detail::expect_flags<D>();
    return detail::labelled("histogram", digits.size(), [&] {
        detail::expect_classes("histogram", m);
        vector<index_t> r(static_cast<std::size_t>(m));
        if (digits.size() == 0) return r;
        // Digits outside 0..m-1 are never counted; with checks on, their number is found
        // in the same pass and reported after it.
        const index_t outside = detail::histogram_into(digits, r);
        if (outside)
            throw index_error("histogram: " + std::to_string(outside) + " digits are outside 0.." + std::to_string(m - 1));
        return r;
    }, digits);
}

/// Stable m-way split: the elements whose digit is 0 first, then those with 1, ...,
/// each class in its original order. digits[i] in 0..m-1.
/// Model: O(n + m) work, 1 step (a counting sort by tiles: two or three passes).
/// Waits for the device only with checks on, to check the digits, which
/// sv::lazy::radix_digit(keys, lo, k) with m = 2^k never needs.
template <class A, class D> vector<value_t<A>> multisplit(const A& a, const D& digits, index_t m) {
    detail::expect_flags<D>();
    return detail::labelled("multisplit", a.size(), [&] {
        detail::expect_same_length("multisplit", a.size(), digits.size());
        detail::expect_classes("multisplit", m);
        vector<value_t<A>> r(a.size(), no_init);
        if (a.empty()) return r;
        // radix digits of k bits lie in 0..2^k - 1 by construction
        if (!detail::radix_digits_fill(digits, m)) detail::check_digits("multisplit", digits, m);
        detail::multisplit_into(a, digits, m, r);
        return r;
    }, a, digits);
}

/// sv::multisplit given a sv::dist::vector: one error that names sv::dist::multisplit
/// (detail/common/one_device_only.hpp; written out to take m as sv::dist::multisplit does).
template <class T, class D, class... R> auto multisplit(const dist::vector<T>&, const D&, index_t, const R&...) {
    static_assert(detail::one_device_guard_called<T>, SCANVEC_DETAIL_ONE_DEVICE_MESSAGE(multisplit));
    return detail::never_returned<dist::vector<T>, T>();
}

SCANVEC_NAMESPACE_END
