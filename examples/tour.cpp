// tour - a walk through the scan-vector model, on Blelloch's small examples.
//
// Part 1: each primitive on the vectors from "Vector Models for Data-Parallel
// Computing", under an sv::trace that prints every call as a table, one row
// per vector. Part 2: split, split radix sort and quicksort traced on 16 keys,
// with their steps (the model's depth) and work. Part 3: the same programs on
// 10^6 random keys (10^7 on a GPU), timed, with their step and work totals.
// The program checks its own results (exit code 1 on a wrong answer), so it is
// also a test. Run it with the host preset on any machine, or the cuda preset
// on a GPU. `tour --html trace.html` also draws part 2's programs as one HTML
// page (docs/trace.md; docs/render-trace.sh renders it to a PNG).
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <random>
#include <string>

namespace sv = scanvec;

static void expect(bool ok, const char* what) {
    if (!ok) {
        std::cerr << "tour: wrong result in " << what << "\n";
        std::exit(1);
    }
}

struct is_odd {
    SCANVEC_HD bool operator()(int k) const { return (k & 1) == 1; }
};

/// Part 2: a program on 16 keys; the trace prints each of its steps and the totals.
template <class Program> void traced(const char* title, const sv::vector<int>& keys, Program program) {
    std::cout << "-- " << title << " on 16 keys\n";
    sv::vector<int> sorted;
    {
        sv::trace t(std::cout, 16);
        sorted = program(keys);
    }
    auto want = keys.to_host();
    std::sort(want.begin(), want.end());
    std::cout << "result: " << sv::table().row("sorted", sorted) << "\n";
    expect(sorted.to_host() == want, title);
}

/// Part 3: a program on many random keys, timed, its steps and work counted.
template <class Program>
void timed(const char* title, const sv::vector<int>& keys, const std::vector<int>* want, Program program) {
    sv::vector<int> out = program(keys);  // warm-up: the memory cache fills, kernels load
    sv::trace t;
    const auto t0 = std::chrono::steady_clock::now();
    out = program(keys);
    (void)out[out.size() - 1];  // an element read waits for the device
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "  " << std::left << std::setw(18) << title << std::right << std::setw(10) << std::fixed
              << std::setprecision(2) << ms << " ms " << std::setw(8) << t.steps() << " steps   work "
              << std::setw(12) << t.work() << "  (" << std::setprecision(1) << double(t.work()) / keys.size()
              << " n)\n";
    if (want) expect(out.to_host() == *want, title);
}

/// The pictures: split, a segmented scan, a permute and quicksort's rounds on
/// the tour's small vectors, as one self-contained HTML page at path.
static void draw(const std::string& path, const sv::vector<int>& sixteen) {
    sv::trace_options o;
    o.html = path;
    o.title = "scanvec tour: split, a segmented scan, a permute, quicksort";
    sv::trace t(o);
    auto s = sv::split(sixteen, sv::lazy::map(is_odd{}, sixteen));
    sv::vector<int> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    sv::vector<bool> heads = {true, false, false, false, true, false, false, false, false, true};
    auto seg = sv::segmented_scan(v, heads);
    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    sv::vector<int> idx = {2, 5, 4, 3, 1, 6, 0, 7};
    auto permuted = sv::permute(a, idx);
    auto q = sv::quicksort_rounds(sixteen, [](int, const auto&, const auto&) {});
    expect(seg.to_host()[9] == 0 && permuted.to_host()[2] == 3 && q.sorted.to_host()[0] == 0 && s.size() == 16, "draw");
}

