// bench/programs.cpp - the writes (NESL's <- and the combining send) and the programs built on them.
//
// `write`: sv::write of n values into n slots at random indices with repeats
// (each value a function of its index, so every winner writes the same and
// the result is unique) against thrust::scatter of the same data; and
// sv::combining_write with sv::plus<int>, into n slots and into 256 (a
// histogram: every slot contended), against a hand-written atomicAdd kernel.
// On the host both against a sequential loop.
//
// `programs`: Luby's maximal independent set, breadth-first search, connected
// components by random mate, on a random graph of n vertices and 4n undirected
// edges (the edge list for the first and the last, its symmetric compressed
// rows for BFS), and the sieve up to n, each against its sequential C++
// version (timed on the host CPU in the same run: greedy MIS, a queue BFS,
// union-find, the sequential sieve); list ranking of one list through the n
// elements in random order, against the sequential walk from its head; on
// CUDA also BFS and the sieve written with Thrust (a frontier queue claimed
// with atomicCAS; one thrust::for_each per sieving prime). Results are
// checked once: the set independent and maximal, the distances a sequential
// BFS's, the components union-find's up to renaming, the ranks the walk's,
// the primes the sequential sieve's. The rows' notes give the
// rounds and the model's steps (sv::trace).
//
// `calls` (bench_calls): programs of many small steps (BFS over a path,
// labels by minimum propagation over a path, in a loop on the device and in
// a host loop) and the host's cost of one call at 2^10.
#include "harness.hpp"

#include <scanvec/algorithms/breadth_first_search.hpp>
#include <scanvec/algorithms/connected_components.hpp>
#include <scanvec/algorithms/list_ranking.hpp>
#include <scanvec/algorithms/maximal_independent_set.hpp>
#include <scanvec/algorithms/primes.hpp>
#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/primitives/bounded.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/write.hpp>
#include <scanvec/runtime/deferred_checks.hpp>
#include <scanvec/runtime/loop.hpp>
#include <scanvec/runtime/stream.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/split.hpp>
#include <scanvec/primitives/lazy_scan.hpp>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <thread>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <thrust/copy.h>
#  include <thrust/fill.h>
#  include <thrust/for_each.h>
#  include <thrust/scatter.h>
#  include <thrust/gather.h>
#  include <thrust/transform.h>
#  include <cub/device/device_partition.cuh>
#  include <cub/device/device_radix_sort.cuh>
#  include <cub/device/device_scan.cuh>
#  include <cub/device/device_select.cuh>
#endif

