// The sorts (split radix sort, radix sort with k-bit digits, segmented quicksort)
// and the multisplit family (histogram, multisplit, radix digits) against
// std::sort / std::stable_sort and sequential references.
#include "support.hpp"
#include <scanvec/algorithms/quicksort.hpp>
#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/algorithms/split_radix_sort.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/runtime/trace.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace ts {
struct rec {
    std::int32_t key;
    std::uint64_t key64;
    float weight;
    int id;
};
SCANVEC_FIELDS(rec, key, key64, weight, id)

/// Ordered by (x, id): a described struct for quicksort.
struct point {
    float x;
    int id;
};
SCANVEC_HD inline bool operator<(const point& a, const point& b) { return a.x < b.x || (!(b.x < a.x) && a.id < b.id); }
inline bool operator==(const point& a, const point& b) { return a.x == b.x && a.id == b.id; }
SCANVEC_FIELDS(point, x, id)

/// Ordered by key alone: equal keys with different ids show whether a split is stable.
struct keyed {
    int key;
    int id;
};
SCANVEC_HD inline bool operator<(const keyed& a, const keyed& b) { return a.key < b.key; }
inline bool operator==(const keyed& a, const keyed& b) { return a.key == b.key && a.id == b.id; }
SCANVEC_FIELDS(keyed, key, id)
}  // namespace ts

namespace {

const std::vector<std::size_t> sort_sizes = test::sizes_upto_env({0, 1, 2, 100, 65537, 1000003});

enum class order { random, sorted, reversed, equal, few };
const order orders[] = {order::random, order::sorted, order::reversed, order::equal, order::few};
const char* name(order o) {
    switch (o) {
        case order::random: return "random";
        case order::sorted: return "sorted";
        case order::reversed: return "reversed";
        case order::equal: return "all-equal";
        default: return "few-distinct";
    }
}

/// Keys over the whole range of T (negative numbers, the extremes included), in the given order.
template <class T> std::vector<T> keys(std::size_t n, order o, std::uint64_t seed) {
    using L = std::numeric_limits<T>;
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    const T few[] = {L::lowest(), T(L::is_signed ? -1 : 1), T(0), T(7), L::max()};
    for (auto& x : v) {
        if constexpr (std::is_floating_point_v<T>) x = T(std::ldexp(double(std::int64_t(rng() % 2000001) - 1000000), -9));
        else x = T(rng());
        if (o == order::few) x = few[rng() % 5];
        if (o == order::equal) x = T(L::is_signed ? -5 : 5);
    }
    if (o == order::random && n >= 3) {
        v[0] = L::lowest();
        v[n / 2] = L::max();
        v[n - 1] = T(L::is_signed ? -1 : 0);
    }
    if (o == order::sorted || o == order::reversed) std::sort(v.begin(), v.end());
    if (o == order::reversed) std::reverse(v.begin(), v.end());
    return v;
}

template <class T> std::vector<T> sorted_copy(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    return v;
}

std::vector<ts::rec> records(std::size_t n, order o, std::uint64_t seed) {
    auto k = keys<std::int32_t>(n, o, seed);
    auto k64 = keys<std::uint64_t>(n, o, seed + 1);
    std::vector<ts::rec> r(n);
    for (std::size_t i = 0; i < n; ++i) r[i] = {k[i], k64[i], float(i) * 0.5f, int(i)};
    return r;
}

template <auto Key> std::vector<ts::rec> stable_by(std::vector<ts::rec> r) {
    std::stable_sort(r.begin(), r.end(), [](const ts::rec& a, const ts::rec& b) { return a.*Key < b.*Key; });
    return r;
}

void check_records(const std::vector<ts::rec>& got, const std::vector<ts::rec>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (!(got[i].key == want[i].key && got[i].key64 == want[i].key64 && got[i].weight == want[i].weight &&
              got[i].id == want[i].id)) {
            INFO("at " << i << ": got id " << got[i].id << ", want id " << want[i].id);
            CHECK(false);
            return;
        }
    }
}

/// Quicksort's pivot of the segment of len keys from t * stride, on the device.
struct pivot_of_segment {
    const int* keys;
    std::uint32_t stride, len;
    std::uint64_t round;
    SCANVEC_HD int operator()(sv::index_t t) const { return sv::detail::ninther{round}(keys, std::uint32_t(t) * stride, len); }
};

int log2_ceil(std::size_t n) {
    int b = 0;
    while ((std::size_t(1) << b) < n) ++b;
    return b;
}

}  // namespace

TEST_CASE_TEMPLATE("split_radix_sort sorts integer keys like std::sort", T, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t) {
    for (std::size_t n : sort_sizes) {
        for (order o : orders) {
            CAPTURE(n);
            CAPTURE(name(o));
            auto h = keys<T>(n, o, 300 + n);
            auto got = sv::split_radix_sort(sv::vector<T>(h)).to_host();
            REQUIRE(got == sorted_copy(h));
        }
    }
}

TEST_CASE("split_radix_sort of small and lazy keys") {
    auto h = keys<std::int8_t>(5000, order::random, 5);
    CHECK(sv::split_radix_sort(sv::vector<std::int8_t>(h)).to_host() == sorted_copy(h));
    auto h16 = keys<std::uint16_t>(5000, order::random, 6);
    CHECK(sv::split_radix_sort(sv::vector<std::uint16_t>(h16)).to_host() == sorted_copy(h16));
    // a view: the keys negated on the fly
    sv::vector<int> a = {3, -2, 7, 0, -9};
    auto neg = sv::lazy::map(SCANVEC_FN(int x) { return -x; }, a);
    CHECK(sv::split_radix_sort(neg).to_host() == std::vector<int>{-7, -3, 0, 2, 9});
}

TEST_CASE("split_radix_sort takes one split per bit") {
    sv::vector<std::int32_t> a(keys<std::int32_t>(1000, order::random, 8));
    sv::trace t;
    auto s = sv::split_radix_sort(a);
    CHECK(t.by_primitive().at("permute") == 32);
    CHECK(t.by_primitive().at("reduce") == 32);
    CHECK(t.steps() == 64);
}

