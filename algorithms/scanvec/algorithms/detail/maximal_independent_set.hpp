// scanvec/algorithms/detail/maximal_independent_set.hpp - the element
// functions of Luby's maximal independent set (priorities, edge states).
#pragma once

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

}  SCANVEC_NAMESPACE_END  // detail::mis
