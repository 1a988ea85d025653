// scanvec/algorithms/detail/maximal_independent_set.hpp - the element
// functions of Luby's maximal independent set (priorities, edge states).
#pragma once

#include <scanvec/algorithms/detail/device_rounds.hpp>
#include <scanvec/primitives/bounded.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/write.hpp>

#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail::mis {

/// u != v: an edge that is not a self-loop.
struct differ {
    template <class A, class B> SCANVEC_HD bool operator()(const A& u, const B& v) const { return index_t(u) != index_t(v); }
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

/// An edge (its smaller end u, its larger end v) as one vector, a field per
/// array: one pack moves both ends.
template <class I> struct edge {
    I u;
    I v;
};
template <class I> field_list<edge<I>, &edge<I>::u, &edge<I>::v> scanvec_fields_of(edge<I>*) { return {}; }
template <class I> struct ordered_edge {
    template <class A, class B> SCANVEC_HD edge<I> operator()(const A& u, const B& v) const {
        return index_t(u) < index_t(v) ? edge<I>{I(u), I(v)} : edge<I>{I(v), I(u)};
    }
};
/// The same value x at every position (distribute(x) over a bounded vector).
template <class T> struct always {
    T x;
    template <class A> SCANVEC_HD T operator()(const A&) const { return x; }
};

/// Luby's rounds on the edge list (from[k], to[k]) of n vertices of type I, in
/// loops the device repeats (detail/device_rounds.hpp): the live vertices and
/// edges are bounded vectors (their numbers on the device), the round is the
/// loop's call.
template <class I, class From, class To>
vector<bool> luby(std::size_t n, const From& from, const To& to, std::uint64_t seed, int* rounds,
                  std::size_t small_capacity = device_rounds_capacity) {
    using P = std::uint64_t;
    expect_same_length("maximal_independent_set (edge ends)", from.size(), to.size());
    expect_targets_in_range("maximal_independent_set", from, n);
    expect_targets_in_range("maximal_independent_set", to, n);  // the writes below need no check
    // In <- false; Out <- false; L <- V
    vector<bool> in(n, false), out(n, false);
    // E <- the edges as (smaller end, larger end), self-loops dropped
    bounded<edge<I>> e(pack(lazy::map(ordered_edge<I>{}, from, to), lazy::map(differ{}, from, to)));
    vector<P> best(n);
    bounded<I> live(index<I>(n));
    const int id_bits = bits_for(n);
    // while #L > 0
    const std::size_t round = device_rounds(std::tie(in, out, best, live, e), std::tie(live, e),
                                            [&](const device_value<std::uint64_t>& r, std::uint64_t before)
                                                -> const device_value<index_t>& {
        // P <- a random priority for every vertex (computed where it is read)
        auto word = lazy::random<P>(n, seed + before, r);
        const auto priority_of = [&](const auto& vs) {
            return lazy::map(priority<I>{id_bits}, lazy::back_permute(word, vs), vs);
        };
        const auto eu = e.template field<&edge<I>::u>();
        const auto ev = e.template field<&edge<I>::v>();
        // Best <- 0 at L, then the largest priority among the live neighbours
        best = write(std::move(best), live, lazy::map(always<P>{0}, live), unchecked);
        best = combining_write(std::move(best), eu, priority_of(ev), max<P>{}, unchecked);
        best = combining_write(std::move(best), ev, priority_of(eu), max<P>{}, unchecked);
        // J <- pack(L, P[L] > Best[L])
        bounded<I> joined = pack(live, lazy::map(beats{}, priority_of(live), lazy::back_permute(best, live)),
                                 length_on_device);
        // In <- In <- {(j, true)};  Out <- Out <- {(j, true)}
        in = write(std::move(in), joined, lazy::map(always<bool>{true}, joined), unchecked);
        out = write(std::move(out), joined, lazy::map(always<bool>{true}, joined), unchecked);
        // Out <- or-send(Out, u(E), In[v(E)]) and the other way round: the neighbours of J leave
        out = combining_write(std::move(out), eu, lazy::back_permute(in, ev), logical_or{}, unchecked);
        out = combining_write(std::move(out), ev, lazy::back_permute(in, eu), logical_or{}, unchecked);
        // L <- pack(L, not Out[L])
        live = pack(live, lazy::map(is_false{}, lazy::back_permute(out, live)), length_on_device);
        // E <- pack(E, not Out[u] and not Out[v])
        e = pack(e, lazy::map(neither{}, lazy::back_permute(out, eu), lazy::back_permute(out, ev)), length_on_device);
        return live.length();
    }, small_capacity);
    if (rounds) *rounds = int(round);
    return in;
}

}  SCANVEC_NAMESPACE_END  // detail::mis
