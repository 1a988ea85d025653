// scanvec/algorithms/radix_sort.hpp - radix sort with k-bit digits: one multisplit per digit.
//
// Beyond the book. Blelloch's split radix sort splits on one bit per pass; a
// split into 2^k classes sorts on k bits at once:
//
//   procedure radix-sort(A, k)
//       for lo from 0 to number-of-bits - 1 step k
//           A <- multisplit(A, digit(A, lo, k), 2^k)
//
// digit(A, lo, k) is bits lo..lo+k-1 of every key in radix order (sign bit
// flipped for signed keys, as in split_radix_sort; floats in the order of
// <), a lazy view (sv::lazy::radix_digit). Each multisplit is stable, so
// after the pass on bits lo..lo+k-1 the keys are sorted on their low lo+k bits.
//
// Model: ceil(b/k) multisplits for b-bit keys (4 for 32-bit keys and k = 8),
// O(n b/k) work; never waits for the device (with checks on, a multisplit of
// radix digits has nothing to check). How a pass runs, bytes per key and
// measurements: docs/design/multisplit.md.
//
//   sv::radix_sort(a, k = 8)                     integer keys (8 to 64 bits, signed or unsigned), float, double
//   sv::radix_sort(records, &rec::key, k = 8)    described structs, stably by one such field
//   sv::radix_sort_by<&rec::key>(records, k = 8) the same with the field named at compile time
#pragma once

#include <scanvec/algorithms/program_traits.hpp>
#include <scanvec/algorithms/split_radix_sort.hpp>
#include <scanvec/primitives/multisplit.hpp>

#include <algorithm>
#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// Whether A is a vector of this process's backend (not a distributed one or a view).
template <class A> struct is_vector : std::false_type {};
template <class T, bool Soa> struct is_vector<vector<T, Soa>> : std::true_type {};
template <class A> inline constexpr bool is_vector_v = is_vector<A>::value;

inline void expect_digit_bits(int k) {
    if (k < 1 || k > 16) throw error("radix_sort: digits of 1 to 16 bits (got " + std::to_string(k) + ")");
}

/// The passes over K-bit keys, key_of(A) the keys of A (A itself, or a field of it).
template <class K, class A, class KeyOf> auto radix_passes(const A& a, int k, KeyOf key_of) {
    using lazy = lazy_views_t<std::decay_t<decltype(key_of(a))>>;
    expect_digit_bits(k);
    constexpr int bits = 8 * sizeof(K);
    const int d = std::min(k, bits);  // digit width
    const index_t classes = index_t(1) << d;
    // consecutive digits of the same keys: the runtime may run the passes as one
    if constexpr (is_vector_v<A>)
        if (auto r = multisplit_digit_run<K>(a, key_of)) return std::move(*r);
    // A <- multisplit(A, digit(A, 0, k), 2^k)
    auto r = multisplit(a, lazy::radix_digit(key_of(a), 0, d), classes);
    for (int lo = d; lo < bits; lo += d)
        // A <- multisplit(A, digit(A, lo, k), 2^k)
        r = multisplit(r, lazy::radix_digit(key_of(r), lo, d), classes);
    return r;
}

}  // namespace detail

/// Sorts keys ascending, k bits per pass (one stable multisplit per digit): integers,
/// or float and double in the order of < (-0.0 and +0.0 are one key; NaNs at the ends by sign).
/// The same text runs on sv::dist::vector (<scanvec/dist.hpp>); sv::dist::radix_sort
/// is the distributed sort with one all-to-all.
template <class A> detail::program_vector_t<A, detail::program_value_t<A>> radix_sort(const A& a, int k = 8) {
    using K = detail::program_value_t<A>;
    detail::expect_radix_key<K>();
    return detail::labelled({"radix_sort", {"A"}, "Sorted"}, a.size(), [&] {
        return detail::radix_passes<K>(a, k, [](const auto& keys) -> const auto& { return keys; });
    }, a);
}

/// Sorts described structs stably by the field Key (integer, float or double), k bits per pass (whole records move).
template <auto Key, class T> vector<T> radix_sort_by(const vector<T>& a, int k = 8) {
    using K = detail::key_field_t<Key>;
    detail::expect_radix_key<K>();
    return detail::labelled({"radix_sort", {"A"}, "Sorted"}, a.size(), [&] {
        return detail::radix_passes<K>(a, k, [](const vector<T>& v) -> const auto& { return v.template field<Key>(); });
    }, a);
}

/// Sorts described structs stably by one key field: radix_sort(records, &rec::key).
template <class T, class K> vector<T> radix_sort(const vector<T>& a, K T::*key, int k = 8) {
    static_assert(is_described_v<T>, "radix_sort(records, &T::key): T must be described with SCANVEC_FIELDS");
    return detail::with_key_field("radix_sort", key,
                                  [&](auto field) { return radix_sort_by<decltype(field)::value>(a, k); });
}

SCANVEC_NAMESPACE_END