TEST_CASE("split_radix_sort of records by one field is stable") {
    for (std::size_t n : sort_sizes) {
        for (order o : orders) {
            CAPTURE(n);
            CAPTURE(name(o));
            auto h = records(n, o, 400 + n);
            sv::vector<ts::rec> r(h);
            check_records(sv::split_radix_sort(r, &ts::rec::key).to_host(), stable_by<&ts::rec::key>(h));
            if (n <= 65537)
                check_records(sv::split_radix_sort_by<&ts::rec::key64>(r).to_host(), stable_by<&ts::rec::key64>(h));
        }
    }
}

TEST_CASE_TEMPLATE("radix_sort sorts integer keys like std::sort", T, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t) {
    for (std::size_t n : sort_sizes) {
        for (order o : orders) {
            CAPTURE(n);
            CAPTURE(name(o));
            auto h = keys<T>(n, o, 500 + n);
            auto got = sv::radix_sort(sv::vector<T>(h)).to_host();
            REQUIRE(got == sorted_copy(h));
        }
    }
}

TEST_CASE("radix_sort with digits of 1 to 16 bits") {
    auto h = keys<std::int32_t>(100003, order::random, 9);
    auto want = sorted_copy(h);
    sv::vector<std::int32_t> a(h);
    for (int k : {1, 3, 4, 5, 8, 11, 13, 16}) {
        CAPTURE(k);
        REQUIRE(sv::radix_sort(a, k).to_host() == want);
    }
    auto h8 = keys<std::int8_t>(3000, order::random, 10);
    CHECK(sv::radix_sort(sv::vector<std::int8_t>(h8), 16).to_host() == sorted_copy(h8));
    CHECK_THROWS_AS(sv::radix_sort(a, 0), sv::error);
    CHECK_THROWS_AS(sv::radix_sort(a, 17), sv::error);
}

TEST_CASE("radix_sort of records by one field is stable") {
    for (std::size_t n : sort_sizes) {
        for (order o : orders) {
            CAPTURE(n);
            CAPTURE(name(o));
            auto h = records(n, o, 600 + n);
            sv::vector<ts::rec> r(h);
            check_records(sv::radix_sort(r, &ts::rec::key).to_host(), stable_by<&ts::rec::key>(h));
            check_records(sv::radix_sort_by<&ts::rec::key64>(r, 11).to_host(), stable_by<&ts::rec::key64>(h));
        }
    }
}

TEST_CASE("radix_sort traced (one multisplit per digit) and untraced (on CUDA one run of the passes) agree") {
    // past one tile, with repeated keys so stability shows in the records
    auto h = records(100003, order::few, 77);
    sv::vector<ts::rec> r(h);
    auto keys32 = keys<std::int32_t>(100003, order::random, 78);
    sv::vector<std::int32_t> k(keys32);
    auto plain = sv::radix_sort(r, &ts::rec::key).to_host();
    auto plain_keys = sv::radix_sort(k).to_host();
    std::vector<ts::rec> traced;
    std::vector<std::int32_t> traced_keys;
    {
        sv::trace t;
        traced = sv::radix_sort(r, &ts::rec::key).to_host();
    }
    {
        sv::trace t;
        traced_keys = sv::radix_sort(k).to_host();
        CHECK(t.by_primitive().at("multisplit") == 4);  // 4 digits of 8 bits, each its own step
    }
    check_records(plain, stable_by<&ts::rec::key>(h));
    check_records(traced, stable_by<&ts::rec::key>(h));
    CHECK(plain_keys == sorted_copy(keys32));
    CHECK(traced_keys == plain_keys);
}

TEST_CASE("histogram and multisplit against sequential references") {
    for (std::size_t n : test::sizes_upto_env({0, 1, 2, 1000, 65537, 1000003})) {
        for (sv::index_t m : {1, 2, 3, 7, 256, 1000, 70000}) {
            CAPTURE(n);
            CAPTURE(m);
            std::mt19937_64 rng(700 + n + std::size_t(m));
            std::vector<int> d(n), v(n);
            for (auto& x : d) x = int(rng() % std::uint64_t(m));
            for (auto& x : v) x = int(rng() % 1000) - 500;
            sv::vector<int> dv(d), vv(v);
            std::vector<sv::index_t> counts(std::size_t(m), 0);
            for (int x : d) ++counts[std::size_t(x)];
            REQUIRE(sv::histogram(dv, m).to_host() == counts);
            std::vector<int> want;
            std::vector<std::size_t> order(n);
            for (std::size_t i = 0; i < n; ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d[a] < d[b]; });
            for (std::size_t i : order) want.push_back(v[i]);
            REQUIRE(sv::multisplit(vv, dv, m).to_host() == want);
            // digits from a lazy map, elements from a view
            auto twice = sv::lazy::map(SCANVEC_FN(int x) { return 2 * x; }, vv);
            auto got = sv::multisplit(twice, sv::lazy::map(SCANVEC_FN(int x) { return x; }, dv), m).to_host();
            for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == 2 * want[i]);
        }
    }
}

TEST_CASE("histogram with few to many bins: every count right, memory O(m), the process alive") {
    // around the switch from per-block counts to atomics, up to as many bins as elements and past them
    const std::size_t big = test::small_sizes_only() ? 65539 : (std::size_t(1) << 24) + 5;
    const std::vector<sv::index_t> bins = {1, 255, 256, 257, 65536, 65537, sv::index_t(1) << 20,
                                           sv::index_t(big), sv::index_t(1) << 25};
    for (std::size_t n : {std::size_t(1), std::size_t(100003), big}) {
        for (sv::index_t m : bins) {
            CAPTURE(n);
            CAPTURE(m);
            std::mt19937_64 rng(900 + n + std::size_t(m));
            std::vector<std::uint32_t> d(n);
            for (auto& x : d) x = std::uint32_t(rng() % std::uint64_t(m));
            if (n > 1) d[n / 2] = std::uint32_t(m - 1);  // the last bin is reached
            std::vector<sv::index_t> counts(std::size_t(m), 0);
            for (auto x : d) ++counts[x];
            sv::vector<std::uint32_t> dv(d);
            REQUIRE(sv::histogram(dv, m).to_host() == counts);
        }
    }
    // all elements in one bin of many (the most contended atomics)
    sv::vector<int> same(100003, 12345);
    auto h = sv::histogram(same, sv::index_t(1) << 20).to_host();
    CHECK(h[12345] == 100003);
    CHECK(sv::reduce(sv::vector<sv::index_t>(h)) == 100003);
#if SCANVEC_IS_CUDA
    // 2^28 bins (2 GB of counts): more than CUB's per-block copies could ever hold
    if (!test::small_sizes_only()) {
        sv::vector<int> few = {0, 7, 1 << 27, (1 << 28) - 1, 7};
        auto c = sv::histogram(few, sv::index_t(1) << 28);
        CHECK(c.size() == std::size_t(1) << 28);
        CHECK(c[7] == 2);
        CHECK(c[(std::size_t(1) << 28) - 1] == 1);
        CHECK(sv::reduce(c) == 5);
    }
#endif
}

