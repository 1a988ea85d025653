// Graph programs and the sieve on the model's writes: Luby's maximal
// independent set, breadth-first search, connected components by random mate,
// and the primes, against sequential references (validity checks where the
// answer is not unique) on random graphs with fixed seeds and on the shapes
// that break such programs: no vertices, no edges, isolated vertices, a path,
// a star, complete graphs, self-loops and repeated edges.
#include "support.hpp"
#include <scanvec/scanvec.hpp>  // every program of the library

#include <deque>
#include <numeric>
#include <string>
#include <unordered_map>

using sv::index_t;

namespace {

/// Vertex counts every graph program is run at.
const std::vector<std::size_t> graph_sizes = test::sizes_upto_env({0, 1, 2, 7, 33, 1001, 100003});

struct graph {
    std::string name;
    std::size_t n = 0;
    std::vector<int> from, to;
};

graph random_graph(std::size_t n, std::size_t m, std::uint64_t seed) {
    graph g{"random n=" + std::to_string(n) + " m=" + std::to_string(m), n, {}, {}};
    if (n == 0) return g;
    std::mt19937_64 rng(seed);
    for (std::size_t k = 0; k < m; ++k) {
        g.from.push_back(int(rng() % n));
        g.to.push_back(int(rng() % n));
    }
    return g;
}
graph path(std::size_t n) {
    graph g{"path n=" + std::to_string(n), n, {}, {}};
    for (std::size_t v = 1; v < n; ++v) g.from.push_back(int(v - 1)), g.to.push_back(int(v));
    return g;
}
graph star(std::size_t n) {  // centre n / 2, edges listed from the leaves
    graph g{"star n=" + std::to_string(n), n, {}, {}};
    for (std::size_t v = 0; v < n; ++v)
        if (v != n / 2) g.from.push_back(int(v)), g.to.push_back(int(n / 2));
    return g;
}
graph complete(std::size_t n) {
    graph g{"complete n=" + std::to_string(n), n, {}, {}};
    for (std::size_t u = 0; u < n; ++u)
        for (std::size_t v = u + 1; v < n; ++v) g.from.push_back(int(u)), g.to.push_back(int(v));
    return g;
}
graph isolated(std::size_t n) { return graph{"isolated n=" + std::to_string(n), n, {}, {}}; }
/// Random edges, every one listed twice (once reversed), and a self-loop at every third vertex.
graph messy(std::size_t n, std::uint64_t seed) {
    graph g = random_graph(n, n, seed);
    g.name = "random with repeats and self-loops n=" + std::to_string(n);
    const std::size_t m = g.from.size();
    for (std::size_t k = 0; k < m; ++k) g.from.push_back(g.to[k]), g.to.push_back(g.from[k]);
    for (std::size_t v = 0; v < n; v += 3) g.from.push_back(int(v)), g.to.push_back(int(v));
    return g;
}
/// Path-like chains of random lengths, many components (and isolated vertices).
graph forest_of_paths(std::size_t n, std::uint64_t seed) {
    graph g{"paths n=" + std::to_string(n), n, {}, {}};
    std::mt19937_64 rng(seed);
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i = 1; i < n; ++i)
        if (rng() % 8) g.from.push_back(order[i - 1]), g.to.push_back(order[i]);
    return g;
}

/// Every graph shape at vertex count n.
std::vector<graph> shapes(std::size_t n, std::uint64_t seed) {
    std::vector<graph> gs = {isolated(n), path(n), star(n), random_graph(n, 2 * n, seed), messy(n, seed + 1),
                             forest_of_paths(n, seed + 2), random_graph(n, n / 2, seed + 3)};
    if (n <= 64) gs.push_back(complete(n));
    return gs;
}

/// Compressed rows: row v holds the targets of the edges listed from v (and, if both, of those listed into v).
std::vector<std::vector<int>> rows_of(const graph& g, bool both_ways) {
    std::vector<std::vector<int>> rows(g.n);
    for (std::size_t k = 0; k < g.from.size(); ++k) {
        rows[g.from[k]].push_back(g.to[k]);
        if (both_ways) rows[g.to[k]].push_back(g.from[k]);
    }
    return rows;
}

// ---- references ----------------------------------------------------------------

