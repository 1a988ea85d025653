// scanvec/algorithms/quicksort.hpp - Blelloch's segmented quicksort.
//
//   procedure quicksort(A)
//       Seg-Flags[0] <- T
//       while not every segment of A is sorted
//           sort each short segment at once                the base case
//           Pivots <- seg-distribute(a pivot of each segment, Seg-Flags)
//           F      <- Pivots <=> A                           less, equal or greater
//           A      <- seg-split(A, F, Seg-Flags)             three ways, in every segment
//           Seg-Flags <- new-seg-flags(A, Pivots, Seg-Flags)
//
// Every segment is split in the same round, so a round is a constant number of
// passes over the whole vector whatever the number of segments, and the rounds
// are the depth of the recursion: O(log n) expected.
//
// How the program holds the segments (sv::pivoted_segments, the primitive
// family of three_way_split.hpp): the keys, and at every position Start, where
// its segment begins (the head flags are Start[i] = i); at each head the
// segment's length and pivot. A round is four primitive steps:
//   sort_short_segments the base case: short segments (at most segs.short_limit()
//                       keys: on CUDA 16384 32-bit integers or 2048 other 4-byte
//                       keys, what a block sorts in shared memory; 16 elsewhere)
//                       sorted at once, finished
//   choose_pivots       each head picks its segment's pivot (below)
//   count_three_ways    every key compared with Pivot[Start]: each segment's less
//                       and equal counts, and the descents (the sortedness check,
//                       left on the device: count_three_ways_to_device)
//   split_three_ways    the permute: less | each equal alone | greater, stably,
//                       and the new heads with their lengths
// The counts are a segmented enumerate of two classes at once (packed in one
// word); see three_way_split.hpp for how each backend runs them. On CUDA the
// count and the split are one tile pass each, so a round reads the keys and
// starts twice and writes them once (24 bytes per 32-bit key); tiles whose
// keys are all finished are skipped, and the base case costs a pass only
// where a tile's segments have just all become short. The pivots are chosen
// in a pass of their own, not inside the count pass (count_three_ways(segs,
// chooser)): there every tile of a long segment would choose its pivot again,
// and 81 scattered reads per tile cost more than the pass (measured on H100).
//
// Pivots: the median of three medians of three (the ninther) of nine positions
// hashed from (segment start, round), one in each ninth of the segment (81
// positions in segments of 2^14 keys or more). On sorted, reversed or random
// input this splits near the middle, and it needs no randomness in the input:
// expected rounds about log2 n + a tail of small segments. Without the base
// case that is about 36 rounds at 2^24 random keys; with it, segments end at a
// few thousand keys and the tail goes: 13 on CUDA (H100). The elements
// equal to the pivot are finished: each becomes a segment of its own, which
// never moves again; all-equal input and few distinct keys finish in a round
// per distinct key along a path.
//
// Termination: the loop ends when no segment holds a descent (A[i] < A[i-1]
// with i not a head), counted in the same pass as the three-way counts:
// sorted input takes no round at all. That count is the round's one host
// synchronisation, and the host reads it late: the descents are fetched
// (copied to the host) before the split is queued and read after it, so the
// GPU splits while the host waits. From the second round on the unwatched
// sort runs a round ahead: it queues round r+1 before it reads round r's
// descents, and the GPU never idles while the host reads and launches. The
// price is one round past the end, over sorted segments: no key moves in it,
// and on random input nearly every tile is finished by then and skipped. The
// first round is read before the next is queued, so sorted and all-equal input
// still stop after one pass of each kind.
//
//   sv::quicksort(a)                      a sorted ascending (any type with a SCANVEC_HD operator<)
//   sv::quicksort(a, &rounds)             and the number of rounds taken
//   sv::quicksort_rounds(a)               {sorted, rounds}
//   sv::quicksort_rounds(a, on_round)     every round of the model down to segments of one (no
//                                         base case), calling on_round(round, keys, heads) after
//                                         each (heads: a lazy vector of the new head flags)
#pragma once

#include <scanvec/primitives/three_way_split.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

