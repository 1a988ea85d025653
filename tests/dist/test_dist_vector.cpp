// sv::dist::vector: scatter and gather, blocks from each rank, layouts,
// structs, redistribute and rebalance, and the local primitives (map, index,
// distribute), on every layout and size, against the host data.
#include "dist_support.hpp"

using namespace dtest;

TEST_CASE("a communicator makes each team once per key and gives it again") {
    const sv::dist::communicator c;
    const int p = c.size(), me = c.rank(), k = p / 2 > 0 ? p / 2 : 1;
    const int color = me < k ? 0 : 1;
    const sv::dist::communicator* first = c.team(7, color);
    REQUIRE(first != nullptr);
    CHECK(first->size() == (me < k ? k : p - k));
    CHECK(first->rank() == (me < k ? me : me - k));
    CHECK(c.team(7, color) == first);  // the same team, not a new one
    // a second partition under another key: every rank alone, or in none
    const sv::dist::communicator* alone = c.team(8, me);
    REQUIRE(alone != nullptr);
    CHECK(alone->size() == 1);
    CHECK(c.team(9, -1) == nullptr);
    CHECK(c.team(9, -1) == nullptr);
    CHECK(c.team(7, color) == first);
}

TEST_CASE("dist vector scatter and gather in even blocks") {
    for (std::size_t n : sizes) {
        CAPTURE(n);
        const auto all = random_values<int>(n, 100 + n);
        for (int root_rank = 0; root_rank < ranks(); ++root_rank) {
            auto d = sv::dist::vector<int>::scatter(rank() == root_rank ? all : std::vector<int>{}, root_rank, comm());
            CHECK(d.size() == n);
            CHECK(layout_consistent(d));
            const auto even = block_sizes(n, ranks(), spread::even, 0);
            CHECK(sv::index_t(d.local().size()) == even[std::size_t(rank())]);
            const auto got = d.to_host(root_rank);
            if (rank() == root_rank) CHECK(got == all);
            else CHECK(got.empty());
        }
    }
}

TEST_CASE("dist vector from local blocks on every layout") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto all = random_values<double>(n, 200 + n);
            auto d = spread_out(all, s);
            CHECK(d.size() == n);
            CHECK(layout_consistent(d));
            CHECK(gathered_equals(d, all));
            // scatter with given block sizes gives the same blocks
            const auto b = block_sizes(n, ranks(), s, 7);
            auto e = sv::dist::vector<double>::scatter(root() ? all : std::vector<double>{}, b, 0, comm());
            CHECK(e.offsets() == d.offsets());
            CHECK(e.local().to_host() == d.local().to_host());
        }
    }
}

TEST_CASE("dist vector of bool and of described structs") {
    for (std::size_t n : sizes) {
        CAPTURE(n);
        const auto flags = random_flags(n, 0.3, 300 + n);
        auto f = spread_out(flags, spread::random, n);
        CHECK(gathered_equals(f, flags));
        std::vector<particle> ps(n);
        for (std::size_t i = 0; i < n; ++i) ps[i] = {0.5 * double(i), float(i) * 0.25f, std::int16_t(i % 1000)};
        auto sc = sv::dist::vector<particle>::scatter(root() ? ps : std::vector<particle>{}, 0, comm());
        CHECK(gathered_equals(sc, ps));
        auto g = sc.gather(0);
        if (root()) CHECK(g.to_host() == ps);
        else CHECK(g.empty());
    }
}

TEST_CASE("dist redistribute and rebalance keep the order") {
    for (std::size_t n : sizes) {
        const auto all = random_values<int>(n, 400 + n);
        for (spread from : spreads) {
            for (spread to : spreads) {
                CAPTURE(n);
                CAPTURE(name(from));
                CAPTURE(name(to));
                auto d = spread_out(all, from, 1);
                auto r = sv::dist::redistribute(d, block_sizes(n, ranks(), to, 2));
                CHECK(layout_consistent(r));
                CHECK(r.offsets() == spread_out(all, to, 2).offsets());
                CHECK(gathered_equals(r, all));
            }
        }
        std::vector<particle> ps(n);
        for (std::size_t i = 0; i < n; ++i) ps[i] = {double(i), -float(i), std::int16_t(i)};
        auto b = sv::dist::rebalance(spread_out(ps, spread::last_rank));
        CHECK(b.offsets() == sv::dist::vector<particle>::scatter(ps, 0, comm()).offsets());
        CHECK(gathered_equals(b, ps));
    }
}

TEST_CASE("dist map index distribute") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto x = random_values<int>(n, 500 + n);
            const auto y = random_values<float>(n, 600 + n);
            auto dx = spread_out(x, s);
            auto dy = spread_out(y, spread::even);  // other blocks: moved to x's
            auto r = sv::dist::map(SCANVEC_FN(int a, float b) { return float(a) * 2.0f + b; }, dx, dy);
            std::vector<float> want(n);
            for (std::size_t i = 0; i < n; ++i) want[i] = float(x[i]) * 2.0f + y[i];
            CHECK(r.offsets() == dx.offsets());
            CHECK(gathered_equals(r, want));
            // struct results are stored as fields
            auto ps = sv::dist::map(SCANVEC_FN(int a, float b) { return particle{double(a), b, std::int16_t(a)}; }, dx, dy);
            std::vector<particle> pw(n);
            for (std::size_t i = 0; i < n; ++i) pw[i] = {double(x[i]), y[i], std::int16_t(x[i])};
            CHECK(gathered_equals(ps, pw));
        }
    }
    for (std::size_t n : sizes) {
        CAPTURE(n);
        std::vector<sv::index_t> iota(n);
        for (std::size_t i = 0; i < n; ++i) iota[i] = sv::index_t(i);
        CHECK(gathered_equals(sv::dist::index(n, comm()), iota));
        CHECK(gathered_equals(sv::dist::index<int>(n), std::vector<int>(iota.begin(), iota.end())));
        CHECK(gathered_equals(sv::dist::distribute(2.5f, n, comm()), std::vector<float>(n, 2.5f)));
    }
}

TEST_CASE("dist length mismatch throws on every rank") {
    auto a = sv::dist::index(10);
    auto b = sv::dist::index(11);
    CHECK_THROWS_WITH_AS(sv::dist::map(SCANVEC_FN(sv::index_t x, sv::index_t y) { return x + y; }, a, b),
                         "dist::map: lengths differ (10 and 11)", sv::length_error);
    auto f = sv::dist::distribute(true, 9);
    CHECK_THROWS_AS(sv::dist::pack(a, f), sv::length_error);
    CHECK_THROWS_AS(sv::dist::split(a, f), sv::length_error);
    CHECK_THROWS_AS(sv::dist::permute(a, b), sv::length_error);
    CHECK_THROWS_AS(sv::dist::segmented_scan(a, f), sv::length_error);
    CHECK_THROWS_AS(sv::dist::redistribute(a, std::vector<sv::index_t>(std::size_t(ranks()), 1)), sv::error);
    // and every rank carries on together
    CHECK(sv::dist::reduce(a) == 45);
}