/// in is independent and maximal in the undirected graph g.
bool is_maximal_independent(const graph& g, const std::vector<bool>& in) {
    if (in.size() != g.n) return false;
    std::vector<bool> covered(in);
    for (std::size_t k = 0; k < g.from.size(); ++k) {
        const int u = g.from[k], v = g.to[k];
        if (u != v && in[u] && in[v]) return false;
        if (in[u]) covered[v] = true;
        if (in[v]) covered[u] = true;
    }
    return std::find(covered.begin(), covered.end(), false) == covered.end();
}

std::vector<index_t> sequential_bfs(const std::vector<std::vector<int>>& rows, index_t source) {
    std::vector<index_t> dist(rows.size(), -1);
    std::deque<index_t> queue{source};
    dist[source] = 0;
    while (!queue.empty()) {
        const index_t v = queue.front();
        queue.pop_front();
        for (int w : rows[v])
            if (dist[w] < 0) dist[w] = dist[v] + 1, queue.push_back(w);
    }
    return dist;
}

/// "" when parent[v] is a BFS parent of v (an edge parent -> v one level up), else what is wrong (rows sorted).
std::string bad_parent(const std::vector<std::vector<int>>& rows, index_t source, const std::vector<index_t>& parent,
                       const std::vector<index_t>& dist, std::size_t v) {
    const std::string at = "vertex " + std::to_string(v) + ": parent " + std::to_string(parent[v]);
    if (dist[v] < 0) return parent[v] == -1 ? "" : at + ", but not reached";
    if (index_t(v) == source) return parent[v] == source ? "" : at + ", but it is the source";
    const index_t p = parent[v];
    if (p < 0 || p >= index_t(rows.size())) return at + " is not a vertex";
    if (dist[p] != dist[v] - 1) return at + " is not one level up";
    if (!std::binary_search(rows[p].begin(), rows[p].end(), int(v))) return at + " has no edge to it";
    return "";
}

/// The distances are a sequential BFS's, and every parent is a BFS parent.
void check_bfs(const std::vector<std::vector<int>>& rows, index_t source, const sv::bfs_tree& t) {
    const auto parent = t.parent.to_host(), dist = t.distance.to_host();
    REQUIRE(dist == sequential_bfs(rows, source));
    REQUIRE(parent.size() == rows.size());
    auto sorted = rows;
    for (auto& r : sorted) std::sort(r.begin(), r.end());
    std::string wrong;
    for (std::size_t v = 0; v < rows.size() && wrong.empty(); ++v) wrong = bad_parent(sorted, source, parent, dist, v);
    REQUIRE_MESSAGE(wrong.empty(), wrong);
}

/// Union-find labels: the smallest vertex of each component.
std::vector<int> union_find(const graph& g) {
    std::vector<int> up(g.n);
    std::iota(up.begin(), up.end(), 0);
    auto find = [&](int x) {
        while (up[x] != x) x = up[x] = up[up[x]];
        return x;
    };
    for (std::size_t k = 0; k < g.from.size(); ++k) {
        const int a = find(g.from[k]), b = find(g.to[k]);
        if (a != b) up[std::max(a, b)] = std::min(a, b);
    }
    std::vector<int> label(g.n);
    for (std::size_t v = 0; v < g.n; ++v) label[v] = find(int(v));
    return label;
}

/// got is want up to renaming, and every label is a vertex that labels itself.
template <class L> void check_same_components(const std::vector<L>& got, const std::vector<int>& want) {
    REQUIRE(got.size() == want.size());
    std::unordered_map<long long, int> to_want;
    std::unordered_map<int, long long> to_got;
    std::string wrong;
    for (std::size_t v = 0; v < got.size() && wrong.empty(); ++v) {
        const long long l = (long long)got[v];
        const std::string at = "vertex " + std::to_string(v) + ": label " + std::to_string(l);
        if (l < 0 || l >= (long long)got.size() || (long long)got[std::size_t(l)] != l) {
            wrong = at + " is not a vertex labelled by itself";
            continue;
        }
        auto a = to_want.emplace(l, want[v]).first;
        auto b = to_got.emplace(want[v], l).first;
        if (a->second != want[v] || b->second != l) wrong = at + " splits or merges a component";
    }
    REQUIRE_MESSAGE(wrong.empty(), wrong);
}

std::vector<long long> sequential_primes(long long n) {
    std::vector<long long> out;
    if (n < 2) return out;
    std::vector<bool> composite(std::size_t(n) + 1);
    for (long long i = 2; i <= n; ++i) {
        if (composite[std::size_t(i)]) continue;
        out.push_back(i);
        for (long long m = i * i; m <= n; m += i) composite[std::size_t(m)] = true;
    }
    return out;
}

