// Sizes past 2^31 elements (CUDA builds only: about 40 GB of device memory).
// Checked against cheap invariants: a scan of ones is the index, a segmented
// scan of ones restarts where it should, a split is a stable partition, a sort
// is ordered and keeps the multiset (its sum and count of each class).
#include "support.hpp"
#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>

namespace {
const std::size_t big = (std::size_t(1) << 31) + 1000;

bool all_true(const sv::vector<bool>& b) { return sv::reduce(b, sv::logical_and{}); }

struct as_index {
    SCANVEC_HD sv::index_t operator()(int k) const { return k; }
};
/// The sum of int32 keys in 64 bits.
sv::index_t widened(const sv::vector<int>& v) { return sv::reduce(sv::lazy::map(as_index{}, v)); }
}  // namespace

TEST_CASE("scan of 2^31 + 1000 ones is the index") {
    auto ones = sv::lazy::distribute(sv::index_t(1), big);
    auto s = sv::scan(ones);
    REQUIRE(s.size() == big);
    CHECK(s[big - 1] == sv::index_t(big - 1));
    auto ok = sv::map(SCANVEC_FN(sv::index_t v, sv::index_t i) { return v == i; }, s, sv::lazy::index(big));
    CHECK(all_true(ok));
    CHECK(sv::reduce(ones) == sv::index_t(big));
}

TEST_CASE("segmented scan over 2^31 + 1000 elements, and 2^31 + 1000 segments") {
    const sv::index_t period = 1000;  // a segment starts every 1000 elements
    auto heads = sv::lazy::map(SCANVEC_FN(sv::index_t i) { return i % period == 0; }, sv::lazy::index(big));
    auto s = sv::segmented_scan(sv::lazy::distribute(1, big), heads);
    auto ok = sv::map(SCANVEC_FN(int v, sv::index_t i) { return sv::index_t(v) == i % period; }, s,
                      sv::lazy::index(big));
    CHECK(all_true(ok));
    // every element its own segment: 2^31 + 1000 segments
    auto sums = sv::segmented_reduce(sv::lazy::distribute(std::int8_t(1), big), sv::lazy::distribute(true, big));
    REQUIRE(sums.size() == big);
    CHECK(sv::reduce(sv::lazy::map(SCANVEC_FN(std::int8_t v) { return sv::index_t(v); }, sums)) == sv::index_t(big));
}

TEST_CASE("split of 2^31 + 1000 int32 keys is a stable partition") {
    sv::vector<int> keys = sv::map(SCANVEC_FN(sv::index_t i) { return int((i * 2654435761u) % 1000003); },
                                   sv::lazy::index(big));
    auto odd = sv::lazy::map(SCANVEC_FN(int k) { return (k & 1) == 1; }, keys);
    const sv::index_t evens = sv::index_t(big) - sv::count(odd);
    auto s = sv::split(keys, odd);
    REQUIRE(s.size() == big);
    auto parity_ok = sv::map(SCANVEC_FN(int k, sv::index_t i) { return ((k & 1) == 1) == (i >= evens); }, s,
                             sv::lazy::index(big));
    CHECK(all_true(parity_ok));
    CHECK(sv::reduce(sv::lazy::map(SCANVEC_FN(int k) { return sv::index_t(k); }, s)) ==
          sv::reduce(sv::lazy::map(SCANVEC_FN(int k) { return sv::index_t(k); }, keys)));
}

TEST_CASE("permute of 2^31 + 1000 bytes by an affine permutation, its indices read lazily") {
    // i -> i * 1000003 mod big, a permutation (gcd(1000003, big) = 1); uint32 indices
    const sv::vector<std::int8_t> a = sv::map(SCANVEC_FN(sv::index_t i) { return std::int8_t(i % 127); },
                                              sv::lazy::index(big));
    auto idx = sv::lazy::map(SCANVEC_FN(sv::index_t i) { return std::uint32_t((i * 1000003) % sv::index_t(big)); },
                             sv::lazy::index(big));
    const auto r = sv::permute(a, idx);
    REQUIRE(r.size() == big);
    // read back through the same indices, every element is where it started
    auto ok = sv::map(SCANVEC_FN(std::int8_t x, std::int8_t y) { return x == y; }, sv::lazy::back_permute(r, idx), a);
    CHECK(all_true(ok));
}

TEST_CASE("radix_sort of 2^31 + 1000 int32 keys is ordered and keeps the keys") {
    // signed keys across the whole range, so the sign-bit flip is exercised too
    sv::vector<int> keys = sv::map(SCANVEC_FN(sv::index_t i) { return int(std::uint32_t(i * 2654435761u)); },
                                   sv::lazy::index(big));
    const sv::index_t sum = widened(keys);
    const sv::index_t odd = sv::count(sv::lazy::map(SCANVEC_FN(int k) { return (k & 1) == 1; }, keys));
    auto s = sv::radix_sort(keys);
    REQUIRE(s.size() == big);
    auto previous = sv::lazy::back_permute(s, sv::lazy::map(SCANVEC_FN(sv::index_t i) { return i > 0 ? i - 1 : 0; },
                                                            sv::lazy::index(big)));
    CHECK(sv::count(sv::lazy::map(SCANVEC_FN(int k, int before) { return k < before; }, s, previous)) == 0);
    CHECK(widened(s) == sum);
    CHECK(sv::count(sv::lazy::map(SCANVEC_FN(int k) { return (k & 1) == 1; }, s)) == odd);
}