TEST_CASE("multisplit moves records, bools and values keyed by another vector's digits") {
    const std::size_t n = 65537;
    auto h = records(n, order::random, 11);
    sv::vector<ts::rec> r(h);
    auto k = keys<std::int32_t>(n, order::random, 12);
    sv::vector<std::int32_t> kv(k);
    // radix digits of another vector: the elements move, the keys stay
    auto by_digit = [&](auto lo, auto bits) {
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        sv::detail::radix_digit_of<std::int32_t> dig{int(lo), int(bits)};
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return dig(k[a]) < dig(k[b]); });
        return order;
    };
    for (int lo : {0, 8, 24, 28}) {
        CAPTURE(lo);
        auto order = by_digit(lo, 4);
        auto moved = sv::multisplit(r, sv::lazy::radix_digit(kv, lo, 4), 16).to_host();
        auto ids = sv::multisplit(sv::index<int>(n), sv::lazy::radix_digit(kv, lo, 4), 16).to_host();
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(moved[i].id == h[order[i]].id);
            REQUIRE(ids[i] == int(order[i]));
        }
        CHECK(sv::multisplit(kv, sv::lazy::radix_digit(kv, lo, 4), 16).to_host() ==
              [&] { std::vector<std::int32_t> w; for (auto i : order) w.push_back(k[i]); return w; }());
    }
    // a radix digit view with more classes than its digits: the general path
    auto order = by_digit(0, 3);
    auto ids = sv::multisplit(sv::index<int>(n), sv::lazy::radix_digit(kv, 0, 3), 9).to_host();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(ids[i] == int(order[i]));
    // bools ride along
    sv::vector<bool> flags = {true, false, true, true};
    sv::vector<int> dig = {2, 0, 1, 0};
    CHECK(sv::multisplit(flags, dig, 3).to_host() == std::vector<bool>{false, true, true, true});
    // sign bit flipped: negative keys have the small top digits
    sv::vector<int> s = {-1, 5, std::numeric_limits<int>::min(), 0};
    CHECK(sv::lazy::radix_digit(s, 28, 4).to_host() == std::vector<std::uint32_t>{7, 8, 0, 8});
}

TEST_CASE("multisplit and histogram check their arguments") {
    sv::vector<int> a(4), d = {0, 1, 2, 3};
    CHECK_THROWS_AS(sv::multisplit(a, sv::vector<int>(3), 4), sv::length_error);
    CHECK_THROWS_AS(sv::multisplit(a, d, 0), sv::error);
    CHECK_THROWS_AS(sv::histogram(d, 0), sv::error);
    CHECK_THROWS_AS(sv::lazy::radix_digit(a, 32, 4), sv::error);
    CHECK_THROWS_AS(sv::lazy::radix_digit(a, 0, 17), sv::error);
    CHECK(sv::multisplit(sv::vector<int>(), sv::vector<int>(), 5).empty());
    CHECK(sv::histogram(sv::vector<int>(), 3).to_host() == std::vector<sv::index_t>{0, 0, 0});
}

#if SCANVEC_CHECKS
TEST_CASE("multisplit and histogram reject digits outside 0..m-1") {
    sv::vector<int> a = {1, 2, 3, 4}, d = {0, 3, 1, 2}, neg = {0, -1, 1, 1};
    CHECK_THROWS_WITH_AS(sv::multisplit(a, d, 3), doctest::Contains("multisplit: 1 digits are outside 0..2"),
                         sv::index_error);
    CHECK_THROWS_AS(sv::multisplit(a, neg, 3), sv::index_error);
    CHECK_THROWS_AS(sv::histogram(d, 2), sv::index_error);
}
#endif

/// A key of the segment at a hashed position (host and device).
struct hashed_pivot {
    std::uint64_t round;
    template <class Keys, class Off> SCANVEC_HD auto operator()(const Keys& keys, Off s, Off len) const {
        return keys[s + Off(sv::detail::mix64(std::uint64_t(s) * 31 + round) % std::uint64_t(len))];
    }
};

/// One round of the segmented three-way split, sequentially: the reference.
template <class T> struct three_way_reference {
    std::vector<T> keys;
    std::vector<std::uint64_t> start, length;  // length at heads
    explicit three_way_reference(std::vector<T> k) : keys(std::move(k)), start(keys.size(), 0), length(keys.size(), 0) {
        if (!keys.empty()) length[0] = keys.size();
    }
    std::size_t descents() const {
        std::size_t d = 0;
        for (std::size_t i = 1; i < keys.size(); ++i) d += start[i] != i && keys[i] < keys[i - 1];
        return d;
    }
    /// The base case: in every tile of `tile` positions that heads no segment
    /// longer than tile, each segment headed there sorted stably, each key
    /// finished; every segment of tile to limit keys too.
    void sort_short(std::size_t tile, std::size_t limit) {
        const std::size_t n = keys.size();
        std::vector<bool> waits((n + tile - 1) / tile + 1, false);
        for (std::size_t s = 0; s < n; ++s)
            if (start[s] == s && length[s] > tile) waits[s / tile] = true;
        for (std::size_t s = 0; s < n;) {
            std::size_t e = s + 1;
            while (e < n && start[e] != e) ++e;
            if (e - s >= 2 && (e - s <= tile ? !waits[s / tile] : e - s <= limit)) {
                std::stable_sort(keys.begin() + std::ptrdiff_t(s), keys.begin() + std::ptrdiff_t(e));
                for (std::size_t i = s; i < e; ++i) start[i] = i, length[i] = 1;
            }
            s = e;
        }
    }
    void split(std::uint64_t round) {
        const std::size_t n = keys.size();
        std::vector<T> out(n);
        std::vector<std::uint64_t> st(n), len(n, 0);
        for (std::size_t s = 0; s < n;) {
            std::size_t e = s + 1;
            while (e < n && start[e] != e) ++e;
            if (e - s == 1) { out[s] = keys[s]; st[s] = s; len[s] = 1; s = e; continue; }
            const T p = hashed_pivot{round}(keys.data(), std::uint64_t(s), std::uint64_t(e - s));
            std::vector<T> lt, eq, gt;
            for (std::size_t i = s; i < e; ++i) (keys[i] < p ? lt : p < keys[i] ? gt : eq).push_back(keys[i]);
            std::size_t at = s;
            for (auto& x : lt) { out[at] = x; st[at] = s; ++at; }
            if (!lt.empty()) len[s] = lt.size();
            for (auto& x : eq) { out[at] = x; st[at] = at; len[at] = 1; ++at; }
            const std::size_t g = at;
            for (auto& x : gt) { out[at] = x; st[at] = g; ++at; }
            if (!gt.empty()) len[g] = gt.size();
            s = e;
        }
        keys = std::move(out), start = std::move(st), length = std::move(len);
    }
};

