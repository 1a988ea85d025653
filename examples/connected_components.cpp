// connected_components - random-mate contraction: coin flips, hooks, relabelled edges.
//
// In every round each root flips a coin; a tails root with an edge to a heads
// root hooks onto it (sv::write: where there are several, one hook wins), the
// edges move to their ends' roots and those inside a star disappear. When no
// edge is left, pointer jumping takes every vertex to its root. The program
// spells out the first round on a small graph, runs
// sv::connected_components on it and on a random graph of a million vertices,
// checks the labelling against a sequential union-find up to renaming, and
// exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>
#include <numeric>
#include <random>
#include <unordered_map>

namespace sv = scanvec;

/// Sequential union-find: the smallest vertex of each component.
static std::vector<int> union_find(std::size_t n, const std::vector<int>& from, const std::vector<int>& to) {
    std::vector<int> up(n);
    std::iota(up.begin(), up.end(), 0);
    auto find = [&](int x) {
        while (up[x] != x) x = up[x] = up[up[x]];
        return x;
    };
    for (std::size_t k = 0; k < from.size(); ++k) {
        const int a = find(from[k]), b = find(to[k]);
        if (a != b) up[std::max(a, b)] = std::min(a, b);
    }
    std::vector<int> label(n);
    for (std::size_t v = 0; v < n; ++v) label[v] = find(int(v));
    return label;
}

/// The same partition: a one-to-one renaming of the labels, and every label a vertex labelled by itself.
static bool same_components(const std::vector<int>& got, const std::vector<int>& want) {
    if (got.size() != want.size()) return false;
    std::unordered_map<int, int> to_want, to_got;
    for (std::size_t v = 0; v < got.size(); ++v) {
        if (got[v] < 0 || std::size_t(got[v]) >= got.size() || got[got[v]] != got[v]) return false;
        auto a = to_want.emplace(got[v], want[v]).first;
        auto b = to_got.emplace(want[v], got[v]).first;
        if (a->second != want[v] || b->second != got[v]) return false;
    }
    return true;
}

int main() {
    std::cout << "connected components by random mate (" << sv::backend_name() << " backend)\n\n";
    // four components: {0 1 2 3 4}, {5 6 7}, {8}, {9 10 11} (a self-loop at 8, a repeated edge 6-7)
    const std::size_t n = 12;
    sv::vector<int> from = {0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 7, 3};
    sv::vector<int> to = {1, 2, 3, 4, 6, 7, 6, 8, 10, 11, 5, 0};

    // The first round, spelled out
    sv::vector<bool> heads = sv::random<bool>(n, 9);  // H <- a coin for every vertex
    auto hu = sv::lazy::back_permute(heads, from);
    auto hv = sv::lazy::back_permute(heads, to);
    sv::vector<bool> mate = sv::map(SCANVEC_FN(bool a, bool b) { return a != b; }, hu, hv);
    sv::vector<int> tails_end = sv::pack(sv::lazy::map(SCANVEC_FN(bool a, int u, int v) { return a ? v : u; }, hu, from, to), mate);
    sv::vector<int> heads_end = sv::pack(sv::lazy::map(SCANVEC_FN(bool a, int u, int v) { return a ? u : v; }, hu, from, to), mate);
    sv::vector<int> p = sv::write(sv::index<int>(n), tails_end, heads_end);  // P <- P <- {(tail, head)}
    std::cout << sv::table().row("from", from).row("to", to).row("Mate (H[u] != H[v])", mate) << "\n"
              << sv::table().row("vertex", sv::lazy::index(n)).row("H (heads)", heads).row("P after the hooks", p)
              << "\n";

    int rounds = 0;
    sv::vector<int> label = sv::connected_components(n, from, to, 9, &rounds);
    std::cout << sv::table().row("connected_components", label) << "in " << rounds << " rounds\n\n";
    bool ok = same_components(label.to_host(), union_find(n, from.to_host(), to.to_host()));

    // A random graph: a million vertices, 600000 edges (many components of all sizes).
    const std::size_t big = 1000000, edges = 600000;
    std::mt19937_64 rng(17);
    std::vector<int> u(edges), v(edges);
    for (std::size_t k = 0; k < edges; ++k) u[k] = int(rng() % big), v[k] = int(rng() % big);
    auto want = union_find(big, u, v);
    sv::vector<int> got = sv::connected_components(big, sv::vector<int>(u), sv::vector<int>(v), 99, &rounds);
    ok = ok && same_components(got.to_host(), want);
    const sv::index_t components =
        sv::count(sv::lazy::map(SCANVEC_FN(int l, sv::index_t i) { return sv::index_t(l) == i; }, got, sv::lazy::index(big)));
    std::cout << "random graph of " << big << " vertices and " << edges << " edges: " << components
              << " components in " << rounds << " rounds\n";
    if (!ok) {
        std::cerr << "connected_components: wrong result\n";
        return 1;
    }
    std::cout << "connected_components: all results checked\n";
    return 0;
}
