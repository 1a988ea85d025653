// dist_tour: every public sv::dist call once, on 40 elements, checked.
//
//     mpirun -np 2 ./dist_tour
//
// A compact companion to dist_sort: each primitive of <scanvec/dist.hpp>
// runs once on small data and its gathered result is compared on rank 0 with
// a sequential loop. Cheap to compile, so CI's nvcc check covers the whole
// distributed interface without the distributed tests (tests/dist).
#include <scanvec/dist.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace sv = scanvec;

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
    if (!ok) {
        ++failures;
        std::printf("dist_tour: %s WRONG\n", what);
    }
}

// Gathers d (collective) and compares it with want on rank 0.
template <class T> void expect_gathered(const sv::dist::vector<T>& d, const std::vector<T>& want, const char* what) {
    const auto got = d.to_host();
    if (sv::dist::world().rank() == 0) expect(got == want, what);
}

// The exclusive (inclusive) sums of x, forward or backward, restarting at every head.
std::vector<int> sums(const std::vector<int>& x, const std::vector<int>& heads, bool inclusive, bool backward) {
    const int n = int(x.size());
    std::vector<int> r(x.size());
    int carry = 0;
    for (int k = 0; k < n; ++k) {
        const int i = backward ? n - 1 - k : k;
        // going backward a segment restarts after its last element: where the next one's head is
        if (!backward && heads[std::size_t(i)]) carry = 0;
        if (backward && (i == n - 1 || heads[std::size_t(i) + 1])) carry = 0;
        r[std::size_t(i)] = inclusive ? carry + x[std::size_t(i)] : carry;
        carry += x[std::size_t(i)];
    }
    return r;
}

