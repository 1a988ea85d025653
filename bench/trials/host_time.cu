// bench/trials/host_time.cu - a trial, not part of scanvec_bench: where the
// host's time goes in programs of many small steps (issue 23's rows "a BFS
// over a path ... <= 0.5 s" and "quicksort at 2^20 <= 5x CUB").
//
//   scanvec_trial_host_time [path vertices, default 20000] [log2 quicksort sizes, default 16 20]
//
// Each program runs three times bare (wall time, the median), then once under
// an observer that times every primitive call on the host, from its start to
// its return (so a call that waits includes its wait). Printed per call name
// and nesting level: calls, total ms, µs a call; the lines of one level add up
// to their parent's time less what the parent spent outside its calls.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace sv = scanvec;

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

/// Times every call on the host: inclusive time per (level, name).
class host_timer : public sv::runtime::observer {
  public:
    host_timer() : previous_(sv::runtime::observation().current) { sv::runtime::observation().current = this; }
    ~host_timer() override { sv::runtime::observation().current = previous_; }
    host_timer(const host_timer&) = delete;
    host_timer& operator=(const host_timer&) = delete;

    void enter(const char*, std::size_t) override { open_.push_back(clock_type::now()); }
    void primitive(const sv::runtime::call_record& call, const sv::table*) override {
        auto& e = totals_[{call.level, call.name}];
        e.first += 1;
        e.second += ms_since(open_.back());
        open_.pop_back();
    }
    void unwind() override { open_.pop_back(); }

    void print(const char* title) const {
        std::printf("\n%s: host time per call, from its start to its return\n", title);
        std::printf("| level | call | calls | total ms | µs a call |\n|---|---|---|---|---|\n");
        std::vector<std::pair<std::pair<int, std::string>, std::pair<long, double>>> rows(totals_.begin(), totals_.end());
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return a.first.first != b.first.first ? a.first.first < b.first.first : a.second.second > b.second.second;
        });
        for (const auto& [key, v] : rows)
            std::printf("| %d | %s | %ld | %.2f | %.2f |\n", key.first, key.second.c_str(), v.first, v.second,
                        1000.0 * v.second / double(v.first));
    }

  private:
    sv::runtime::observer* previous_;
    std::vector<clock_type::time_point> open_;
    std::map<std::pair<int, std::string>, std::pair<long, double>> totals_;
};

/// The median wall time of three runs, each ended by a synchronize.
template <class F> double median_wall_ms(F&& run) {
    std::vector<double> ms;
    for (int r = 0; r < 3; ++r) {
        const auto t0 = clock_type::now();
        run();
        sv::synchronize();
        ms.push_back(ms_since(t0));
    }
    std::sort(ms.begin(), ms.end());
    return ms[1];
}

/// The path 0 - 1 - ... - n-1 in compressed rows (both directions of every edge).
sv::nested<int> path(std::size_t n) {
    std::vector<sv::index_t> offsets(n + 1, 0);
    std::vector<int> targets;
    for (std::size_t v = 0; v < n; ++v) {
        if (v > 0) targets.push_back(int(v - 1));
        if (v + 1 < n) targets.push_back(int(v + 1));
        offsets[v + 1] = sv::index_t(targets.size());
    }
    return sv::nested<int>(sv::vector<int>(targets), sv::segments::from_offsets(sv::vector<sv::index_t>(offsets)));
}

__global__ void empty_kernel() {}

struct plus_one {
    SCANVEC_HD int operator()(int v) const { return v + 1; }
};

/// The host's cost of the CUDA calls a primitive is made of, each repeated
/// 1000 times in a row (the median of 5 such runs, µs a call).
void api_costs() {
    const auto per_call_us = [](auto&& call) {
        std::vector<double> us;
        for (int r = 0; r < 5; ++r) {
            cudaDeviceSynchronize();
            const auto t0 = clock_type::now();
            for (int k = 0; k < 1000; ++k) call();
            us.push_back(ms_since(t0));  // ms for 1000 calls = µs a call
            cudaDeviceSynchronize();
        }
        std::sort(us.begin(), us.end());
        return us[2];
    };
    void* d = nullptr;
    cudaMalloc(&d, 1 << 20);
    int* pinned = nullptr;
    cudaMallocHost(&pinned, sizeof(int));
    cudaEvent_t e;
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    std::printf("\nCUDA calls, host µs a call (1000 in a row):\n| call | µs |\n|---|---|\n");
    std::printf("| empty kernel launch | %.2f |\n", per_call_us([] { empty_kernel<<<1, 32>>>(); }));
    std::printf("| cudaGetLastError | %.2f |\n", per_call_us([] { (void)cudaGetLastError(); }));
    std::printf("| cudaMemsetAsync 8 bytes | %.2f |\n", per_call_us([&] { cudaMemsetAsync(d, 0, 8, 0); }));
    std::printf("| cudaEventRecord | %.2f |\n", per_call_us([&] { cudaEventRecord(e, 0); }));
    std::printf("| cudaStreamSynchronize, idle | %.2f |\n", per_call_us([] { cudaStreamSynchronize(0); }));
    std::printf("| launch + cudaStreamSynchronize | %.2f |\n", per_call_us([] {
                    empty_kernel<<<1, 32>>>();
                    cudaStreamSynchronize(0);
                }));
    std::printf("| cudaMemcpyAsync 4 bytes to pinned + sync | %.2f |\n", per_call_us([&] {
                    cudaMemcpyAsync(pinned, d, 4, cudaMemcpyDeviceToHost, 0);
                    cudaStreamSynchronize(0);
                }));
    std::printf("| sv::vector<int>(2^20, no_init), made and freed | %.2f |\n",
                per_call_us([] { sv::vector<int> v(std::size_t(1) << 20, sv::no_init); }));
    const sv::vector<int> small(1024, 1);
    std::printf("| sv::map over 1024 (queued) | %.2f |\n", per_call_us([&] { auto r = sv::map(plus_one{}, small); }));
    cudaEventDestroy(e);
    cudaFreeHost(pinned);
    cudaFree(d);
}