template <class T> std::vector<long long> widened(const std::vector<T>& v) { return std::vector<long long>(v.begin(), v.end()); }

}  // namespace

// ---- maximal independent set ------------------------------------------------------

TEST_CASE("maximal_independent_set: independent and maximal on every shape, from edge lists and adjacencies") {
    for (std::size_t n : graph_sizes) {
        for (const graph& g : shapes(n, 100 + n)) {
            CAPTURE(g.name);
            int rounds = -1;
            auto in = sv::maximal_independent_set(g.n, sv::vector<int>(g.from), sv::vector<int>(g.to), 5, &rounds)
                          .to_host();
            REQUIRE(is_maximal_independent(g, in));
            CHECK(rounds >= (n ? 1 : 0));
            CHECK(rounds <= 64);  // O(log n) in expectation
            // the same graph as an adjacency, listed one way and both ways
            sv::nested<int> one_way(rows_of(g, false)), both_ways(rows_of(g, true));
            REQUIRE(is_maximal_independent(g, sv::maximal_independent_set(one_way, 6).to_host()));
            REQUIRE(is_maximal_independent(g, sv::maximal_independent_set(both_ways, 7).to_host()));
        }
    }
}

TEST_CASE("maximal_independent_set: the shapes' known answers, the seed decides, 64-bit vertex numbers") {
    // no edges: every vertex; a complete graph: exactly one; a star: the centre alone or every leaf
    auto all = sv::maximal_independent_set(isolated(9).n, sv::vector<int>(), sv::vector<int>()).to_host();
    CHECK(all == std::vector<bool>(9, true));
    for (std::uint64_t seed = 1; seed < 20; ++seed) {
        const graph k = complete(12);
        auto in = sv::maximal_independent_set(k.n, sv::vector<int>(k.from), sv::vector<int>(k.to), seed).to_host();
        CHECK(std::count(in.begin(), in.end(), true) == 1);
        const graph s = star(11);
        auto st = sv::maximal_independent_set(s.n, sv::vector<int>(s.from), sv::vector<int>(s.to), seed).to_host();
        const auto members = std::count(st.begin(), st.end(), true);
        CHECK((st[5] ? members == 1 : members == 10));
    }
    // a self-loop alone neither blocks nor joins anything by itself
    auto loop = sv::maximal_independent_set(3, sv::vector<int>{1}, sv::vector<int>{1}).to_host();
    CHECK(loop == std::vector<bool>{true, true, true});
    // the same seed gives the same set; the edge ends may be 64-bit
    const graph g = random_graph(5000, 20000, 3);
    auto a = sv::maximal_independent_set(g.n, sv::vector<int>(g.from), sv::vector<int>(g.to), 42).to_host();
    auto b = sv::maximal_independent_set(g.n, sv::vector<int>(g.from), sv::vector<int>(g.to), 42).to_host();
    CHECK(a == b);
    std::vector<index_t> f64(g.from.begin(), g.from.end()), t64(g.to.begin(), g.to.end());
    auto c = sv::maximal_independent_set(g.n, sv::vector<index_t>(f64), sv::vector<index_t>(t64), 42).to_host();
    CHECK(is_maximal_independent(g, c));
}

TEST_CASE("maximal_independent_set: bad input throws before any work") {
    CHECK_THROWS_AS(sv::maximal_independent_set(3, sv::vector<int>{0, 3}, sv::vector<int>{1, 1}), sv::index_error);
    CHECK_THROWS_AS(sv::maximal_independent_set(3, sv::vector<int>{0}, sv::vector<int>{-1}), sv::index_error);
    CHECK_THROWS_AS(sv::maximal_independent_set(3, sv::vector<int>{0, 1}, sv::vector<int>{1}), sv::length_error);
    CHECK_THROWS_AS(sv::maximal_independent_set(0, sv::vector<int>{0}, sv::vector<int>{0}), sv::index_error);
    CHECK(sv::maximal_independent_set(0, sv::vector<int>(), sv::vector<int>()).empty());
}

// ---- breadth-first search -------------------------------------------------------

