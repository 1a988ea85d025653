// The book's programs, written once on sv::vector, run on sv::dist::vector from
// the same source (split_radix_sort, split_by_enumerate, line_of_sight, spmv), and
// the distributed sort and multisplit: every result gathered and compared with
// the one-device program (or std::sort) over the same host data, on every
// layout, with sizes 0, 1, fewer than the ranks, odd and larger.
#include "dist_support.hpp"

#include <limits>

using namespace dtest;

namespace {
const std::vector<std::size_t> program_sizes = {0, 1, 2, 3, 7, 100, 2003};
}

TEST_CASE("split_radix_sort runs unchanged on dist vectors") {
    for (spread s : spreads) {
        for (std::size_t n : program_sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto a = random_values<int>(n, 3000 + n, -1000000, 1000000);
            auto d = sv::split_radix_sort(spread_out(a, s, n));
            static_assert(std::is_same_v<decltype(d), sv::dist::vector<int>>);
            CHECK(d.offsets() == spread_out(a, s, n).offsets());
            auto want = a;
            std::sort(want.begin(), want.end());
            CHECK(want == sv::split_radix_sort(sv::vector<int>(a)).to_host());
            CHECK(gathered_equals(d, want));
            const auto b = random_values<std::uint8_t>(n, 3100 + n, 0, 255);
            auto wb = b;
            std::sort(wb.begin(), wb.end());
            CHECK(gathered_equals(sv::split_radix_sort(spread_out(b, s, n + 3)), wb));
        }
    }
}

TEST_CASE("radix_sort (the program) runs unchanged on dist vectors") {
    for (spread s : spreads) {
        for (std::size_t n : program_sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto a = random_values<std::int64_t>(n, 3150 + n, -(1LL << 40), 1LL << 40);
            auto want = a;
            std::sort(want.begin(), want.end());
            for (int k : {8, 5}) {
                CAPTURE(k);
                auto d = sv::radix_sort(spread_out(a, s, n), k);
                static_assert(std::is_same_v<decltype(d), sv::dist::vector<std::int64_t>>);
                CHECK(gathered_equals(d, want));
            }
        }
    }
}

TEST_CASE("split_by_enumerate runs unchanged on dist vectors") {
    for (spread s : spreads) {
        for (std::size_t n : program_sizes) {
            for (double p : {0.0, 0.4, 1.0}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(p);
                const auto a = random_values<long long>(n, 3200 + n);
                const auto f = random_flags(n, p, 3300 + n);
                const auto want = sv::split_by_enumerate(sv::vector<long long>(a), sv::vector<bool>(f)).to_host();
                auto d = sv::split_by_enumerate(spread_out(a, s, n), spread_out(f, spread::random, n + 5));
                CHECK(gathered_equals(d, want));
                CHECK(gathered_equals(sv::dist::split(spread_out(a, s, n), spread_out(f, s, n)), want));
            }
        }
    }
}

TEST_CASE("line_of_sight runs unchanged on dist vectors") {
    for (spread s : spreads) {
        for (std::size_t n : program_sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto alt = random_values<double>(n, 3400 + n, 0, 1000);
            for (double eye : {0.0, 25.0}) {
                const auto want = sv::line_of_sight(sv::vector<double>(alt), eye).to_host();
                auto d = sv::line_of_sight(spread_out(alt, s, n), eye);
                static_assert(std::is_same_v<decltype(d), sv::dist::vector<bool>>);
                CHECK(d.size() == n);
                CHECK(gathered_equals(d, want));
            }
            const auto ints = random_values<int>(n, 3500 + n, -50, 50);
            CHECK(gathered_equals(sv::line_of_sight(spread_out(ints, s, n)),
                                  sv::line_of_sight(sv::vector<int>(ints)).to_host()));
        }
    }
}

