// The split family: the primitive sv::split against the book's program
// (sv::split_by_enumerate), the flat, segmented and nested splits against each
// other, and the radix-digit view that multisplit and the sorts read.
#include "support.hpp"

#include <scanvec/algorithms/split.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/primitives/nested_permute.hpp>
#include <scanvec/primitives/segmented_scan.hpp>

#include <cstdint>
#include <vector>

namespace {

template <class T> std::vector<T> stable_split_reference(const std::vector<T>& a, const std::vector<bool>& f) {
    std::vector<T> r;
    for (std::size_t i = 0; i < a.size(); ++i) if (!f[i]) r.push_back(a[i]);
    for (std::size_t i = 0; i < a.size(); ++i) if (f[i]) r.push_back(a[i]);
    return r;
}

struct low_bit_set {
    SCANVEC_HD bool operator()(std::int64_t x) const { return (x & 1) != 0; }
};

}  // namespace

TEST_CASE("the book's split (enumerate, back-enumerate, permute) equals sv::split") {
    for (std::size_t n : test::sizes) {
        for (auto p : test::flag_patterns) {
            CAPTURE(n);
            auto hf = test::random_flags(n, p, 211 + n);
            auto h = test::random_values<int>(n, 212);
            sv::vector<int> a(h);
            sv::vector<bool> f(hf);
            auto book = sv::split_by_enumerate(a, f).to_host();
            REQUIRE(book == stable_split_reference(h, hf));
            REQUIRE(book == sv::split(a, f).to_host());
        }
    }
}

TEST_CASE("split_by_enumerate takes lazy flags, integral flags and wide elements") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto h = test::random_values<std::int64_t>(n, 213, -1000, 1000);
        sv::vector<std::int64_t> a(h);
        auto odd = sv::lazy::map(low_bit_set{}, a);
        std::vector<bool> hf(n);
        for (std::size_t i = 0; i < n; ++i) hf[i] = (h[i] & 1) != 0;
        REQUIRE(sv::split_by_enumerate(a, odd).to_host() == stable_split_reference(h, hf));
        REQUIRE(sv::split(a, odd).to_host() == stable_split_reference(h, hf));
        sv::vector<int> counts = sv::map(SCANVEC_FN(std::int64_t x) { return int(x & 3); }, a);  // nonzero = true
        std::vector<bool> hc(n);
        for (std::size_t i = 0; i < n; ++i) hc[i] = (h[i] & 3) != 0;
        REQUIRE(sv::split_by_enumerate(a, counts).to_host() == stable_split_reference(h, hc));
    }
    sv::vector<int> a(3);
    sv::vector<bool> f(2);
    CHECK_THROWS_WITH_AS(sv::split_by_enumerate(a, f), doctest::Contains("split_by_enumerate: lengths differ"),
                         sv::length_error);
}

TEST_CASE("one segment: the flat, segmented and nested splits agree") {
    for (std::size_t n : test::sizes) {
        if (n == 0) continue;  // a nested vector of one segment needs an element to head it
        CAPTURE(n);
        auto h = test::random_values<int>(n, 214);
        auto hf = test::random_flags(n, test::flag_pattern::dense, 215 + n);
        sv::vector<int> a(h);
        sv::vector<bool> f(hf);
        std::vector<bool> one_head(n, false);
        one_head[0] = true;
        sv::vector<bool> heads(one_head);
        auto flat = sv::split(a, f).to_host();
        REQUIRE(flat == stable_split_reference(h, hf));
        REQUIRE(sv::segmented_split(a, f, heads).to_host() == flat);
        sv::nested<int> x(sv::vector<int>(h), sv::segments::from_flags(heads));
        REQUIRE(sv::split(x, f).values().to_host() == flat);
    }
}

TEST_CASE("many segments: the segmented and nested splits agree with a per-segment reference") {
    for (std::size_t n : test::sizes) {
        for (auto p : {test::flag_pattern::sparse, test::flag_pattern::dense}) {
            if (n == 0) continue;
            CAPTURE(n);
            auto h = test::random_values<int>(n, 216);
            auto hf = test::random_flags(n, test::flag_pattern::dense, 217 + n);
            auto hh = test::random_flags(n, p, 218 + n);
            hh[0] = true;
            std::vector<int> want;
            for (std::size_t s = 0; s < n;) {
                std::size_t e = s + 1;
                while (e < n && !hh[e]) ++e;
                std::vector<int> part(h.begin() + s, h.begin() + e);
                std::vector<bool> pf(hf.begin() + s, hf.begin() + e);
                for (int v : stable_split_reference(part, pf)) want.push_back(v);
                s = e;
            }
            sv::vector<int> a(h);
            sv::vector<bool> f(hf), heads(hh);
            REQUIRE(sv::segmented_split(a, f, heads).to_host() == want);
            sv::nested<int> x(sv::vector<int>(h), sv::segments::from_flags(heads));
            REQUIRE(sv::split(x, f).values().to_host() == want);
        }
    }
}

TEST_CASE("a radix-digit view says its keys and bit range") {
    sv::vector<std::int32_t> keys = {5, -7, 3, 1 << 20, -1};
    auto d = sv::lazy::radix_digit(keys, 4, 3);
    static_assert(std::is_same_v<sv::value_t<decltype(d)>, std::uint32_t>);
    CHECK(d.keys() == keys.data());
    CHECK(d.lo() == 4);
    CHECK(d.bits() == 3);
    CHECK(d.size() == keys.size());
    std::vector<std::uint32_t> want;
    for (std::int32_t k : keys.to_host()) want.push_back((std::uint32_t(k) ^ 0x80000000u) >> 4 & 7u);
    CHECK(d.to_host() == want);
    CHECK(sv::materialize(d).to_host() == want);
    CHECK(sv::map(SCANVEC_FN(std::uint32_t x) { return x + 1; }, d).to_host()[0] == want[0] + 1);
}

TEST_CASE("multisplit and histogram read radix digits as they read the same digits stored") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto h = test::random_values<std::int32_t>(n, 219, -100000, 100000);
        sv::vector<std::int32_t> keys(h);
        for (int lo : {0, 5, 24}) {
            for (int k : {1, 4, 8}) {
                auto d = sv::lazy::radix_digit(keys, lo, k);
                sv::vector<std::uint32_t> stored = sv::materialize(d);
                const sv::index_t m = sv::index_t(1) << k;
                REQUIRE(sv::multisplit(keys, d, m).to_host() == sv::multisplit(keys, stored, m).to_host());
                REQUIRE(sv::histogram(d, m).to_host() == sv::histogram(stored, m).to_host());
                // more classes than the digit fills: the generic path
                REQUIRE(sv::multisplit(keys, d, m + 1).to_host() == sv::multisplit(keys, stored, m).to_host());
            }
        }
        // split on a bit of the keys themselves (split_radix_sort's pass) and on the same flags stored
        auto bit = sv::lazy::radix_digit(keys, 3, 1);
        sv::vector<std::uint32_t> bit_stored = sv::materialize(bit);
        REQUIRE(sv::split(keys, bit).to_host() == sv::split(keys, bit_stored).to_host());
    }
}
