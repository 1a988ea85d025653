// sv::repeat_while: loops of whole-vector steps that the device repeats (on
// CUDA one graph; on the host, and with SCANVEC_HOST_ROUNDS=1, a plain loop),
// each against a sequential loop of the same steps.
#include "support.hpp"
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/write.hpp>
#include <scanvec/runtime/deferred_checks.hpp>
#include <scanvec/runtime/loop.hpp>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace loop_test {

/// A forest on n vertices: each vertex's parent comes before it (the roots point to themselves).
inline std::vector<sv::index_t> random_forest(std::size_t n, std::uint64_t seed) {
    std::vector<sv::index_t> parent(n);
    const auto r = test::random_values<std::uint64_t>(n, seed, 0, ~std::uint64_t(0) >> 1);
    for (std::size_t v = 0; v < n; ++v) parent[v] = v == 0 || r[v] % 7 == 0 ? sv::index_t(v) : sv::index_t(r[v] % v);
    return parent;
}

struct not_at_root {
    SCANVEC_HD bool operator()(sv::index_t p, sv::index_t pp) const { return p != pp; }
};

/// P <- P[P] until every vertex points at its root: the calls and the roots.
inline std::pair<std::size_t, std::vector<sv::index_t>> jump_sequentially(std::vector<sv::index_t> p) {
    std::size_t calls = 0;
    for (bool go = true; go;) {
        std::vector<sv::index_t> q(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) q[i] = p[std::size_t(p[i])];
        p = q;
        ++calls;
        go = false;
        for (std::size_t i = 0; i < p.size(); ++i) go = go || p[i] != p[std::size_t(p[i])];
    }
    return {calls, p};
}

struct rank_pair {
    sv::index_t rank;
    sv::index_t next;
};

SCANVEC_FIELDS(rank_pair, rank, next)

struct fold_three {
    SCANVEC_HD std::uint32_t operator()(std::uint32_t a, std::uint32_t x) const { return 3 * a + x; }
};
/// The number of the call now.
struct number_of {
    const std::uint64_t* call;
    SCANVEC_HD std::uint64_t operator()(std::uint64_t) const { return *call; }
};
/// 1 while the call numbered *call is not the last of `calls`.
struct calls_left {
    const std::uint64_t* call;
    std::size_t calls;
    SCANVEC_HD int operator()(sv::index_t) const { return *call + 1 < calls ? 1 : 0; }
};

}  // namespace loop_test

using loop_test::not_at_root;
using loop_test::rank_pair;

TEST_CASE("repeat_while: pointer jumping to the roots stops when the device says so") {
    for (std::size_t n : test::sizes_upto_env({1, 2, 33, 1000, 65539, 1000003})) {
        CAPTURE(n);
        const auto parent = loop_test::random_forest(n, 11 + n);
        const auto [calls, roots] = loop_test::jump_sequentially(parent);
        sv::vector<sv::index_t> p(parent);
        const auto in_use = sv::memory::stats().bytes_in_use;
        // repeat P <- P[P] while some P[i] != P[P[i]]
        const std::size_t ran = sv::repeat_while(p, [&] {
            p = sv::back_permute(p, p, sv::unchecked);
            return sv::reduce_to_device(sv::lazy::map(not_at_root{}, p, sv::lazy::back_permute(p, p)), sv::logical_or{});
        });
        CHECK(ran == calls);
        test::check_equal(p.to_host(), roots);
        // the loop's temporaries and the state's old blocks are back in the cache
        CHECK(sv::memory::stats().bytes_in_use == in_use);
    }
}

TEST_CASE("repeat_while: a body that takes its call's number; a round's random numbers keyed by it") {
    for (std::size_t n : test::sizes_upto_env({0, 1, 33, 1000, 65539})) {
        for (std::size_t calls : {std::size_t(1), std::size_t(2), std::size_t(37)}) {
            CAPTURE(n);
            CAPTURE(calls);
            const std::uint64_t seed = 5 + n;
            // A <- 3 A + (round r's random words), an order-dependent fold over the rounds
            std::vector<std::uint32_t> want(n, 1);
            for (std::size_t r = 0; r < calls; ++r) {
                const auto x = sv::random<std::uint32_t>(n, sv::detail::random_key(seed) + r).to_host();
                for (std::size_t i = 0; i < n; ++i) want[i] = 3 * want[i] + x[i];
            }
            sv::vector<std::uint32_t> a(n, 1u);
            std::vector<std::uint64_t> seen;
            const std::size_t ran = sv::repeat_while(a, [&](const sv::device_value<std::uint64_t>& r) {
                a = sv::map(loop_test::fold_three{}, a, sv::lazy::random<std::uint32_t>(n, seed, r));
                // go on while r + 1 < calls
                return sv::reduce_to_device(sv::lazy::map(loop_test::calls_left{r.ptr(), calls}, sv::lazy::index(1)));
            });
            CHECK(ran == calls);
            CHECK(a.to_host() == want);
        }
    }
}