/// Rounds of the family against the reference. any_order: the split may
/// order each class as it likes: every new segment must hold the reference's
/// keys (starts and lengths as the reference's), and the reference goes on
/// from the split's order.
/// counting: each round by count_split_three_ways (pivots by choose_pivots;
/// any order), whose number is checked against the reference: where the split
/// counts for itself, 0 exactly when every key was finished; elsewhere the descents.
/// At most `rounds` rounds.
template <class T, class Off>
void check_three_way_rounds(const std::vector<T>& h, bool base_case = false, bool any_order = false, bool counting = false,
                            std::uint64_t rounds = 6) {
    CAPTURE(h.size());
    CAPTURE(base_case);
    CAPTURE(any_order);
    CAPTURE(counting);
    any_order = any_order || counting;
    sv::pivoted_segments<T, Off> segs{sv::vector<T>(h)};
    three_way_reference<T> ref(h);
    for (std::uint64_t round = 0; round < rounds; ++round) {
        CAPTURE(round);
        if (base_case) {
            sv::sort_short_segments(segs);
            ref.sort_short(segs.short_tile(), segs.short_limit());
            REQUIRE(segs.keys.to_host() == ref.keys);
            const auto start = segs.start.to_host();
            REQUIRE(std::vector<std::uint64_t>(start.begin(), start.end()) == ref.start);
        }
        // with the base case, the pivots are chosen by the count (one pass on CUDA tiles);
        // without, chosen first and counted by either form (odd rounds: left on the device)
        const auto count_chosen = [&] {
            sv::choose_pivots(segs, hashed_pivot{round});
            return round % 2 ? sv::detail::count_three_ways_to_device(segs).get() : sv::count_three_ways(segs);
        };
        bool last = false;
        if (counting) {
            sv::choose_pivots(segs, hashed_pivot{round});
            const std::size_t descents = ref.descents();
            bool finished = true;  // every key a segment of one
            for (std::size_t i = 0; i < h.size(); ++i)
                finished = finished && ref.start[i] == i && (i + 1 == h.size() || ref.start[i + 1] == i + 1);
            auto [next, unsorted] = sv::detail::count_split_three_ways(segs, sv::any_order);
            segs = std::move(next);
            const sv::index_t u = unsorted.get();
            if (sv::detail::three_way_impl<T, Off>::counts_in_split && h.size() >= 2) REQUIRE((u == 0) == finished);
            else REQUIRE(std::size_t(u) == descents);
            last = u == 0;
        } else {
            const sv::index_t descents = base_case ? sv::count_three_ways(segs, hashed_pivot{round}) : count_chosen();
            REQUIRE(std::size_t(descents) == ref.descents());
            if (ref.descents() == 0) break;
            segs = any_order ? sv::split_three_ways(segs, sv::any_order) : sv::split_three_ways(segs);
        }
        ref.split(round);
        if (any_order) {
            auto got = segs.keys.to_host();
            for (std::size_t s = 0, e; s < h.size(); s = e) {  // each new segment: the same keys
                for (e = s + 1; e < h.size() && ref.start[e] != e;) ++e;
                std::vector<T> mine(got.begin() + std::ptrdiff_t(s), got.begin() + std::ptrdiff_t(e));
                std::vector<T> want(ref.keys.begin() + std::ptrdiff_t(s), ref.keys.begin() + std::ptrdiff_t(e));
                std::sort(mine.begin(), mine.end());
                std::sort(want.begin(), want.end());
                CAPTURE(s);
                REQUIRE(mine == want);
            }
            ref.keys = std::move(got);
        }
        REQUIRE(segs.keys.to_host() == ref.keys);
        const auto start = segs.start.to_host();
        REQUIRE(std::vector<std::uint64_t>(start.begin(), start.end()) == ref.start);
        // lengths are defined at the heads of segments of two or more: read there only
        std::vector<sv::index_t> heads;
        std::vector<std::uint64_t> want;
        for (std::size_t i = 0; i < h.size(); ++i)
            if (ref.start[i] == i && ref.length[i] >= 2) heads.push_back(sv::index_t(i)), want.push_back(ref.length[i]);
        const auto length = sv::back_permute(segs.length, sv::vector<sv::index_t>(heads)).to_host();
        REQUIRE(std::vector<std::uint64_t>(length.begin(), length.end()) == want);
        if (last) break;
    }
}

TEST_CASE("split_three_ways: every segment less | each equal alone | greater, stably, round after round") {
    // sizes around a tile (3072 keys of 4 bytes, 2048 of 8 on CUDA) and past many tiles
    for (std::size_t n : test::sizes_upto_env({0, 1, 2, 31, 2047, 3071, 3073, 65539, 1000003})) {
        for (order o : {order::random, order::few, order::sorted}) {
            CAPTURE(name(o));
            check_three_way_rounds<std::int32_t, std::uint32_t>(keys<std::int32_t>(n, o, 1200 + n));
            check_three_way_rounds<double, std::uint32_t>(keys<double>(n, o, 1300 + n));
            check_three_way_rounds<std::int32_t, std::uint64_t>(keys<std::int32_t>(n, o, 1400 + n));
            auto k = keys<std::int32_t>(n, o, 1500 + n);
            std::vector<ts::keyed> kv(n);
            for (std::size_t i = 0; i < n; ++i) kv[i] = {k[i] % 5, int(i)};  // many equal keys: the ids show stability
            check_three_way_rounds<ts::keyed, std::uint32_t>(kv);
        }
    }
}