namespace scanvec {

/// The sorted vector and the number of rounds the segmented quicksort took.
template <class T> struct quicksort_result {
    vector<T> sorted;
    int rounds = 0;
    std::size_t size() const { return sorted.size(); }
};

namespace detail {

struct is_head {
    template <class Off> SCANVEC_HD bool operator()(Off start, index_t i) const { return index_t(start) == i; }
};

SCANVEC_HD inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// The pivot of the segment of len keys from start: the ninther of nine
/// positions hashed from (start, round), one in each ninth of the segment; a
/// segment of 2^14 keys or more takes the ninther of nine such ninthers (81
/// positions, one in each 81st): its split lands nearer the middle, and there
/// are few such segments to pay for it. Each nine keys are loaded together
/// (one wait for memory, not nine).
struct ninther {
    std::uint64_t round;
    static constexpr std::uint64_t wide = std::uint64_t(1) << 14;
    template <class Keys, class Off> SCANVEC_HD auto operator()(const Keys& keys, Off start, Off len) const {
        using T = std::decay_t<decltype(keys[start])>;
        const std::uint64_t h = mix64(std::uint64_t(start) * 0x9e3779b97f4a7c15ull + round);
        if (std::uint64_t(len) < wide) return of_nine<T>(keys, start, len, h, 0, 1);
        T m[9];
        for (int g = 0; g < 9; ++g) m[g] = of_nine<T>(keys, start, len, mix64(h + std::uint64_t(g)), g, 9);
        return ninth_of(m);
    }
    /// The ninther of the keys in strata g, g + stride, ..., g + 8 stride of 9 stride equal parts.
    template <class T, class Keys, class Off>
    SCANVEC_HD static T of_nine(const Keys& keys, Off start, Off len, std::uint64_t h, int g, int stride) {
        T x[9];
        for (int k = 0; k < 9; ++k) {
            // u in the stratum from 7 bits of the hash; the sample is start + floor(len * u)
            const double u = (double(g + k * stride) + double((h >> (7 * k)) & 127) * (1.0 / 128)) / double(9 * stride);
            const Off off = Off(double(len) * u);
            x[k] = keys[start + (off < len ? off : Off(len - 1))];
        }
        return ninth_of(x);
    }
    template <class T> SCANVEC_HD static T ninth_of(const T (&x)[9]) {
        return median(median(x[0], x[3], x[6]), median(x[1], x[4], x[7]), median(x[2], x[5], x[8]));
    }
    template <class T> SCANVEC_HD static T median(const T& a, const T& b, const T& c) {
        if (a < b) return b < c ? b : (a < c ? c : a);
        return a < c ? a : (b < c ? c : b);
    }
};

struct no_round_callback {
    template <class... X> void operator()(const X&...) const {}
};

template <class Off, class A, class OnRound>
quicksort_result<value_t<A>> quicksort_in(const A& input, OnRound& on_round, bool base_case) {
    using T = value_t<A>;
    quicksort_result<T> out;
    // Seg-Flags[0] <- T: one segment, the whole vector
    pivoted_segments<T, Off> segs(materialize(input));
    std::uint64_t queued = 0;
    const auto round = [&] {  // queues one round; returns its descents, on their way to the host
        // the base case: every short segment sorted at once, its keys finished
        if (base_case) sort_short_segments(segs);
        // Pivots <- a pivot of each segment, at its head
        choose_pivots(segs, ninther{queued++});
        // F <- A <=> Pivots[Start], counted per segment, with the descents
        auto descents = count_three_ways_to_device(segs).fetch();
        // A <- seg-split(A, F) three ways; Seg-Flags <- less | each equal alone | greater
        segs = split_three_ways(segs);
        return descents;
    };
    // Unwatched, the host runs a round ahead from the second round on
    constexpr bool run_ahead = std::is_same_v<OnRound, no_round_callback>;
    auto descents = round();
    for (;;) {
        std::optional<decltype(descents)> next;
        if (run_ahead && out.rounds > 0) next = round();
        // stop when no segment held a descent (the splits of sorted segments moved no key)
        if (descents.get() == 0) break;
        ++out.rounds;
        on_round(out.rounds, static_cast<const vector<T>&>(segs.keys),
                 lazy::map(is_head{}, segs.start, lazy::index(segs.size())));
        descents = next ? std::move(*next) : round();
    }
    out.sorted = std::move(segs.keys);
    return out;
}

template <class A, class OnRound> quicksort_result<value_t<A>> quicksort_with(const A& a, OnRound on_round, bool base_case) {
    return labelled("quicksort", a.size(), [&] {
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

}  // namespace scanvec
