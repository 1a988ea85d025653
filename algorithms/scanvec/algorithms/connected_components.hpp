// scanvec/algorithms/connected_components.hpp - connected components by random mate.
//
// Random-mate graph contraction: in every round each root flips a coin; a
// tails root with an edge to a heads root hooks onto it (where it has several,
// one write wins), so the hooks form stars around heads roots and no chain
// grows longer than one per round. The edges are then relabelled to their
// ends' roots and those inside a star disappear. When no edge is left every
// root is alone in its component, and pointer jumping takes every vertex to
// its root:
//
//   procedure components(V, E)                E: undirected edges (u, v)
//       P <- index(#V)                         every vertex its own root
//       E <- pack(E, u(E) != v(E))
//       while #E > 0
//           H    <- a random coin for every vertex (heads: a root others hook onto)
//           Mate <- H[u(E)] != H[v(E)]          edges from a tails root to a heads root
//           P    <- P <- {(tail end, head end) : edges with Mate}   one hook per tails root wins
//           E    <- (P[u(E)], P[v(E)])          every end moved to its root
//           E    <- pack(E, u(E) != v(E))       edges inside a star disappear
//       repeat ceil(log2 rounds) times
//           P <- P[P]                           pointer jumping: the trees have depth <= rounds
//       P
//
// The coins are sv::lazy::random<bool> keyed by the seed and the round, read at
// the edges' ends and never stored; the hooks are one sv::write. The rounds run
// in loops the device repeats (sv::repeat_while; on CUDA, graphs): the edges
// are a bounded vector whose number stays on the device, and the round is the
// loop's call number. While the edges are many, each round is a loop of its
// own and the edges are refitted after it (a step costs its bounded vectors'
// capacity); once they are few, one loop makes the rest of the rounds and the
// host waits once (detail/device_rounds.hpp).
//
// Cost: a root with an edge hooks with probability at least 1/4 in a round, so
// O(log n) rounds in expectation, each a constant number of steps over the
// edges (launched over the first round's; the positions past the live edges
// only compare themselves with their number): O(m log n) work for m edges
// (edges between the same two stars are not merged, so the live edges need
// not shrink fast), plus O(n log log n) for the pointer jumping.
//
// Contract: r[v] is the label of v's component, a vertex of that component
// (so r[v] == v for exactly one v per component), the same for all of its
// vertices. Which vertex is the label is unspecified: it depends on the seed
// and on which of several colliding hooks wins, which may differ between runs
// and backends. The partition is always the same. Edges are undirected, self-loops and repeated edges allowed; endpoints
// outside 0..n-1 throw sv::index_error before any work.
#pragma once

#include <scanvec/algorithms/detail/device_rounds.hpp>
#include <scanvec/primitives/bounded.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/write.hpp>

#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail::cc {

struct differ {
    template <class A, class B> SCANVEC_HD bool operator()(const A& u, const B& v) const { return index_t(u) != index_t(v); }
};
/// The edge joins a tails root to a heads root.
struct mates {
    SCANVEC_HD bool operator()(bool heads_u, bool heads_v) const { return heads_u != heads_v; }
};
/// An edge between two roots (E's u and v as one vector, a field per array:
/// one pack moves both).
template <class I> struct edge {
    I u;
    I v;
};
template <class I> field_list<edge<I>, &edge<I>::u, &edge<I>::v> scanvec_fields_of(edge<I>*) { return {}; }
template <class I> struct make_edge {
    template <class A, class B> SCANVEC_HD edge<I> operator()(const A& u, const B& v) const { return {I(u), I(v)}; }
};
/// A mating edge as a hook: its tails end (the root that hooks) and its heads
/// end (the root it hooks onto).
template <class I> struct hook {
    I tails;
    I heads;
};
template <class I> field_list<hook<I>, &hook<I>::tails, &hook<I>::heads> scanvec_fields_of(hook<I>*) { return {}; }
template <class I> struct make_hook {
    SCANVEC_HD hook<I> operator()(bool heads_u, const I& u, const I& v) const {
        return heads_u ? hook<I>{v, u} : hook<I>{u, v};
    }
};

