// sv::write (NESL's <-, collisions allowed) and sv::combining_write, against
// sequential references: every position's value is one of the values sent
// there (or dst's own), structs are written whole, combining writes equal a
// sequential fold, bad input changes nothing.
#include "support.hpp"
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/write.hpp>

#include <map>
#include <set>

namespace tw {
struct rec {
    int key;
    float weight;
    std::int64_t tag;
};
SCANVEC_FIELDS(rec, key, weight, tag)
/// A commutative monoid on a struct (no atomics: the sorting path).
struct sum_count {
    long long sum;
    int count;
};
SCANVEC_FIELDS(sum_count, sum, count)
struct add_sum_count {
    SCANVEC_HD sum_count operator()(const sum_count& a, const sum_count& b) const {
        return {a.sum + b.sum, a.count + b.count};
    }
};
struct times_u64 {
    SCANVEC_HD std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return a * b; }
};
}  // namespace tw

namespace {

const std::vector<std::size_t> write_sizes = test::sizes_upto_env({0, 1, 2, 33, 1000, 65539, 1000003});

/// Random targets in [0, n) for m writes, with many repeats (m values over about m/3 slots).
std::vector<int> colliding_targets(std::size_t m, std::size_t n, std::uint64_t seed) {
    if (n == 0) return std::vector<int>(m);
    std::mt19937_64 rng(seed);
    const std::size_t hot = std::max<std::size_t>(1, std::min(n, m / 3 + 1));
    std::vector<int> idx(m);
    for (auto& j : idx) j = int(rng() % hot) * int(n / hot);
    return idx;
}

}  // namespace

TEST_CASE("write: each written position holds one of the values sent there, the rest keep dst") {
    for (std::size_t n : write_sizes) {
        for (std::size_t m : {std::size_t(0), std::size_t(1), n / 2 + 1, 2 * n}) {
            if (n == 0 && m) continue;  // no target exists
            CAPTURE(n);
            CAPTURE(m);
            auto d = test::random_values<int>(n, 201);
            auto idx = colliding_targets(m, n, 202 + m);
            std::vector<int> v(m);
            for (std::size_t k = 0; k < m; ++k) v[k] = int(k) + 1000000;  // value names its writer
            std::map<int, std::set<int>> sent;
            for (std::size_t k = 0; k < m; ++k) sent[idx[k]].insert(v[k]);
            auto got = sv::write(sv::vector<int>(d), sv::vector<int>(idx), sv::vector<int>(v)).to_host();
            REQUIRE(got.size() == n);
            for (std::size_t j = 0; j < n; ++j) {
                auto it = sent.find(int(j));
                if (it == sent.end()) REQUIRE(got[j] == d[j]);
                else REQUIRE(it->second.count(got[j]) == 1);
            }
        }
    }
}

namespace tw {
/// m struct writes into n targets (colliding_targets): every position written
/// holds one of its writers' elements whole, never a mix of two; the rest keep dst.
void check_struct_write(std::size_t m, std::size_t n, std::uint64_t seed) {
    auto idx = colliding_targets(m, n, seed);
    std::vector<tw::rec> d(n, tw::rec{-1, -1.0f, -1}), v(m);
    for (std::size_t k = 0; k < m; ++k) v[k] = {int(k), float(k) * 0.5f, std::int64_t(k) * 3};
    std::map<int, std::set<int>> writers;
    for (std::size_t k = 0; k < m; ++k) writers[idx[k]].insert(int(k));
    auto got = sv::write(sv::vector<tw::rec>(d), sv::vector<int>(idx), sv::vector<tw::rec>(v)).to_host();
    for (std::size_t j = 0; j < n; ++j) {
        auto it = writers.find(int(j));
        if (it == writers.end()) {
            REQUIRE(got[j].key == -1);
            continue;
        }
        const int k = got[j].key;
        REQUIRE(it->second.count(k) == 1);
        REQUIRE(got[j].weight == float(k) * 0.5f);  // never a mix of two writers
        REQUIRE(got[j].tag == std::int64_t(k) * 3);
    }
}
}  // namespace tw

TEST_CASE("write of described structs: every field of a position from the same writer") {
    for (std::size_t n : write_sizes) {
        if (n == 0) continue;
        CAPTURE(n);
        tw::check_struct_write(2 * n + 1, n, 211);
    }
}

TEST_CASE("write of described structs on both sides of the one-block bound, many writers a target") {
    // on CUDA up to write_policy::elected_one_block_max writes elect and write in one block
    const std::size_t bound = sv::detail::write_policy::elected_one_block_max;
    for (std::size_t m : {bound - 1, bound, bound + 1}) {
        CAPTURE(m);
        tw::check_struct_write(m, 37, 212 + m);  // ~28 writers a target
    }
}