TEST_CASE("spmv runs unchanged on dist vectors, rows by a distributed descriptor with empty rows") {
    for (spread s : spreads) {
        for (std::size_t rows : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(40), std::size_t(1003)}) {
            CAPTURE(name(s));
            CAPTURE(rows);
            const std::size_t cols = rows + 5;
            // row lengths 0..6 (every fourth row empty, the first too), random columns and values
            auto lengths = random_values<int>(rows, 6000 + rows, 0, 6);
            for (std::size_t k = 0; k < rows; k += 4) lengths[k] = 0;
            std::size_t nnz = 0;
            for (int l : lengths) nnz += std::size_t(l);
            const auto values = random_values<long long>(nnz, 6100 + rows, -50, 50);
            const auto columns = random_values<int>(nnz, 6200 + rows, 0, (long long)cols - 1);
            const auto x = random_values<long long>(cols, 6300 + rows, -9, 9);
            std::vector<long long> want(rows, 0);
            for (std::size_t k = 0, j = 0; k < rows; ++k)
                for (int e = 0; e < lengths[k]; ++e, ++j) want[k] += values[j] * x[std::size_t(columns[j])];
            const auto one_device = sv::spmv(sv::vector<long long>(values), sv::vector<int>(columns),
                                             sv::segments::from_lengths(sv::vector<int>(lengths)), sv::vector<long long>(x));
            CHECK(one_device.to_host() == want);
            const auto d_rows = sv::dist::segments::from_lengths(spread_out(lengths, spread::random, rows + 1));
            CHECK(d_rows.count() == sv::index_t(rows));
            CHECK(d_rows.total() == sv::index_t(nnz));
            const auto y = sv::spmv(spread_out(values, s, rows + 2), spread_out(columns, spread::even, rows + 3), d_rows,
                                    spread_out(x, s, rows + 4));
            CHECK(gathered_equals(y, want));
        }
    }
}

TEST_CASE("a distributed descriptor: bad lengths and a mismatched vector are errors on every rank") {
    auto bad = random_values<int>(17, 6400, 0, 3);
    bad[16] = -1;  // on the last holder only
    CHECK_THROWS_AS((void)sv::dist::segments::from_lengths(spread_out(bad, spread::even)), sv::error);
    const auto rows = sv::dist::segments::from_lengths(spread_out(std::vector<int>{2, 0, 3}, spread::even));
    CHECK_THROWS_AS((void)sv::dist::reduce(sv::dist::distribute(1, 4), rows), sv::length_error);
    CHECK(gathered_equals(sv::dist::reduce(sv::dist::distribute(1, 5), rows), std::vector<int>{2, 0, 3}));
}

TEST_CASE("dist extract") {
    const auto a = random_values<int>(41, 3600);
    for (spread s : spreads) {
        CAPTURE(name(s));
        auto d = spread_out(a, s, 41);
        bool all = true;
        for (sv::index_t i = 0; i < 41; ++i) all = all && sv::dist::extract(d, i) == a[std::size_t(i)];
        CHECK(all);
        CHECK_THROWS_AS(sv::dist::extract(d, 41), sv::index_error);
        CHECK_THROWS_AS(sv::dist::extract(d, -1), sv::index_error);
    }
}

TEST_CASE("dist multisplit is stable") {
    for (spread s : spreads) {
        for (std::size_t n : program_sizes) {
            for (sv::index_t m : {sv::index_t(1), sv::index_t(3), sv::index_t(256)}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(m);
                const auto a = random_values<int>(n, 3700 + n);
                auto dig = random_values<int>(n, 3800 + n, 0, m - 1);
                if (m == 256)  // skewed: most in one class
                    for (std::size_t i = 0; i < n; ++i)
                        if (i % 5) dig[i] = 17;
                const auto want = sv::multisplit(sv::vector<int>(a), sv::vector<int>(dig), m).to_host();
                auto d = sv::dist::multisplit(spread_out(a, s, n), spread_out(dig, spread::random, n + 9), m);
                CHECK(d.offsets() == spread_out(a, s, n).offsets());
                CHECK(gathered_equals(d, want));
                std::vector<particle> ps(n);
                for (std::size_t i = 0; i < n; ++i) ps[i] = {double(a[i]), float(i), std::int16_t(i % 99)};
                CHECK(gathered_equals(sv::dist::multisplit(spread_out(ps, s, n), spread_out(dig, s, n), m),
                                      sv::multisplit(sv::vector<particle>(ps), sv::vector<int>(dig), m).to_host()));
            }
        }
    }
}