int main(int argc, char** argv) {
    std::string html;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--html") html = argv[i + 1];
    std::cout << "scanvec tour (" << sv::backend_name() << " backend)\n\n";
    std::cout << "== part 1: the primitives, traced (each call, its lengths and its vectors)\n\n";

    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    {
        sv::trace t(std::cout);  // every primitive below prints its inputs and output
        std::cout << "-- elementwise: r[i] = a[i] + b[i]\n";
        sv::vector<int> b = {1, 1, 1, 1, 2, 2, 2, 2};
        auto sum = sv::map(SCANVEC_FN(int x, int y) { return x + y; }, a, b);
        expect(sum.to_host() == std::vector<int>{4, 2, 8, 1, 6, 3, 8, 5}, "map");

        std::cout << "\n-- scans: +-scan and max-scan (exclusive), the +-reduction\n";
        auto plus_scan = sv::scan(a);
        auto max_scan = sv::scan(a, sv::max<int>{});
        const int total = sv::reduce(a);
        expect(plus_scan.to_host() == std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22}, "scan");
        expect(max_scan.to_host() == std::vector<int>{INT32_MIN, 3, 3, 7, 7, 7, 7, 7}, "max-scan");
        expect(total == 25, "reduce");

        std::cout << "\n-- permute (scatter) and back-permute (gather)\n";
        sv::vector<int> idx = {2, 5, 4, 3, 1, 6, 0, 7};
        auto permuted = sv::permute(a, idx);
        auto gathered = sv::back_permute(a, idx);
        expect(permuted.to_host() == std::vector<int>{6, 4, 3, 0, 7, 1, 1, 3}, "permute");
        expect(gathered.to_host() == std::vector<int>{7, 1, 4, 0, 1, 6, 3, 3}, "back_permute");

        std::cout << "\n-- segmented +-scan and +-reduce: restart at each head flag\n";
        sv::vector<int> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        sv::vector<bool> heads = {true, false, false, false, true, false, false, false, false, true};
        auto seg = sv::segmented_scan(v, heads);
        auto sums = sv::segmented_reduce(v, heads);
        expect(seg.to_host() == std::vector<int>{0, 1, 3, 6, 0, 5, 11, 18, 26, 0}, "segmented_scan");
        expect(sums.to_host() == std::vector<int>{10, 35, 10}, "segmented_reduce");

        std::cout << "\n-- enumerate, pack and split on the flags of Blelloch's split example\n";
        sv::vector<int> keys = {5, 7, 3, 1, 4, 2, 7, 2};
        auto odd = sv::map(is_odd{}, keys);
        expect(sv::enumerate(odd).to_host<int>() == std::vector<int>{0, 1, 2, 3, 4, 4, 4, 5}, "enumerate");
        expect(sv::pack(keys, odd).to_host() == std::vector<int>{5, 7, 3, 1, 7}, "pack");
        expect(sv::split(keys, odd).to_host() == std::vector<int>{4, 2, 2, 5, 7, 3, 1, 7}, "split");
        std::cout << "\n";
    }

    std::cout << "\n== part 2: programs of primitives, traced on 16 keys (steps = the model's depth)\n";
    std::cout << "   (a composite call first, the steps it is made of indented beneath it)\n\n";
    sv::vector<int> sixteen = {9, 4, 12, 1, 7, 4, 15, 3, 8, 11, 0, 6, 4, 14, 2, 10};
    {
        std::cout << "-- split(A, odd(A)): evens left, odds right, each in order\n";
        sv::trace t(std::cout);
        auto s = sv::split(sixteen, sv::lazy::map(is_odd{}, sixteen));
        expect(s.to_host() == std::vector<int>{4, 12, 4, 8, 0, 6, 4, 14, 2, 10, 9, 1, 7, 15, 3, 11}, "split of 16");
    }
    std::cout << "\n";
    // split radix sort: one split per key bit, so 32 times split's steps (the
    // tables are left out: 32 splits of 16 keys)
    {
        std::cout << "-- split_radix_sort(A): one split per bit of the key\n";
        sv::trace t;
        auto s = sv::split_radix_sort(sixteen);
        std::cout << "sorted: " << sv::table().row("A", s);
        t.summary(std::cout);
        auto want = sixteen.to_host();
        std::sort(want.begin(), want.end());
        expect(s.to_host() == want, "split_radix_sort of 16");
    }
    std::cout << "\n";
    // quicksort_rounds with a watcher runs every round down to segments of one;
    // sv::quicksort would sort these 16 keys at once by its base case. Each
    // round shows the book's picture of it: the pivot of each segment over
    // all of it, the three-way flags F, where the split sends each key, and
    // the keys and segment heads after it; its steps beneath it, their helper
    // passes folded (sv::trace_options::internals unfolds them)
    traced("quicksort(A): every segment split in one round", sixteen, [](const sv::vector<int>& k) {
        return sv::quicksort_rounds(k, [](int, const auto&, const auto&) {}).sorted;
    });

    if (!html.empty()) {
        draw(html, sixteen);
        std::cout << "\n(part 2 drawn in " << html << ")\n";
    }

    const std::size_t n = sv::backend_name() == std::string("cuda") ? 10000000 : 1000000;
    std::cout << "\n== part 3: the same programs on " << n << " random int32 keys (" << sv::backend_name()
              << " backend, second run timed)\n\n";
    std::vector<int> h(n);
    std::mt19937 rng(2026);
    for (auto& x : h) x = int(rng());
    sv::vector<int> big(h);
    auto want = h;
    std::sort(want.begin(), want.end());
    timed("split", big, nullptr,  // checked below against a stable partition
          [](const sv::vector<int>& k) { return sv::split(k, sv::lazy::map(is_odd{}, k)); });
    {
        auto got = sv::split(big, sv::lazy::map(is_odd{}, big)).to_host();
        std::vector<int> ref;
        for (int x : h) if (!(x & 1)) ref.push_back(x);
        for (int x : h) if (x & 1) ref.push_back(x);
        expect(got == ref, "split of random keys");
    }
    timed("split_radix_sort", big, &want, [](const sv::vector<int>& k) { return sv::split_radix_sort(k); });
    timed("radix_sort (8-bit)", big, &want, [](const sv::vector<int>& k) { return sv::radix_sort(k); });
    int rounds = 0;
    timed("quicksort", big, &want, [&](const sv::vector<int>& k) { return sv::quicksort(k, &rounds); });
    std::cout << "  quicksort took " << rounds << " rounds (log2 n = " << std::setprecision(1)
              << std::log2(double(n)) << ")\n\n";

    std::cout << "tour: all results checked\n";
    return 0;
}
