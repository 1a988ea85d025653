// Distributed reduce, scans (forward and backward, exclusive and inclusive),
// enumerate, count and segmented scans, on every layout and size, against
// sequential loops over the host data; non-commutative monoids on plain
// values (affine maps in a uint64) and on a described struct (2x2 matrices).
#include "dist_support.hpp"

using namespace dtest;

namespace {

template <class T, class Op> std::vector<T> seq_scan(const std::vector<T>& a, Op op, T id, bool inclusive, bool backward) {
    const std::size_t n = a.size();
    std::vector<T> r(n);
    T acc = id;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = backward ? n - 1 - k : k;
        if (!inclusive) r[i] = acc;
        acc = backward ? op(a[i], acc) : op(acc, a[i]);
        if (inclusive) r[i] = acc;
    }
    return r;
}

template <class T, class Op> T seq_reduce(const std::vector<T>& a, Op op, T id) {
    T acc = id;
    for (const T& x : a) acc = op(acc, x);
    return acc;
}

template <class T, class Op>
std::vector<T> seq_segmented(const std::vector<T>& a, const std::vector<bool>& f, Op op, T id, bool inclusive) {
    std::vector<T> r(a.size());
    T acc = id;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (i == 0 || f[i]) acc = id;
        if (!inclusive) r[i] = acc;
        acc = op(acc, a[i]);
        if (inclusive) r[i] = acc;
    }
    return r;
}

/// Every scan of a (host data, also given distributed as d) against the sequential loops.
template <class T, class Op> void check_scans(const std::vector<T>& a, const sv::dist::vector<T>& d, Op op, T id) {
    CHECK(gathered_equals(sv::dist::scan(d, op), seq_scan(a, op, id, false, false)));
    CHECK(gathered_equals(sv::dist::inclusive_scan(d, op), seq_scan(a, op, id, true, false)));
    CHECK(gathered_equals(sv::dist::backward_scan(d, op), seq_scan(a, op, id, false, true)));
    CHECK(gathered_equals(sv::dist::backward_inclusive_scan(d, op), seq_scan(a, op, id, true, true)));
    const T total = sv::dist::reduce(d, op);
    CHECK(total == seq_reduce(a, op, id));  // on every rank
}

}  // namespace

TEST_CASE("dist scans and reduce with plus and max") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto a = random_values<long long>(n, 10 + n);
            auto d = spread_out(a, s, n);
            check_scans(a, d, sv::plus<long long>{}, 0ll);
            check_scans(a, d, sv::max<long long>{}, std::numeric_limits<long long>::lowest());
            CHECK(gathered_equals(sv::dist::scan(d), seq_scan(a, sv::plus<long long>{}, 0ll, false, false)));
        }
    }
}

TEST_CASE("dist scans with a non-commutative monoid") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto a = random_affine(n, 20 + n);
            auto d = spread_out(a, s, n + 1);
            check_scans(a, d, sv::monoid(affine_then{}, affine_identity), affine_identity);
        }
    }
}

TEST_CASE("dist scans of a described struct with a non-commutative product") {
    for (spread s : spreads) {
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(7), std::size_t(1001)}) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto v = random_values<std::uint32_t>(4 * n, 30 + n, 0, 1000);
            std::vector<mat2> a(n);
            for (std::size_t i = 0; i < n; ++i) a[i] = {v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]};
            auto d = spread_out(a, s, n + 2);
            check_scans(a, d, mat2_product{}, mat2{1, 0, 0, 1});
        }
    }
}

TEST_CASE("dist enumerate and count") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            for (double p : {0.0, 0.1, 0.5, 1.0}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(p);
                const auto f = random_flags(n, p, 40 + n);
                auto d = spread_out(f, s, n + 3);
                std::vector<sv::index_t> want(n);
                sv::index_t c = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    want[i] = c;
                    c += f[i] ? 1 : 0;
                }
                CHECK(gathered_equals(sv::dist::enumerate(d), want));
                CHECK(sv::dist::count(d) == c);
            }
        }
    }
}

TEST_CASE("dist segmented scans with segments crossing ranks") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            for (double p : {0.0, 0.02, 0.3, 1.0}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(p);
                const auto f = random_flags(n, p, 50 + n);
                const auto a = random_values<int>(n, 60 + n);
                auto da = spread_out(a, s, n + 4);
                auto df = spread_out(f, spread::even);  // other blocks: moved to a's
                CHECK(gathered_equals(sv::dist::segmented_scan(da, df), seq_segmented(a, f, sv::plus<int>{}, 0, false)));
                CHECK(gathered_equals(sv::dist::segmented_inclusive_scan(da, df),
                                      seq_segmented(a, f, sv::plus<int>{}, 0, true)));
                const auto m = random_affine(n, 70 + n);
                auto dm = spread_out(m, s, n + 5);
                auto op = sv::monoid(affine_then{}, affine_identity);
                CHECK(gathered_equals(sv::dist::segmented_scan(dm, df, op), seq_segmented(m, f, op, affine_identity, false)));
                CHECK(gathered_equals(sv::dist::segmented_inclusive_scan(dm, df, op),
                                      seq_segmented(m, f, op, affine_identity, true)));
            }
        }
    }
}

