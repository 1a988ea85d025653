// scanvec/algorithms/list_ranking.hpp - the distance of every list element to the end of its list.
//
// List ranking by pointer jumping (Wyllie), the model's example of a program
// whose permutes follow pointers: every element adds the rank of the element it
// points to and then points twice as far, so after ceil(log2 n) rounds every
// element points at the tail of its list and holds its distance to it:
//
//   procedure list-rank(Next)                  Next[i] = i marks the tail of a list
//       Rank <- 0 at a tail, 1 elsewhere
//       repeat ceil(log2 n) times
//           Rank <- Rank + back-permute(Rank, Next)
//           Next <- back-permute(Next, Next)
//       Rank
//
// Any number of lists can share the vector. The work is O(n log n), more than
// a sequential walk, for O(log n) rounds of two back-permutes each; the host
// waits only for the first round's check of the pointers. Next must
// describe lists: an element whose pointers run into a cycle never reaches a
// tail and ends with a rank of at least n. Pointers out of range throw
// sv::index_error (with checks on).
#pragma once

#include <scanvec/primitives/permute.hpp>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

struct not_a_tail {
    template <class I> SCANVEC_HD index_t operator()(const I& next, index_t i) const { return index_t(next) == i ? 0 : 1; }
};
struct as_index {
    template <class I> SCANVEC_HD index_t operator()(const I& v) const { return index_t(v); }
};

}  // namespace detail

/// r[i] = the number of links from i to the tail of its list (0 at a tail,
/// where next[i] == i).
template <class Next> vector<index_t> list_rank(const Next& next) {
    static_assert(std::is_integral_v<value_t<Next>>, "sv::list_rank(next): next must hold integers");
    const std::size_t n = next.size();
    return detail::labelled("list_rank", n, [&] {
        vector<index_t> ptr = map(detail::as_index{}, next);
        // Rank <- 0 at a tail, 1 elsewhere
        vector<index_t> rank = map(detail::not_a_tail{}, next, lazy::index(n));
        // repeat ceil(log2 n) times (at least once): the first round checks
        // every pointer, and the later ones follow pointers it checked
        for (std::size_t reach = 1; reach == 1 || reach < n; reach *= 2) {
            // Rank <- Rank + back-permute(Rank, Next)
            rank = map(plus<index_t>{}, rank, reach == 1 ? back_permute(rank, ptr) : back_permute(rank, ptr, unchecked));
            // Next <- back-permute(Next, Next)
            ptr = reach == 1 ? back_permute(ptr, ptr) : back_permute(ptr, ptr, unchecked);
        }
        return rank;
    }, next);
}

SCANVEC_NAMESPACE_END
