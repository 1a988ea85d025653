// sv::bounded: vectors whose length lives on the device, the steps that take
// them, and a breadth-first search whose frontier is one, level after level
// in sv::repeat_while; each against sequential C++.
#include "support.hpp"
#include <scanvec/primitives/bounded.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/runtime/loop.hpp>
#include <scanvec/runtime/trace.hpp>
#include <scanvec/algorithms/breadth_first_search.hpp>

#include <cstdint>
#include <numeric>
#include <sstream>
#include <vector>

namespace bounded_test {

struct is_odd {
    SCANVEC_HD bool operator()(int x) const { return (x & 1) != 0; }
};
struct above {
    int t;
    SCANVEC_HD bool operator()(int x) const { return x > t; }
};
struct times3 {
    SCANVEC_HD long long operator()(int x) const { return 3LL * x; }
};
/// An affine map x -> m*x + c mod 2^32 packed in one word (m high, c low); f then g: not commutative.
struct affine_then {
    SCANVEC_HD std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const {
        const std::uint32_t fm = std::uint32_t(f >> 32), fc = std::uint32_t(f), gm = std::uint32_t(g >> 32),
                            gc = std::uint32_t(g);
        return (std::uint64_t(gm * fm) << 32) | std::uint32_t(gm * fc + gc);
    }
};
struct to_affine {
    SCANVEC_HD std::uint64_t operator()(int x) const {
        return (std::uint64_t(std::uint32_t(2 * x + 1)) << 32) | std::uint32_t(x);
    }
};
inline std::uint64_t affine_host(std::uint64_t f, std::uint64_t g) { return affine_then{}(f, g); }

struct point {
    int x;
    float y;
};
SCANVEC_FIELDS(point, x, y)

/// A graph as CSR: offsets (n + 1) and targets.
struct csr {
    std::vector<sv::index_t> offsets;
    std::vector<sv::index_t> targets;
};

/// A path 0 - 1 - ... - n-1 (both directions).
inline csr path_graph(std::size_t n) {
    csr g;
    g.offsets.push_back(0);
    for (std::size_t v = 0; v < n; ++v) {
        if (v > 0) g.targets.push_back(sv::index_t(v - 1));
        if (v + 1 < n) g.targets.push_back(sv::index_t(v + 1));
        g.offsets.push_back(sv::index_t(g.targets.size()));
    }
    return g;
}

/// n vertices, each with up to 4 random out-edges (some vertices unreachable).
inline csr random_graph(std::size_t n, std::uint64_t seed) {
    const auto r = test::random_values<std::uint64_t>(5 * n, seed, 0, ~std::uint64_t(0) >> 1);
    csr g;
    g.offsets.push_back(0);
    for (std::size_t v = 0; v < n; ++v) {
        const std::size_t d = r[5 * v] % 5;
        for (std::size_t e = 0; e < d; ++e) g.targets.push_back(sv::index_t(r[5 * v + 1 + e] % n));
        g.offsets.push_back(sv::index_t(g.targets.size()));
    }
    return g;
}

inline std::vector<sv::index_t> distances_sequentially(const csr& g, sv::index_t s) {
    std::vector<sv::index_t> d(g.offsets.size() - 1, -1), frontier{s};
    d[std::size_t(s)] = 0;
    while (!frontier.empty()) {
        std::vector<sv::index_t> next;
        for (sv::index_t v : frontier)
            for (sv::index_t e = g.offsets[std::size_t(v)]; e < g.offsets[std::size_t(v) + 1]; ++e)
                if (d[std::size_t(g.targets[std::size_t(e)])] < 0) {
                    d[std::size_t(g.targets[std::size_t(e)])] = d[std::size_t(v)] + 1;
                    next.push_back(g.targets[std::size_t(e)]);
                }
        frontier = next;
    }
    return d;
}

struct degree_of {
    const sv::index_t* off;
    SCANVEC_HD sv::index_t operator()(sv::index_t v) const { return off[v + 1] - off[v]; }
};
/// The edge of slot j of frontier vertex v, whose segment starts at start.
struct edge_of {
    const sv::index_t* off;
    SCANVEC_HD sv::index_t operator()(sv::index_t v, sv::index_t j, sv::index_t start) const { return off[v] + j - start; }
};
struct unvisited {
    SCANVEC_HD bool operator()(sv::index_t d) const { return d < 0; }
};
struct won_unvisited {
    SCANVEC_HD bool operator()(sv::index_t d, sv::index_t via, sv::index_t j) const { return d < 0 && via == j; }
};
struct plus_one {
    SCANVEC_HD sv::index_t operator()(sv::index_t d) const { return d + 1; }
};

struct edge {
    sv::index_t k, dst;
};
SCANVEC_FIELDS(edge, k, dst)
struct make_edge {
    SCANVEC_HD edge operator()(sv::index_t k, sv::index_t dst) const { return {k, dst}; }
};

struct same {
    SCANVEC_HD sv::index_t operator()(sv::index_t x) const { return x; }
};

/// Distances from s: a frontier search whose every level runs on the device
/// (sv::repeat_while), the frontier and the level's edges in bounded vectors
/// of capacity c (at least the vertices and the edges).
/// (every: the calls per test; a call on the empty frontier changes nothing)
inline std::pair<std::size_t, std::vector<sv::index_t>> distances(const csr& g, sv::index_t s, std::size_t every = 1) {
    const std::size_t n = g.offsets.size() - 1, m = g.targets.size(), c = std::max(n, m);
    const sv::vector<sv::index_t> offsets(g.offsets), targets(g.targets);
    sv::vector<sv::index_t> dist(n, sv::index_t(-1)), via(n, sv::index_t(-1));
    dist.set(std::size_t(s), 0);
    sv::bounded<sv::index_t> frontier(sv::vector<sv::index_t>{s}, c);
    const std::size_t levels = sv::repeat_while(std::tie(dist, via, frontier), [&]() -> const sv::device_value<sv::index_t>& {
        // S <- allocate(degree[F]); K <- segment-ids(S)
        sv::bounded_segments slots = sv::allocate(sv::lazy::map(degree_of{offsets.data()}, frontier), c);
        auto k = slots.lazy_ids();
        // Dst <- Targets[Offsets[F[K]] + index(S) - S.starts[K]]
        sv::bounded<sv::index_t> dst = sv::map(
            same{}, sv::lazy::back_permute(targets, sv::lazy::map(edge_of{offsets.data()}, sv::lazy::back_permute(frontier, k),
                                                                   slots.lazy_index(),
                                                                   sv::lazy::back_permute(slots.starts(), k))));
        // Via <- Via <- {(Dst[j], j)}: one edge wins each target
        via = sv::write(std::move(via), dst, slots.lazy_index(), sv::unchecked);
        // (K', F') <- pack((K, Dst), Dist[Dst] < 0 and Via[Dst] = j)
        auto won = sv::lazy::map(won_unvisited{}, sv::lazy::back_permute(dist, dst), sv::lazy::back_permute(via, dst),
                                 slots.lazy_index());
        sv::bounded<edge> e = sv::pack(sv::lazy::map(make_edge{}, k, dst), won, sv::length_on_device);
        // Dist <- Dist <- {(F', Dist[F[K']] + 1)} (read where the level wrote nothing)
        auto one_more = sv::lazy::map(plus_one{}, sv::lazy::back_permute(dist, sv::lazy::back_permute(frontier, e.field<&edge::k>())));
        dist = sv::write(std::move(dist), e.field<&edge::dst>(), one_more, sv::unchecked);
        // F <- F', while #F > 0
        frontier = std::move(e).take_field<&edge::dst>();
        return frontier.length();
    }, sv::test_every(every));
    return {levels, dist.to_host()};
}

}  // namespace bounded_test

