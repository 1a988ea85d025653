// Distributed writes with collisions (write, combining_write) on every layout,
// against sequential loops over the host data: targets on other ranks than
// their values, repeated targets, dst of another length; a bad target on one
// rank only raises sv::index_error on every rank and leaves dst unchanged.
#include "dist_support.hpp"

#include <algorithm>

using namespace dtest;

TEST_CASE("dist write: distinct targets land exactly, repeated ones take one of their values") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            for (std::size_t m : {std::size_t(0), std::size_t(1), n / 2 + 1, 2 * n + 3}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(m);
                if (n == 0 && m > 0) continue;
                const auto dst = random_values<int>(n, 5000 + n);
                const auto vals = random_values<int>(m, 5100 + m, 1000, 2000);  // told apart from dst's values
                // distinct targets (a prefix of a permutation), when there are few enough
                if (m <= n) {
                    const auto perm = random_permutation(n, 5200 + n);
                    const std::vector<sv::index_t> idx(perm.begin(), perm.begin() + std::ptrdiff_t(m));
                    auto want = dst;
                    for (std::size_t k = 0; k < m; ++k) want[std::size_t(idx[k])] = vals[k];
                    auto r = sv::dist::write(spread_out(dst, s, n), spread_out(idx, spread::random, m + 1),
                                             spread_out(vals, spread::even, m + 2));
                    CHECK(gathered_equals(r, want));
                }
                // repeated targets: each written position holds one of the values sent there
                const auto idx = random_values<sv::index_t>(m, 5300 + m, 0, (long long)n - 1);
                auto d = sv::dist::write(spread_out(dst, s, n), spread_out(idx, spread::first_rank, m + 3),
                                         spread_out(vals, spread::last_rank, m + 4));
                CHECK(d.offsets() == spread_out(dst, s, n).offsets());
                const auto got = d.to_host(0);
                if (root()) {
                    REQUIRE(got.size() == n);
                    std::vector<std::vector<int>> sent(n);  // the values sent to each position
                    for (std::size_t k = 0; k < m; ++k) sent[std::size_t(idx[k])].push_back(vals[k]);
                    std::size_t wrong = 0;
                    for (std::size_t j = 0; j < n; ++j) {
                        const auto& v = sent[j];
                        wrong += v.empty() ? got[j] != dst[j] : std::find(v.begin(), v.end(), got[j]) == v.end();
                    }
                    CHECK(wrong == 0);
                }
            }
        }
    }
}

TEST_CASE("dist combining_write with + and max, many values per target") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            if (n == 0) continue;
            CAPTURE(name(s));
            CAPTURE(n);
            const std::size_t m = 3 * n + 1;
            const auto dst = random_values<long long>(n, 5400 + n);
            const auto vals = random_values<long long>(m, 5500 + n, -1000, 1000);
            const auto idx = random_values<int>(m, 5600 + n, 0, (long long)n - 1);
            auto sum = dst, top = dst;
            for (std::size_t k = 0; k < m; ++k) {
                sum[std::size_t(idx[k])] += vals[k];
                top[std::size_t(idx[k])] = std::max(top[std::size_t(idx[k])], vals[k]);
            }
            const auto di = spread_out(idx, spread::random, n + 5);
            const auto dv = spread_out(vals, spread::every_other, n + 6);
            CHECK(gathered_equals(sv::dist::combining_write(spread_out(dst, s, n), di, dv, sv::plus<long long>{}), sum));
            CHECK(gathered_equals(sv::dist::combining_write(spread_out(dst, s, n), di, dv, sv::max<long long>{}), top));
        }
    }
}

TEST_CASE("dist write: a bad target on one rank only is an error on every rank") {
    const std::size_t n = 41, m = 30;
    const auto dst = random_values<int>(n, 5700);
    auto idx = random_values<sv::index_t>(m, 5701, 0, (long long)n - 1);
    idx[m - 1] = sv::index_t(n);  // on the last holder only
    const auto vals = random_values<int>(m, 5702);
    for (spread s : spreads) {
        CAPTURE(name(s));
        auto d = spread_out(dst, s);
        CHECK_THROWS_AS((void)sv::dist::write(d, spread_out(idx, s), spread_out(vals, s)), sv::index_error);
        CHECK_THROWS_AS((void)sv::dist::combining_write(d, spread_out(idx, s), spread_out(vals, s), sv::plus<int>{}),
                        sv::index_error);
        CHECK_THROWS_AS((void)sv::dist::write(d, spread_out(idx, s), spread_out(std::vector<int>(m + 1, 0), s)),
                        sv::length_error);
        CHECK(gathered_equals(d, dst));  // untouched, and the ranks are still in step
    }
}