TEST_CASE("dist multisplit with a bad digit on one rank throws on every rank") {
    const std::size_t n = 29;
    const auto a = random_values<int>(n, 3900);
    auto dig = random_values<int>(n, 3901, 0, 3);
    dig[n - 2] = 4;  // on the last holder only
    for (spread s : spreads) {
        CAPTURE(name(s));
        CHECK_THROWS_AS(sv::dist::multisplit(spread_out(a, s), spread_out(dig, s), 4), sv::index_error);
        CHECK(sv::dist::reduce(spread_out(a, s)) == std::accumulate(a.begin(), a.end(), 0));
    }
}

/// body(rounds) with the sort's exchange in one group (the default at these
/// sizes), then on 3 ranks or more in rounds beside the merges (the
/// threshold lowered to 0; with fewer ranks the one group stays).
template <class Body> void with_both_exchanges(Body body) {
    struct restore {
        sv::index_t saved = sv::dist::detail::sort_rounds_min_keys();
        ~restore() { sv::dist::detail::sort_rounds_min_keys() = saved; }
    } keep;
    for (bool rounds : {false, true}) {
        if (rounds && ranks() < 3) break;
        CAPTURE(rounds);
        sv::dist::detail::sort_rounds_min_keys() = rounds ? 0 : keep.saved;
        body(rounds);
    }
}

/// sort(d) on keys spread out as s: d's layout, the keys in order.
template <class K, class Sort> void check_sorted_by(Sort sort, const std::vector<K>& keys, spread s, std::uint64_t seed) {
    auto d = spread_out(keys, s, seed);
    auto r = sort(d);
    CHECK(r.offsets() == d.offsets());
    auto want = keys;
    std::sort(want.begin(), want.end());
    CHECK(gathered_equals(r, want));
}
template <class K> void check_sort(const std::vector<K>& keys, spread s, std::uint64_t seed) {
    check_sorted_by([](const auto& d) { return sv::dist::radix_sort(d); }, keys, s, seed);
}

/// check(keys, s, seed) on random keys, the same sorted, reversed, and n equal keys (seeds n .. n + 3).
template <class Check> void check_orders(Check check, std::vector<int> keys, spread s, std::size_t n) {
    check(keys, s, n);
    std::sort(keys.begin(), keys.end());
    check(keys, s, n + 1);
    std::reverse(keys.begin(), keys.end());
    check(keys, s, n + 2);
    check(std::vector<int>(keys.size(), -7), s, n + 3);
}

TEST_CASE("dist radix_sort: random, sorted, all-equal and skewed keys") {
    with_both_exchanges([](bool) {
    for (spread s : spreads) {
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(7),
                              std::size_t(1001), std::size_t(20011)}) {
            CAPTURE(name(s));
            CAPTURE(n);
            check_orders([](const auto& k, spread t, std::uint64_t seed) { check_sort(k, t, seed); },
                         random_values<int>(n, 4000 + n, -2000000000, 2000000000), s, n);
            auto skewed = random_values<std::int64_t>(n, 4100 + n, 0, 1000);
            for (std::size_t i = 0; i < n; ++i)
                if (i % 10 == 3) skewed[i] = std::int64_t(1) << 60;  // one far key range, the rest narrow
                else if (i % 3) skewed[i] = 5;
            check_sort(skewed, s, n + 4);
            check_sort(random_values<std::uint16_t>(n, 4200 + n, 0, 65535), s, n + 5);
            check_sort(random_values<std::uint64_t>(n, 4300 + n, 0, 1LL << 62), s, n + 6);
            // float and double in radix order: negatives, both zeros, infinities; few distinct values
            const auto few = random_values<int>(n, 4400 + n, -4, 4);
            std::vector<float> f(n);
            std::vector<double> g(n);
            for (std::size_t i = 0; i < n; ++i) {
                f[i] = few[i] == 4 ? std::numeric_limits<float>::infinity() : few[i] == 0 && i % 2 ? -0.0f : 0.5f * float(few[i]);
                g[i] = few[i] == -4 ? -std::numeric_limits<double>::infinity() : double(few[i]) * 1e300;
            }
            check_sort(f, s, n + 7);
            check_sort(g, s, n + 8);
            // the ends of the key range (the cuts' first and last digits) and 8-bit keys (one round)
            std::vector<int> ends(n);
            std::vector<std::uint8_t> bytes(n);
            for (std::size_t i = 0; i < n; ++i) {
                const int pick[] = {std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), -1, 0};
                ends[i] = pick[std::size_t(few[i] + 4) % 4];
                bytes[i] = std::uint8_t(few[i] * 37);
            }
            check_sort(ends, s, n + 9);
            check_sort(bytes, s, n + 10);
        }
    }
    });
}