/// Random-mate rounds on the edge list (from[k], to[k]) of n vertices of type
/// I. The edges are a bounded vector (their number on the device) and the
/// rounds run in loops the device repeats (detail/device_rounds.hpp).
template <class I, class From, class To>
vector<I> random_mate(std::size_t n, const From& from, const To& to, std::uint64_t seed, int* rounds,
                      std::size_t small_capacity = device_rounds_capacity) {
    expect_same_length("connected_components (edge ends)", from.size(), to.size());
    expect_targets_in_range("connected_components", from, n);
    expect_targets_in_range("connected_components", to, n);  // the writes below need no check
    // P <- index(#V)
    vector<I> p = index<I>(n);
    // E <- pack(E, u != v)
    bounded<edge<I>> e(pack(lazy::map(make_edge<I>{}, from, to), lazy::map(differ{}, from, to)));
    // while #E > 0
    const std::size_t round = device_rounds(std::tie(p, e), std::tie(e), [&](const device_value<std::uint64_t>& r,
                                                                              std::uint64_t before)
                                                                              -> const device_value<index_t>& {
        const auto u = e.template field<&edge<I>::u>();
        const auto v = e.template field<&edge<I>::v>();
        // H <- a random coin for every vertex (read at the edges' ends)
        auto coin = lazy::random<bool>(n, seed + before, r);
        auto heads_u = lazy::back_permute(coin, u);
        // Mate <- H[u] != H[v]; P <- P <- {(tail end, head end) : edges with Mate}
        bounded<hook<I>> hooks = pack(lazy::map(make_hook<I>{}, heads_u, u, v),
                                      lazy::map(mates{}, heads_u, lazy::back_permute(coin, v)), length_on_device);
        p = write(std::move(p), hooks.template field<&hook<I>::tails>(), hooks.template field<&hook<I>::heads>(), unchecked);
        // E <- (P[u], P[v]); E <- pack(E, u != v)
        auto root_u = lazy::back_permute(p, u);
        auto root_v = lazy::back_permute(p, v);
        e = pack(lazy::map(make_edge<I>{}, root_u, root_v), lazy::map(differ{}, root_u, root_v), length_on_device);
        return e.length();
    }, small_capacity);
    // repeat ceil(log2 rounds) times: P <- P[P]
    for (std::size_t reach = 1; reach < round; reach *= 2) p = back_permute(p, p);
    if (rounds) *rounds = int(round);
    return p;
}

}  // namespace detail::cc

/// The connected components of the undirected graph on vertices 0..n-1 with
/// the edges (from[k], to[k]): r[v] is a vertex of v's component, the same for
/// the whole component. Random mate with coins drawn from seed; *rounds (if
/// given) receives the number of contraction rounds.
template <class From, class To, std::enable_if_t<is_sequence_v<From> && is_sequence_v<To>, int> = 0>
vector<std::common_type_t<value_t<From>, value_t<To>>> connected_components(std::size_t n, const From& from,
                                                                            const To& to, std::uint64_t seed = 1,
                                                                            int* rounds = nullptr) {
    static_assert(std::is_integral_v<value_t<From>> && std::is_integral_v<value_t<To>>,
                  "sv::connected_components(n, from, to): the edge ends must be integers");
    using I = std::common_type_t<value_t<From>, value_t<To>>;
    return detail::labelled("connected_components", from.size(),
                            [&] { return detail::cc::random_mate<I>(n, from, to, seed, rounds); });
}

/// The same on an adjacency: segment v of adj lists v's neighbours (adj.count() vertices).
template <class I> vector<I> connected_components(const nested<I>& adj, std::uint64_t seed = 1, int* rounds = nullptr) {
    static_assert(std::is_integral_v<I>, "sv::connected_components(adj): adj must hold vertex numbers");
    return detail::labelled("connected_components", adj.total(), [&] {
        // the edge k runs from its segment to adj.values()[k]
        return detail::cc::random_mate<I>(adj.count(), adj.segments().ids(), adj.values(), seed, rounds);
    });
}

SCANVEC_NAMESPACE_END