TEST_CASE("split_three_ways(segs, any_order): each new segment holds the stable split's keys, round after round") {
    // on CUDA integer keys take their places without look-back (the count's atomic
    // adds order the tiles); double and the 64-bit positions split stably
    for (std::size_t n : test::sizes_upto_env({0, 1, 2, 31, 2047, 2049, 3073, 65539, 1000003})) {
        for (order o : {order::random, order::few, order::sorted, order::reversed}) {
            CAPTURE(name(o));
            check_three_way_rounds<std::int32_t, std::uint32_t>(keys<std::int32_t>(n, o, 2200 + n), false, true);
            check_three_way_rounds<std::int32_t, std::uint32_t>(keys<std::int32_t>(n, o, 2250 + n), true, true);
            check_three_way_rounds<std::uint64_t, std::uint32_t>(keys<std::uint64_t>(n, o, 2300 + n), false, true);
            check_three_way_rounds<std::int64_t, std::uint32_t>(keys<std::int64_t>(n, o, 2350 + n), true, true);
            check_three_way_rounds<double, std::uint32_t>(keys<double>(n, o, 2400 + n), false, true);
            check_three_way_rounds<std::int32_t, std::uint64_t>(keys<std::int32_t>(n, o, 2450 + n), false, true);
        }
    }
}

TEST_CASE("count_split_three_ways: counted by the split itself, each new segment holds the stable split's keys") {
    // on CUDA integer keys with 32-bit positions: one pass takes each tile's
    // share of its segments by atomic adds (less forward, greater backward)
    // and a fill pass writes the equal and greater parts; others count, then split
    for (std::size_t n : test::sizes_upto_env({0, 1, 2, 31, 2047, 2049, 3073, 16385, 65539, 1000003})) {
        for (order o : {order::random, order::few, order::sorted, order::reversed}) {
            CAPTURE(name(o));
            check_three_way_rounds<std::int32_t, std::uint32_t>(keys<std::int32_t>(n, o, 2600 + n), false, true, true);
            check_three_way_rounds<std::int32_t, std::uint32_t>(keys<std::int32_t>(n, o, 2650 + n), true, true, true);
            check_three_way_rounds<std::uint64_t, std::uint32_t>(keys<std::uint64_t>(n, o, 2700 + n), true, true, true);
            check_three_way_rounds<std::int64_t, std::uint32_t>(keys<std::int64_t>(n, o, 2750 + n), false, true, true);
            check_three_way_rounds<float, std::uint32_t>(keys<float>(n, o, 2800 + n), true, true, true);
            check_three_way_rounds<std::int32_t, std::uint64_t>(keys<std::int32_t>(n, o, 2850 + n), true, true, true);
        }
    }
    // rounds down to segments of one, without the base case: on CUDA 3
    // million keys take every round's tiles, those inside one segment (their
    // runs staged in shared memory) and those of several (all of them in the
    // last rounds), from one segment to a million; the host's form is checked
    // at 65539 keys, since 3 million for some 45 rounds of the reference would
    // take CI's sanitized build minutes
    const bool cuda = std::string(sv::backend_name()) == "cuda";
    for (std::size_t n : test::sizes_upto_env(cuda ? std::vector<std::size_t>{65539, 3000017} : std::vector<std::size_t>{65539}))
        check_three_way_rounds<std::int32_t, std::uint32_t>(keys<std::int32_t>(n, order::random, 2900 + n), false, true, true,
                                                            64);
    // a state whose count finds no descent (every segment sorted) keeps every
    // key in place, as the stable split does: quicksort reads such a state last
    for (std::size_t n : test::sizes_upto_env({3073, 65539, 1000003})) {
        CAPTURE(n);
        const auto h = keys<std::int32_t>(n, order::sorted, 2500 + n);
        sv::pivoted_segments<std::int32_t> segs{sv::vector<std::int32_t>(h)};
        three_way_reference<std::int32_t> ref(h);
        for (std::uint64_t round = 0; round < 3; ++round) {
            sv::choose_pivots(segs, hashed_pivot{round});
            REQUIRE(sv::count_three_ways(segs) == 0);
            segs = sv::split_three_ways(segs, sv::any_order);
            ref.split(round);
            REQUIRE(segs.keys.to_host() == h);
            const auto start = segs.start.to_host();
            REQUIRE(std::vector<std::uint64_t>(start.begin(), start.end()) == ref.start);
        }
    }
}

