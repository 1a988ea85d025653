// breadth_first_search - BFS level by level, each level a few steps over the frontier's edges.
//
// The graph is in compressed rows: an sv::nested whose segment v lists the
// targets of v's edges. Each level allocates a slot for every edge out of the
// frontier (sv::allocate), fetches the targets, keeps those into unvisited
// vertices, and lets one edge win each newly reached vertex with sv::write
// (collisions allowed): its source becomes the parent. The program prints the
// levels of a small graph, runs sv::breadth_first_search on it and on a random
// graph of a million vertices, checks the distances against a sequential BFS
// and every parent against the edges, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <deque>
#include <iostream>
#include <random>

namespace sv = scanvec;

/// Compressed rows of the directed edges (from[k], to[k]) on n vertices.
static std::vector<std::vector<int>> rows_of(std::size_t n, const std::vector<int>& from, const std::vector<int>& to) {
    std::vector<std::vector<int>> rows(n);
    for (std::size_t k = 0; k < from.size(); ++k) rows[from[k]].push_back(to[k]);
    return rows;
}

/// Sequential BFS distances (-1: not reached).
static std::vector<sv::index_t> sequential_bfs(const std::vector<std::vector<int>>& rows, int source) {
    std::vector<sv::index_t> dist(rows.size(), -1);
    std::deque<int> queue{source};
    dist[source] = 0;
    while (!queue.empty()) {
        const int v = queue.front();
        queue.pop_front();
        for (int w : rows[v])
            if (dist[w] < 0) dist[w] = dist[v] + 1, queue.push_back(w);
    }
    return dist;
}

/// The distances are a sequential BFS's, and every parent is a BFS parent: an edge parent -> v one level up.
static bool is_bfs_tree(const std::vector<std::vector<int>>& rows, int source, const sv::bfs_tree& t) {
    const auto parent = t.parent.to_host(), dist = t.distance.to_host();
    if (dist != sequential_bfs(rows, source)) return false;
    for (std::size_t v = 0; v < rows.size(); ++v) {
        if (dist[v] < 0) { if (parent[v] != -1) return false; continue; }
        if (int(v) == source) { if (parent[v] != source) return false; continue; }
        const sv::index_t p = parent[v];
        if (p < 0 || p >= sv::index_t(rows.size()) || dist[p] != dist[v] - 1) return false;
        bool edge = false;
        for (int w : rows[p]) edge = edge || w == int(v);
        if (!edge) return false;
    }
    return true;
}

int main() {
    std::cout << "breadth-first search (" << sv::backend_name() << " backend)\n\n";
    //   0 -> 1 -> 3 -> 5
    //   |    |    ^
    //   v    v    |
    //   2 -> 4 ---+
    //        |
    //        v
    //        6 -> 7 <- 8        8 is not reachable from 0
    std::vector<std::vector<int>> rows = {{1, 2}, {3, 4}, {4}, {5}, {3, 6}, {}, {7}, {}, {7}};
    sv::nested<int> adj(rows);
    std::cout << sv::table().row("Offsets", adj.segments().offsets()).row("Targets", adj.values()) << "\n";

    // The second level, spelled out: the frontier [1 2] and its edges (both reach 4)
    sv::vector<sv::index_t> f = {1, 2};
    sv::vector<sv::index_t> deg = sv::back_permute(adj.lengths(), f);                   // Deg <- lengths[F]
    sv::segments s = sv::allocate(deg);                                                  // S <- allocate(Deg)
    sv::vector<sv::index_t> k = s.ids();                                                 // K <- segment-ids(S)
    sv::vector<sv::index_t> first = sv::back_permute(adj.segments().offsets(), f);      // Offsets[F]
    sv::vector<sv::index_t> edge = sv::map(sv::plus<sv::index_t>{}, sv::index(s), sv::lazy::back_permute(first, k));
    sv::vector<int> dst = sv::back_permute(adj.values(), edge);                          // Dst <- Targets[edge]
    sv::vector<sv::index_t> parent(rows.size(), -1);
    parent = sv::write(std::move(parent), dst, sv::lazy::back_permute(f, k));           // one source wins each target
    std::cout << "level 2\n"
              << sv::table().row("F", f).row("Deg", deg) << sv::table().row("K", k).row("edge", edge).row("Dst", dst)
              << sv::table().row("Parent <- {(Dst, F[K])}", parent) << "\n";

    sv::bfs_tree t = sv::breadth_first_search(adj, 0);
    std::cout << sv::table().row("vertex", sv::lazy::index(rows.size())).row("Distance", t.distance).row("Parent", t.parent)
              << "\n";
    bool ok = is_bfs_tree(rows, 0, t) && is_bfs_tree(rows, 4, sv::breadth_first_search(adj, 4));

    // A random graph: a million vertices, five million directed edges.
    const std::size_t big = 1000000, edges = 5000000;
    std::mt19937_64 rng(5);
    std::vector<int> u(edges), v(edges);
    for (std::size_t e = 0; e < edges; ++e) u[e] = int(rng() % big), v[e] = int(rng() % big);
    auto big_rows = rows_of(big, u, v);
    sv::nested<int> big_adj(big_rows);
    sv::bfs_tree bt = sv::breadth_first_search(big_adj, 12345);
    ok = ok && is_bfs_tree(big_rows, 12345, bt);
    std::cout << "random graph of " << big << " vertices and " << edges << " edges: "
              << sv::count(sv::lazy::map(SCANVEC_FN(sv::index_t d) { return d >= 0; }, bt.distance))
              << " reached, eccentricity " << sv::reduce(bt.distance, sv::max<sv::index_t>{}) << "\n";
    if (!ok) {
        std::cerr << "breadth_first_search: wrong result\n";
        return 1;
    }
    std::cout << "breadth_first_search: all results checked\n";
    return 0;
}
