// scanvec/algorithms/maximal_independent_set.hpp - Luby's maximal independent set.
//
// A set of vertices is independent when no edge joins two of them, and maximal
// when every other vertex has a neighbour in it. Luby's algorithm finds one in
// rounds: every live vertex draws a random priority, the vertices whose
// priority beats all their live neighbours' join the set (two neighbours never
// both do), and they and their neighbours leave the graph. The surviving edges
// are packed, so every round works on what is left:
//
//   procedure MIS(V, E)                       E: undirected edges (u, v), u != v
//       In <- false; Out <- false; L <- V     L: the live vertices
//       while #L > 0
//           P    <- a random priority for every vertex, all distinct
//           Best <- 0 at L
//           Best <- max-send(Best, u(E), P[v(E)]);  Best <- max-send(Best, v(E), P[u(E)])
//           J    <- pack(L, P[L] > Best[L])                    the local maxima join
//           In   <- In <- {(j, true) : j in J}
//           Out  <- Out <- {(j, true) : j in J}                they and their neighbours leave
//           Out  <- or-send(Out, u(E), In[v(E)]);  Out <- or-send(Out, v(E), In[u(E)])
//           L    <- pack(L, not Out[L])
//           E    <- pack(E, not Out[u(E)] and not Out[v(E)])
//       In
//
// max-send and or-send are sv::combining_write (NESL's combining <-), the
// writes of true are sv::write. A priority is the round's random word for the
// vertex (sv::lazy::random, keyed by the seed and the round) shifted above the
// vertex number plus one, so priorities never tie and the live vertex of the
// highest priority always joins. Priorities are computed where they are read,
// never stored.
//
// Cost: O(log n) rounds in expectation, each a constant number of steps over
// the live vertices and edges. A round removes at least half of the live edges
// in expectation, and after the first round every live vertex has a live edge
// (one without joins at once), so the expected work is O(n + m) for n vertices
// and m edges. The rounds run in loops the device repeats (sv::repeat_while;
// on CUDA, graphs): L and E are bounded vectors whose lengths stay on the
// device, and the round is the loop's call. A round's steps are launched over
// L's and E's capacities, the positions past the live ones only comparing
// themselves with the length; while those are large each round is a loop of
// its own, L and E refitted after it, and once they are small one loop makes
// the rest of the rounds (detail/device_rounds.hpp).
//
// Edges are undirected: an edge listed as (u, v), as (v, u) or as both joins u
// and v; self-loops and repeated edges are allowed and change nothing. An
// adjacency given as sv::nested (segment v lists v's neighbours) is read the
// same way, so it may be symmetric or list each edge once. Endpoints outside
// 0..n-1 throw sv::index_error before any work. The result depends on the seed
// only (the same on both backends).
#pragma once

#include <scanvec/algorithms/detail/maximal_independent_set.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/write.hpp>

#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN

/// A maximal independent set of the undirected graph on vertices 0..n-1 with
/// the edges (from[k], to[k]): r[v] is true for the vertices in the set. Luby's
/// algorithm with priorities drawn from seed; *rounds (if given) receives the
/// number of rounds.
template <class From, class To, std::enable_if_t<is_sequence_v<From> && is_sequence_v<To>, int> = 0>
vector<bool> maximal_independent_set(std::size_t n, const From& from, const To& to, std::uint64_t seed = 1,
                                     int* rounds = nullptr) {
    static_assert(std::is_integral_v<value_t<From>> && std::is_integral_v<value_t<To>>,
                  "sv::maximal_independent_set(n, from, to): the edge ends must be integers");
    using I = std::common_type_t<value_t<From>, value_t<To>>;
    return detail::labelled("maximal_independent_set", from.size(),
                            [&] { return detail::mis::luby<I>(n, from, to, seed, rounds); });
}

/// The same on an adjacency: segment v of adj lists v's neighbours (adj.count() vertices).
template <class I>
vector<bool> maximal_independent_set(const nested<I>& adj, std::uint64_t seed = 1, int* rounds = nullptr) {
    static_assert(std::is_integral_v<I>, "sv::maximal_independent_set(adj): adj must hold vertex numbers");
    return detail::labelled("maximal_independent_set", adj.total(), [&] {
        // the edge k runs from its segment to adj.values()[k]
        return detail::mis::luby<I>(adj.count(), adj.segments().ids(), adj.values(), seed, rounds);
    });
}

SCANVEC_NAMESPACE_END