TEST_CASE_TEMPLATE("rounds repeated on the device sort as rounds from the host", T, std::int32_t, float, std::uint64_t) {
    // quicksort's rounds after the first: the base case, the pivots and
    // count_split_three_ways into one word, repeated by runtime::repeat_on_device
    // two at a time (on CUDA tiles captured once, the state's buffers
    // alternating; on the host the calls in a loop), after one or two rounds
    // from the host (the state's buffers then made, so the calls allocate nothing)
    // (a million keys and more on CUDA only: the host's calls are the plain loop, checked smaller)
    const bool cuda = std::string(sv::backend_name()) == "cuda";
    const std::size_t from = sv::detail::three_way_rounds_on_device_from;  // sv::quicksort's rounds on the device
    const std::vector<std::size_t> sizes{2, 31, 2049, 16385, 65539, 1000003, from + 17};
    for (std::size_t n : test::sizes_upto_env(cuda ? sizes : std::vector<std::size_t>(sizes.begin(), sizes.end() - 2))) {
        for (order o : {order::random, order::few, order::reversed, order::sorted}) {
            for (int from_host : {1, 2}) {
                CAPTURE(n);
                CAPTURE(name(o));
                CAPTURE(from_host);
                auto h = keys<T>(n, o, 3000 + n + std::size_t(from_host));
                sv::pivoted_segments<T> segs{sv::vector<T>(h)};
                sv::device_value<sv::index_t> unsorted;
                std::uint64_t round = 0;
                const auto one_round = [&] {
                    sv::sort_short_segments(segs);
                    sv::choose_pivots(segs, sv::detail::ninther{round++});
                    segs = sv::detail::count_split_three_ways(segs, sv::any_order, unsorted);
                    return unsorted.ptr();
                };
                for (int r = 0; r < from_host; ++r) one_round();
                REQUIRE(sv::detail::repeats_on_device(segs) == (sv::runtime::device_loops() && n >= from));
                const auto ran = sv::runtime::repeat_on_device(2, one_round);
                CHECK(ran.calls % 2 == 0);
                // it ends with the period in which a call found every key finished (its segments sorted)
                CHECK(ran.calls - ran.nonzero >= 1);
                CHECK(ran.calls - ran.nonzero <= 2);
                CHECK(ran.calls <= 40);
                std::sort(h.begin(), h.end());
                REQUIRE(segs.keys.to_host() == h);
                if (from_host == 1 && n >= from) {  // sv::quicksort itself, its rounds on the device
                    int rounds = 0;
                    REQUIRE(sv::quicksort(sv::vector<T>(keys<T>(n, o, 3100 + n)), &rounds).to_host() ==
                            [&] { auto w = keys<T>(n, o, 3100 + n); std::sort(w.begin(), w.end()); return w; }());
                    CHECK(rounds >= (o == order::sorted ? 0 : 2));
                    CHECK(rounds <= 40);
                }
            }
        }
    }
}

TEST_CASE("sort_short_segments: short segments of tiles without a long one sorted stably and finished, the rest untouched") {
    // on CUDA a block owns the segments headed in its 2048 positions (1024 for
    // 8-byte keys) and sorts a window of twice that: segments of every length
    // up to the limit, crossing tile and window edges, after rounds of splits
    // (on CUDA a segment of up to 16384 4-byte keys, 8192 8-byte keys, sorted whole by a block, of 512 or 1024 threads)
    for (std::size_t n : test::sizes_upto_env({0, 1, 2, 16, 17, 1025, 2047, 2048, 2049, 4096, 4097, 8192, 8193, 16384, 16385, 65539, 1000003})) {
        for (order o : {order::random, order::few, order::reversed}) {
            CAPTURE(name(o));
            check_three_way_rounds<std::int32_t, std::uint32_t>(keys<std::int32_t>(n, o, 1600 + n), true);
            check_three_way_rounds<double, std::uint32_t>(keys<double>(n, o, 1700 + n), true);
            check_three_way_rounds<float, std::uint32_t>(keys<float>(n, o, 1750 + n), true);
            check_three_way_rounds<std::int32_t, std::uint64_t>(keys<std::int32_t>(n, o, 1800 + n), true);
            check_three_way_rounds<std::int64_t, std::uint32_t>(keys<std::int64_t>(n, o, 1850 + n), true);
            auto k = keys<std::int32_t>(n, o, 1900 + n);
            std::vector<ts::keyed> kv(n);
            for (std::size_t i = 0; i < n; ++i) kv[i] = {k[i] % 5, int(i)};  // equal keys: the ids show stability
            check_three_way_rounds<ts::keyed, std::uint32_t>(kv, true);
        }
    }
    // the limits: what a block sorts on CUDA tiles (a tile's short segments;
    // for integers and floating keys one whole segment), a thread's insertion sort in the
    // generic form; on the host a thread's std::sort of up to 2^14 keys, no tiles
    const bool cuda = std::string(sv::backend_name()) == "cuda";
    sv::pivoted_segments<std::int32_t> segs{sv::vector<std::int32_t>(std::size_t(100))};
    CHECK(segs.short_tile() == (cuda ? 2048u : 1u));
    CHECK(segs.short_limit() == (cuda ? 16384u : 16384u));
    sv::pivoted_segments<float> floats{sv::vector<float>(std::size_t(100))};
    CHECK(floats.short_limit() == 16384u);
    CHECK(floats.short_tile() == (cuda ? 2048u : 1u));
    sv::pivoted_segments<double> doubles{sv::vector<double>(std::size_t(100))};
    CHECK(doubles.short_limit() == (cuda ? 8192u : 16384u));
    CHECK(doubles.short_tile() == (cuda ? 1024u : 1u));
    CHECK(sv::pivoted_segments<ts::keyed>{sv::vector<ts::keyed>(std::size_t(100))}.short_limit() == (cuda ? 16u : 16384u));
}

template <class T> void check_quicksort(std::size_t n, order o, std::uint64_t seed) {
    CAPTURE(n);
    CAPTURE(name(o));
    auto h = keys<T>(n, o, seed);
    auto r = sv::quicksort_rounds(sv::vector<T>(h));
    REQUIRE(r.sorted.to_host() == sorted_copy(h));
    if (o == order::sorted || o == order::reversed || o == order::equal) {
        CAPTURE(r.rounds);
        CHECK(r.rounds <= 4 * log2_ceil(n) + 8);
    }
}

TEST_CASE_TEMPLATE("quicksort sorts like std::sort in O(log n) rounds", T, std::int32_t, float) {
    for (std::size_t n : sort_sizes)
        for (order o : orders) check_quicksort<T>(n, o, 800 + n);
}

TEST_CASE_TEMPLATE("quicksort of other key types", T, std::uint32_t, std::int64_t, double) {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(100), std::size_t(65537)})
        for (order o : orders) check_quicksort<T>(n, o, 900 + n);
}

// Past the base case's limit a first state reads the keys where the program
// holds them until its split (first_segments): the input must come back as it
// was, at sizes around that limit and where the last tile holds one key.
TEST_CASE_TEMPLATE("quicksort leaves its input as it was", T, std::int32_t, std::uint32_t, float, std::int64_t, double) {
    for (std::size_t n : {std::size_t(8192), std::size_t(16384), std::size_t(16385), std::size_t(16386),
                          std::size_t(9 * 2048 + 1), std::size_t(40 * 2048 + 1), std::size_t(65537)})
        for (order o : orders) {
            CAPTURE(n);
            CAPTURE(name(o));
            const auto h = keys<T>(n, o, 1700 + n);
            const sv::vector<T> input(h);
            int rounds = -1;
            const auto sorted = sv::quicksort(input, &rounds).to_host();
            REQUIRE(input.to_host() == h);
            REQUIRE(sorted == sorted_copy(h));
            if (o == order::sorted || o == order::equal) CHECK(rounds == 0);
        }
}

