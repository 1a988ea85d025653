// The bad-input catalogue: every primitive with mismatched lengths, bad
// permutation indices, empty vectors, integer flags and NaN. Each gives the
// documented error (naming lengths or the index) or result, and its inputs are
// unchanged afterwards.
#include "support.hpp"
#include <scanvec/scanvec.hpp>  // every program of the library
#include <scanvec/primitives/detail/permute/power_sums.hpp>

namespace {
const std::vector<int> values = {4, 8, 15, 16, 23, 42};
const std::vector<bool> heads = {true, false, true, false, false, true};
}  // namespace

TEST_CASE("mismatched lengths name both lengths, for every primitive that pairs vectors") {
    sv::vector<int> a(values), short_ints = {1, 2};
    sv::vector<bool> f(heads), short_flags = {true};
    auto lengths = doctest::Contains("lengths differ (6 and ");
    CHECK_THROWS_WITH_AS(sv::map(SCANVEC_FN(int x, int y) { return x + y; }, a, short_ints), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::permute(a, short_ints), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::pack(a, short_flags), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::split(a, short_flags), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::segmented_scan(a, short_flags), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::segmented_inclusive_scan(a, short_flags), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::segmented_backward_scan(a, short_flags), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::segmented_reduce(a, short_flags), lengths, sv::length_error);
    CHECK_THROWS_WITH_AS(sv::segmented_split(a, f, short_flags), lengths, sv::length_error);
    CHECK_THROWS_AS(sv::lazy::map(SCANVEC_FN(int x, int y) { return x + y; }, a, short_ints), sv::length_error);
    CHECK(a.to_host() == values);
    CHECK(f.to_host() == heads);
}

TEST_CASE("every error is an sv::error and a std::runtime_error") {
    sv::vector<int> a(values);
    CHECK_THROWS_AS(sv::permute(a, sv::vector<int>{1}), sv::error);
    CHECK_THROWS_AS(sv::permute(a, sv::vector<int>{1}), std::runtime_error);
    CHECK_THROWS_AS(a[100], sv::error);
}

#if SCANVEC_CHECKS
TEST_CASE("bad permutation indices name the position and the value; nothing is written") {
    sv::vector<int> a(values);
    sv::vector<long long> neg = {0, 1, 2, -3, 4, 5};
    sv::vector<long long> big = {0, 1, 2, 3, 4, 6};
    sv::vector<long long> dup = {5, 4, 3, 2, 1, 5};
    CHECK_THROWS_WITH_AS(sv::permute(a, neg), doctest::Contains("idx[3] = -3 is out of range for length 6"),
                         sv::index_error);
    CHECK_THROWS_WITH_AS(sv::permute(a, big), doctest::Contains("idx[5] = 6 is out of range"), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::permute(a, dup), doctest::Contains("index 5 repeats in idx (at idx[0] and idx[5])"),
                         sv::index_error);
    CHECK_THROWS_WITH_AS(sv::back_permute(a, neg), doctest::Contains("back_permute: index idx[3] = -3"),
                         sv::index_error);
    CHECK_THROWS_WITH_AS(sv::back_permute(a, sv::vector<int>{0, 0, 7}), doctest::Contains("idx[2] = 7"),
                         sv::index_error);
    // a large permutation with one bad entry far from the start
    const std::size_t n = 1000003;
    std::vector<int> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = int(n - 1 - i);
    perm[777777] = perm[777776];
    sv::vector<int> big_perm(perm);
    sv::vector<int> big_a(n, 1);
    CHECK_THROWS_WITH_AS(sv::permute(big_a, big_perm), doctest::Contains("at idx[777776] and idx[777777]"),
                         sv::index_error);
    CHECK(a.to_host() == values);
    CHECK(dup.to_host() == std::vector<long long>{5, 4, 3, 2, 1, 5});
}