TEST_CASE("dist segmented scan of the book's example") {
    // 1..10 with heads T F F F T F F F F T gives 0 1 3 6 0 5 11 18 26 0, whatever the blocks
    std::vector<int> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    std::vector<bool> f = {true, false, false, false, true, false, false, false, false, true};
    for (spread s : spreads) {
        CAPTURE(name(s));
        auto r = sv::dist::segmented_scan(spread_out(a, s), spread_out(f, s));
        CHECK(gathered_equals(r, std::vector<int>{0, 1, 3, 6, 0, 5, 11, 18, 26, 0}));
    }
}

// One value per segment, each on the rank of its segment's head, against a sequential loop.
template <class T, class Op> std::vector<T> seq_segmented_reduce(const std::vector<T>& a, const std::vector<bool>& f, Op op, T id) {
    std::vector<T> r;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (i == 0 || f[i]) r.push_back(id);
        r.back() = op(r.back(), a[i]);
    }
    return r;
}

TEST_CASE("dist segmented_reduce with segments crossing ranks") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            for (double p : {0.0, 0.02, 0.3, 1.0}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(p);
                const auto f = random_flags(n, p, 80 + n);
                const auto a = random_values<int>(n, 90 + n);
                auto da = spread_out(a, s, n + 6);
                auto df = spread_out(f, spread::random, n + 7);  // other blocks: moved to a's
                auto r = sv::dist::segmented_reduce(da, df);
                CHECK(layout_consistent(r));
                CHECK(gathered_equals(r, seq_segmented_reduce(a, f, sv::plus<int>{}, 0)));
                CHECK(gathered_equals(r, sv::segmented_reduce(sv::vector<int>(a), sv::vector<bool>(f)).to_host()));
                const auto m = random_affine(n, 100 + n);
                auto op = sv::monoid(affine_then{}, affine_identity);
                CHECK(gathered_equals(sv::dist::segmented_reduce(spread_out(m, s, n + 8), df, op),
                                      seq_segmented_reduce(m, f, op, affine_identity)));
            }
        }
    }
}

// Backward segmented scans, sequentially: r[i] folds a[i+1] (a[i] inclusive) .. the last element of i's segment.
template <class T, class Op>
std::vector<T> seq_segmented_backward(const std::vector<T>& a, const std::vector<bool>& f, Op op, T id, bool inclusive) {
    const std::size_t n = a.size();
    std::vector<T> r(n);
    T acc = id;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = n - 1 - k;
        if (i + 1 == n || f[i + 1]) acc = id;
        if (!inclusive) r[i] = acc;
        acc = op(a[i], acc);
        if (inclusive) r[i] = acc;
    }
    return r;
}

/// The four segmented scans of a by f, distributed, against the one-device calls and the sequential loops.
template <class T, class Op>
void check_segmented_scans(const std::vector<T>& a, const std::vector<bool>& f, const sv::dist::vector<T>& da,
                           const sv::dist::vector<bool>& df, Op op, T id) {
    const sv::vector<T> la(a);
    const sv::vector<bool> lf(f);
    CHECK(gathered_equals(sv::dist::segmented_scan(da, df, op), sv::segmented_scan(la, lf, op).to_host()));
    CHECK(gathered_equals(sv::dist::segmented_inclusive_scan(da, df, op), sv::segmented_inclusive_scan(la, lf, op).to_host()));
    const auto bx = sv::dist::segmented_backward_scan(da, df, op);
    CHECK(layout_consistent(bx));
    CHECK(bx.offsets() == da.offsets());
    CHECK(gathered_equals(bx, sv::segmented_backward_scan(la, lf, op).to_host()));
    CHECK(gathered_equals(bx, seq_segmented_backward(a, f, op, id, false)));
    const auto bi = sv::dist::segmented_backward_inclusive_scan(da, df, op);
    CHECK(gathered_equals(bi, sv::segmented_backward_inclusive_scan(la, lf, op).to_host()));
    CHECK(gathered_equals(bi, seq_segmented_backward(a, f, op, id, true)));
}

