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
// and m edges.
//
// Edges are undirected: an edge listed as (u, v), as (v, u) or as both joins u
// and v; self-loops and repeated edges are allowed and change nothing. An
// adjacency given as sv::nested (segment v lists v's neighbours) is read the
// same way, so it may be symmetric or list each edge once. Endpoints outside
// 0..n-1 throw sv::index_error before any work. The result depends on the seed
// only (the same on both backends).
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/write.hpp>

#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail::mis {

/// u != v: an edge that is not a self-loop.
struct differ {
    template <class A, class B> SCANVEC_HD bool operator()(const A& u, const B& v) const { return index_t(u) != index_t(v); }
};
/// The smaller end of an edge, as the vertex type.
template <class I> struct lesser_end {
    template <class A, class B> SCANVEC_HD I operator()(const A& u, const B& v) const {
        return index_t(u) < index_t(v) ? I(u) : I(v);
    }
};
/// The larger end of an edge.
template <class I> struct greater_end {
    template <class A, class B> SCANVEC_HD I operator()(const A& u, const B& v) const {
        return index_t(u) < index_t(v) ? I(v) : I(u);
    }
};
/// The priority of vertex v from its random word r: r's low bits replaced by v + 1 (distinct, never 0).
template <class I> struct priority {
    int id_bits;
    SCANVEC_HD std::uint64_t operator()(std::uint64_t r, const I& v) const {
        return (r << id_bits) | (std::uint64_t(v) + 1);
    }
};
/// A vertex beats all its live neighbours.
struct beats {
    SCANVEC_HD bool operator()(std::uint64_t p, std::uint64_t best) const { return p > best; }
};
struct is_false {
    SCANVEC_HD bool operator()(bool out) const { return !out; }
};
/// Neither end of an edge has left.
struct neither {
    SCANVEC_HD bool operator()(bool out_u, bool out_v) const { return !out_u && !out_v; }
};

/// The number of bits that hold 0..n.
inline int bits_for(std::size_t n) {
    int b = 0;
    while (b < 63 && (std::uint64_t(1) << b) <= n) ++b;
    return b;
}

/// Luby's rounds on the edge list (from[k], to[k]) of n vertices of type I.
template <class I, class From, class To>
vector<bool> luby(std::size_t n, const From& from, const To& to, std::uint64_t seed, int* rounds) {
    using P = std::uint64_t;
    expect_same_length("maximal_independent_set (edge ends)", from.size(), to.size());
    expect_targets_in_range("maximal_independent_set", from, n);
    expect_targets_in_range("maximal_independent_set", to, n);  // the writes below need no check
    // E <- the edges as (smaller end, larger end), self-loops dropped
    auto loop_free = lazy::map(differ{}, from, to);
    vector<I> eu = pack(lazy::map(lesser_end<I>{}, from, to), loop_free);
    vector<I> ev = pack(lazy::map(greater_end<I>{}, from, to), loop_free);
    // In <- false; Out <- false; L <- V
    vector<bool> in(n, false), out(n, false);
    vector<P> best(n);
    vector<I> live = index<I>(n);
    const int id_bits = bits_for(n);
    int round = 0;
    for (; !live.empty(); ++round) {
        // P <- a random priority for every vertex (computed where it is read)
        auto word = lazy::random<P>(n, random_key(seed) + std::uint64_t(round));
        auto priority_of = [&](const vector<I>& vs) {
            return lazy::map(priority<I>{id_bits}, lazy::back_permute(word, vs), vs);
        };
        // Best <- 0 at L, then the largest priority among the live neighbours
        best = write(std::move(best), live, lazy::distribute(P(0), live.size()), unchecked);
        best = combining_write(std::move(best), eu, priority_of(ev), max<P>{}, unchecked);
        best = combining_write(std::move(best), ev, priority_of(eu), max<P>{}, unchecked);
        // J <- pack(L, P[L] > Best[L])
        vector<I> joined = pack(live, lazy::map(beats{}, priority_of(live), lazy::back_permute(best, live)));
        // In <- In <- {(j, true)};  Out <- Out <- {(j, true)}
        in = write(std::move(in), joined, lazy::distribute(true, joined.size()), unchecked);
        out = write(std::move(out), joined, lazy::distribute(true, joined.size()), unchecked);
        // Out <- or-send(Out, u(E), In[v(E)]) and the other way round: the neighbours of J leave
        out = combining_write(std::move(out), eu, lazy::back_permute(in, ev), logical_or{}, unchecked);
        out = combining_write(std::move(out), ev, lazy::back_permute(in, eu), logical_or{}, unchecked);
        // L <- pack(L, not Out[L])
        live = pack(live, lazy::map(is_false{}, lazy::back_permute(out, live)));
        // E <- pack(E, not Out[u] and not Out[v])
        vector<bool> keep = map(neither{}, lazy::back_permute(out, eu), lazy::back_permute(out, ev));
        eu = pack(eu, keep);
        ev = pack(ev, keep);
    }
    if (rounds) *rounds = round;
    return in;
}

}  // namespace detail::mis

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