TEST_CASE("repeats that keep the sum, the sum of squares and the xor of the indices are still caught") {
    // {0, 3, 5, 6} and {1, 2, 4, 7} have equal sums, sums of squares and xors:
    // idx below hits 0, 3, 5, 6 twice and 1, 2, 4, 7 never, so any check by
    // such totals would pass it
    sv::vector<int> a(8, 1);
    sv::vector<int> idx = {0, 3, 5, 6, 0, 3, 5, 6};
    sv::vector<int> twice = {0, 0, 3, 3, 5, 5, 6, 6};
    CHECK_THROWS_WITH_AS(sv::permute(a, idx), doctest::Contains("index 0 repeats in idx (at idx[0] and idx[4])"),
                         sv::index_error);
    CHECK_THROWS_WITH_AS(sv::permute(a, twice), doctest::Contains("index 0 repeats in idx (at idx[0] and idx[1])"),
                         sv::index_error);
    // the same through the fingerprint, which permute uses past 2^25 elements
    using sv::detail::expect_permutation;
    CHECK_THROWS_WITH_AS(expect_permutation("permute", idx, 8), doctest::Contains("index 0 repeats in idx (at idx[0] and idx[4])"),
                         sv::index_error);
    CHECK_THROWS_WITH_AS(expect_permutation("permute", twice, 8), doctest::Contains("at idx[0] and idx[1]"), sv::index_error);
    CHECK_THROWS_WITH_AS(expect_permutation("permute", sv::vector<int>{0, 1, 8, 2, 3, 4, 5, 6}, 8),
                         doctest::Contains("idx[2] = 8 is out of range for length 8"), sv::index_error);
    CHECK_THROWS_WITH_AS(expect_permutation("permute", sv::vector<long long>{0, 1, 2, 3, 4, -1, 5, 6}, 8),
                         doctest::Contains("idx[5] = -1 is out of range"), sv::index_error);
    for (std::size_t n : test::sizes) {  // permutations pass, one changed entry fails
        CAPTURE(n);
        std::vector<int> perm(n);
        for (std::size_t i = 0; i < n; ++i) perm[i] = int(i);
        std::shuffle(perm.begin(), perm.end(), std::mt19937(int(n)));
        CHECK_NOTHROW(expect_permutation("permute", sv::vector<int>(perm), n));
        if (n < 2) continue;
        perm[n / 2] = perm[n / 3 == n / 2 ? 0 : n / 3];
        CHECK_THROWS_AS(expect_permutation("permute", sv::vector<int>(perm), n), sv::index_error);
    }
}

TEST_CASE("the permutation fingerprint's arithmetic: products mod 2^61 - 1") {
    using sv::detail::mersenne61;
    using sv::detail::mul_mod61;
    CHECK(mul_mod61(mersenne61 - 1, mersenne61 - 1) == 1);  // (-1)(-1)
    CHECK(mul_mod61(std::uint64_t(1) << 60, 2) == 1);        // 2^61 = 1
    CHECK(mul_mod61(123456789, 987654321) == 123456789ull * 987654321ull);
    std::mt19937_64 rng(11);
    std::vector<std::uint64_t> a(1000), b(1000), want(1000);
    for (std::size_t k = 0; k < a.size(); ++k) {  // against schoolbook long multiplication mod p
        a[k] = rng() % mersenne61;
        b[k] = rng() % mersenne61;
        std::uint64_t sum = 0, add = a[k];
        for (std::uint64_t m = b[k]; m; m >>= 1) {
            if (m & 1) sum = (sum + add) % mersenne61;
            add = (add * 2) % mersenne61;
        }
        want[k] = sum;
    }
    // where permute computes it: on the device for the CUDA backend
    auto got = sv::map(SCANVEC_FN(std::uint64_t x, std::uint64_t y) { return sv::detail::mul_mod61(x, y); },
                       sv::vector<std::uint64_t>(a), sv::vector<std::uint64_t>(b));
    CHECK(got.to_host() == want);
}

TEST_CASE("the power sums' arithmetic: the tables' powers and the closed form of a permutation's sum") {
    // CUDA's permute check between its stamps and its fingerprint sums r^idx[i]
    // with r^j from two tables, against (r^n - 1) / (r - 1)
    using sv::detail::add_mod61;
    using sv::detail::mul_mod61;
    const auto& r = sv::detail::fingerprint_points();
    const sv::detail::power_tables tables{sv::detail::power_table_words().data()};
    for (int k = 0; k < 2; ++k) {
        CAPTURE(k);
        std::uint64_t power = 1, sum = 0;  // r^j and the sum of r^i for i < j, step by step
        for (std::size_t j = 0; j <= 5000; ++j) {
            if (j <= 1 || j == 1023 || j == 1024 || j == 1025 || j == 4097 || j == 5000) {
                CAPTURE(j);
                CHECK(tables.power(k, j) == power);
                CHECK(sv::detail::power_sum_below(k, j) == sum);
            }
            sum = add_mod61(sum, power);
            power = mul_mod61(power, r[k]);
        }
        const std::uint64_t last = sv::detail::power_tables_reach - 1;  // both tables' last entries
        CHECK(tables.power(k, last) == sv::detail::pow_mod61(r[k], last));
        const std::size_t n = 300007;  // one sum below the reach, term by term
        std::uint64_t terms = 0;
        for (std::size_t j = 0; j < n; ++j) terms = add_mod61(terms, tables.power(k, j));
        CHECK(terms == sv::detail::power_sum_below(k, n));
    }
}

