// scanvec/algorithms/remove_duplicates.hpp - the distinct elements of a vector, in order.
//
// Remove-duplicates with a sort in the model: a rank brings equal elements
// together (a stable sort keeps every value's first occurrence in front of its
// copies), comparing each sorted element with its left neighbour flags the
// first of every run, and those flags are sent back to the original positions
// to pack the vector:
//
//   procedure remove-duplicates(A)
//       R     <- rank(A)                      position of every element in a stable sort
//       S     <- permute(A, R)                A sorted
//       Head  <- S[j-1] < S[j]                the first of every run of equal elements (j = 0 too)
//       First <- back-permute(Head, R)        the flags at the elements' own positions
//       pack(A, First)
//
// The result keeps the first occurrence of every value, in the order of A.
// Elements need only operator<; the work is that of the sort plus O(n).
#pragma once

#include <scanvec/primitives/rearrange.hpp>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

struct left_neighbour {
    SCANVEC_HD index_t operator()(index_t j) const { return j > 0 ? j - 1 : 0; }
};
/// Sorted position j starts a run of equal elements.
template <class T> struct starts_new_value {
    SCANVEC_HD bool operator()(const T& s, const T& before, index_t j) const { return j == 0 || before < s; }
};

}  // namespace detail

/// The first occurrence of every distinct value of a, in the order of a.
template <class A> vector<value_t<A>> remove_duplicates(const A& a) {
    using T = value_t<A>;
    return detail::labelled("remove_duplicates", a.size(), [&] {
        const std::size_t n = a.size();
        auto all = lazy::index(n);
        // R <- rank(A)
        auto r = rank(a);
        // S <- permute(A, R)                     (R is a permutation: a rank)
        auto s = permute(a, r, unchecked);
        // Head <- S[j-1] < S[j]
        auto head = map(detail::starts_new_value<T>{}, s, lazy::back_permute(s, lazy::map(detail::left_neighbour{}, all)), all);
        // First <- back-permute(Head, R)
        auto first = back_permute(head, r);
        // pack(A, First)
        return pack(a, first);
    }, a);
}

SCANVEC_NAMESPACE_END