TEST_CASE("repeat_while: several state vectors, a struct's every field, and a write into a vector moved in") {
    // list ranking by pointer jumping with the pairs (rank, next) as one vector
    // of a described struct, a counter written in place, and a vector read only
    for (std::size_t n : test::sizes_upto_env({1, 3, 1000, 65539})) {
        CAPTURE(n);
        const auto order = test::random_permutation(n, 5 + n);  // the list visits order[0], order[1], ...
        std::vector<rank_pair> host(n);
        for (std::size_t k = 0; k < n; ++k) {
            const auto v = std::size_t(order[k]);
            host[v].next = k + 1 < n ? order[k + 1] : order[k];
            host[v].rank = k + 1 < n ? 1 : 0;
        }
        sv::vector<rank_pair> list(host);
        sv::vector<int> rounds(std::vector<int>{0, 100});
        const sv::vector<sv::index_t> zero(std::vector<sv::index_t>{0});
        const std::size_t ran = sv::repeat_while(std::tie(list, rounds), [&] {
            // (Rank, Next) <- (Rank + Rank[Next], Next[Next])
            list = sv::map(SCANVEC_FN(rank_pair a, rank_pair b) { return rank_pair{a.rank + b.rank, b.next}; }, list,
                           sv::lazy::back_permute(list, list.field<&rank_pair::next>()));
            // Rounds[0] <- Rounds[0] + 1, written into the vector itself
            const auto next = sv::map(SCANVEC_FN(int r) { return r + 1; }, sv::lazy::back_permute(rounds, zero));
            rounds = sv::write(std::move(rounds), zero, next, sv::unchecked);
            // while some Next[i] is not the tail (whose next is itself)
            return sv::reduce_to_device(sv::lazy::map(not_at_root{}, list.field<&rank_pair::next>(),
                                                      sv::lazy::back_permute(list.field<&rank_pair::next>(),
                                                                             list.field<&rank_pair::next>())),
                                        sv::logical_or{});
        });
        std::size_t want = 1;
        while ((std::size_t(1) << want) < n - 1) ++want;  // the head is n - 1 links away: ceil(log2(n - 1)) rounds, at least one
        CHECK(ran == want);
        CHECK(rounds.to_host() == std::vector<int>{int(want), 100});
        const auto got = list.to_host();
        for (std::size_t k = 0; k < n; ++k) {
            const auto v = std::size_t(order[k]);
            CHECK(got[v].rank == sv::index_t(n - 1 - k));
            CHECK(got[v].next == order[n - 1]);
        }
    }
}

TEST_CASE("repeat_while with sv::test_every(k): the same calls and result for a body at its fixpoint once done") {
    for (std::size_t n : test::sizes_upto_env({1, 33, 65539})) {
        const auto parent = loop_test::random_forest(n, 71 + n);
        const auto [calls, roots] = loop_test::jump_sequentially(parent);
        for (std::size_t k : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(8)}) {
            CAPTURE(n);
            CAPTURE(k);
            sv::vector<sv::index_t> p(parent);
            std::vector<std::uint64_t> numbers;
            sv::vector<std::uint64_t> last_number(1, std::uint64_t(0));
            // P <- P[P] (P[P] = P once at the roots: the calls past the end change nothing)
            const std::size_t ran = sv::repeat_while(std::tie(p, last_number), [&](const sv::device_value<std::uint64_t>& r) {
                p = sv::back_permute(p, p, sv::unchecked);
                last_number = sv::map(loop_test::number_of{r.ptr()}, last_number);
                return sv::reduce_to_device(sv::lazy::map(not_at_root{}, p, sv::lazy::back_permute(p, p)), sv::logical_or{});
            }, sv::test_every(k));
            CHECK(ran == calls);
            test::check_equal(p.to_host(), roots);
            // the calls are numbered 0 .. calls - 1; a call past the end (on the device, in the
            // last group) sees the number the next call would have had
            const bool past_end = sv::runtime::device_loops() && calls % k != 0;
            CHECK(last_number.to_host()[0] == (past_end ? calls : calls - 1));
            // max_calls counts the same way
            sv::vector<sv::index_t> q(parent);
            const std::size_t limited = sv::repeat_while(q, [&] {
                q = sv::back_permute(q, q, sv::unchecked);
                return sv::reduce_to_device(sv::lazy::map(not_at_root{}, q, sv::lazy::back_permute(q, q)), sv::logical_or{});
            }, sv::test_every(k), 2);
            CHECK(limited == std::min<std::size_t>(calls, 2));
        }
    }
    sv::vector<int> v(3, 0);
    CHECK_THROWS_AS(sv::repeat_while(v, [&] { return sv::reduce_to_device(v); }, sv::test_every(0)), sv::error);
}