namespace bench {
namespace {

/// A random position in [0, n) (repeats allowed).
struct random_slot {
    std::uint64_t seed;
    std::uint64_t n;
    SCANVEC_HD int operator()(std::int64_t i) const { return int(mix64(std::uint64_t(i) * 2 + 1 + seed) % n); }
};
/// The value written at slot j: the same from every writer.
struct value_for_slot {
    SCANVEC_HD int operator()(int j) const { return j * 7 + 3; }
};

#if defined(SCANVEC_BACKEND_CUDA)
/// The hand-written combining send: out[idx[i]] += vals[i] with atomicAdd.
__global__ void add_at_kernel(const int* idx, const int* vals, int* out, std::int64_t n) {
    const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out + idx[i], vals[i]);
}
void add_at(const sv::vector<int>& idx, const sv::vector<int>& vals, sv::vector<int>& out) {
    const std::int64_t n = std::int64_t(idx.size());
    if (n) add_at_kernel<<<unsigned((n + 255) / 256), 256>>>(idx.data(), vals.data(), out.data(), n);
    cuda_check(cudaGetLastError(), "add_at_kernel");
}
#else
void add_at(const sv::vector<int>& idx, const sv::vector<int>& vals, sv::vector<int>& out) {
    const int* to = idx.data();
    const int* v = vals.data();
    int* o = out.data();
    for (std::size_t i = 0; i < idx.size(); ++i) o[to[i]] += v[i];
}
#endif

/// n values combined with + into `slots` slots at random indices.
void combining_rows(suite& s, std::size_t n, std::size_t slots, const char* impl, const char* input) {
    const auto idx = tabulate<int>(n, random_slot{11, slots});
    const auto vals = small_values<int>(n);
    sv::vector<int> want(slots), ref(slots), d(slots);
    add_at(idx, vals, want);  // the reference, from zeros (the timed calls accumulate)
    sync();
    config c(s, "write", input, "int32", n);
    c.bytes(2.0 * n * sizeof(int) + 2.0 * std::min(n, slots) * sizeof(int), n * sizeof(int));
#if defined(SCANVEC_BACKEND_CUDA)
    c.alternative("atomicAdd kernel (one thread per value)", "atomicAdd kernel", [&] { add_at(idx, vals, ref); });
#else
    c.alternative("sequential loop", "loop", [&] { add_at(idx, vals, ref); });
#endif
    c.scanvec_call(impl,
                   [&](std::string&) { return same(sv::combining_write(sv::vector<int>(slots), idx, vals, sv::plus<int>{}), want); },
                   [&] { d = sv::combining_write(std::move(d), idx, vals, sv::plus<int>{}); });
    c.finish();
}

// ---- the programs' inputs and their sequential versions -------------------------

/// An undirected graph: its edge list on the device and the host, and its symmetric compressed rows.
struct graph {
    std::size_t n = 0;
    sv::vector<int> from, to;
    std::vector<int> h_from, h_to;
    std::vector<sv::index_t> h_offsets;  // n + 1
    std::vector<int> h_targets;          // both directions of every edge
    sv::nested<int> adj;
};

graph graph_of_edges(std::size_t n, sv::vector<int> from, sv::vector<int> to) {
    graph g;
    g.n = n;
    g.from = std::move(from);
    g.to = std::move(to);
    g.h_from = g.from.to_host();
    g.h_to = g.to.to_host();
    const std::size_t m = g.h_from.size();
    g.h_offsets.assign(n + 1, 0);
    for (std::size_t k = 0; k < m; ++k) ++g.h_offsets[g.h_from[k] + 1], ++g.h_offsets[g.h_to[k] + 1];
    std::partial_sum(g.h_offsets.begin(), g.h_offsets.end(), g.h_offsets.begin());
    std::vector<sv::index_t> at(g.h_offsets.begin(), g.h_offsets.end() - 1);
    g.h_targets.resize(2 * m);
    for (std::size_t k = 0; k < m; ++k) {
        g.h_targets[at[g.h_from[k]]++] = g.h_to[k];
        g.h_targets[at[g.h_to[k]]++] = g.h_from[k];
    }
    g.adj = sv::nested<int>(sv::vector<int>(g.h_targets), sv::segments::from_offsets(sv::vector<sv::index_t>(g.h_offsets)));
    return g;
}

/// A random graph of n vertices and m edges.
graph random_graph(std::size_t n, std::size_t m) {
    return graph_of_edges(n, tabulate<int>(m, random_slot{21, n}), tabulate<int>(m, random_slot{22, n}));
}

/// The path 0 - 1 - ... - n-1: a BFS from its middle has n/2 levels of one or two vertices.
graph path_graph(std::size_t n) {
    std::vector<int> from(n - 1), to(n - 1);
    std::iota(from.begin(), from.end(), 0);
    std::iota(to.begin(), to.end(), 1);
    return graph_of_edges(n, sv::vector<int>(from), sv::vector<int>(to));
}

/// Greedy MIS in vertex order.
std::vector<char> sequential_mis(const graph& g) {
    std::vector<char> state(g.n, 0);  // 0 undecided, 1 in, 2 next to one in
    for (std::size_t v = 0; v < g.n; ++v) {
        if (state[v]) continue;
        state[v] = 1;
        for (sv::index_t e = g.h_offsets[v]; e < g.h_offsets[v + 1]; ++e)
            if (!state[g.h_targets[e]]) state[g.h_targets[e]] = 2;
    }
    return state;
}

std::vector<sv::index_t> sequential_bfs(const graph& g, int source) {
    std::vector<sv::index_t> dist(g.n, -1);
    std::vector<int> queue(g.n);
    std::size_t head = 0, tail = 0;
    queue[tail++] = source;
    dist[source] = 0;
    while (head < tail) {
        const int v = queue[head++];
        for (sv::index_t e = g.h_offsets[v]; e < g.h_offsets[v + 1]; ++e) {
            const int w = g.h_targets[e];
            if (dist[w] < 0) dist[w] = dist[v] + 1, queue[tail++] = w;
        }
    }
    return dist;
}

std::vector<int> sequential_components(const graph& g) {
    std::vector<int> up(g.n);
    std::iota(up.begin(), up.end(), 0);
    auto find = [&](int x) {
        while (up[x] != x) x = up[x] = up[up[x]];
        return x;
    };
    for (std::size_t k = 0; k < g.h_from.size(); ++k) {
        const int a = find(g.h_from[k]), b = find(g.h_to[k]);
        if (a != b) up[std::max(a, b)] = std::min(a, b);
    }
    for (std::size_t v = 0; v < g.n; ++v) up[v] = find(int(v));
    return up;
}

/// Each element's distance to the tail of the one list next describes,
/// walking it from its head: positions first, then ranks.
std::vector<sv::index_t> sequential_ranks(const std::vector<int>& next, int head) {
    std::vector<sv::index_t> rank(next.size());
    sv::index_t k = 0;
    for (int i = head;; i = next[std::size_t(i)]) {
        rank[std::size_t(i)] = k++;
        if (next[std::size_t(i)] == i) break;
    }
    for (auto& r : rank) r = k - 1 - r;
    return rank;
}

std::vector<int> sequential_primes(std::size_t n) {
    std::vector<char> composite(n + 1, 0);
    std::vector<int> out;
    for (std::size_t i = 2; i <= n; ++i) {
        if (composite[i]) continue;
        out.push_back(int(i));
        for (std::size_t m = i * i; m <= n; m += i) composite[m] = 1;
    }
    return out;
}

// ---- checks ----------------------------------------------------------------------

std::string check_mis(const graph& g, const std::vector<bool>& in) {
    if (in.size() != g.n) return "length " + std::to_string(in.size());
    std::vector<char> covered(in.begin(), in.end());
    for (std::size_t k = 0; k < g.h_from.size(); ++k) {
        const int u = g.h_from[k], v = g.h_to[k];
        if (u != v && in[u] && in[v]) return "not independent: edge " + std::to_string(u) + "-" + std::to_string(v);
        if (in[u]) covered[v] = 1;
        if (in[v]) covered[u] = 1;
    }
    for (std::size_t v = 0; v < g.n; ++v)
        if (!covered[v]) return "not maximal: vertex " + std::to_string(v);
    return "";
}

std::string check_components(const std::vector<int>& got, const std::vector<int>& want) {
    if (got.size() != want.size()) return "length " + std::to_string(got.size());
    std::vector<int> to_want(got.size(), -1), to_got(got.size(), -1);
    for (std::size_t v = 0; v < got.size(); ++v) {
        const int l = got[v];
        if (l < 0 || std::size_t(l) >= got.size() || got[l] != l) return "bad label at " + std::to_string(v);
        if (to_want[l] < 0) to_want[l] = want[v];
        if (to_got[want[v]] < 0) to_got[want[v]] = l;
        if (to_want[l] != want[v] || to_got[want[v]] != l) return "other partition at " + std::to_string(v);
    }
    return "";
}

#if defined(SCANVEC_BACKEND_CUDA)
// ---- the Thrust versions -----------------------------------------------------------

/// Every frontier vertex walks its edges and claims unvisited targets with atomicCAS on the parent.
struct expand_frontier {
    const sv::index_t* offsets;
    const int* targets;
    int* parent;
    int* distance;
    const int* frontier;
    int* next;
    int* next_count;
    int level;
    __device__ void operator()(int i) const {
        const int v = frontier[i];
        for (sv::index_t e = offsets[v]; e < offsets[v + 1]; ++e) {
            const int w = targets[e];
            if (parent[w] == -1 && atomicCAS(parent + w, -1, v) == -1) {
                distance[w] = level;
                next[atomicAdd(next_count, 1)] = w;
            }
        }
    }
};

struct strike_multiples {
    char* composite;
    std::int64_t p;
    __device__ void operator()(std::int64_t j) const { composite[p * (p + j)] = 1; }
};
struct is_zero {
    __device__ bool operator()(char c) const { return c == 0; }
};
#endif

std::string with_steps(const sv::trace& t, const std::string& rounds) { return rounds + "; " + steps_note(t); }

}  // namespace