TEST_CASE("write without repeats is a scatter; lazy indices and values; a moved-in dst is updated in place") {
    const std::size_t n = 100003;
    sv::vector<int> d(n, 7);
    const int* before = d.data();
    // every third slot gets its own index times two, from lazy views
    auto idx = sv::lazy::map(SCANVEC_FN(sv::index_t k) { return 3 * k; }, sv::lazy::index(n / 3));
    auto val = sv::lazy::map(SCANVEC_FN(sv::index_t k) { return int(6 * k); }, sv::lazy::index(n / 3));
    d = sv::write(std::move(d), idx, val);
    CHECK(d.data() == before);  // the same memory: O(m) work, not a new n-element result
    auto h = d.to_host();
    for (std::size_t j = 0; j < n; ++j) REQUIRE(h[j] == (j % 3 == 0 && j / 3 < n / 3 ? int(2 * j) : 7));
    // an lvalue dst is copied, not changed
    sv::vector<int> keep(4, 1);
    auto r = sv::write(keep, sv::vector<int>{2}, sv::vector<int>{9});
    CHECK(keep.to_host() == std::vector<int>{1, 1, 1, 1});
    CHECK(r.to_host() == std::vector<int>{1, 1, 9, 1});
}

TEST_CASE("write rejects bad input and leaves dst unchanged") {
    sv::vector<int> d = {1, 2, 3, 4};
    sv::vector<int> vals = {10, 20, 30};
    // the bad index is named with its position and value
    try {
        (void)sv::write(d, sv::vector<int>{0, 4, 1}, vals);
        FAIL("no exception");
    } catch (const sv::index_error& e) {
        const std::string what = e.what();
        CHECK(what.find("idx[1]") != std::string::npos);
        CHECK(what.find("4") != std::string::npos);
    }
    CHECK_THROWS_AS((void)sv::write(d, sv::vector<long long>{0, 1, -1}, vals), sv::index_error);
    CHECK_THROWS_AS((void)sv::combining_write(d, sv::vector<int>{0, 1, 7}, vals, sv::plus<int>{}), sv::index_error);
    try {
        (void)sv::write(d, sv::vector<int>{0, 1}, vals);
        FAIL("no exception");
    } catch (const sv::length_error& e) {
        const std::string what = e.what();
        CHECK(what.find("2") != std::string::npos);
        CHECK(what.find("3") != std::string::npos);
    }
    // a moved-in dst whose write failed: the vector thrown away was never written
    sv::vector<int> moved = {5, 6};
    sv::vector<int> copy = moved;
    CHECK_THROWS_AS((void)sv::write(std::move(copy), sv::vector<int>{0, 2}, sv::vector<int>{1, 1}), sv::index_error);
    CHECK(moved.to_host() == std::vector<int>{5, 6});
    CHECK(d.to_host() == std::vector<int>{1, 2, 3, 4});
    // empty inputs
    CHECK(sv::write(sv::vector<int>{}, sv::vector<int>{}, sv::vector<int>{}).empty());
    CHECK(sv::write(d, sv::vector<int>{}, sv::vector<int>{}).to_host() == std::vector<int>{1, 2, 3, 4});
    CHECK(sv::combining_write(sv::vector<float>{}, sv::vector<int>{}, sv::vector<float>{}, sv::max<float>{}).empty());
}

namespace {

template <class T, class Op>
void check_combining(const std::vector<T>& d, const std::vector<int>& idx, const std::vector<T>& v, Op op) {
    std::vector<T> want = d;
    for (std::size_t k = 0; k < idx.size(); ++k) want[std::size_t(idx[k])] = op(want[std::size_t(idx[k])], v[k]);
    auto got = sv::combining_write(sv::vector<T>(d), sv::vector<int>(idx), sv::vector<T>(v), op).to_host();
    test::check_equal(got, want);
}

}  // namespace

TEST_CASE("combining_write with every provided commutative operator equals a sequential fold") {
    for (std::size_t n : write_sizes) {
        if (n == 0) continue;
        for (std::size_t m : {std::size_t(1), n, 3 * n}) {
            CAPTURE(n);
            CAPTURE(m);
            auto idx = colliding_targets(m, n, 221 + m);
            check_combining(test::random_values<int>(n, 222), idx, test::random_values<int>(m, 223), sv::plus<int>{});
            check_combining(test::random_values<long long>(n, 224), idx, test::random_values<long long>(m, 225),
                            sv::plus<long long>{});
            check_combining(test::random_values<unsigned>(n, 226, 0u, 1000u), idx,
                            test::random_values<unsigned>(m, 227, 0u, 1000u), sv::plus<unsigned>{});
            check_combining(test::random_values<std::int16_t>(n, 228), idx, test::random_values<std::int16_t>(m, 229),
                            sv::plus<std::int16_t>{});
            // floats: small integers, so every order of additions is exact
            check_combining(test::random_values<float>(n, 0) , idx, std::vector<float>(m, 2.0f), sv::plus<float>{});
            check_combining(std::vector<double>(n, 1.0), idx, std::vector<double>(m, 0.5), sv::plus<double>{});
            check_combining(test::random_values<int>(n, 230), idx, test::random_values<int>(m, 231), sv::max<int>{});
            check_combining(test::random_values<int>(n, 232), idx, test::random_values<int>(m, 233), sv::min<int>{});
            check_combining(test::random_values<std::int64_t>(n, 234), idx, test::random_values<std::int64_t>(m, 235),
                            sv::min<std::int64_t>{});
            check_combining(test::random_values<float>(n, 236), idx, test::random_values<float>(m, 237), sv::max<float>{});
            check_combining(test::random_values<double>(n, 238), idx, test::random_values<double>(m, 239), sv::min<double>{});
            check_combining(test::random_values<std::uint64_t>(n, 240, 0, ~0ull >> 1), idx,
                            test::random_values<std::uint64_t>(m, 241, 0, ~0ull >> 1), sv::bit_or<std::uint64_t>{});
            check_combining(test::random_values<unsigned>(n, 242, 0u, ~0u), idx,
                            test::random_values<unsigned>(m, 243, 0u, ~0u), sv::bit_and<unsigned>{});
            check_combining(test::random_values<std::uint8_t>(n, 244, 0, 255), idx,
                            test::random_values<std::uint8_t>(m, 245, 0, 255), sv::bit_xor<std::uint8_t>{});
            auto fl = test::random_flags(n, test::flag_pattern::dense, 246), vl = test::random_flags(m, test::flag_pattern::dense, 247);
            std::vector<bool> f(fl.begin(), fl.end()), g(vl.begin(), vl.end());
            check_combining(f, idx, g, sv::logical_or{});
            check_combining(f, idx, g, sv::logical_and{});
        }
    }
}