TEST_CASE("repeat_while: threads run their own loops at once") {
    // each thread captures into its own pool and graph; the memory cache is shared
    const std::size_t n = 70001;
    std::vector<std::vector<sv::index_t>> got(4);
    std::vector<std::size_t> calls(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            sv::vector<sv::index_t> p(loop_test::random_forest(n, 100 + t));
            for (int round = 0; round < 3; ++round) {
                sv::vector<sv::index_t> q = p;
                calls[t] = sv::repeat_while(q, [&] {
                    q = sv::back_permute(q, q, sv::unchecked);
                    return sv::reduce_to_device(sv::lazy::map(not_at_root{}, q, sv::lazy::back_permute(q, q)),
                                                sv::logical_or{});
                });
                got[t] = q.to_host();
            }
        });
    for (auto& t : threads) t.join();
    for (int t = 0; t < 4; ++t) {
        CAPTURE(t);
        const auto [want_calls, roots] = loop_test::jump_sequentially(loop_test::random_forest(n, 100 + t));
        CHECK(calls[t] == want_calls);
        CHECK(got[t] == roots);
    }
}

TEST_CASE("repeat_while: max_calls stops a loop whose test stays nonzero, and an empty state") {
    sv::vector<long long> c(std::vector<long long>{0, 10, -3});
    const std::size_t ran = sv::repeat_while(c, [&] {
        c = sv::map(SCANVEC_FN(long long x) { return 2 * x + 1; }, c);
        return sv::reduce_to_device(c, sv::max<long long>{});
    }, 7);
    CHECK(ran == 7);
    std::vector<long long> want{0, 10, -3};
    for (int k = 0; k < 7; ++k)
        for (auto& x : want) x = 2 * x + 1;
    CHECK(c.to_host() == want);
    CHECK(sv::repeat_while(c, [&] { return sv::reduce_to_device(c); }, 0) == 0);

    sv::vector<int> empty;
    CHECK(sv::repeat_while(empty, [&] {
              empty = sv::map(SCANVEC_FN(int x) { return x + 1; }, empty);
              return sv::reduce_to_device(empty);
          }) == 1);
    CHECK(empty.empty());
}

TEST_CASE("repeat_while: one call site again and again, at other lengths") {
    // the site's graph is captured anew each time (and updated in place on CUDA)
    for (int round = 0; round < 3; ++round)
        for (std::size_t n : {std::size_t(5), std::size_t(70000), std::size_t(1)}) {
            CAPTURE(n);
            sv::vector<int> a(std::vector<int>(n, 9));
            const std::size_t ran = sv::repeat_while(a, [&] {
                a = sv::map(SCANVEC_FN(int x) { return x - 1; }, a);
                return sv::reduce_to_device(a, sv::max<int>{});
            });
            CHECK(ran == 9);
            CHECK(a.to_host() == std::vector<int>(n, 0));
        }
}

TEST_CASE("repeat_while: a body that changes a state's length throws sv::length_error on both backends") {
    sv::vector<int> a(std::vector<int>{1, 2, 3});
    CHECK_THROWS_WITH_AS(sv::repeat_while(a, [&] {
                             a = sv::map(SCANVEC_FN(int x) { return x; }, sv::lazy::index(4));
                             return sv::reduce_to_device(a);
                         }),
                         doctest::Contains("changed the length of the state's array 0 from 3 to 4"), sv::length_error);
}

