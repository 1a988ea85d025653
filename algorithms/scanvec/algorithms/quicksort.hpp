// scanvec/algorithms/quicksort.hpp - Blelloch's segmented quicksort.
//
//   sv::quicksort(a)                      a sorted ascending (any type with a SCANVEC_HD operator<)
//   sv::quicksort(a, &rounds)             and the number of rounds taken
//   sv::quicksort_rounds(a)               {sorted, rounds}
//   sv::quicksort_rounds(a, on_round)     every round of the model down to segments of one (no
//                                         base case), calling on_round(round, keys, heads) after
//                                         each (heads: a lazy vector of the new head flags)
//
// Floating keys: -0 and +0 are equal keys (either order is sorted); with NaN,
// which compares false with every key, no order is promised, but every key is
// kept and the sort ends.
//
// Every segment is split in the same round, so a round is a constant number of
// primitive steps (the three-way split family, three_way_split.hpp) whatever
// the number of segments, and the rounds are the depth of the recursion:
// O(log n) expected. The pivot of a segment is a ninther, or the median of 256
// samples for a long one (detail/three_way/pivots.hpp). Traced (sv::trace),
// each round is a call "round" that shows the book's picture of it (A,
// Seg-Flags, Pivots, F, Index, A', Seg-Flags') with its steps beneath. The
// rounds run on the three-way family's engine (detail/three_way/rounds.hpp:
// the test read a round late, rounds repeated by the device on CUDA); how and
// why: docs/design/quicksort.md.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/three_way/pivots.hpp>
#include <scanvec/primitives/detail/three_way/rounds.hpp>
#include <scanvec/primitives/three_way_split.hpp>

#include <cstdint>
#include <limits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN

/// The sorted vector and the number of rounds the segmented quicksort took.
template <class T> struct quicksort_result {
    vector<T> sorted;
    int rounds = 0;
    std::size_t size() const { return sorted.size(); }
};

namespace detail {

//   procedure quicksort(A)
//       Seg-Flags[0] <- T
//       while not every segment of A is sorted
//           sort each short segment at once                the base case
//           Pivots <- seg-distribute(a pivot of each segment, Seg-Flags)
//           F      <- Pivots <=> A                           less, equal or greater
//           A      <- seg-split(A, F, Seg-Flags)             three ways, in every segment
//           Seg-Flags <- new-seg-flags(A, Pivots, Seg-Flags)
template <class Pos, class A, class OnRound>
quicksort_result<value_t<A>> quicksort_in(const A& input, OnRound& on_round, bool base_case) {
    using T = value_t<A>;
    // Seg-Flags[0] <- T: one segment, the whole vector (read in place until the first split)
    pivoted_segments<T, Pos> segs = first_segments<Pos>(input, base_case && !rounds_pictured<T>(input.size()));
    // while not every segment of A is sorted (the engine: where the rounds run, when the test is read)
    const int rounds = run_three_way_rounds(segs, [&](const auto& split_three_ways, std::uint64_t round) {
        if (base_case) sort_short_segments(segs);  // sort each short segment at once
        choose_pivots(segs, ninther{round});       // Pivots <- a pivot of each segment
        // F <- Pivots <=> A; A <- seg-split(A, F, Seg-Flags); Seg-Flags <- new-seg-flags(...)
        segs = split_three_ways(segs);
    }, on_round);
    return {std::move(segs.keys), rounds};
}

template <class A, class OnRound> quicksort_result<value_t<A>> quicksort_with(const A& a, OnRound on_round, bool base_case) {
    return labelled({"quicksort", {"A"}, "Sorted"}, a.size(), [&] {
        if (a.size() <= std::numeric_limits<std::uint32_t>::max())
            return quicksort_in<std::uint32_t>(a, on_round, base_case);
        return quicksort_in<std::uint64_t>(a, on_round, base_case);
    }, a);
}

}  // namespace detail

/// Sorts ascending by Blelloch's segmented quicksort, round after round down
/// to segments of one (no base case: every split is shown), calling
/// on_round(round, keys, heads) after each round; returns the sorted vector
/// and the rounds taken.
template <class A, class OnRound> quicksort_result<value_t<A>> quicksort_rounds(const A& a, OnRound on_round) {
    static_assert(detail::has_less_v<value_t<A>>,
                  "sv::quicksort: the element type needs a SCANVEC_HD operator< (bool operator<(const T&, const T&))");
    if constexpr (detail::has_less_v<value_t<A>>) return detail::quicksort_with(a, on_round, false);
    else return {};
}

/// Sorts ascending by segmented quicksort with its base case; returns the
/// sorted vector and the rounds taken.
template <class A> quicksort_result<value_t<A>> quicksort_rounds(const A& a) {
    static_assert(detail::has_less_v<value_t<A>>,
                  "sv::quicksort: the element type needs a SCANVEC_HD operator< (bool operator<(const T&, const T&))");
    if constexpr (detail::has_less_v<value_t<A>>) return detail::quicksort_with(a, detail::no_round_callback{}, true);
    else return {};
}

/// Sorts ascending by Blelloch's segmented quicksort (any type with a SCANVEC_HD operator<).
template <class A> vector<value_t<A>> quicksort(const A& a) { return quicksort_rounds(a).sorted; }

/// The same, storing the number of rounds taken in *rounds.
template <class A> vector<value_t<A>> quicksort(const A& a, int* rounds) {
    auto r = quicksort_rounds(a);
    if (rounds) *rounds = r.rounds;
    return std::move(r.sorted);
}

// A sv::dist::vector: one error that names sv::dist::quicksort (primitives/detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(quicksort, dist::vector<T>)

SCANVEC_NAMESPACE_END