/// A random graph of n vertices and 4n undirected edges, in compressed rows.
sv::nested<int> random_graph(std::size_t n) {
    std::mt19937_64 rng(42);
    const std::size_t m = 4 * n;
    std::vector<int> from(m), to(m);
    for (std::size_t k = 0; k < m; ++k) from[k] = int(rng() % n), to[k] = int(rng() % n);
    std::vector<sv::index_t> offsets(n + 1, 0);
    for (std::size_t k = 0; k < m; ++k) ++offsets[std::size_t(from[k]) + 1], ++offsets[std::size_t(to[k]) + 1];
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    std::vector<sv::index_t> at(offsets.begin(), offsets.end() - 1);
    std::vector<int> targets(2 * m);
    for (std::size_t k = 0; k < m; ++k) {
        targets[std::size_t(at[std::size_t(from[k])]++)] = to[k];
        targets[std::size_t(at[std::size_t(to[k])]++)] = from[k];
    }
    return sv::nested<int>(sv::vector<int>(targets), sv::segments::from_offsets(sv::vector<sv::index_t>(offsets)));
}

namespace b = sv::detail::bfs;
namespace lz = sv::lazy;

/// Dst <- Targets[Offsets[F[K]] + index(S)] for K given lazily or as a vector (lazy).
template <class K>
auto targets_of(const sv::nested<int>& adj, const sv::vector<sv::index_t>& frontier, const sv::segments& s, const K& k) {
    auto edge = lz::map(b::edge_of{}, lz::back_permute(lz::back_permute(adj.segments().offsets(), frontier), k),
                        lz::index(s.total()), lz::back_permute(s.starts(), k));
    return lz::map(sv::detail::to_position{}, lz::back_permute(adj.values(), edge));
}

/// The frame the trial forms share with the library's program: Parent,
/// Distance, Via and the frontier, level by level. edges(s, frontier, tree,
/// via) returns the level's (K', F'): the edges that won newly reached vertices.
template <class Edges> sv::bfs_tree bfs_by_levels(const sv::nested<int>& adj, sv::index_t source, Edges edges) {
    const std::size_t n = adj.count();
    auto degree = adj.segments().lazy_lengths();
    sv::bfs_tree t{sv::vector<sv::index_t>(n, sv::index_t(-1)), sv::vector<sv::index_t>(n, sv::index_t(-1))};
    t.parent.set(std::size_t(source), source);
    t.distance.set(std::size_t(source), 0);
    sv::vector<sv::index_t> via(n, sv::no_init);
    sv::vector<sv::index_t> frontier(1, source);
    for (sv::index_t d = 1; !frontier.empty(); ++d) {
        const sv::segments s = sv::allocate(lz::back_permute(degree, frontier));
        sv::vector<b::edge> e = edges(s, frontier, t, via);
        sv::vector<sv::index_t> reached = std::move(e.field<&b::edge::dst>());
        t.parent = sv::write(std::move(t.parent), reached, lz::back_permute(frontier, e.field<&b::edge::k>()), sv::unchecked);
        t.distance = sv::write(std::move(t.distance), reached, lz::distribute(d, reached.size()), sv::unchecked);
        frontier = std::move(reached);
    }
    return t;
}

/// The library's BFS with one pack a level: every edge writes Via (an edge into a
/// visited vertex writes scratch that no one reads), and one pack keeps the edges
/// into unvisited vertices that won them.
sv::bfs_tree bfs_one_pack(const sv::nested<int>& adj, sv::index_t source) {
    return bfs_by_levels(adj, source, [&](const sv::segments& s, const auto& frontier, const sv::bfs_tree& t, auto& via) {
        sv::vector<b::edge> e;
        auto& k = e.field<&b::edge::k>();
        auto& dst = e.field<&b::edge::dst>();
        k = s.ids();
        dst = sv::materialize(targets_of(adj, frontier, s, k));
        via = sv::write(std::move(via), dst, lz::index(dst.size()), sv::unchecked);
        return sv::pack(e, lz::map(b::won_unvisited{}, lz::back_permute(t.parent, dst), lz::back_permute(via, dst),
                                   lz::index(dst.size())));
    });
}