TEST_CASE("repeat_while on the device: what a captured body cannot do is an error, and the state is kept") {
    // On the host backend these bodies are ordinary loops (no capture): the
    // cases below are the device's rules, and run where loops are graphs.
    if (!sv::runtime::device_loops()) {
        sv::vector<int> a(std::vector<int>{3});
        int host_calls = 0;
        CHECK(sv::repeat_while(a, [&] {
                  ++host_calls;
                  a = sv::map(SCANVEC_FN(int x) { return x - 1; }, a);
                  (void)sv::reduce(a);  // waits: allowed in a loop on the host
                  return sv::reduce_to_device(a);
              }) == 3);
        CHECK(host_calls == 3);
        return;
    }
    const std::vector<int> start{4, 5, 6};
    sv::vector<int> a(start), b(std::vector<int>{7, 8, 9});
    // a wait (a reduce read on the host)
    CHECK_THROWS_WITH_AS(sv::repeat_while(a, [&] {
                             a = sv::map(SCANVEC_FN(int x) { return x + 1; }, a);
                             (void)sv::reduce(a);
                             return sv::reduce_to_device(a);
                         }),
                         doctest::Contains("waits for the device"), sv::error);
    CHECK(a.to_host() == start);
    // a checked call whose check is not deferred (permute's verdict is read on the host)
    const sv::vector<sv::index_t> idx(std::vector<sv::index_t>{2, 1, 0});
    CHECK_THROWS_WITH_AS(sv::repeat_while(a, [&] {
                             a = sv::permute(a, idx);
                             return sv::reduce_to_device(a);
                         }),
                         doctest::Contains("sv::repeat_while"), sv::error);
    CHECK(a.to_host() == start);
    // a vector assigned that the state does not name
    CHECK_THROWS_WITH_AS(sv::repeat_while(a, [&] {
                             a = sv::map(SCANVEC_FN(int x) { return x + 1; }, a);
                             b = sv::map(SCANVEC_FN(int x) { return x + 1; }, b);
                             return sv::reduce_to_device(a);
                         }),
                         doctest::Contains("not in the loop's state"), sv::error);
    CHECK(a.to_host() == start);
    // state vectors exchanged
    sv::vector<int> c(std::vector<int>{1, 1, 1});
    CHECK_THROWS_WITH_AS(sv::repeat_while(std::tie(a, c), [&] {
                             std::swap(a, c);
                             return sv::reduce_to_device(a);
                         }),
                         doctest::Contains("swap"), sv::error);
    CHECK(a.to_host() == start);
    CHECK(c.to_host() == std::vector<int>{1, 1, 1});
    // a loop inside a loop's body
    CHECK_THROWS_WITH_AS(sv::repeat_while(a, [&] {
                             sv::repeat_while(c, [&] { return sv::reduce_to_device(c); });
                             return sv::reduce_to_device(a);
                         }),
                         doctest::Contains("do not nest"), sv::error);
    CHECK(a.to_host() == start);
    // the body's host code runs once, while it is captured
    int host_calls = 0;
    CHECK(sv::repeat_while(a, [&] {
              ++host_calls;
              a = sv::map(SCANVEC_FN(int x) { return x - 1; }, a);
              return sv::reduce_to_device(a, sv::max<int>{});
          }) == 6);
    CHECK(host_calls == 1);
    CHECK(a.to_host() == std::vector<int>{-2, -1, 0});
}

TEST_CASE("repeat_while: out of memory at any request throws, keeps the state and leaks nothing") {
    auto& mem = sv::runtime::memory();
    const std::vector<int> start(1003, 5);
    sv::vector<int> a(start);
    auto body = [&] {
        auto t = sv::map(SCANVEC_FN(int x) { return x * 3; }, a);
        a = sv::map(SCANVEC_FN(int x, int y) { return (y - x) / 2 - 1; }, a, t);
        return sv::reduce_to_device(a, sv::max<int>{});
    };
    CHECK(sv::repeat_while(a, body) == 5);  // warm-up: the thread's kept state exists
    a = sv::vector<int>(start);
    const auto before = mem.stats();
    sv::repeat_while(a, body);
    const auto after = mem.stats();
    const std::size_t requests = (after.cache_hits + after.backend_allocations) - (before.cache_hits + before.backend_allocations);
    CHECK(requests > 0);
    for (std::size_t k = 0; k < requests; ++k) {
        CAPTURE(k);
        a = sv::vector<int>(start);
        const auto in_use = mem.stats().bytes_in_use;
        mem.fail_after(k);
        bool threw = false;
        try {
            sv::repeat_while(a, body);
        } catch (const sv::out_of_memory&) {
            threw = true;
        }
        mem.stop_failing();
        CHECK(mem.stats().bytes_in_use == in_use);
        if (threw && sv::runtime::device_loops()) CHECK(a.to_host() == start);  // nothing ran
        if (!threw) CHECK(a.to_host() == std::vector<int>(1003, 0));
    }
}