void bench_write(suite& s, std::size_t n) {
    // sv::write: n values into n slots, random indices with repeats
    {
        const auto idx = tabulate<int>(n, random_slot{10, n});
        const sv::vector<int> vals = sv::map(value_for_slot{}, idx);
        sv::vector<int> ref(n), d(n);
        config c(s, "write", "n values into n slots, random indices with repeats", "int32", n);
        c.bytes(3.0 * n * sizeof(int), n * sizeof(int));
#if defined(SCANVEC_BACKEND_CUDA)
        c.alternative("thrust::scatter", "thrust scatter",
                      [&] { thrust::scatter(thrust::device, vals.begin(), vals.end(), idx.begin(), ref.begin()); });
#else
        c.alternative("sequential loop", "loop", [&] {
            const int* to = idx.data();
            const int* v = vals.data();
            int* o = ref.data();
            for (std::size_t i = 0; i < n; ++i) o[to[i]] = v[i];
        });
#endif
        c.scanvec_call("sv::write", [&](std::string&) { return same(sv::write(sv::vector<int>(n), idx, vals), ref); },
                       [&] { d = sv::write(std::move(d), idx, vals); });
        c.finish();
    }
    combining_rows(s, n, n, "sv::combining_write (+)", "combining +, n values into n slots, random indices");
    combining_rows(s, n, 256, "sv::combining_write (+, 256 slots)", "combining +, n values into 256 slots (histogram)");
}

struct frontier_degree {
    const sv::index_t* off;
    SCANVEC_HD sv::index_t operator()(sv::index_t v) const { return off[v + 1] - off[v]; }
};
struct frontier_edge {
    const sv::index_t* off;
    SCANVEC_HD sv::index_t operator()(sv::index_t v, sv::index_t j, sv::index_t start) const { return off[v] + j - start; }
};
struct target_vertex {
    SCANVEC_HD sv::index_t operator()(int w) const { return w; }
};
struct claims_unvisited {
    SCANVEC_HD bool operator()(sv::index_t d, sv::index_t via, sv::index_t j) const { return d < 0 && via == j; }
};
struct one_further {
    SCANVEC_HD sv::index_t operator()(sv::index_t d) const { return d + 1; }
};
struct frontier_step {
    sv::index_t k, dst;
};
SCANVEC_FIELDS(frontier_step, k, dst)
struct make_frontier_step {
    SCANVEC_HD frontier_step operator()(sv::index_t k, sv::index_t dst) const { return {k, dst}; }
};