void tour() {
    const auto& world = sv::dist::world();
    const int p = world.size();
    const int n = 40;
    std::vector<int> a(n), flags(n), digits(n);
    std::vector<sv::index_t> to(n);
    for (int i = 0; i < n; ++i) {
        a[std::size_t(i)] = (i * 7919) % 101 - 50;
        flags[std::size_t(i)] = (i % 3 == 0 || i % 7 == 0) ? 1 : 0;  // flags[0] = 1: a head first
        digits[std::size_t(i)] = (a[std::size_t(i)] + 50) % 3;
        to[std::size_t(i)] = (i * 7) % n;  // 7 and 40 coprime: a permutation
    }
    const std::vector<int> none(n, 0);

    auto da = sv::dist::vector<int>::scatter(a);  // even blocks from rank 0
    auto df = sv::dist::vector<int>::scatter(flags);
    auto dd = sv::dist::vector<int>::scatter(digits);
    auto dto = sv::dist::vector<sv::index_t>::scatter(to);
    expect_gathered(da, a, "scatter, to_host");

    // elementwise
    std::vector<int> twice(n), iota(n);
    for (int i = 0; i < n; ++i) twice[std::size_t(i)] = 2 * a[std::size_t(i)] + digits[std::size_t(i)], iota[std::size_t(i)] = i;
    expect_gathered(sv::dist::map(SCANVEC_FN(int x, int d) { return 2 * x + d; }, da, dd), twice, "map");
    expect_gathered(sv::dist::index<int>(n), iota, "index");
    expect_gathered(sv::dist::distribute(5, n), std::vector<int>(n, 5), "distribute");
    expect(sv::dist::extract(da, 17) == a[17], "extract");

    // scans and reductions
    int total = 0;
    for (int x : a) total += x;
    expect(sv::dist::reduce(da) == total, "reduce");
    expect(sv::dist::reduce(da, sv::max<int>{}) == *std::max_element(a.begin(), a.end()), "reduce (max)");
    std::vector<int> first_only(n, 0);
    first_only[0] = 1;
    expect_gathered(sv::dist::scan(da), sums(a, first_only, false, false), "scan");
    expect_gathered(sv::dist::inclusive_scan(da), sums(a, first_only, true, false), "inclusive_scan");
    expect_gathered(sv::dist::backward_scan(da), sums(a, none, false, true), "backward_scan");
    expect_gathered(sv::dist::backward_inclusive_scan(da), sums(a, none, true, true), "backward_inclusive_scan");
    std::vector<sv::index_t> ranks(n);
    sv::index_t kept = 0;
    for (int i = 0; i < n; ++i) ranks[std::size_t(i)] = kept, kept += flags[std::size_t(i)];
    expect_gathered(sv::dist::enumerate(df), ranks, "enumerate");
    expect(sv::dist::count(df) == kept, "count");

    // pack, split, multisplit
    std::vector<int> packed, split, by_digit;
    for (int i = 0; i < n; ++i)
        if (flags[std::size_t(i)]) packed.push_back(a[std::size_t(i)]);
    for (int f : {0, 1})
        for (int i = 0; i < n; ++i)
            if (flags[std::size_t(i)] == f) split.push_back(a[std::size_t(i)]);
    for (int d = 0; d < 3; ++d)
        for (int i = 0; i < n; ++i)
            if (digits[std::size_t(i)] == d) by_digit.push_back(a[std::size_t(i)]);
    expect_gathered(sv::dist::pack(da, df), packed, "pack");
    expect_gathered(sv::dist::split(da, df), split, "split");
    expect_gathered(sv::dist::multisplit(da, dd, 3), by_digit, "multisplit");

    // permutes, writes, layouts
    std::vector<int> permuted(n), gathered(n), combined(5, 1);
    for (int i = 0; i < n; ++i) {
        permuted[std::size_t(to[std::size_t(i)])] = a[std::size_t(i)];
        gathered[std::size_t(i)] = a[std::size_t(to[std::size_t(i)])];
        combined[std::size_t(i % 5)] += a[std::size_t(i)];
    }
    expect_gathered(sv::dist::permute(da, dto), permuted, "permute");
    expect_gathered(sv::dist::permute(da, dto, sv::unchecked), permuted, "permute (unchecked)");
    expect_gathered(sv::dist::back_permute(da, dto), gathered, "back_permute");
    expect_gathered(sv::dist::write(sv::dist::distribute(0, n), dto, da), permuted, "write");
    auto fifths = sv::dist::map(SCANVEC_FN(int i) { return i % 5; }, sv::dist::index<int>(n));
    expect_gathered(sv::dist::combining_write(sv::dist::distribute(1, 5), fifths, da, sv::plus<int>{}), combined,
                    "combining_write");
    std::vector<sv::index_t> on_last(std::size_t(p), 0);
    on_last.back() = n;
    auto lopsided = sv::dist::redistribute(da, on_last);
    expect(lopsided.local().size() == (world.rank() == p - 1 ? std::size_t(n) : 0), "redistribute (layout)");
    expect_gathered(lopsided, a, "redistribute");
    auto even = sv::dist::rebalance(lopsided);
    expect(even.offsets() == da.offsets(), "rebalance (layout)");
    expect_gathered(even, a, "rebalance");
    expect_gathered(sv::dist::vector<int>::scatter(a, on_last, 0), a, "scatter (block sizes)");

    // segmented, by head flags
    std::vector<int> segment_sums;
    for (int i = 0; i < n; ++i) {
        if (flags[std::size_t(i)]) segment_sums.push_back(0);
        segment_sums.back() += a[std::size_t(i)];
    }
    expect_gathered(sv::dist::segmented_scan(da, df), sums(a, flags, false, false), "segmented_scan");
    expect_gathered(sv::dist::segmented_inclusive_scan(da, df), sums(a, flags, true, false), "segmented_inclusive_scan");
    expect_gathered(sv::dist::segmented_backward_scan(da, df), sums(a, flags, false, true), "segmented_backward_scan");
    expect_gathered(sv::dist::segmented_backward_inclusive_scan(da, df), sums(a, flags, true, true),
                    "segmented_backward_inclusive_scan");
    expect_gathered(sv::dist::segmented_reduce(da, df), segment_sums, "segmented_reduce");

    // segmented, by a descriptor (empty segments too)
    const std::vector<int> lengths = {3, 0, 5, 1, 7, 2, 0, 9, 4, 9};  // 40 elements
    std::vector<int> heads(n, 0), lengths_sums;
    int at = 0;
    for (int len : lengths) {
        if (len > 0) heads[std::size_t(at)] = 1;
        int s = 0;
        for (int k = 0; k < len; ++k) s += a[std::size_t(at + k)];
        lengths_sums.push_back(s);
        at += len;
    }
    const auto segs = sv::dist::segments::from_lengths(sv::dist::vector<int>::scatter(lengths));
    expect(segs.count() == sv::index_t(lengths.size()) && segs.total() == n, "segments::from_lengths");
    expect_gathered(sv::dist::reduce(da, segs), lengths_sums, "reduce (segments)");
    expect_gathered(sv::dist::scan(da, segs), sums(a, heads, false, false), "scan (segments)");
    expect_gathered(sv::dist::inclusive_scan(da, segs), sums(a, heads, true, false), "inclusive_scan (segments)");
    expect_gathered(sv::dist::backward_scan(da, segs), sums(a, heads, false, true), "backward_scan (segments)");
    expect_gathered(sv::dist::backward_inclusive_scan(da, segs), sums(a, heads, true, true),
                    "backward_inclusive_scan (segments)");
    expect_gathered(sv::dist::segmented_scan(da, segs), sums(a, heads, false, false), "segmented_scan (segments)");
    expect_gathered(sv::dist::segmented_inclusive_scan(da, segs), sums(a, heads, true, false),
                    "segmented_inclusive_scan (segments)");
    expect_gathered(sv::dist::segmented_backward_scan(da, segs), sums(a, heads, false, true),
                    "segmented_backward_scan (segments)");
    expect_gathered(sv::dist::segmented_backward_inclusive_scan(da, segs), sums(a, heads, true, true),
                    "segmented_backward_inclusive_scan (segments)");

    // the sorts
    auto sorted = a;
    std::sort(sorted.begin(), sorted.end());
    expect_gathered(sv::dist::radix_sort(da), sorted, "radix_sort");
    expect_gathered(sv::dist::quicksort(da), sorted, "quicksort");
}

}  // namespace

int main(int argc, char** argv) {
    sv::dist::environment env(argc, argv);
    tour();
    const auto& world = sv::dist::world();
    // rank 0 compared the gathered vectors: its verdict is every rank's exit status
    failures = int(sv::dist::detail::broadcast(world, failures, 0, "dist_tour (MPI_Bcast)"));
    if (world.rank() == 0) std::printf("dist_tour on %d ranks: %s\n", world.size(), failures ? "FAILED" : "all calls checked");
    return failures ? 1 : 0;
}