using bounded_test::point;

TEST_CASE("bounded: pack leaves its count on the device, and the steps act on the first length() elements") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        const auto h = test::random_values<int>(n, 7 + n, -1000, 1000);
        const sv::vector<int> a(h);
        sv::bounded<int> odd = sv::pack(a, sv::lazy::map(bounded_test::is_odd{}, a), sv::length_on_device);
        std::vector<int> want;
        for (int x : h)
            if (x & 1) want.push_back(x);
        CHECK(odd.capacity() == n);
        CHECK(odd.size() == want.size());
        test::check_equal(odd.to_host(), want);
        test::check_equal(odd.to_vector().to_host(), want);

        // a pack of a bounded vector: only its first length() elements count
        sv::bounded<int> big = sv::pack(odd, sv::lazy::map(bounded_test::above{0}, odd), sv::length_on_device);
        std::vector<int> want_big;
        for (int x : want)
            if (x > 0) want_big.push_back(x);
        test::check_equal(big.to_host(), want_big);

        // map, back_permute, scan (not commutative), reduce_to_device on the bounded result
        sv::bounded<long long> t = sv::map(bounded_test::times3{}, odd);
        std::vector<long long> want_t;
        for (int x : want) want_t.push_back(3LL * x);
        test::check_equal(t.to_host(), want_t);

        const auto op = sv::monoid(bounded_test::affine_then{}, std::uint64_t(1) << 32);
        sv::bounded<std::uint64_t> sc = sv::scan(sv::lazy::map(bounded_test::to_affine{}, odd), op);
        std::vector<std::uint64_t> want_sc;
        std::uint64_t acc = std::uint64_t(1) << 32;
        for (int x : want) {
            want_sc.push_back(acc);
            acc = bounded_test::affine_host(acc, bounded_test::to_affine{}(x));
        }
        test::check_equal(sc.to_host(), want_sc);
        CHECK(sv::reduce_to_device(sv::lazy::map(bounded_test::to_affine{}, odd), op).get() == acc);
        CHECK(sv::reduce_to_device(t).get() == std::accumulate(want_t.begin(), want_t.end(), 0LL));

        // positions of the odd elements, then gathered back
        sv::bounded<sv::index_t> at = sv::pack(sv::lazy::index(n), sv::lazy::map(bounded_test::is_odd{}, a), sv::length_on_device);
        test::check_equal(sv::back_permute(a, at).to_host(), want);
        test::check_equal(sv::back_permute(a, at, sv::unchecked).to_host(), want);
        sv::synchronize();
    }
}

