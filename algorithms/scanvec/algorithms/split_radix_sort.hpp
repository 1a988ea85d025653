// scanvec/algorithms/split_radix_sort.hpp - Blelloch's split radix sort: one split per key bit.
//
//   procedure split-radix-sort(A, number-of-bits)
//       for i from 0 to number-of-bits - 1
//           A <- split(A, A<i>)
//
// A<i> is bit i of every key. Each split is stable, so after pass i the keys
// are sorted on their low i+1 bits; after the last pass they are sorted.
// Signed keys are sorted by the same loop: A<i> is read from the key with its
// sign bit flipped (sv::lazy::radix_digit(A, i, 1)), which puts negative keys
// before positive ones. Below the top bit that is the bit itself.
//
// Model: b splits for b-bit keys, 2b steps, O(b n) work. A<i> is a lazy map
// computed inside each split's passes, and each split keeps its count of
// falses on the device: the loop never waits for the device. Bytes moved and
// measurements: docs/design/split.md.
//
//   sv::split_radix_sort(a)                       integer keys (8 to 64 bits, signed or unsigned), float, double
//   sv::split_radix_sort(records, &rec::key)      described structs, stably by one such field
//   sv::split_radix_sort_by<&rec::key>(records)   the same with the field named at compile time
#pragma once

#include <scanvec/algorithms/program_traits.hpp>
#include <scanvec/primitives/split.hpp>
#include <scanvec/primitives/multisplit.hpp>

#include <string>
#include <utility>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// A member pointer as a type: field_tag<&rec::key>.
template <auto Member> struct field_tag {
    static constexpr auto value = Member;
};

/// f(field_tag<M>{}) for the described field M of T that equals key, a member
/// pointer known only at run time (sorts by one field take either form).
template <std::size_t I = 0, class T, class K, class F> vector<T> with_key_field(const char* op, K T::*key, F&& f) {
    using list = fields_of<T>;
    if constexpr (I == list::size) {
        throw error(std::string(op) + ": the key is not among the fields given to SCANVEC_FIELDS");
    } else {
        constexpr auto member = list::template member<I>;
        if constexpr (std::is_same_v<std::remove_const_t<decltype(member)>, K T::*>) {
            if (member == key) return f(field_tag<member>{});
        }
        return with_key_field<I + 1>(op, key, std::forward<F>(f));
    }
}

template <auto Key> using key_field_t = typename member_traits<Key>::field_type;

}  // namespace detail

/// Sorts keys ascending by Blelloch's split loop, one bit per pass (integers;
/// float and double in the order of <, stably).
/// The same text runs on sv::dist::vector (<scanvec/dist.hpp>).
template <class A> detail::program_vector_t<A, detail::program_value_t<A>> split_radix_sort(const A& a) {
    using K = detail::program_value_t<A>;
    using lazy = detail::lazy_views_t<A>;
    detail::expect_radix_key<K>();
    return detail::labelled({"split_radix_sort", {"A"}, "Sorted"}, a.size(), [&] {
        constexpr int bits = 8 * sizeof(K);
        // A <- split(A, A<0>)
        auto r = split(a, lazy::radix_digit(a, 0, 1));
        for (int i = 1; i < bits; ++i)
            // A <- split(A, A<i>)
            r = split(r, lazy::radix_digit(r, i, 1));
        return r;
    }, a);
}

/// Sorts described structs stably by the integer field Key, one bit per pass.
template <auto Key, class T> vector<T> split_radix_sort_by(const vector<T>& a) {
    using K = detail::key_field_t<Key>;
    detail::expect_radix_key<K>();
    return detail::labelled({"split_radix_sort", {"A"}, "Sorted"}, a.size(), [&] {
        constexpr int bits = 8 * sizeof(K);
        // A <- split(A, A.key<0>): whole records move, the flags read only the key
        vector<T> r = split(a, lazy::radix_digit(a.template field<Key>(), 0, 1));
        for (int i = 1; i < bits; ++i)
            // A <- split(A, A.key<i>)
            r = split(r, lazy::radix_digit(r.template field<Key>(), i, 1));
        return r;
    }, a);
}

/// Sorts described structs stably by one integer field: split_radix_sort(records, &rec::key).
template <class T, class K> vector<T> split_radix_sort(const vector<T>& a, K T::*key) {
    static_assert(is_described_v<T>, "split_radix_sort(records, &T::key): T must be described with SCANVEC_FIELDS");
    return detail::with_key_field("split_radix_sort", key,
                              [&](auto field) { return split_radix_sort_by<decltype(field)::value>(a); });
}

SCANVEC_NAMESPACE_END