TEST_CASE("breadth_first_search: distances of a sequential BFS, every parent a BFS parent") {
    for (std::size_t n : graph_sizes) {
        if (n == 0) continue;
        for (const graph& g : shapes(n, 200 + n)) {
            if (n > 1001 && g.name.rfind("path", 0) == 0) continue;  // a level per vertex: costs steps, tests nothing new
            CAPTURE(g.name);
            for (bool both_ways : {false, true}) {
                CAPTURE(both_ways);
                auto rows = rows_of(g, both_ways);
                sv::nested<int> adj(rows);
                for (index_t source : {index_t(0), index_t(n / 2), index_t(n - 1)}) {
                    CAPTURE(source);
                    check_bfs(rows, source, sv::breadth_first_search(adj, source));
                }
            }
        }
    }
}

TEST_CASE("breadth_first_search: shapes with known distances, collisions on every level, 64-bit targets") {
    // a path both ways, from its middle: distance |v - 50|
    auto rows = rows_of(path(101), true);
    auto t = sv::breadth_first_search(sv::nested<int>(rows), 50);
    auto d = t.distance.to_host();
    for (index_t v = 0; v < 101; ++v) CHECK(d[v] == (v < 50 ? 50 - v : v - 50));
    // a complete bipartite layering: 3 levels of 40 vertices, every vertex of a level into every one of the
    // next (many writers per target), with repeated edges and self-loops
    const int w = 40;
    std::vector<std::vector<index_t>> layered(3 * w + 1);
    for (int v = 0; v < w; ++v) layered[3 * w].push_back(v);
    for (int level = 0; level < 2; ++level)
        for (int a = 0; a < w; ++a)
            for (int b = 0; b < w; ++b) {
                layered[level * w + a].push_back((level + 1) * w + b);
                if (b % 7 == 0) layered[level * w + a].push_back((level + 1) * w + b);
                if (b == a) layered[level * w + a].push_back(level * w + a);
            }
    sv::nested<index_t> adj(layered);
    auto lt = sv::breadth_first_search(adj, 3 * w);
    auto ld = lt.distance.to_host();
    for (int v = 0; v < 3 * w; ++v) CHECK(ld[v] == v / w + 1);
    std::vector<std::vector<int>> as_int(layered.size());
    for (std::size_t v = 0; v < layered.size(); ++v) as_int[v].assign(layered[v].begin(), layered[v].end());
    check_bfs(as_int, 3 * w, lt);
    // one vertex, no edges; a self-loop only
    auto one = sv::breadth_first_search(sv::nested<int>(std::vector<std::vector<int>>{{0}}), 0);
    CHECK(one.parent.to_host() == std::vector<index_t>{0});
    CHECK(one.distance.to_host() == std::vector<index_t>{0});
}

TEST_CASE("breadth_first_search: bad input throws") {
    sv::nested<int> adj(std::vector<std::vector<int>>{{1}, {0}});
    CHECK_THROWS_AS(sv::breadth_first_search(adj, 2), sv::index_error);
    CHECK_THROWS_AS(sv::breadth_first_search(adj, -1), sv::index_error);
    CHECK_THROWS_AS(sv::breadth_first_search(sv::nested<int>(), 0), sv::index_error);
    sv::nested<int> bad(std::vector<std::vector<int>>{{1}, {2}});
    CHECK_THROWS_AS(sv::breadth_first_search(bad, 0), sv::index_error);
}

// ---- connected components ----------------------------------------------------------

TEST_CASE("connected_components: a union-find labelling up to renaming, from edge lists and adjacencies") {
    for (std::size_t n : graph_sizes) {
        for (const graph& g : shapes(n, 300 + n)) {
            CAPTURE(g.name);
            const auto want = union_find(g);
            int rounds = -1;
            auto got = sv::connected_components(g.n, sv::vector<int>(g.from), sv::vector<int>(g.to), 8, &rounds);
            check_same_components(got.to_host(), want);
            CHECK(rounds >= 0);
            CHECK(rounds <= 200);  // O(log n) in expectation
            check_same_components(sv::connected_components(sv::nested<int>(rows_of(g, false)), 9).to_host(), want);
            check_same_components(sv::connected_components(sv::nested<int>(rows_of(g, true)), 10).to_host(), want);
        }
    }
}