TEST_CASE("bounded: writes through bounded indices touch only the first length() targets") {
    for (std::size_t n : test::sizes_upto_env({1, 2, 33, 1000, 65539, 1000003})) {
        CAPTURE(n);
        const auto h = test::random_values<int>(n, 3 + n, 0, int(n) - 1);
        const sv::vector<int> idx(h);
        // the positions whose target is even, bounded; write 1 there, add 1 there
        sv::bounded<int> even = sv::pack(idx, sv::lazy::map(SCANVEC_FN(int x) { return (x & 1) == 0; }, idx),
                                         sv::length_on_device);
        std::vector<int> want_w(n, 0), want_c(n, 0);
        for (int j : h)
            if ((j & 1) == 0) {
                want_w[std::size_t(j)] = 1;
                ++want_c[std::size_t(j)];
            }
        auto ones = sv::lazy::distribute(1, n);
        test::check_equal(sv::write(sv::vector<int>(n), even, ones).to_host(), want_w);
        test::check_equal(sv::write(sv::vector<int>(n), even, ones, sv::unchecked).to_host(), want_w);
        test::check_equal(sv::combining_write(sv::vector<int>(n), even, ones, sv::plus<int>{}).to_host(), want_c);
        test::check_equal(sv::combining_write(sv::vector<int>(n), even, ones, sv::plus<int>{}, sv::unchecked).to_host(), want_c);

        // a struct written whole from a bounded vector of structs' fields
        std::vector<point> hp(n);
        for (std::size_t i = 0; i < n; ++i) hp[i] = {int(i), float(i) / 2};
        sv::bounded<point> pts = sv::pack(sv::vector<point>(hp), sv::lazy::map(SCANVEC_FN(int x) { return (x & 1) == 0; }, idx),
                                          sv::length_on_device);
        auto xs = pts.field<&point::x>();
        sv::vector<point> out = sv::write(sv::vector<point>(n), xs, pts);
        std::vector<point> want_p(n, point{0, 0.0f});
        for (std::size_t i = 0; i < n; ++i)
            if ((h[i] & 1) == 0) want_p[i] = hp[i];
        const auto got = out.to_host();
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(got[i].x == want_p[i].x);
            CHECK(got[i].y == want_p[i].y);
        }
    }
}

TEST_CASE("bounded: a bad index is reported at the next wait and writes nothing; lengths must be one") {
    const sv::vector<int> idx{0, 5, 99, 2, -3};
    sv::bounded<int> b = sv::pack(idx, sv::lazy::distribute(true, 5), sv::length_on_device);
    sv::vector<int> d = sv::write(sv::vector<int>(6), b, sv::lazy::distribute(7, 5));
    CHECK_THROWS_WITH_AS(sv::synchronize(), "write: index idx[2] = 99 is out of range for length 6", sv::index_error);
    test::check_equal(d.to_host(), std::vector<int>{7, 0, 7, 0, 0, 7});
    sv::bounded<int> g = sv::back_permute(sv::vector<int>{1, 2, 3}, b);
    CHECK_THROWS_AS(g.to_host(), sv::index_error);

    // two packs write two lengths: combining them element by element is refused
    sv::bounded<int> c = sv::pack(idx, sv::lazy::distribute(true, 5), sv::length_on_device);
    CHECK_THROWS_AS(sv::map(SCANVEC_FN(int x, int y) { return x + y; }, b, c), sv::length_error);
    CHECK_THROWS_AS(sv::map(SCANVEC_FN(int x, int y) { return x + y; }, b, sv::vector<int>(4)), sv::length_error);
    CHECK_THROWS_AS(sv::bounded<int>(sv::vector<int>(4), 3), sv::length_error);

    // an allocation past its capacity leaves no slots and reports it
    sv::bounded_segments s = sv::allocate(sv::bounded<int>(sv::vector<int>{3, 4}), 6);
    CHECK_THROWS_WITH_AS(s.total().get(), "allocate: the result has 7 elements, more than its capacity 6",
                         sv::length_error);
    CHECK(s.total().get() == 0);
}