TEST_CASE("dist backward segmented scans with segments crossing ranks") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            for (double p : {0.0, 0.02, 0.3, 1.0}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(p);
                const auto f = random_flags(n, p, 110 + n);
                const auto a = random_values<int>(n, 120 + n);
                auto df = spread_out(f, spread::random, n + 9);  // other blocks: moved to a's
                check_segmented_scans(a, f, spread_out(a, s, n + 10), df, sv::plus<int>{}, 0);
                check_segmented_scans(a, f, spread_out(a, s, n + 10), spread_out(f, s, n + 10), sv::max<int>{},
                                      std::numeric_limits<int>::lowest());
                const auto m = random_affine(n, 130 + n);
                check_segmented_scans(m, f, spread_out(m, s, n + 11), df, sv::monoid(affine_then{}, affine_identity),
                                      affine_identity);
            }
        }
    }
}

TEST_CASE("dist backward segmented scans of a described struct with a non-commutative product") {
    for (spread s : spreads) {
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(7), std::size_t(1001)}) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto v = random_values<std::uint32_t>(4 * n, 140 + n, 0, 1000);
            std::vector<mat2> a(n);
            for (std::size_t i = 0; i < n; ++i) a[i] = {v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]};
            const auto f = random_flags(n, 0.1, 150 + n);
            check_segmented_scans(a, f, spread_out(a, s, n + 12), spread_out(f, spread::even), mat2_product{},
                                  mat2{1, 0, 0, 1});
        }
    }
}

/// Segment lengths (zeros among them) for k segments: many zeros, a few long ones.
inline std::vector<int> random_lengths(std::size_t k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<int> len(k);
    for (auto& l : len) {
        const auto r = rng() % 8;
        l = r < 3 ? 0 : r < 7 ? int(rng() % 5) : int(rng() % 300);
    }
    return len;
}

/// The four scans by a descriptor (both names), distributed, against the one-device sv::scan(a, segments, op).
template <class T, class Op>
void check_descriptor_scans(const std::vector<T>& a, const sv::dist::segments& ds, const sv::segments& ls,
                            const sv::dist::vector<T>& da, Op op) {
    const sv::vector<T> la(a);
    const auto fx = sv::dist::scan(da, ds, op);
    CHECK(fx.offsets() == da.offsets());
    CHECK(gathered_equals(fx, sv::scan(la, ls, op).to_host()));
    CHECK(gathered_equals(sv::dist::segmented_scan(da, ds, op), sv::scan(la, ls, op).to_host()));
    CHECK(gathered_equals(sv::dist::inclusive_scan(da, ds, op), sv::inclusive_scan(la, ls, op).to_host()));
    CHECK(gathered_equals(sv::dist::segmented_inclusive_scan(da, ds, op), sv::inclusive_scan(la, ls, op).to_host()));
    CHECK(gathered_equals(sv::dist::backward_scan(da, ds, op), sv::backward_scan(la, ls, op).to_host()));
    CHECK(gathered_equals(sv::dist::segmented_backward_scan(da, ds, op), sv::backward_scan(la, ls, op).to_host()));
    CHECK(gathered_equals(sv::dist::backward_inclusive_scan(da, ds, op), sv::backward_inclusive_scan(la, ls, op).to_host()));
    CHECK(gathered_equals(sv::dist::segmented_backward_inclusive_scan(da, ds, op),
                          sv::backward_inclusive_scan(la, ls, op).to_host()));
}

TEST_CASE("dist scans by a segment descriptor with empty segments") {
    for (spread s : spreads) {
        for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(5),
                              std::size_t(40), std::size_t(700)}) {
            CAPTURE(name(s));
            CAPTURE(k);
            const auto len = random_lengths(k, 160 + k);
            const auto ds = sv::dist::segments::from_lengths(spread_out(len, s, k + 13));
            const auto ls = sv::segments::from_lengths(sv::vector<int>(len));
            const std::size_t n = std::size_t(ls.total());
            CHECK(ds.total() == ls.total());
            const auto a = random_values<long long>(n, 170 + k);
            check_descriptor_scans(a, ds, ls, spread_out(a, s, k + 14), sv::plus<long long>{});
            check_descriptor_scans(a, ds, ls, spread_out(a, spread::random, k + 15), sv::plus<long long>{});
            const auto m = random_affine(n, 180 + k);
            check_descriptor_scans(m, ds, ls, spread_out(m, s, k + 16), sv::monoid(affine_then{}, affine_identity));
        }
    }
    // All segments empty, and a length mismatch (thrown on every rank)
    const std::vector<int> zeros(5, 0);
    const auto dz = sv::dist::segments::from_lengths(spread_out(zeros, spread::even));
    CHECK(sv::dist::scan(sv::dist::vector<int>(sv::vector<int>(), comm()), dz).size() == 0);
    const auto d3 = sv::dist::segments::from_lengths(spread_out(std::vector<int>{1, 0, 2}, spread::even));
    CHECK_THROWS_AS((void)sv::dist::backward_scan(spread_out(std::vector<int>(4, 1), spread::even), d3), sv::length_error);
}