// ---- deferred checks ----------------------------------------------------------

namespace loop_test {
/// The message of the index_error that f throws.
template <class F> std::string index_error_of(F f) {
    try {
        f();
    } catch (const sv::index_error& e) {
        return e.what();
    }
    return "no index_error";
}
struct pt {
    int x;
    int y;
};
SCANVEC_FIELDS(pt, x, y)
}  // namespace loop_test

TEST_CASE("deferred_checks: write, combining_write and back_permute raise at the next wait, the same error") {
    using loop_test::index_error_of;
    const sv::vector<int> idx(std::vector<int>{0, 4, 9, 2, -1}), vals(std::vector<int>{10, 11, 12, 13, 14});
    const std::vector<int> start{1, 2, 3, 4, 5};
    const std::string write_error = index_error_of([&] { (void)sv::write(sv::vector<int>(start), idx, vals); });
    CHECK(write_error == "write: index idx[2] = 9 is out of range for length 5");
    {
        sv::deferred_checks scope;
        auto d = sv::write(sv::vector<int>(start), idx, vals);  // queued: no throw here
        auto c = sv::combining_write(sv::vector<int>(start), idx, vals, sv::plus<int>{});
        auto g = sv::back_permute(vals, idx);
        // the first failing call (the write) is raised at the first wait, and only once
        CHECK(index_error_of([&] { (void)d.to_host(); }) == write_error);
        CHECK(d.to_host() == std::vector<int>{10, 2, 13, 4, 11});  // the indices in range were written
        CHECK(c.to_host() == std::vector<int>{11, 2, 16, 4, 16});
        CHECK(g.to_host() == std::vector<int>{10, 14, 0, 12, 0});  // a bad index reads a value-initialised element
        auto g2 = sv::back_permute(vals, idx);
        CHECK(index_error_of([&] { sv::synchronize(); }) == "back_permute: index idx[2] = 9 is out of range for length 5");
        auto c2 = sv::combining_write(sv::vector<int>(start), idx, vals, sv::max<int>{});
        CHECK(index_error_of([&] { (void)sv::reduce(c2); }) == "combining_write: index idx[2] = 9 is out of range for length 5");
        // a struct's write: the element at a bad index writes no field
        const std::vector<loop_test::pt> ps{{1, -1}, {2, -2}, {3, -3}, {4, -4}, {5, -5}};
        auto p = sv::write(sv::vector<loop_test::pt>(std::vector<loop_test::pt>(5, {0, 0})), idx, sv::vector<loop_test::pt>(ps));
        CHECK(index_error_of([&] { (void)p.to_host(); }) == write_error);
        const auto got = p.to_host();
        const std::vector<int> want_x{1, 0, 4, 0, 2}, want_y{-1, 0, -4, 0, -2};
        for (std::size_t k = 0; k < 5; ++k) {
            CHECK(got[k].x == want_x[k]);
            CHECK(got[k].y == want_y[k]);
        }
        // good indices: nothing to raise
        auto ok = sv::write(sv::vector<int>(start), sv::vector<int>(std::vector<int>{4, 0}), sv::vector<int>(std::vector<int>{7, 8}));
        CHECK(ok.to_host() == std::vector<int>{8, 2, 3, 4, 7});
    }
    // outside the scope the check waits and throws at the call, before writing
    CHECK(index_error_of([&] { (void)sv::back_permute(vals, idx); }) == "back_permute: index idx[2] = 9 is out of range for length 5");
}