TEST_CASE("bounded: allocate's slots and their segments") {
    for (std::size_t n : test::sizes_upto_env({0, 1, 33, 1000, 65539})) {
        CAPTURE(n);
        const auto h = test::random_values<int>(n, 5 + n, 0, 4);
        sv::bounded<int> counts = sv::pack(sv::vector<int>(h), sv::lazy::distribute(true, n), sv::length_on_device);
        const std::size_t total = std::size_t(std::accumulate(h.begin(), h.end(), 0));
        sv::bounded_segments s = sv::allocate(counts, 4 * n + 1);
        CHECK(s.total().get() == sv::index_t(total));
        std::vector<sv::index_t> want_ids, want_starts;
        for (std::size_t k = 0; k < n; ++k) {
            want_starts.push_back(sv::index_t(want_ids.size()));
            for (int j = 0; j < h[k]; ++j) want_ids.push_back(sv::index_t(k));
        }
        test::check_equal(sv::map(SCANVEC_FN(sv::index_t k) { return k; }, s.lazy_ids()).to_host(), want_ids);
        test::check_equal(s.starts().to_host(), want_starts);
    }
}

TEST_CASE("bounded: breadth-first search with the frontier on the device, one loop for all levels") {
    struct graph_case {
        const char* name;
        bounded_test::csr g;
    };
    for (const graph_case& c : {graph_case{"path of 1", bounded_test::path_graph(1)},
                                graph_case{"path of 2001", bounded_test::path_graph(2001)},
                                graph_case{"random 1000", bounded_test::random_graph(1000, 17)},
                                graph_case{"random 100003", bounded_test::random_graph(100003, 19)}}) {
        const std::string name = c.name;
        CAPTURE(name);
        const auto want = bounded_test::distances_sequentially(c.g, 0);
        const auto in_use = sv::memory::stats().bytes_in_use;
        for (std::size_t every : {1, 4}) {
            CAPTURE(every);
            const auto [levels, got] = bounded_test::distances(c.g, 0, every);
            test::check_equal(got, want);
            CHECK(levels == std::size_t(*std::max_element(want.begin(), want.end()) + 1));
            CHECK(sv::memory::stats().bytes_in_use == in_use);
        }
    }
}

TEST_CASE("bounded: out of memory at any request of a frontier search throws and leaks nothing") {
    const bounded_test::csr g = bounded_test::random_graph(200, 23);
    const auto want = bounded_test::distances_sequentially(g, 0);
    CHECK(bounded_test::distances(g, 0).second == want);  // warm-up: the thread's kept state exists
    test::each_request_failing([&] { return bounded_test::distances(g, 0).second; },
                               [&](const std::vector<sv::index_t>& got) { CHECK(got == want); });
}

TEST_CASE("bounded: a trace that shows values traces a loop on the device (its captured calls without them)") {
    const bounded_test::csr g = bounded_test::path_graph(6);
    std::ostringstream os;
    {
        sv::trace t(os, 64);
        CHECK(bounded_test::distances(g, 2).second == bounded_test::distances_sequentially(g, 2));
        std::vector<std::vector<int>> rows(6);
        for (std::size_t v = 0; v < 6; ++v)
            for (auto e = g.offsets[v]; e < g.offsets[v + 1]; ++e) rows[v].push_back(int(g.targets[std::size_t(e)]));
        CHECK(sv::breadth_first_search(sv::nested<int>(rows), 2).distance.to_host() == bounded_test::distances_sequentially(g, 2));
    }
    CHECK(os.str().find("pack") != std::string::npos);
    CHECK(os.str().find("breadth_first_search") != std::string::npos);
}

TEST_CASE("bounded: a device_value in a loop's state, returned as the test") {
    const std::vector<int> start{40, 7, 99, 3, 64};
    sv::vector<int> a(start);
    sv::device_value<int> largest = sv::reduce_to_device(a, sv::max<int>{});
    // repeat A <- A / 2; Largest <- max(A) while Largest > 0
    const std::size_t calls = sv::repeat_while(std::tie(a, largest), [&]() -> const sv::device_value<int>& {
        a = sv::map(SCANVEC_FN(int x) { return x / 2; }, a);
        largest = sv::reduce_to_device(a, sv::max<int>{});
        return largest;
    });
    CHECK(calls == 7);  // 99 halves to 0 in 7 steps
    CHECK(largest.get() == 0);
    CHECK(a.to_host() == std::vector<int>(5, 0));
}