/// BFS distances as a user writes it with sv:: steps: every level in one
/// sv::repeat_while, the frontier a sv::bounded vector (its length never read
/// by the host), capacity max(n, m).
std::vector<sv::index_t> bounded_frontier_bfs(const graph& g, int source) {
    const std::size_t n = g.n, c = std::max(n, g.h_targets.size());
    const sv::vector<sv::index_t>& offsets = g.adj.segments().offsets();
    sv::vector<sv::index_t> dist(n, sv::index_t(-1)), via(n, sv::index_t(-1));
    dist.set(std::size_t(source), 0);
    sv::bounded<sv::index_t> frontier(sv::vector<sv::index_t>{source}, c);
    sv::repeat_while(std::tie(dist, via, frontier), [&]() -> const sv::device_value<sv::index_t>& {
        auto slots = sv::allocate(sv::lazy::map(frontier_degree{offsets.data()}, frontier), c);
        auto k = slots.lazy_ids();
        sv::bounded<sv::index_t> dst = sv::map(
            target_vertex{}, sv::lazy::back_permute(g.adj.values(),
                                                    sv::lazy::map(frontier_edge{offsets.data()}, sv::lazy::back_permute(frontier, k),
                                                                  slots.lazy_index(), sv::lazy::back_permute(slots.starts(), k))));
        via = sv::write(std::move(via), dst, slots.lazy_index(), sv::unchecked);
        auto won = sv::lazy::map(claims_unvisited{}, sv::lazy::back_permute(dist, dst), sv::lazy::back_permute(via, dst),
                                 slots.lazy_index());
        sv::bounded<frontier_step> e = sv::pack(sv::lazy::map(make_frontier_step{}, k, dst), won, sv::length_on_device);
        auto one_more = sv::lazy::map(
            one_further{}, sv::lazy::back_permute(dist, sv::lazy::back_permute(frontier, e.field<&frontier_step::k>())));
        dist = sv::write(std::move(dist), e.field<&frontier_step::dst>(), one_more, sv::unchecked);
        frontier = std::move(e).take_field<&frontier_step::dst>();
        return frontier.length();
    }, sv::test_every(4));  // a call on the empty frontier changes nothing
    return dist.to_host();
}