TEST_CASE("permute checks 2^25 + 7 indices before it moves them") {
    if (test::small_sizes_only()) return;  // 2^25 elements: not under the sanitizers
    const std::size_t n = (std::size_t(1) << 25) + 7;
    auto reversed = sv::map(SCANVEC_FN(sv::index_t i) { return int(n - 1 - i); }, sv::lazy::index(n));
    auto a = sv::map(SCANVEC_FN(sv::index_t i) { return int(i * 3); }, sv::lazy::index(n));
    auto r = sv::permute(a, reversed);
    CHECK(r[0] == int((n - 1) * 3));
    CHECK(r[n - 1] == 0);
    CHECK(sv::count(sv::lazy::map(SCANVEC_FN(int x, sv::index_t i) { return x != int((n - 1 - i) * 3); }, r,
                                  sv::lazy::index(n))) == 0);
    auto repeat = sv::map(SCANVEC_FN(int j, sv::index_t i) { return i == 12345 ? int(n - 1 - 12344) : j; }, reversed,
                          sv::lazy::index(n));
    CHECK_THROWS_WITH_AS(sv::permute(a, repeat), doctest::Contains("at idx[12344] and idx[12345]"), sv::index_error);
    auto outside = sv::map(SCANVEC_FN(int j, sv::index_t i) { return i == sv::index_t(n - 2) ? int(n) : j; }, reversed,
                           sv::lazy::index(n));
    const std::string where = "idx[" + std::to_string(n - 2) + "]";
    CHECK_THROWS_WITH_AS(sv::permute(a, outside), doctest::Contains(where.c_str()), sv::index_error);
}
#endif

TEST_CASE("checks past one block name the first bad position, and the next call starts clean") {
    // many blocks on CUDA (each raises the failure flag for its own bad
    // indices; an exact pass names the first), a failing call followed by
    // passing ones (the check's state is reused)
    const std::size_t n = 100003;
    auto reversed = sv::map(SCANVEC_FN(sv::index_t i) { return int(n - 1 - i); }, sv::lazy::index(n));
    auto a = sv::map(SCANVEC_FN(sv::index_t i) { return int(i * 3); }, sv::lazy::index(n));
    auto two_outside = sv::map(
        SCANVEC_FN(int j, sv::index_t i) { return i == 70001 ? -5 : i == 90001 ? int(n) : j; }, reversed,
        sv::lazy::index(n));
    for (int round = 0; round < 2; ++round) {
        CHECK_THROWS_WITH_AS(sv::permute(a, two_outside), doctest::Contains("idx[70001]"), sv::index_error);
        CHECK_THROWS_WITH_AS(sv::back_permute(a, two_outside), doctest::Contains("idx[70001]"), sv::index_error);
        auto repeat = sv::map(SCANVEC_FN(int j, sv::index_t i) { return i == 99999 ? int(n - 1 - 3) : j; }, reversed,
                              sv::lazy::index(n));
        CHECK_THROWS_WITH_AS(sv::permute(a, repeat), doctest::Contains("at idx[3] and idx[99999]"), sv::index_error);
        auto r = sv::permute(a, reversed);
        CHECK(sv::count(sv::lazy::map(SCANVEC_FN(int x, sv::index_t i) { return x != int((n - 1 - i) * 3); }, r,
                                      sv::lazy::index(n))) == 0);
        auto b = sv::back_permute(a, reversed);
        CHECK(b.to_host() == r.to_host());
    }
}