TEST_CASE("combining_write with user commutative monoids: a word (compare-and-swap) and a struct (sorting)") {
    for (std::size_t n : write_sizes) {
        if (n == 0) continue;
        CAPTURE(n);
        const std::size_t m = 2 * n + 3;
        auto idx = colliding_targets(m, n, 251);
        check_combining(std::vector<std::uint64_t>(n, 1), idx, test::random_values<std::uint64_t>(m, 252, 1, 1u << 20),
                        sv::commutative_monoid(tw::times_u64{}, std::uint64_t(1)));
        std::vector<tw::sum_count> d(n, {0, 0}), v(m);
        for (std::size_t k = 0; k < m; ++k) v[k] = {(long long)k * 7 - 5, 1};
        auto got = sv::combining_write(sv::vector<tw::sum_count>(d), sv::vector<int>(idx), sv::vector<tw::sum_count>(v),
                                       sv::commutative_monoid(tw::add_sum_count{}, tw::sum_count{0, 0}))
                       .to_host();
        std::vector<tw::sum_count> want = d;
        for (std::size_t k = 0; k < m; ++k) {
            want[std::size_t(idx[k])].sum += v[k].sum;
            want[std::size_t(idx[k])].count += 1;
        }
        for (std::size_t j = 0; j < n; ++j) {
            REQUIRE(got[j].sum == want[j].sum);
            REQUIRE(got[j].count == want[j].count);
        }
    }
}

TEST_CASE("combining_write in place: counting into a moved-in vector, all writes to one slot") {
    const std::size_t n = 1000003;
    sv::vector<sv::index_t> counts(10);
    const auto* before = counts.data();
    counts = sv::combining_write(std::move(counts), sv::lazy::distribute(3, n), sv::lazy::distribute(sv::index_t(1), n),
                                 sv::plus<sv::index_t>{});
    CHECK(counts.data() == before);
    CHECK(counts[3] == sv::index_t(n));
    CHECK(sv::reduce(counts) == sv::index_t(n));
}

TEST_CASE("write and combining_write with sv::unchecked: the same result without the check") {
    const std::size_t n = 70001, m = 3 * n;
    auto idx = colliding_targets(m, n, 261);
    auto v = test::random_values<int>(m, 262);
    sv::vector<int> vi(idx), vv(v);
    auto checked = sv::combining_write(sv::vector<int>(n), vi, vv, sv::plus<int>{}).to_host();
    CHECK(sv::combining_write(sv::vector<int>(n), vi, vv, sv::plus<int>{}, sv::unchecked).to_host() == checked);
    auto w = sv::write(sv::vector<int>(n, -1), vi, sv::lazy::index(m), sv::unchecked).to_host();
    for (std::size_t j = 0; j < n; ++j)
        if (w[j] >= 0) REQUIRE(idx[std::size_t(w[j])] == int(j));  // the winner was sent to j
}

TEST_CASE("the README's example of writes and random numbers") {
    sv::vector<int> d(8, 0);
    sv::vector<int> idx = {1, 5, 1, 7};
    sv::vector<int> val = {10, 20, 30, 40};
    d = sv::write(std::move(d), idx, val);
    auto h = d.to_host();
    CHECK((h[1] == 10 || h[1] == 30));
    CHECK(h[5] == 20);
    CHECK(h[7] == 40);
    CHECK(h[0] == 0);
    auto sums = sv::combining_write(sv::vector<int>(8, 0), idx, val, sv::plus<int>{}).to_host();
    CHECK(sums == std::vector<int>{0, 40, 0, 0, 0, 20, 0, 40});
    auto coins = sv::lazy::random<bool>(8, 42);
    CHECK(sv::materialize(coins).to_host() == sv::random<bool>(8, 42).to_host());
}