/// Breadth-first search from `source` (symmetric compressed rows) against the
/// sequential queue BFS and, on CUDA, a Thrust BFS (one kernel and one count read per level).
void bfs_rows(suite& s, const graph& g, const std::string& shape, int source, const char* family = "programs") {
    const std::size_t n = g.n;
    const auto want = sequential_bfs(g, source);
    std::vector<sv::index_t> dist;
    config c(s, family, shape, "int32", n);
    c.keys(0);
    c.alternative("sequential queue BFS (host CPU)", "sequential", [&] { dist = sequential_bfs(g, source); });
#if defined(SCANVEC_BACKEND_CUDA)
    sv::vector<int> parent(n, sv::no_init), distance(n, sv::no_init), queue_a(n, sv::no_init), queue_b(n, sv::no_init);
    sv::vector<int> count(1, sv::no_init);
    c.alternative("Thrust BFS (frontier queue, atomicCAS)", "thrust BFS", [&] {
        thrust::fill(thrust::device, parent.begin(), parent.end(), -1);
        thrust::fill(thrust::device, distance.begin(), distance.end(), -1);
        parent.set(source, source);
        distance.set(source, 0);
        queue_a.set(0, source);
        int size = 1;
        int* cur = queue_a.data();
        int* nxt = queue_b.data();
        for (int level = 1; size > 0; ++level) {
            cuda_check(cudaMemsetAsync(count.data(), 0, sizeof(int), 0), "cudaMemsetAsync");
            thrust::for_each_n(thrust::device, thrust::counting_iterator<int>(0), size,
                               expand_frontier{g.adj.segments().offsets().data(), g.adj.values().data(),
                                               parent.data(), distance.data(), cur, nxt, count.data(), level});
            cuda_check(cudaMemcpy(&size, count.data(), sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
            std::swap(cur, nxt);
        }
    });
#endif
    if (std::string(family) == "calls")  // checked as it runs: a wrong answer is the row's error
        c.alternative("sv:: steps, bounded frontier, sv::repeat_while (a user's program)", "bounded loop", [&] {
            if (bounded_frontier_bfs(g, source) != want) throw std::runtime_error("distances differ from the sequential BFS");
        });
    c.scanvec_call("sv::breadth_first_search",
                   [&](std::string& note) {
                       sv::trace t;
                       auto tree = sv::breadth_first_search(g.adj, source);
                       auto got = tree.distance.to_host();
                       note = with_steps(t, "levels " + std::to_string(*std::max_element(want.begin(), want.end()) + 1));
                       if (got != want) return std::string("distances differ from the sequential BFS");
#if defined(SCANVEC_BACKEND_CUDA)
                       auto thrust_distance = distance.to_host();  // the Thrust version's, from its last call
                       if (!std::equal(thrust_distance.begin(), thrust_distance.end(), want.begin()))
                           return std::string("the Thrust BFS's distances differ from the sequential BFS");
#endif
                       return std::string();
                   },
                   [&] { auto r = sv::breadth_first_search(g.adj, source); });
    c.finish();
}

std::vector<std::size_t> program_sizes(const options& o) {
    if (o.quick) return {std::size_t(1) << 16};
#if defined(SCANVEC_BACKEND_CUDA)
    return {1000000, 10000000, std::size_t(1) << 24};
#else
    return {1000000};
#endif
}

void bench_programs(suite& s, std::size_t n) {
    const std::size_t m = 4 * n;
    const std::string shape = "random graph, n vertices, " + std::to_string(m) + " edges";
    graph g = random_graph(n, m);

    // Luby's maximal independent set (edge list) against the sequential greedy one
    {
        std::vector<char> greedy;
        config c(s, "programs", shape, "int32", n);
        c.keys(0);
        c.alternative("sequential greedy MIS (host CPU)", "sequential", [&] { greedy = sequential_mis(g); });
        c.scanvec_call("sv::maximal_independent_set",
                       [&](std::string& note) {
                           sv::trace t;
                           int rounds = 0;
                           auto in = sv::maximal_independent_set(g.n, g.from, g.to, 1, &rounds).to_host();
                           note = with_steps(t, "rounds " + std::to_string(rounds));
                           return check_mis(g, in);
                       },
                       [&] { auto r = sv::maximal_independent_set(g.n, g.from, g.to, 1); });
        c.finish();
    }
    bfs_rows(s, g, shape + ", BFS from 0", 0);  // symmetric compressed rows
    // connected components by random mate (edge list) against union-find
    {
        const auto want = sequential_components(g);
        std::vector<int> labels;
        config c(s, "programs", shape + ", components", "int32", n);
        c.keys(0);
        c.alternative("sequential union-find (host CPU)", "sequential", [&] { labels = sequential_components(g); });
        c.scanvec_call("sv::connected_components",
                       [&](std::string& note) {
                           sv::trace t;
                           int rounds = 0;
                           auto got = sv::connected_components(g.n, g.from, g.to, 1, &rounds).to_host();
                           note = with_steps(t, "rounds " + std::to_string(rounds));
                           return check_components(got, want);
                       },
                       [&] { auto r = sv::connected_components(g.n, g.from, g.to, 1); });
        c.finish();
    }
    g = graph();
    sv::runtime::memory().trim();
    // list ranking by pointer jumping (Wyllie) against the sequential walk:
    // one list through the n elements in a random order
    {
        const std::vector<int> order = random_permutation(n, 11).to_host();
        std::vector<int> next_h(n);
        for (std::size_t k = 0; k + 1 < n; ++k) next_h[std::size_t(order[k])] = order[k + 1];
        next_h[std::size_t(order[n - 1])] = order[n - 1];
        const sv::vector<int> next(next_h);
        const auto want = sequential_ranks(next_h, order[0]);
        std::vector<sv::index_t> got_seq;
        config c(s, "programs", "list ranking, one list through n elements in random order", "int32", n);
        c.keys(0);
        c.alternative("sequential walk from the head (host CPU)", "sequential",
                      [&] { got_seq = sequential_ranks(next_h, order[0]); });
        c.scanvec_call("sv::list_rank",
                       [&](std::string& note) {
                           sv::trace t;
                           auto got = sv::list_rank(next).to_host();
                           note = steps_note(t);
                           return got == want ? std::string() : std::string("differs from the sequential walk");
                       },
                       [&] { auto r = sv::list_rank(next); });
        c.finish();
    }
    // the primes up to n
    {
        const auto want = sequential_primes(n);
        std::vector<int> got_seq;
        config c(s, "programs", "primes up to n", "int32", n);
        c.keys(0);
        c.alternative("sequential sieve (host CPU)", "sequential", [&] { got_seq = sequential_primes(n); });
#if defined(SCANVEC_BACKEND_CUDA)
        std::vector<std::int64_t> sieving;
        for (int p : want) {
            if (std::int64_t(p) * p > std::int64_t(n)) break;
            sieving.push_back(p);
        }
        sv::vector<char> composite(n + 1, sv::no_init);
        sv::vector<int> found(want.size() + 1, sv::no_init);
        std::size_t thrust_count = 0;
        c.alternative("Thrust sieve (a for_each per sieving prime, copy_if)", "thrust sieve", [&] {
            thrust::fill(thrust::device, composite.begin(), composite.end(), char(0));
            thrust::fill_n(thrust::device, composite.begin(), 2, char(1));
            for (std::int64_t p : sieving)
                thrust::for_each_n(thrust::device, thrust::counting_iterator<std::int64_t>(0),
                                   std::int64_t(n) / p - p + 1, strike_multiples{composite.data(), p});
            auto end = thrust::copy_if(thrust::device, thrust::counting_iterator<int>(0),
                                       thrust::counting_iterator<int>(int(n) + 1), composite.begin(), found.begin(),
                                       is_zero{});
            thrust_count = std::size_t(end - found.begin());
        });
#endif
        c.scanvec_call("sv::primes",
                       [&](std::string& note) {
                           sv::trace t;
                           auto got = sv::primes(int(n)).to_host();
                           note = steps_note(t);
                           if (got != want) return std::string("differs from the sequential sieve");
#if defined(SCANVEC_BACKEND_CUDA)
                           if (thrust_count != want.size()) return std::string("the Thrust sieve found another count");
#endif
                           return std::string();
                       },
                       [&] { auto r = sv::primes(int(n)); });
        c.finish();
    }
}

namespace {
/// A program of small steps that, like the book's loops, reads a count back
/// each round (a host wait): a map fused into a scan, a split by a flag
/// pattern, and the number of odd values.
sv::vector<int> small_steps(const sv::vector<int>& a, const sv::vector<bool>& flags) {
    sv::vector<int> x = a;
    for (int round = 0; round < 12; ++round) {
        auto y = sv::inclusive_scan(sv::lazy::map(SCANVEC_FN(int v) { return (v & 1023) + 1; }, x));
        x = sv::split(y, flags);
        if (sv::count(sv::lazy::map(SCANVEC_FN(int v) { return (v & 1) != 0; }, x)) == 0) break;
    }
    return x;
}
}  // namespace

void bench_streams(suite& s, std::size_t n) {
    const auto a1 = small_values<int>(n), a2 = sv::map(SCANVEC_FN(int v) { return 7 - v; }, a1);
    const sv::vector<bool> f = sv::map(SCANVEC_FN(int v) { return v > 3; }, a1);
    const auto want1 = small_steps(a1, f).to_host(), want2 = small_steps(a2, f).to_host();
#if defined(SCANVEC_BACKEND_CUDA)
    cudaStream_t s1 = nullptr, s2 = nullptr;
    cuda_check(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_check(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreate");
#else
    char h1, h2;  // the host backend has no streams: two distinct handles
    sv::stream_t s1 = &h1, s2 = &h2;
#endif
    sv::vector<int> r1, r2;
    auto one = [&](sv::stream_t st, const sv::vector<int>& in, sv::vector<int>& out) {
        sv::on scope(st);
        out = small_steps(in, f);
        sv::synchronize();
    };
    config c(s, "streams", "two programs of 12 rounds (map+scan, split, a count read back)", "int32", n);
    c.alternative("the two one after the other, one stream", "one stream", [&] {
        sv::on scope(s1);
        r1 = small_steps(a1, f);
        r2 = small_steps(a2, f);
        sv::synchronize();
    });
    c.scanvec_call("two host threads, each on its stream (sv::on)",
                   [&](std::string&) {
                       std::thread t([&] { one(s2, a2, r2); });
                       one(s1, a1, r1);
                       t.join();
                       return r1.to_host() == want1 && r2.to_host() == want2 ? std::string() : std::string("results differ");
                   },
                   [&] {
                       std::thread t([&] { one(s2, a2, r2); });
                       one(s1, a1, r1);
                       t.join();
                   });
    c.finish();
    r1 = {};
    r2 = {};
#if defined(SCANVEC_BACKEND_CUDA)
    cuda_check(cudaStreamDestroy(s1), "cudaStreamDestroy");
    cuda_check(cudaStreamDestroy(s2), "cudaStreamDestroy");
#endif
}

}  // namespace bench

namespace bench {
namespace {

/// The host time of one call when nothing waits between calls: `calls` calls
/// back to back, the device synchronised before and after (median of 7).
stats host_cost(const action& run, int calls = 100) {
    run();
    sync();
    std::vector<double> t;
    for (int rep = 0; rep < 7; ++rep) {
        sync();
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) run();
        t.push_back(wall_ms(t0) / calls);
        sync();
    }
    std::sort(t.begin(), t.end());
    return {t[t.size() / 2], t.front(), calls};
}

void host_cost_row(suite& s, std::size_t n, const std::string& impl, const action& run, const std::string& alt,
                   const std::string& alt_short, const action& alt_run) {
    row r;
    r.family = "calls";
    r.input = "host time per call, 100 calls in a row";
    r.type = "int32";
    r.n = n;
    r.impl = impl;
    r.alt = alt;
    r.alt_short = alt_short;
    r.check = "ok";
    try {
        r.alt_t = host_cost(alt_run);
        r.sv = host_cost(run);
    } catch (const std::exception& e) {
        r.check = std::string("error: ") + e.what();
    }
    std::printf("  %-14s host per call n=%-8zu %-36s %10.4f ms (%s %.4f ms)\n", "calls", n, impl.c_str(),
                r.sv.median_ms, alt_short.c_str(), r.alt_t.median_ms);
    if (s.emit_rows) s.rows.push_back(r);
}

struct is_odd {
    SCANVEC_HD bool operator()(int v) const { return (v & 1) != 0; }
};
struct plus_one {
    SCANVEC_HD int operator()(int v) const { return v + 1; }
};
struct labels_differ {
    SCANVEC_HD bool operator()(int a, int b) const { return a != b; }
};

/// One round of minimum-label propagation over directed edges: every vertex
/// takes the least label among its own and its in-neighbours'; and whether any
/// label changed, left on the device.
struct propagate_labels {
    const sv::vector<int>& from;
    const sv::vector<int>& to;
    sv::device_value<bool> operator()(sv::vector<int>& label) const {
        auto next = sv::combining_write(label, to, sv::lazy::back_permute(label, from), sv::min<int>{}, sv::unchecked);
        auto changed = sv::reduce_to_device(sv::lazy::map(labels_differ{}, next, label), sv::logical_or{});
        label = std::move(next);
        return changed;
    }
};

/// Labels by minimum propagation on a path of n vertices (n rounds of three
/// small steps: the label 0 walks one vertex a round), in a loop on the device
/// (sv::repeat_while), the same steps in a host loop that reads each round's
/// test, and a sequential loop.
void label_propagation_rows(suite& s, std::size_t n) {
    std::vector<int> from_h, to_h;
    for (std::size_t v = 0; v + 1 < n; ++v) {
        from_h.insert(from_h.end(), {int(v), int(v + 1)});
        to_h.insert(to_h.end(), {int(v + 1), int(v)});
    }
    const sv::vector<int> from(from_h), to(to_h);
    const sv::vector<int> start = sv::map(SCANVEC_FN(sv::index_t v) { return int(v); }, sv::lazy::index(n));
    const propagate_labels round{from, to};
    config c(s, "calls", "path of " + std::to_string(n) + " vertices, labels by minimum propagation (" +
                             std::to_string(n) + " rounds)", "int32", n);
    c.keys(0);
    c.alternative("sequential rounds (host CPU)", "sequential", [&] {
        std::vector<int> label(n);
        std::iota(label.begin(), label.end(), 0);
        for (bool changed = true; changed;) {
            std::vector<int> next = label;
            for (std::size_t e = 0; e < from_h.size(); ++e)
                next[std::size_t(to_h[e])] = std::min(next[std::size_t(to_h[e])], label[std::size_t(from_h[e])]);
            changed = next != label;
            label.swap(next);
        }
    });
    c.alternative("the same sv:: steps in a host loop (reads each round's test)", "host loop", [&] {
        sv::vector<int> label = start;
        while (round(label).get()) {
        }
    });
    c.scanvec_call("sv::repeat_while (the device repeats the rounds)",
                   [&](std::string& note) {
                       sv::vector<int> label = start;
                       const std::size_t rounds = sv::repeat_while(label, [&] { return round(label); });
                       note = "rounds " + std::to_string(rounds);
                       if (rounds != n) return std::string("ran " + std::to_string(rounds) + " rounds");
                       return label.to_host() == std::vector<int>(n, 0) ? std::string() : std::string("labels not all 0");
                   },
                   [&] {
                       sv::vector<int> label = start;
                       sv::repeat_while(label, [&] { return round(label); });
                   });
    c.finish();
}

}  // namespace

/// Many small calls: the BFS over a path (10^4 levels of about ten calls each),
/// and what one call costs the host where nothing needs to wait (the calls the
/// model queues) or where the call reads a result back (its alternative then too).
void bench_calls(suite& s) {
    bfs_rows(s, path_graph(20000), "path of 20000 vertices, BFS from the middle (10^4 levels)", 10000, "calls");
    label_propagation_rows(s, 5000);

    const std::size_t n = 1024;
    const auto a = small_values<int>(n);
    const auto perm = random_permutation(n);
    const sv::vector<bool> flags = sv::map(is_odd{}, a);
    sv::vector<int> out(n, sv::no_init), keep(n, sv::no_init);
#if defined(SCANVEC_BACKEND_CUDA)
    auto nosync = thrust::cuda::par_nosync;
    cub_call cub_scan([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, a.data(), out.data(), int(n)); });
    pinned<int> count;
    cub_call cub_select([&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, a.data(), flags.data(), keep.data(), count.get(), int(n));
    });
    cub_call cub_partition([&](void* t, std::size_t& b) {
        return cub::DevicePartition::Flagged(t, b, a.data(), flags.data(), out.data(), count.get(), int(n));
    });
    sv::vector<int> sorted(n, sv::no_init);
    cub_call cub_sort([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortKeys(t, b, a.data(), sorted.data(), int(n));
    });
    pinned<int> one;
    int sink = 0;
    host_cost_row(s, n, "one element read back (a[5]: a kernel stores it into pinned memory)",
                  [&] { sink += a[5]; }, "cudaMemcpyAsync into pinned memory + cudaStreamSynchronize",
                  "memcpy + sync", [&] {
                      cuda_check(cudaMemcpyAsync(one.get(), a.data() + 5, sizeof(int), cudaMemcpyDeviceToHost, 0),
                                 "cudaMemcpyAsync");
                      cuda_check(cudaStreamSynchronize(0), "cudaStreamSynchronize");
                      sink += *one.get();
                  });
    host_cost_row(s, n, "sv::map (a new vector)", [&] { auto r = sv::map(plus_one{}, a); },
                  "thrust::transform (par_nosync)", "thrust transform",
                  [&] { thrust::transform(nosync, a.begin(), a.end(), out.begin(), plus_one{}); });
    host_cost_row(s, n, "sv::scan", [&] { auto r = sv::scan(a); }, "cub::DeviceScan::ExclusiveSum", "cub scan",
                  [&] { cub_scan(); });
    host_cost_row(s, n, "sv::permute (checked: reads its verdict)", [&] { auto r = sv::permute(a, perm); },
                  "thrust::scatter (par_nosync)", "thrust scatter",
                  [&] { thrust::scatter(nosync, a.begin(), a.end(), perm.begin(), out.begin()); });
    host_cost_row(s, n, "sv::permute (unchecked)", [&] { auto r = sv::permute(a, perm, sv::unchecked); },
                  "thrust::scatter (par_nosync)", "thrust scatter",
                  [&] { thrust::scatter(nosync, a.begin(), a.end(), perm.begin(), out.begin()); });
    host_cost_row(s, n, "sv::back_permute (checked: reads its verdict)", [&] { auto r = sv::back_permute(a, perm); },
                  "thrust::gather (par_nosync)", "thrust gather",
                  [&] { thrust::gather(nosync, perm.begin(), perm.end(), a.begin(), out.begin()); });
    host_cost_row(s, n, "sv::back_permute (checked, deferred: sv::deferred_checks)",
                  [&] {
                      sv::deferred_checks deferred;
                      auto r = sv::back_permute(a, perm);
                  },
                  "thrust::gather (par_nosync)", "thrust gather",
                  [&] { thrust::gather(nosync, perm.begin(), perm.end(), a.begin(), out.begin()); });
    host_cost_row(s, n, "sv::pack (reads its count)", [&] { auto r = sv::pack(a, flags); },
                  "cub::DeviceSelect::Flagged + count read", "cub select + read", [&] {
                      cub_select();
                      cuda_check(cudaStreamSynchronize(0), "cudaStreamSynchronize");
                  });
    host_cost_row(s, n, "sv::split", [&] { auto r = sv::split(a, flags); }, "cub::DevicePartition::Flagged",
                  "cub partition", [&] { cub_partition(); });
    host_cost_row(s, n, "sv::radix_sort", [&] { auto r = sv::radix_sort(a); }, "cub::DeviceRadixSort::SortKeys",
                  "cub radix sort", [&] { cub_sort(); });
    host_cost_row(s, n, "sv::write (unchecked, moved in)", [&] { out = sv::write(std::move(out), perm, a, sv::unchecked); },
                  "thrust::scatter (par_nosync)", "thrust scatter",
                  [&] { thrust::scatter(nosync, a.begin(), a.end(), perm.begin(), out.begin()); });
    host_cost_row(s, n, "sv::write (checked: reads its verdict, moved in)", [&] { out = sv::write(std::move(out), perm, a); },
                  "thrust::scatter (par_nosync)", "thrust scatter",
                  [&] { thrust::scatter(nosync, a.begin(), a.end(), perm.begin(), out.begin()); });
    host_cost_row(s, n, "sv::write (checked, deferred: sv::deferred_checks, moved in)",
                  [&] {
                      sv::deferred_checks deferred;
                      out = sv::write(std::move(out), perm, a);
                  },
                  "thrust::scatter (par_nosync)", "thrust scatter",
                  [&] { thrust::scatter(nosync, a.begin(), a.end(), perm.begin(), out.begin()); });
    if (sink == 42) std::printf(" ");  // the reads are used
#else
    (void)keep;
    auto loop_map = [&] { int* o = out.data(); const int* x = a.data(); for (std::size_t i = 0; i < n; ++i) o[i] = x[i] + 1; };
    host_cost_row(s, n, "sv::map (a new vector)", [&] { auto r = sv::map(plus_one{}, a); }, "sequential loop", "loop", loop_map);
    host_cost_row(s, n, "sv::scan", [&] { auto r = sv::scan(a); }, "sequential loop", "loop",
                  [&] { std::exclusive_scan(a.data(), a.data() + n, out.data(), 0); });
#endif
}

}  // namespace bench