// On CUDA tiles the first state's count leaves each tile's counts, and one
// pass scans them across blocks of 512 tiles (three_way_first_offsets):
// sizes in one block, and past one and two such blocks (2^20 and 2^21 keys
// and more; the small sizes' runs keep the first).
TEST_CASE_TEMPLATE("quicksort past a block of the first count's tiles", T, std::int32_t, float) {
    for (std::size_t n : test::sizes_upto_env({std::size_t(65539), std::size_t(1) << 20, (std::size_t(1) << 20) + 2049,
                                               (std::size_t(1) << 21) + 3}))
        for (order o : {order::random, order::sorted, order::reversed, order::few}) {
            CAPTURE(n);
            CAPTURE(name(o));
            const auto h = keys<T>(n, o, 1800 + n);
            int rounds = -1;
            REQUIRE(sv::quicksort(sv::vector<T>(h), &rounds).to_host() == sorted_copy(h));
            if (o == order::sorted) CHECK(rounds == 0);
            else CHECK(rounds > 0);
        }
}

TEST_CASE_TEMPLATE("quicksort of floating keys with signed zeros and NaN", T, float, double) {
    // -0 and +0 are equal keys (either order is sorted); NaN compares false
    // with every key, so no order is promised with it, only that the sort ends
    // and keeps every key. Sizes past a block sort (16384) and a short tile.
    for (std::size_t n : test::sizes_upto_env({2, 100, 20011, 300007})) {
        CAPTURE(n);
        std::mt19937_64 rng(3100 + n);
        std::vector<T> h(n);
        for (auto& x : h) {
            const auto r = rng() % 16;
            x = r == 0 ? T(0) : r == 1 ? -T(0) : T(std::ldexp(double(std::int64_t(rng() % 2001) - 1000), -3));
        }
        REQUIRE(sv::quicksort(sv::vector<T>(h)).to_host() == sorted_copy(h));  // == : -0 equals +0
        auto bits = [](std::vector<T> v) {  // the keys as bit patterns, sorted: the multiset
            std::vector<std::uint64_t> b(v.size());
            for (std::size_t i = 0; i < v.size(); ++i) {
                std::uint64_t u = 0;
                std::memcpy(&u, &v[i], sizeof(T));
                b[i] = u;
            }
            std::sort(b.begin(), b.end());
            return b;
        };
        for (std::size_t i = 0; i < n; i += 7) h[i] = (i / 7) % 2 ? std::numeric_limits<T>::quiet_NaN() : -std::numeric_limits<T>::quiet_NaN();
        CHECK(bits(sv::quicksort(sv::vector<T>(h)).to_host()) == bits(h));  // every key kept, NaN too
    }
}

TEST_CASE_TEMPLATE("quicksort of keys in narrow ranges", T, std::int32_t, std::uint32_t, float, std::int64_t, std::uint64_t, double) {
    // What the radix base case (CUDA) meets at the edges of a key's bits:
    // ranges that share their top bits, cross a power of two or the sign (an
    // unsigned key's top bit), hold one value or a few, each with its greatest
    // key present; sizes past a short tile, a block sort and several.
    const double top = std::is_signed_v<T> ? -500.0 : std::ldexp(1.0, 8 * int(sizeof(T)) - 1) - 500.0;
    const std::pair<double, std::uint64_t> ranges[] = {
        {0.0, 1024}, {std::ldexp(1.0, 20) - 500.0, 1000}, {top, 1000}, {12345.0, 1}, {std::ldexp(1.0, 24), 3}, {7.0, 65536}};
    for (std::size_t n : test::sizes_upto_env({3000, 20011, 100003})) {
        for (const auto& range : ranges) {
            const double lo = range.first;  // (CAPTURE names it: a structured binding would need C++20)
            const std::uint64_t width = range.second;
            CAPTURE(n);
            CAPTURE(lo);
            CAPTURE(width);
            std::mt19937_64 rng(3300 + n + width);
            std::vector<T> h(n);
            for (auto& x : h) x = T(lo + double(rng() % width));
            h[n / 2] = T(lo + double(width - 1));
            REQUIRE(sv::quicksort(sv::vector<T>(h)).to_host() == sorted_copy(h));
        }
        if constexpr (std::is_integral_v<T>) {  // and the widest range: the least key and the greatest
            CAPTURE(n);
            std::mt19937_64 rng(3400 + n);
            std::vector<T> h(n);
            for (auto& x : h) x = T(rng());
            h[n / 3] = std::numeric_limits<T>::lowest();
            h[n / 2] = std::numeric_limits<T>::max();
            REQUIRE(sv::quicksort(sv::vector<T>(h)).to_host() == sorted_copy(h));
        }
    }
}

TEST_CASE("quicksort of described structs with their own operator<") {
    for (std::size_t n : sort_sizes) {
        for (order o : orders) {
            CAPTURE(n);
            CAPTURE(name(o));
            auto x = keys<float>(n, o, 1000 + n);
            std::vector<ts::point> h(n);
            for (std::size_t i = 0; i < n; ++i) h[i] = {x[i], int((i * 7919) % 13)};  // ties in x, broken by id
            int rounds = 0;
            auto got = sv::quicksort(sv::vector<ts::point>(h), &rounds).to_host();
            std::sort(h.begin(), h.end());
            REQUIRE(got == h);
        }
    }
}

