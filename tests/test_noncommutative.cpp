// Every primitive that takes an operator, with monoids that do not commute,
// at sizes past one tile: results must equal a sequential left fold.
#include "support.hpp"
#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/segmented_scan.hpp>

#include <cstdint>

namespace nc {
/// A 2x2 matrix of integers mod 2^32; the product is associative, not commutative.
struct mat2 {
    std::uint32_t a, b, c, d;
    bool operator==(const mat2& o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
SCANVEC_FIELDS(mat2, a, b, c, d)
struct mat_mul {
    SCANVEC_HD mat2 operator()(const mat2& x, const mat2& y) const {
        return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
    }
};
/// An affine map x -> m*x + c mod 2^32 packed in one word (m high, c low); f then g.
struct affine_then {
    SCANVEC_HD std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const {
        const std::uint32_t fm = std::uint32_t(f >> 32), fc = std::uint32_t(f), gm = std::uint32_t(g >> 32),
                            gc = std::uint32_t(g);
        return (std::uint64_t(gm * fm) << 32) | std::uint32_t(gm * fc + gc);
    }
};
}  // namespace nc
using nc::mat2;

namespace {

struct unchanged {
    template <class T> SCANVEC_HD T operator()(const T& x) const { return x; }
};

const std::uint64_t affine_id = std::uint64_t(1) << 32;

template <class T, class Op> std::vector<T> fold_inclusive(const std::vector<T>& a, Op op) {
    std::vector<T> r(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) r[i] = i ? op(r[i - 1], a[i]) : a[i];
    return r;
}
template <class T, class Op> std::vector<T> fold_exclusive(const std::vector<T>& a, Op op, T id) {
    std::vector<T> r(a.size());
    T acc = id;
    for (std::size_t i = 0; i < a.size(); ++i) { r[i] = acc; acc = op(acc, a[i]); }
    return r;
}

/// Per segment (heads[0] read as true): exclusive / inclusive scans and totals, sequentially.
template <class T, class Op> struct segment_folds {
    std::vector<T> exclusive, inclusive, backward_inclusive, totals;
    segment_folds(const std::vector<T>& a, const std::vector<bool>& heads, Op op, T id) {
        const std::size_t n = a.size();
        exclusive.resize(n); inclusive.resize(n); backward_inclusive.resize(n);
        T acc = id;
        for (std::size_t i = 0; i < n; ++i) {
            if (i == 0 || heads[i]) {
                if (i) totals.push_back(acc);
                acc = id;
            }
            exclusive[i] = acc;
            acc = op(acc, a[i]);
            inclusive[i] = acc;
        }
        if (n) totals.push_back(acc);
        for (std::size_t i = n; i-- > 0;) {
            const bool last = i + 1 == n || heads[i + 1];
            backward_inclusive[i] = last ? a[i] : op(a[i], backward_inclusive[i + 1]);
        }
    }
};

template <class T, class Op> void check_every_operator_primitive(const std::vector<T>& h, Op op, std::uint64_t seed) {
    const T id = op.identity();
    sv::vector<T> a(h);
    const auto inc = fold_inclusive(h, op);
    const T total = h.empty() ? id : inc.back();
    CHECK(sv::reduce(a, op) == total);
    CHECK(sv::reduce_to_device(a, op).get() == total);
    CHECK(sv::scan_total(a, op).total == total);
    CHECK(sv::reduce(sv::lazy::map(unchanged{}, a), op) == total);
    CHECK(sv::scan(a, op).to_host() == fold_exclusive(h, op, id));
    CHECK(sv::inclusive_scan(a, op).to_host() == inc);
    CHECK(sv::lazy::scan(a, op).to_vector().to_host() == fold_exclusive(h, op, id));
    // backward: r[i] = a[i] op ... op a[n-1]
    std::vector<T> back(h.size());
    for (std::size_t i = h.size(); i-- > 0;) back[i] = i + 1 == h.size() ? h[i] : op(h[i], back[i + 1]);
    CHECK(sv::backward_inclusive_scan(a, op).to_host() == back);

    const auto heads = test::random_flags(h.size(), test::flag_pattern::sparse, seed);
    sv::vector<bool> flags(heads);
    segment_folds<T, Op> want(h, heads, op, id);
    CHECK(sv::segmented_scan(a, flags, op).to_host() == want.exclusive);
    CHECK(sv::segmented_inclusive_scan(a, flags, op).to_host() == want.inclusive);
    CHECK(sv::segmented_backward_inclusive_scan(a, flags, op).to_host() == want.backward_inclusive);
    CHECK(sv::segmented_reduce(a, flags, op).to_host() == want.totals);
    const auto segs = sv::segments::from_flags(flags);
    CHECK(sv::reduce(a, segs, op).to_host() == want.totals);
    CHECK(sv::inclusive_scan(a, segs, op).to_host() == want.inclusive);
}

const std::vector<std::size_t> past_a_tile = test::sizes_upto_env({0, 1, 2, 33, 1000, 4095, 4097, 65537, 1000003});

}  // namespace

TEST_CASE("2x2 integer matrix products: every operator primitive equals a left fold") {
    for (std::size_t n : past_a_tile) {
        CAPTURE(n);
        auto e = test::random_values<std::uint32_t>(4 * n, 71, 0u, 0xffffffffu);
        std::vector<mat2> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = {e[4 * i], e[4 * i + 1], e[4 * i + 2], e[4 * i + 3]};
        check_every_operator_primitive(h, sv::monoid(nc::mat_mul{}, mat2{1, 0, 0, 1}), 72);
    }
}

TEST_CASE("affine maps packed in a uint64 with a user monoid: every operator primitive equals a left fold") {
    for (std::size_t n : past_a_tile) {
        CAPTURE(n);
        auto h = test::random_values<std::uint64_t>(n, 73, 0, ~std::uint64_t(0) >> 1);
        check_every_operator_primitive(h, sv::monoid(nc::affine_then{}, affine_id), 74);
    }
}

TEST_CASE("an operator is treated as commutative only when it says so") {
    static_assert(sv::is_commutative_v<sv::plus<int>> && sv::is_commutative_v<sv::max<float>> &&
                  sv::is_commutative_v<sv::logical_or> && sv::is_commutative_v<sv::bit_xor<unsigned>>);
    static_assert(!sv::is_commutative_v<decltype(sv::monoid(nc::affine_then{}, affine_id))>);
    static_assert(sv::is_commutative_v<decltype(sv::commutative_monoid(sv::plus<int>{}, 0))>);
    // a declared-commutative monoid still reduces right
    sv::vector<int> a(test::random_values<int>(100003, 75));
    auto h = a.to_host();
    long long want = 0;
    for (int x : h) want += x;
    CHECK(sv::reduce(sv::lazy::map(SCANVEC_FN(int x) { return (long long)x; }, a),
                     sv::commutative_monoid(sv::plus<long long>{}, 0LL)) == want);
}
