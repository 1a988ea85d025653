// maximal_independent_set - Luby's algorithm: the local maxima of random priorities join.
//
// In every round each live vertex draws a random priority; a vertex whose
// priority beats all its live neighbours' joins the set (a max combining-write
// over the edges finds the best neighbour), and it and its neighbours leave
// the graph (an or combining-write). The program spells out one round on a
// small graph, runs sv::maximal_independent_set on it, then on a random graph
// of a million vertices, checks both sets for independence and maximality
// with a sequential walk over the edges, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>
#include <random>

namespace sv = scanvec;

/// Priority r * n + v: distinct for distinct vertices.
struct distinct_priority {
    int n;
    SCANVEC_HD int operator()(int r, sv::index_t v) const { return r * n + int(v); }
};

/// Whether in is an independent set of the graph (from, to) on n vertices, and maximal.
static bool is_maximal_independent(std::size_t n, const std::vector<int>& from, const std::vector<int>& to,
                                   const std::vector<bool>& in) {
    if (in.size() != n) return false;
    std::vector<bool> covered(in);  // in the set, or next to a vertex in it
    for (std::size_t k = 0; k < from.size(); ++k) {
        const int u = from[k], v = to[k];
        if (u != v && in[u] && in[v]) return false;  // two neighbours in the set
        if (in[u]) covered[v] = true;
        if (in[v]) covered[u] = true;
    }
    for (std::size_t v = 0; v < n; ++v)
        if (!covered[v]) return false;  // v could still join
    return true;
}

int main() {
    std::cout << "Luby's maximal independent set (" << sv::backend_name() << " backend)\n\n";
    // a ring of 10 vertices with three chords
    const int n = 10;
    sv::vector<int> from = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 2, 6};
    sv::vector<int> to = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 5, 8, 3};

    // One round, spelled out: P <- priorities; Best <- max-send over the edges; J <- P > Best
    sv::vector<int> p = sv::map(distinct_priority{n}, sv::lazy::random<int>(n, 7, 0, 9), sv::lazy::index(n));
    sv::vector<int> best(n, -1);
    best = sv::combining_write(std::move(best), from, sv::lazy::back_permute(p, to), sv::max<int>{});
    best = sv::combining_write(std::move(best), to, sv::lazy::back_permute(p, from), sv::max<int>{});
    sv::vector<bool> joins = sv::map(SCANVEC_FN(int a, int b) { return a > b; }, p, best);
    sv::vector<bool> gone = joins;
    gone = sv::combining_write(std::move(gone), from, sv::lazy::back_permute(joins, to), sv::logical_or{});
    gone = sv::combining_write(std::move(gone), to, sv::lazy::back_permute(joins, from), sv::logical_or{});
    std::cout << "edges\n" << sv::table().row("from", from).row("to", to) << "\nround 1\n"
              << sv::table()
                     .row("vertex", sv::lazy::index(n))
                     .row("P", p)
                     .row("Best (neighbours' max)", best)
                     .row("J (P > Best)", joins)
                     .row("leave (J and neighbours)", gone);
    int rounds = 0;
    sv::vector<bool> in = sv::maximal_independent_set(n, from, to, 7, &rounds);
    std::cout << "\n" << sv::table().row("maximal_independent_set", in) << "found in " << rounds << " rounds\n\n";
    bool ok = is_maximal_independent(n, from.to_host(), to.to_host(), in.to_host());

    // A random graph: a million vertices, four million edges.
    const std::size_t big = 1000000, edges = 4000000;
    std::mt19937_64 rng(11);
    std::vector<int> u(edges), v(edges);
    for (std::size_t k = 0; k < edges; ++k) u[k] = int(rng() % big), v[k] = int(rng() % big);
    sv::vector<bool> set = sv::maximal_independent_set(big, sv::vector<int>(u), sv::vector<int>(v), 2026, &rounds);
    const auto h = set.to_host();
    ok = ok && is_maximal_independent(big, u, v, h);
    std::size_t size = 0;
    for (bool b : h) size += b;
    std::cout << "random graph of " << big << " vertices and " << edges << " edges: a maximal independent set of "
              << size << " vertices in " << rounds << " rounds\n";
    if (!ok) {
        std::cerr << "maximal_independent_set: wrong result\n";
        return 1;
    }
    std::cout << "maximal_independent_set: all results checked\n";
    return 0;
}