TEST_CASE("deferred_checks past one block: the first bad position of a pass of many blocks, call after call") {
    // On CUDA a deferred write, combining write or gather stores its verdict
    // from the last of its pass's blocks to finish; the counting starts afresh
    // for every call.
    using loop_test::index_error_of;
    for (std::size_t n : test::sizes_upto_env({257, 65539, 1000003})) {
        for (std::size_t bad_at : {n - 1, n / 2, std::size_t(0)}) {
            CAPTURE(n);
            CAPTURE(bad_at);
            std::vector<int> h(n);
            for (std::size_t i = 0; i < n; ++i) h[i] = int((i * 7) % n);
            h[bad_at] = int(n + 5);
            if (bad_at + 7 < n) h[bad_at + 7] = -1;  // a later bad index is not the one reported
            const sv::vector<int> idx(h), vals = sv::index<int>(n), good = sv::index<int>(n);
            const std::string at = "index idx[" + std::to_string(bad_at) + "] = " + std::to_string(n + 5) +
                                   " is out of range for length " + std::to_string(n);
            sv::deferred_checks scope;
            for (int call = 0; call < 3; ++call) {  // passes without a failure between the failing ones
                auto w = sv::write(sv::vector<int>(n, 0), good, vals);
                auto c = sv::combining_write(sv::vector<int>(n, 0), good, vals, sv::plus<int>{});
                auto g = sv::back_permute(vals, good);
                CHECK(g.to_host() == w.to_host());
                CHECK(c.to_host() == w.to_host());
                auto d = sv::write(sv::vector<int>(n, 0), idx, vals);
                CHECK(index_error_of([&] { (void)d.to_host(); }) == "write: " + at);
                auto e = sv::combining_write(sv::vector<int>(n, 0), idx, vals, sv::max<int>{});
                CHECK(index_error_of([&] { sv::synchronize(); }) == "combining_write: " + at);
                auto b = sv::back_permute(vals, idx);
                CHECK(index_error_of([&] { (void)b.to_host(); }) == "back_permute: " + at);
                CHECK(b.to_host()[bad_at] == 0);  // a bad index reads a value-initialised element
            }
        }
    }
}

TEST_CASE("deferred_checks: a checked call in a loop on the device; its error at the loop's end") {
    // on CUDA the body is captured, so its checks are deferred; on the host
    // they are checked at the call: the same error either way
    const std::size_t n = 1000;
    std::vector<sv::index_t> ring(n);
    for (std::size_t i = 0; i < n; ++i) ring[i] = sv::index_t((i + 1) % n);
    const sv::vector<sv::index_t> next(ring);
    sv::vector<int> a = sv::map(SCANVEC_FN(sv::index_t i) { return int(i % 7); }, sv::lazy::index(n));
    sv::vector<int> rounds(std::vector<int>{0});
    const sv::vector<int> zero(std::vector<int>{0});
    // rotate a by one place a round, 5 rounds, with the checked gather and write
    const std::size_t ran = sv::repeat_while(std::tie(a, rounds), [&] {
        a = sv::back_permute(a, next);
        auto r = sv::map(SCANVEC_FN(int v) { return v + 1; }, rounds);
        rounds = sv::write(std::move(rounds), zero, r);
        return sv::reduce_to_device(sv::lazy::map(SCANVEC_FN(int v) { return v < 5; }, rounds), sv::logical_or{});
    });
    CHECK(ran == 5);
    const auto got = a.to_host();
    for (std::size_t i = 0; i < n; ++i) CHECK(got[i] == int((i + 5) % n % 7));
    // a bad index in the body
    sv::vector<sv::index_t> bad(ring);
    bad.set(n - 3, sv::index_t(n + 2));
    CHECK(loop_test::index_error_of([&] {
              sv::repeat_while(a, [&] {
                  a = sv::back_permute(a, bad);
                  return sv::reduce_to_device(a, sv::max<int>{});
              }, 3);
          }) == "back_permute: index idx[" + std::to_string(n - 3) + "] = " + std::to_string(n + 2) +
                   " is out of range for length " + std::to_string(n));
    CHECK(a.size() == n);
    // the failure ends the loop, even one whose test never turns 0
    std::size_t calls = 0;
    CHECK(loop_test::index_error_of([&] {
              calls = sv::repeat_while(a, [&] {
                  a = sv::back_permute(a, bad);
                  return sv::reduce_to_device(sv::lazy::distribute(1, 1));
              });
          }) == "back_permute: index idx[" + std::to_string(n - 3) + "] = " + std::to_string(n + 2) +
                   " is out of range for length " + std::to_string(n));
    CHECK(calls == 0);  // it threw
}