TEST_CASE("permute's check on both sides of each of its bounds, call after call") {
    // CUDA stamps each target with the call's epoch up to 2^17 elements, sums
    // powers of the targets up to 2^20 and folds a fingerprint past that
    // (detail/permute/policy.hpp); every call must start from a clean slate
    // whatever the calls before it did
    for (std::size_t n : {std::size_t(1) << 17, (std::size_t(1) << 17) + 1, std::size_t(1) << 20,
                          (std::size_t(1) << 20) + 1, std::size_t(3000)}) {
        CAPTURE(n);
        auto a = sv::map(SCANVEC_FN(sv::index_t i) { return int(i) ^ 0x55; }, sv::lazy::index(n));
        auto reversed = sv::map(SCANVEC_FN(sv::index_t i) { return int(n - 1 - i); }, sv::lazy::index(n));
        auto rotated = sv::map(SCANVEC_FN(sv::index_t i) { return int((i + 7) % n); }, sv::lazy::index(n));
        auto repeat = sv::map(SCANVEC_FN(int j, sv::index_t i) { return i == sv::index_t(n - 2) ? int(n - 1) : j; },
                              reversed, sv::lazy::index(n));
        auto outside = sv::map(SCANVEC_FN(int j, sv::index_t i) { return i == sv::index_t(n / 2) ? int(n) : j; },
                               rotated, sv::lazy::index(n));
        auto same_sum = sv::map(  // reversed, with idx[n/3] one lower (idx[n/3 + 1]'s) and idx[n/2] one higher
            SCANVEC_FN(int j, sv::index_t i) {
                return i == sv::index_t(n / 3) ? j - 1 : i == sv::index_t(n / 2) ? j + 1 : j;
            },
            reversed, sv::lazy::index(n));
        const std::string repeat_at = "at idx[0] and idx[" + std::to_string(n - 2) + "]";
        const std::string same_sum_at = "at idx[" + std::to_string(n / 3) + "] and idx[" + std::to_string(n / 3 + 1) + "]";
        const std::string outside_at = "idx[" + std::to_string(n / 2) + "] = " + std::to_string(n) + " is out of range";
        for (int round = 0; round < 3; ++round) {
            auto r = sv::permute(a, reversed);
            CHECK(sv::count(sv::lazy::map(SCANVEC_FN(int x, sv::index_t i) { return x != (int(n - 1 - i) ^ 0x55); },
                                          r, sv::lazy::index(n))) == 0);
            CHECK_THROWS_WITH_AS(sv::permute(a, repeat), doctest::Contains(repeat_at.c_str()), sv::index_error);
            // two targets moved by one each, opposite ways: the indices' sum unchanged, two repeats
            CHECK_THROWS_WITH_AS(sv::permute(a, same_sum), doctest::Contains(same_sum_at.c_str()), sv::index_error);
            // the same targets as the failed call, now each once
            auto s = sv::permute(a, rotated);
            CHECK(sv::back_permute(s, rotated).to_host() == a.to_host());
            CHECK_THROWS_WITH_AS(sv::permute(a, outside), doctest::Contains(outside_at.c_str()), sv::index_error);
            CHECK_THROWS_WITH_AS(sv::back_permute(a, outside), doctest::Contains(outside_at.c_str()), sv::index_error);
        }
    }
}

TEST_CASE("empty vectors are valid input everywhere") {
    sv::vector<int> e;
    sv::vector<bool> ef;
    sv::vector<int> ei;
    CHECK(sv::map(SCANVEC_FN(int x) { return x; }, e).empty());
    CHECK(sv::index(0).empty());
    CHECK(sv::distribute(1, 0).empty());
    CHECK(sv::permute(e, ei).empty());
    CHECK(sv::back_permute(e, ei).empty());
    CHECK(sv::back_permute(sv::vector<int>{1, 2}, ei).empty());
    CHECK(sv::scan(e).empty());
    CHECK(sv::inclusive_scan(e).empty());
    CHECK(sv::backward_scan(e).empty());
    CHECK(sv::reduce(e) == 0);
    CHECK(sv::reduce(e, sv::min<int>{}) == std::numeric_limits<int>::max());
    CHECK(sv::scan_total(e).total == 0);
    CHECK(sv::segmented_scan(e, ef).empty());
    CHECK(sv::segmented_reduce(e, ef).empty());
    CHECK(sv::segmented_index(ef).empty());
    CHECK(sv::segmented_distribute(e, ef).empty());
    CHECK(sv::enumerate(ef).empty());
    CHECK(sv::count(ef) == 0);
    CHECK(sv::pack(e, ef).empty());
    CHECK(sv::split(e, ef).empty());
    CHECK(sv::segmented_split(e, ef, ef).empty());
    CHECK(sv::flags_to_lengths(ef).empty());
    CHECK(sv::lengths_to_flags(ei).empty());
}

TEST_CASE("integer flags are read as nonzero = true") {
    sv::vector<int> a(values);
    sv::vector<int> f = {0, 5, -1, 0, 2, 0};
    CHECK(sv::pack(a, f).to_host() == std::vector<int>{8, 15, 23});
    CHECK(sv::split(a, f).to_host() == std::vector<int>{4, 16, 42, 8, 15, 23});
    CHECK(sv::enumerate(f).to_host() == std::vector<sv::index_t>{0, 0, 1, 2, 2, 3});
    CHECK(sv::count(f) == 3);
    CHECK(sv::segmented_reduce(a, f).to_host() == std::vector<int>{4, 8, 31, 65});
    CHECK(f.to_host() == std::vector<int>{0, 5, -1, 0, 2, 0});
}

TEST_CASE("NaN propagates through float scans and segmented scans without a crash") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    sv::vector<float> a = {1, 2, nan, 4, 5};
    sv::vector<bool> f = {true, false, false, true, false};
    auto s = sv::scan(a).to_host();
    CHECK(s[2] == 3.0f);
    CHECK(std::isnan(s[3]));
    CHECK(std::isnan(s[4]));
    auto seg = sv::segmented_inclusive_scan(a, f).to_host();
    CHECK(std::isnan(seg[2]));
    CHECK(seg[3] == 4.0f);  // the NaN stays in its segment
    CHECK(seg[4] == 9.0f);
    CHECK(std::isnan(sv::reduce(a)));
}