TEST_CASE("dist radix_sort of floats with NaNs and both zeros keeps the radix order of the one-device sort") {
    // Radix order: -NaN first, +NaN last, -0.0 and +0.0 one key. Compared as
    // radix_key_bits, since NaN != NaN and the zeros' signs may come in any order.
    const auto bits = [](const std::vector<float>& v) {
        std::vector<std::uint32_t> b;
        for (float x : v) b.push_back(sv::detail::radix_key_bits(x));
        return b;
    };
    with_both_exchanges([&](bool) {
    for (spread s : spreads) {
        for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(1001)}) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto pick = random_values<int>(n, 4500 + n, 0, 6);
            const auto x = random_values<int>(n, 4600 + n, -1000, 1000);
            std::vector<float> keys(n);
            for (std::size_t i = 0; i < n; ++i) {
                const float special[] = {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                                         -0.0f, 0.0f, -std::numeric_limits<float>::infinity()};
                keys[i] = pick[i] < 5 ? special[pick[i]] : float(x[i]) / 8;
            }
            auto want = bits(keys);
            std::sort(want.begin(), want.end());
            const auto got = sv::dist::radix_sort(spread_out(keys, s, n)).to_host(0);
            if (root()) CHECK(bits(got) == want);
        }
    }
    });
}

TEST_CASE("a phase_log records the distributed sort's phases in order, only while it lives") {
    const auto keys = random_values<int>(5003, 77, -1000, 1000);
    auto d = spread_out(keys, spreads[0], 1);
    with_both_exchanges([&](bool rounds) {
        // the rounds need 3 ranks or more (with 2 the one group stays)
        const auto want = rounds && d.ranks() >= 3
                              ? std::vector<std::string>{"local radix sort", "exact cuts", "counts and the verdict",
                                                         "exchange and merges"}
                              : std::vector<std::string>{"local radix sort", "exact cuts", "counts and the verdict",
                                                         "exchange of the keys", "merge of the runs"};
        {
            sv::dist::phase_log log;
            auto r = sv::dist::radix_sort(d);
            auto sorted = keys;
            std::sort(sorted.begin(), sorted.end());
            CHECK(gathered_equals(r, sorted));
            std::vector<std::string> names;
            for (const auto& [name, ms] : log.phases()) {
                names.push_back(name);
                CHECK(ms >= 0);
            }
            if (d.ranks() == 1) CHECK(names.empty());  // one rank: the one-device sort, no phases
            else CHECK(names == want);
            log.restart();
            CHECK(log.phases().empty());
        }
        CHECK(sv::dist::phase_log::current() == nullptr);
        auto again = sv::dist::radix_sort(d);  // marks with no log alive: nothing to record, nothing breaks
        CHECK(again.size() == keys.size());
    });
}

template <class K> void check_quicksort(const std::vector<K>& keys, spread s, std::uint64_t seed) {
    check_sorted_by([](const auto& d) { return sv::dist::quicksort(d); }, keys, s, seed);
}

TEST_CASE("dist quicksort by processor teams: random, sorted, reversed, all-equal, few distinct keys") {
    for (spread s : spreads) {
        CAPTURE(name(s));
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8)}) {
            CAPTURE(n);
            check_quicksort(random_values<int>(n, 5000 + n, -100, 100), s, n);
        }
        const std::size_t n = 2003;  // past one rank's share at np 4, odd
        check_orders([](const auto& k, spread t, std::uint64_t seed) { check_quicksort(k, t, seed); },
                     random_values<int>(n, 5000 + n, -2000000000, 2000000000), s, n);
        check_quicksort(random_values<int>(n, 5100 + n, 0, 2), s, n + 4);  // three keys: pivots often equal the min or max
        check_quicksort(random_values<double>(n, 5200 + n, -1000000000, 1000000000), s, n + 5);
    }
}
