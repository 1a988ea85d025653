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
// m is: CUB's onesweep radix sort on CUDA (detail/multisplit_cub.hpp), a
// count, scan and scatter per tile on the host (detail/multisplit_omp.hpp).
// How they run and what they measured: docs/design/multisplit.md; tuning:
// detail/multisplit_policy.hpp.
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/multisplit_policy.hpp>
#include <scanvec/primitives/detail/one_device_only.hpp>
#include <scanvec/primitives/detail/radix_digit_view.hpp>

// The one place the backend is chosen: both headers give histogram_into and multisplit_into.
#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/multisplit_cub.hpp>
#else
#  include <scanvec/primitives/detail/multisplit_omp.hpp>
#endif

#include <optional>
#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

struct digit_outside {
    index_t m;
    template <class D> SCANVEC_HD index_t operator()(const D& d) const {
        return (index_t(d) < 0 || index_t(d) >= m) ? 1 : 0;
    }
};

template <class D> void check_digits(const char* op, const D& digits, index_t m) {
#if SCANVEC_CHECKS
    const index_t bad = reduce(lazy::map(digit_outside{m}, digits));
    if (bad)
        throw index_error(std::string(op) + ": " + std::to_string(bad) + " digits are outside 0.." +
                          std::to_string(m - 1));
#else
    (void)op; (void)digits; (void)m;
#endif
}

inline void expect_classes(const char* op, index_t m) {
    if (m < 1 || m > (index_t(1) << 31))
        throw error(std::string(op) + ": the number of classes must be in 1..2^31 (got " + std::to_string(m) + ")");
}

}  // namespace detail

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

namespace detail {

/// The multisplits of a by the d-bit radix digits at bits 0, d, 2d, ... of the
/// K keys key_of(a) (a itself or one of its fields), in that order, run as one
/// where the backend can: on CUDA one run of CUB's radix sort over all the
/// bits, which is those passes with one histogram read shared by every digit;
/// on the host, for keys sorted on their own (no records) from
/// radix_run_policy::min_keys on, the top digit's multisplit and then every
/// bucket's passes in a thread's cache (docs/design/multisplit.md). Empty
/// when they must run one by one: records on the host, distributed or lazy
/// inputs, and while sv::trace watches (the trace shows each multisplit with
/// its values).
template <class K, class A, class KeyOf> std::optional<vector<value_t<A>>> multisplit_digit_run(const A& a, KeyOf key_of) {
#if defined(SCANVEC_BACKEND_CUDA)
    using T = value_t<A>;
    if constexpr (std::is_same_v<A, vector<T>> && std::is_same_v<std::decay_t<decltype(key_of(a))>, vector<K>>) {
        if (runtime::observation().current) return std::nullopt;
        return labelled("multisplit", a.size(), [&] {
            vector<T> r(a.size(), no_init);
            if (!a.empty()) sort_by_key_bits(key_of(a).data(), 0, int(8 * sizeof(K)), a, r, current_stream());
            return r;
        });
    } else {
        (void)a, (void)key_of;
        return std::nullopt;
    }
#else
    using T = value_t<A>;
    if constexpr (std::is_same_v<A, vector<K>> && std::is_same_v<T, K> && sizeof(K) > 1) {
        (void)key_of;
        if (runtime::observation().current || index_t(a.size()) < radix_run_policy::min_keys) return std::nullopt;
        return labelled("multisplit", a.size(), [&] {
            vector<K> r(a.size(), no_init);
            radix_run_into(a, r);
            return r;
        });
    } else {
        (void)a, (void)key_of;
        return std::nullopt;
    }
#endif
}

}  // namespace detail

/// sv::multisplit given a sv::dist::vector: one error that names sv::dist::multisplit
/// (detail/one_device_only.hpp; written out to take m as sv::dist::multisplit does).
template <class T, class D, class... R> auto multisplit(const dist::vector<T>&, const D&, index_t, const R&...) {
    static_assert(detail::one_device_guard_called<T>, SCANVEC_DETAIL_ONE_DEVICE_MESSAGE(multisplit));
    return detail::never_returned<dist::vector<T>, T>();
}

SCANVEC_NAMESPACE_END