/// The library's form before small levels took one pack: two packs at every
/// level (the visited dropped first).
sv::bfs_tree bfs_two_packs(const sv::nested<int>& adj, sv::index_t source) {
    return bfs_by_levels(adj, source, [&](const sv::segments& s, const auto& frontier, const sv::bfs_tree& t, auto& via) {
        sv::vector<b::edge> e;
        auto& k = e.field<&b::edge::k>();
        k = s.ids();
        e.field<&b::edge::dst>() = sv::materialize(targets_of(adj, frontier, s, k));
        e = sv::pack(e, lz::map(b::unvisited{}, lz::back_permute(t.parent, e.field<&b::edge::dst>())));
        const auto& to = e.field<&b::edge::dst>();
        via = sv::write(std::move(via), to, lz::index(to.size()), sv::unchecked);
        return sv::pack(e, lz::map(b::same{}, lz::back_permute(via, to), lz::index(to.size())));
    });
}

/// The BFS forms on one graph, side by side; the distances must agree.
bool compare_bfs(const char* name, const sv::nested<int>& g, sv::index_t source) {
    sv::bfs_tree a, b, c;
    const double two = median_wall_ms([&] { a = sv::breadth_first_search(g, source); });
    const double one = median_wall_ms([&] { b = bfs_one_pack(g, source); });
    const double two_all = median_wall_ms([&] { c = bfs_two_packs(g, source); });
    const auto want = a.distance.to_host();
    const bool same = want == b.distance.to_host() && want == c.distance.to_host();
    std::printf("| %s | %.2f | %.2f | %.2f | %s |\n", name, two, two_all, one, same ? "yes" : "NO");
    return same;
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t vertices = argc > 1 ? std::size_t(std::atol(argv[1])) : 20000;
    std::vector<int> logs;
    for (int k = 2; k < argc; ++k) logs.push_back(std::atoi(argv[k]));
    if (logs.empty()) logs = {16, 20};

    api_costs();
    const sv::nested<int> g = path(vertices);
    const sv::index_t source = sv::index_t(vertices / 2);
    sv::bfs_tree t;
    const double bfs_ms = median_wall_ms([&] { t = sv::breadth_first_search(g, source); });
    const std::vector<sv::index_t> distance = t.distance.to_host();
    sv::index_t far = 0;
    for (std::size_t v = 0; v < vertices; ++v) {
        const sv::index_t want = v < std::size_t(source) ? source - sv::index_t(v) : sv::index_t(v) - source;
        if (distance[v] != want) {
            std::printf("BFS WRONG at vertex %zu: %lld, want %lld\n", v, (long long)distance[v], (long long)want);
            return 1;
        }
        far = std::max(far, want);
    }
    std::printf("BFS over a path of %zu vertices from its middle (%lld levels): %.1f ms wall, %.1f µs a level\n",
                vertices, (long long)far, bfs_ms, 1000.0 * bfs_ms / double(far));
    {
        host_timer timer;
        t = sv::breadth_first_search(g, source);
        sv::synchronize();
        timer.print("BFS over the path");
    }

    std::printf("\nBFS, the library's (one pack up to one block of edges, else two) against two packs and one pack at every level (median of 3, ms):\n");
    std::printf("| graph | library | two packs every level | one pack every level | same distances |\n|---|---|---|---|---|\n");
    bool same = compare_bfs("path of 20000 from its middle", g, source);
    same = compare_bfs("random, 10^6 vertices, 4 edges each", random_graph(1000000), 0) && same;
    same = compare_bfs("random, 2^24 vertices, 4 edges each", random_graph(std::size_t(1) << 24), 0) && same;
    if (!same) return 1;

    for (int lg : logs) {
        const std::size_t n = std::size_t(1) << lg;
        std::vector<int> keys(n);
        std::mt19937 rng(77u + unsigned(lg));
        for (int& k : keys) k = int(rng());
        const sv::vector<int> a(keys);
        sv::vector<int> sorted;
        const double qs_ms = median_wall_ms([&] { sorted = sv::quicksort(a); });
        std::sort(keys.begin(), keys.end());
        if (sorted.to_host() != keys) {
            std::printf("quicksort WRONG at 2^%d\n", lg);
            return 1;
        }
        sv::vector<int> by_radix;
        const double rs_ms = median_wall_ms([&] { by_radix = sv::radix_sort(a); });
        std::printf("\nquicksort of 2^%d random int32: %.3f ms wall (radix_sort %.3f ms wall, ratio %.1f)\n", lg, qs_ms,
                    rs_ms, qs_ms / rs_ms);
        host_timer timer;
        sorted = sv::quicksort(a);
        sv::synchronize();
        timer.print(("quicksort 2^" + std::to_string(lg)).c_str());
    }
    return 0;
}