TEST_CASE("connected_components: known partitions, any seed, mixed index types") {
    // no edges: every vertex its own label
    auto alone = sv::connected_components(5, sv::vector<int>(), sv::vector<int>()).to_host();
    CHECK(alone == std::vector<int>{0, 1, 2, 3, 4});
    // self-loops and repeated edges only
    auto loops = sv::connected_components(3, sv::vector<int>{0, 1, 1, 2}, sv::vector<int>{0, 1, 1, 2}).to_host();
    CHECK(loops == std::vector<int>{0, 1, 2});
    // a long path: one component, for every seed
    const graph p = path(3001);
    for (std::uint64_t seed = 1; seed < 6; ++seed) {
        auto l = sv::connected_components(p.n, sv::vector<int>(p.from), sv::vector<int>(p.to), seed).to_host();
        CHECK(std::count(l.begin(), l.end(), l[0]) == 3001);
    }
    // int64 and int32 ends together: the labels are int64
    const graph g = random_graph(2000, 1500, 12);
    std::vector<index_t> f64(g.from.begin(), g.from.end());
    sv::vector<index_t> labels = sv::connected_components(g.n, sv::vector<index_t>(f64), sv::vector<int>(g.to));
    check_same_components(labels.to_host(), union_find(g));
    // every seed, the same partition (which vertex labels a component may vary: colliding hooks race)
    for (std::uint64_t seed : {77u, 78u, 79u})
        check_same_components(sv::connected_components(g.n, sv::vector<int>(g.from), sv::vector<int>(g.to), seed)
                                  .to_host(), union_find(g));
}

TEST_CASE("connected_components: bad input throws before any work") {
    CHECK_THROWS_AS(sv::connected_components(2, sv::vector<int>{0}, sv::vector<int>{2}), sv::index_error);
    CHECK_THROWS_AS(sv::connected_components(2, sv::vector<int>{-1}, sv::vector<int>{0}), sv::index_error);
    CHECK_THROWS_AS(sv::connected_components(2, sv::vector<int>{0}, sv::vector<int>{}), sv::length_error);
    CHECK(sv::connected_components(0, sv::vector<int>(), sv::vector<int>()).empty());
}

TEST_CASE("connected_components and maximal_independent_set: large rounds one loop each, refitted, then one loop") {
    // The programs run a round per loop while their bounded vectors can hold
    // more than a bound (2^20 elements), refitting them after it; here the
    // bound is 64, so that every graph crosses it.
    for (std::size_t n : {std::size_t(200), std::size_t(1001), std::size_t(30011)}) {
        for (const graph& g : {random_graph(n, 3 * n, 500 + n), messy(n, 600 + n), path(n)}) {
            CAPTURE(g.name);
            const sv::vector<int> from(g.from), to(g.to);
            int rounds = -1;
            check_same_components(sv::detail::cc::random_mate<int>(g.n, from, to, 4, &rounds, 64).to_host(), union_find(g));
            CHECK(rounds > 0);
            const auto in = sv::detail::mis::luby<int>(g.n, from, to, 4, &rounds, 64).to_host();
            CHECK(is_maximal_independent(g, in));
            CHECK(rounds > 0);
        }
    }
}

TEST_CASE("connected_components and maximal_independent_set: out of memory at any request of their loops") {
    // Their rounds run in loops on the device (on CUDA, captured into graphs):
    // a failed request throws sv::out_of_memory, gives back every byte, and the
    // same call then succeeds.
    const graph g = messy(300, 41);
    const auto want = union_find(g);
    const sv::vector<int> from(g.from), to(g.to);
    test::each_request_failing([&] { return sv::connected_components(g.n, from, to, 3).to_host(); },
                               [&](const std::vector<int>& labels) { check_same_components(labels, want); });
    const auto mis = sv::maximal_independent_set(g.n, from, to, 3).to_host();
    REQUIRE(is_maximal_independent(g, mis));
    test::each_request_failing([&] { return sv::maximal_independent_set(g.n, from, to, 3).to_host(); },
                               [&](const std::vector<bool>& set) { CHECK(set == mis); });  // the seed decides the set
}

// ---- primes ----------------------------------------------------------------------

TEST_CASE("primes: a sequential sieve at every size, in every integer type") {
    for (long long n : {-5LL, 0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 24LL, 25LL, 26LL, 48LL, 49LL, 97LL, 1000LL, 65537LL,
                        1000003LL}) {
        CAPTURE(n);
        const auto want = sequential_primes(n);
        REQUIRE(widened(sv::primes(n).to_host()) == want);
        if (n <= 1000003) REQUIRE(widened(sv::primes(int(n)).to_host()) == want);
        if (n >= 0) REQUIRE(widened(sv::primes(std::uint32_t(n)).to_host()) == want);
    }
    CHECK(sv::primes(std::int16_t(1000)).size() == 168);
    CHECK(sv::primes(std::size_t(100000)).size() == 9592);
}
