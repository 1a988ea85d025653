// Radix sorts of floating-point keys (the order of <, stably) and of {key, value}
// records by their key: equal to a sequential stable sort, on both backends.
#include "support.hpp"
#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/algorithms/split_radix_sort.hpp>

#include <cstring>
#include <limits>

namespace rk {
struct pair32 {
    std::uint32_t key;
    std::uint32_t value;
};
SCANVEC_FIELDS(pair32, key, value)
struct sample {
    std::int32_t id;
    float weight;
};
SCANVEC_FIELDS(sample, id, weight)
}  // namespace rk

namespace {

/// The key order the sorts promise: the order of < (-0.0 and +0.0 one key),
/// as an unsigned integer written here plainly.
template <class F> auto total_order_bits(F x) {
    using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
    if (x == F(0)) x = F(0);
    U u;
    std::memcpy(&u, &x, sizeof(F));
    const U sign = U(1) << (8 * sizeof(F) - 1);
    return (u & sign) ? ~u : (u | sign);
}

template <class F> std::vector<F> awkward_floats(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 gen(seed);
    std::normal_distribution<F> normal(F(0), F(1000));
    std::vector<F> v(n);
    const F specials[] = {F(0), -F(0), std::numeric_limits<F>::infinity(), -std::numeric_limits<F>::infinity(),
                          std::numeric_limits<F>::denorm_min(), -std::numeric_limits<F>::denorm_min(),
                          std::numeric_limits<F>::max(), std::numeric_limits<F>::lowest()};
    for (std::size_t i = 0; i < n; ++i) v[i] = (gen() % 16 == 0) ? specials[gen() % 8] : normal(gen);
    return v;
}

template <class F> void check_sorted_bits(const std::vector<F>& got, std::vector<F> input) {
    std::stable_sort(input.begin(), input.end(),
                     [](F a, F b) { return total_order_bits(a) < total_order_bits(b); });
    REQUIRE(got.size() == input.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::memcmp(&got[i], &input[i], sizeof(F)) != 0) {  // bit for bit: the zeros keep their input order
            FAIL_CHECK("position " << i << ": got " << got[i] << ", expected " << input[i]);
            return;
        }
}

const std::size_t radix_sizes[] = {0, 1, 2, 1000, 100003};

}  // namespace

TEST_CASE_TEMPLATE("radix_sort and split_radix_sort order floating-point keys", F, float, double) {
    for (std::size_t n : radix_sizes) {
        CAPTURE(n);
        const auto h = awkward_floats<F>(n, 5 + n);
        sv::vector<F> a(h);
        check_sorted_bits(sv::radix_sort(a).to_host(), h);
        check_sorted_bits(sv::radix_sort(a, 5).to_host(), h);
        if (n <= 1000 || sizeof(F) == 4) check_sorted_bits(sv::split_radix_sort(a).to_host(), h);
    }
}

TEST_CASE("radix_sort of keys with uneven top digits: one digit holds nearly all, others a few") {
    // On the host a radix sort of 2^16 keys or more splits by the top digit
    // first and sorts each bucket by the rest: a bucket of almost every key,
    // buckets of a few (sorted by insertion), empty ones; the zeros in a
    // bucket of their own keep their input order.
    const std::size_t n = 70000;
    std::mt19937 gen(81);
    std::vector<float> f(n);
    for (std::size_t i = 0; i < n; ++i) f[i] = 1.0f + float(gen() % 100000) / 100000.0f;
    for (std::size_t i = 0; i < 20; ++i) f[gen() % n] = (i % 2) ? -0.0f : 0.0f;
    for (std::size_t i = 0; i < 5; ++i) f[gen() % n] = -1000.0f * float(i + 1);
    check_sorted_bits(sv::radix_sort(sv::vector<float>(f)).to_host(), f);

    std::vector<std::int16_t> h16(n);
    for (auto& x : h16) x = std::int16_t(gen() % 7 == 0 ? -int(gen() % 30000) : int(gen() % 200));
    auto want16 = h16;
    std::sort(want16.begin(), want16.end());
    CHECK(sv::radix_sort(sv::vector<std::int16_t>(h16)).to_host() == want16);

    std::vector<std::uint64_t> h64(n);
    for (auto& x : h64) x = (gen() % 1000 == 0) ? (std::uint64_t(gen()) << 40) : std::uint64_t(gen() % 1000);
    auto want64 = h64;
    std::sort(want64.begin(), want64.end());
    CHECK(sv::radix_sort(sv::vector<std::uint64_t>(h64)).to_host() == want64);
}

TEST_CASE("the two zeros are one key (stable), infinities at the ends") {
    const float inf = std::numeric_limits<float>::infinity();
    sv::vector<float> a = {0.0f, -0.0f, 1.0f, -inf, inf, -1.0f, -0.0f, 0.0f};
    for (const auto& r : {sv::radix_sort(a).to_host(), sv::split_radix_sort(a).to_host()}) {
        CHECK(r[0] == -inf);
        CHECK(r[1] == -1.0f);
        CHECK(!std::signbit(r[2]));  // the zeros in their input order: +0, -0, -0, +0
        CHECK(std::signbit(r[3]));
        CHECK(std::signbit(r[4]));
        CHECK(!std::signbit(r[5]));
        CHECK(r[6] == 1.0f);
        CHECK(r[7] == inf);
    }
}

TEST_CASE("records of {key, value} sort stably by the key") {
    for (std::size_t n : radix_sizes) {
        CAPTURE(n);
        std::mt19937 gen(unsigned(17 + n));
        std::vector<rk::pair32> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = {std::uint32_t(gen() % 5000u), std::uint32_t(i)};  // repeats: stability shows
        sv::vector<rk::pair32> a(h);
        auto want = h;
        std::stable_sort(want.begin(), want.end(), [](const rk::pair32& x, const rk::pair32& y) { return x.key < y.key; });
        for (int k : {8, 4, 11}) {
            CAPTURE(k);
            auto r = sv::radix_sort(a, &rk::pair32::key, k);
            auto keys = r.field<&rk::pair32::key>().to_host();
            auto values = r.field<&rk::pair32::value>().to_host();
            REQUIRE(keys.size() == n);
            bool same = true;
            for (std::size_t i = 0; i < n; ++i) same = same && keys[i] == want[i].key && values[i] == want[i].value;
            CHECK(same);
        }
        // the key as the second field, a float: the same order as a stable sort by it
        std::vector<rk::sample> s(n);
        for (std::size_t i = 0; i < n; ++i) s[i] = {std::int32_t(i), float(int(gen() % 2001) - 1000) / 8.0f};
        auto want_s = s;
        std::stable_sort(want_s.begin(), want_s.end(), [](const rk::sample& x, const rk::sample& y) {
            return total_order_bits(x.weight) < total_order_bits(y.weight);
        });
        auto rs = sv::radix_sort(sv::vector<rk::sample>(s), &rk::sample::weight).to_host();
        bool same = rs.size() == n;
        for (std::size_t i = 0; same && i < n; ++i) same = rs[i].id == want_s[i].id && rs[i].weight == want_s[i].weight;
        CHECK(same);
    }
}