TEST_CASE("quicksort's pivot (ninther, median of 256 from 2^14 keys): a key of its segment, near its middle") {
    // Segments of random and of sorted keys, each from t * 4099 (32 of them), pivots chosen on the
    // backend's device. A ninther's rank lies below 2% of its segment with probability ~4e-6; the
    // median of 256 stratified samples' below 30% with less than 1e-10 (on random keys; sorted ones
    // spread as evenly).
    const std::size_t n = std::size_t(1) << 22;
    const std::uint32_t stride = 4099, segments = 32;
    for (order o : {order::random, order::sorted}) {
        const auto host = keys<int>(n, o, 31);
        const sv::vector<int> dev(host);
        for (std::uint32_t len : {9u, 100u, 5000u, 16383u, 16384u, 100003u, 1000003u}) {
            for (std::uint64_t round : {0u, 7u}) {
                CAPTURE(name(o));
                CAPTURE(len);
                CAPTURE(round);
                const auto pivots =
                    sv::map(pivot_of_segment{dev.data(), stride, len, round}, sv::index<sv::index_t>(segments)).to_host();
                const double low = len >= sv::detail::ninther::wide ? 0.3 : 0.02;
                for (std::uint32_t t = 0; t < segments; ++t) {
                    const auto first = host.begin() + std::ptrdiff_t(t) * stride, last = first + len;
                    CHECK(std::find(first, last, pivots[t]) != last);
                    const double rank = double(std::count_if(first, last, [&](int k) { return k < pivots[t]; })) / len;
                    CHECK(rank >= low);
                    CHECK(rank <= 1 - low);
                }
            }
        }
    }
}

TEST_CASE("choose_pivots with quicksort's chooser: each head's pivot is the chooser's, long segments too") {
    // On CUDA tiles the pivots' pass chooses a long segment's pivot with a warp (the median of 256
    // samples sorted together), a short one's with one thread; both must equal the chooser's own
    // answer, called by one thread per head. Rounds of splits of random and of few distinct keys,
    // every head checked: segments from 2 keys to past 2^14, heads anywhere in the pass's tiles.
    // With the base case first (quicksort's order) every head it leaves (the segments longer than
    // it sorts, and short ones in tiles that wait for a long head) must get the chooser's pivot too.
    for (int distinct : {0, 5})
      for (bool base_case : {false, true}) {
        CAPTURE(distinct);
        CAPTURE(base_case);
        auto host = keys<int>((std::size_t(1) << 19) + 4097, order::random, 77);
        if (distinct)
            for (int& k : host) k = int(std::uint32_t(k) % std::uint32_t(distinct));
        sv::pivoted_segments<int> segs{sv::vector<int>(host)};
        for (std::uint64_t round = 0; round < (base_case ? 8u : 4u); ++round) {
            CAPTURE(round);
            const sv::detail::ninther chooser{round};
            if (base_case) sv::sort_short_segments(segs);
            sv::choose_pivots(segs, chooser);
            const auto k = segs.keys.to_host();
            const auto start = segs.start.to_host();
            std::vector<std::uint32_t> at;  // the heads of 2 or more: pivots are defined there only
            for (std::size_t i = 0; i + 1 < k.size(); ++i)
                if (start[i] == i && start[i + 1] != i + 1) at.push_back(std::uint32_t(i));
            const sv::vector<std::uint32_t> heads_at(at);
            const auto pivot = sv::back_permute(segs.pivot, heads_at).to_host();
            const auto length = sv::back_permute(segs.length, heads_at).to_host();
            const std::size_t heads = at.size();
            std::size_t wide = 0, wrong = 0;
            for (std::size_t h = 0; h < heads; ++h) {
                wide += chooser.is_wide(length[h]);
                wrong += pivot[h] != chooser(k.data(), at[h], length[h]);
            }
            CAPTURE(heads);
            CAPTURE(wide);
            if (round == 0) CHECK(wide == 1);  // the whole vector
            CHECK(wrong == 0);
            sv::count_three_ways(segs);
            segs = base_case ? sv::split_three_ways(segs, sv::any_order) : sv::split_three_ways(segs);
        }
      }
}

TEST_CASE("quicksort: sorted and all-equal input take no round; rounds stay logarithmic") {
    const std::size_t n = 1 << 20;
    int rounds = -1;
    auto s = sv::quicksort(sv::index<int>(n), &rounds);
    CHECK(rounds == 0);
    sv::quicksort(sv::vector<int>(n, 3), &rounds);
    CHECK(rounds == 0);
    // reversed and organ-pipe inputs, and random keys: well under 4 log2 n + 8
    std::vector<int> pipe(n);
    for (std::size_t i = 0; i < n; ++i) pipe[i] = int(std::min(i, n - 1 - i));
    auto r = sv::quicksort_rounds(sv::vector<int>(pipe));
    CHECK(r.rounds <= 4 * 20 + 8);
    CHECK(r.sorted.to_host() == sorted_copy(pipe));
    auto random = sv::quicksort_rounds(sv::vector<int>(keys<int>(n, order::random, 13)));
    CAPTURE(random.rounds);
    CHECK(random.rounds <= 4 * 20 + 8);
}

TEST_CASE("quicksort reports every round's segments; each round is a constant number of steps") {
    sv::vector<int> a = {9, 4, 12, 1, 7, 4, 15, 3, 8, 11, 0, 6, 4, 14, 2, 10};
    int calls = 0;
    std::vector<bool> last_heads;
    auto r = sv::quicksort_rounds(a, [&](int round, const sv::vector<int>& keys, const auto& heads) {
        ++calls;
        CHECK(round == calls);
        auto k = keys.to_host();
        auto h = heads.to_host();
        REQUIRE(h.size() == 16);
        CHECK(h[0]);
        // segments are ordered: every key of a segment is below every key of the next
        int seg_max = std::numeric_limits<int>::min(), prev_max = std::numeric_limits<int>::min();
        for (std::size_t i = 0; i < 16; ++i) {
            if (h[i]) { prev_max = std::max(prev_max, seg_max); seg_max = k[i]; }
            CHECK(k[i] >= prev_max);
            seg_max = std::max(seg_max, k[i]);
        }
        last_heads = h;
    });
    CHECK(calls == r.rounds);
    CHECK(r.rounds >= 1);
    CHECK(r.sorted.to_host() == std::vector<int>{0, 1, 2, 3, 4, 4, 4, 6, 7, 8, 9, 10, 11, 12, 14, 15});

    sv::vector<int> big(keys<int>(100000, order::random, 14));
    sv::trace t;
    int rounds = 0;
    sv::quicksort(big, &rounds);
    CHECK(rounds > 0);
    // per round: choose the pivots, count three ways (with the descents), split three ways; a few steps each
    // (one each where the backend runs them as tile passes), and the last round's pivots and count
    CHECK(t.steps() >= std::size_t(3 * rounds + 2));
    CHECK(t.steps() <= std::size_t(8 * rounds + 8));
}
