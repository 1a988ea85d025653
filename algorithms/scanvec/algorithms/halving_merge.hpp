// scanvec/algorithms/halving_merge.hpp - merging two sorted vectors by halving.
//
// Blelloch's halving merge: take the odd-indexed elements of both vectors,
// merge those half-length vectors recursively, and use that merge to place the
// even-indexed elements, which costs a constant amount of work per element. The
// recursion returns merge flags (false: the next element comes from A, true:
// from B), and the final answer is one flag-merge. The step that places the
// even elements is written here gap by gap (our formulation of the book's
// insert-and-fix-up step, with the same cost: a few scans and permutes):
//
//   procedure halving-merge(A, B)
//       F <- merge-flags(A, B)
//       flag-merge(F, A, B)
//
//   procedure merge-flags(A, B)
//       if A or B is empty: all flags say "the other one"
//       if #A = 1: A[0] goes after the elements of B smaller than it (a count)
//       A', B' <- pack the odd-indexed elements of A and of B
//       F'     <- merge-flags(A', B')                    recursion on half the elements
//       M'     <- flag-merge(F', A', B')                 the odd elements, merged
//       -- the even elements: between two neighbours of M' (a "gap") there can be
//       -- at most one even element of A (two would have an odd one between them)
//       -- and at most one of B, and which ones they are is known from counting:
//       CA     <- enumerate(not F')                      odd elements of A before every gap
//       EA, EB <- A[2 CA], B[2 (g - CA)]                 the only candidates for gap g
//       Slots  <- per gap: EA and/or EB if they fall between the gap's neighbours
//                 (one comparison each), ordered by one more comparison, then M'[g]
//       Segs   <- allocate(#Slots)                       +-scan: every gap's stretch of the result
//       F      <- the source flag of slot index(Segs) of distribute(Slots, Segs)
//
// The merge is stable: equal elements keep A's before B's (as std::merge).
// Every level is a constant number of scans and permutes over its length, so
// the work is O(n) and the depth O(log n) levels of scans. Elements need only
// operator<.
#pragma once

#include <scanvec/algorithms/detail/halving_merge.hpp>
#include <scanvec/primitives/rearrange.hpp>
#include <scanvec/primitives/nested.hpp>

SCANVEC_NAMESPACE_BEGIN

/// Merge flags of two sorted vectors: r[k] is true when the k-th element of
/// the stable merge comes from b (equal elements: a's first).
template <class A, class B> vector<bool> halving_merge_flags(const A& a, const B& b) {
    using T = value_t<A>;
    static_assert(std::is_same_v<T, value_t<B>>, "sv::halving_merge(a, b): a and b must hold the same type");
    const index_t na = index_t(a.size()), nb = index_t(b.size()), n = na + nb;
    // if A or B is empty, every element comes from the other one
    if (na == 0 || nb == 0) return distribute(na == 0, std::size_t(n));
    // a single element of A goes after the elements of B smaller than it
    if (na == 1) {
        const index_t r = count(lazy::map(detail::is_less_than<T>{extract(a, 0)}, b));
        return map(detail::all_but{r}, lazy::index(std::size_t(n)));
    }
    return detail::labelled("halving_merge_flags", std::size_t(n), [&] {
        // A', B' <- the odd-indexed elements of A and of B
        auto a_odd = pack(a, lazy::map(detail::is_odd_position{}, lazy::index(a.size())));
        auto b_odd = pack(b, lazy::map(detail::is_odd_position{}, lazy::index(b.size())));
        // F' <- merge-flags(A', B')                 the recursion, on half the elements
        auto f_odd = halving_merge_flags(a_odd, b_odd);
        // M' <- flag-merge(F', A', B')              the odd elements in merged order (m >= 1 of them)
        auto merged_odd = flag_merge(f_odd, a_odd, b_odd);
        const index_t m = index_t(merged_odd.size());
        // F+ <- F' and a sentinel: one flag per gap g = 0..m (the flag of the element after it)
        auto f_after = append(f_odd, vector<bool>(1, true));
        auto gap = lazy::index(std::size_t(m + 1));
        // CA <- enumerate(not F+)                   odd elements of A before every gap; CB = g - CA
        auto ca = enumerate(lazy::map(detail::is_false{}, f_after));
        auto cb = lazy::map(detail::minus_index{}, gap, ca);
        // EA, EB <- A[2 CA], B[2 CB]                 the only even elements that can fall into gap g
        auto ea = lazy::back_permute(a, lazy::map(detail::even_candidate{na - 1}, ca));
        auto eb = lazy::back_permute(b, lazy::map(detail::even_candidate{nb - 1}, cb));
        // the gap's neighbours in M' and where they came from
        auto left = lazy::back_permute(merged_odd, lazy::map(detail::before_gap{}, gap));
        auto left_b = lazy::back_permute(f_after, lazy::map(detail::before_gap{}, gap));
        auto right = lazy::back_permute(merged_odd, lazy::map(detail::after_gap{m - 1}, gap));
        // Slots <- EA and/or EB where they fall between the neighbours, in order, then M'[g]
        auto slots = map(detail::gap_slots<T>{m, na, nb}, gap, ca, ea, eb, left, left_b, right, f_after);
        // Segs <- allocate(#Slots)                   +-scan: every gap's stretch of the result
        auto segs = allocate(lazy::map(detail::slot_count{}, slots));
        // F <- the source of slot index(Segs) of the gap's slots, distributed over its stretch
        return map(detail::slot_from_b{}, distribute(slots, segs), index(segs));
    });
}

/// The stable merge of two sorted vectors (equal elements: a's before b's).
template <class A, class B> vector<value_t<A>> halving_merge(const A& a, const B& b) {
    return detail::labelled("halving_merge", a.size() + b.size(), [&] {
        // F <- merge-flags(A, B)
        auto f = halving_merge_flags(a, b);
        // flag-merge(F, A, B)
        return flag_merge(f, a, b);
    });
}

SCANVEC_NAMESPACE_END
