// tour - a walk through the scan-vector model, on Blelloch's small examples.
//
// Each primitive is applied to the vectors from "Vector Models for
// Data-Parallel Computing" and printed as a table, one row per vector. The
// program checks its own results (exit code 1 on a wrong answer), so it is
// also a test. Run it with the host preset on any machine, or the cuda preset
// on a GPU.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>

namespace sv = scanvec;

static void expect(bool ok, const char* what) {
    if (!ok) {
        std::cerr << "tour: wrong result in " << what << "\n";
        std::exit(1);
    }
}

int main() {
    std::cout << "scanvec tour (" << sv::backend_name() << " backend)\n\n";

    std::cout << "-- elementwise: r[i] = a[i] + b[i]\n";
    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    sv::vector<int> b = {1, 1, 1, 1, 2, 2, 2, 2};
    auto sum = sv::map(SCANVEC_FN(int x, int y) { return x + y; }, a, b);
    std::cout << sv::table().row("A", a).row("B", b).row("A + B", sum) << "\n";
    expect(sum.to_host() == std::vector<int>{4, 2, 8, 1, 6, 3, 8, 5}, "map");

    std::cout << "-- scans: +-scan and max-scan (exclusive), the reduction\n";
    auto plus_scan = sv::scan(a);
    auto max_scan = sv::scan(a, sv::max<int>{});
    std::cout << sv::table().row("A", a).row("+-scan(A)", plus_scan).row("max-scan(A)", max_scan);
    std::cout << "+-reduce(A) = " << sv::reduce(a) << "\n\n";
    expect(plus_scan.to_host() == std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22}, "scan");
    expect(sv::reduce(a) == 25, "reduce");

    std::cout << "-- permute and back-permute\n";
    sv::vector<char> letters = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
    sv::vector<int> idx = {2, 5, 4, 3, 1, 6, 0, 7};
    auto permuted = sv::permute(sv::index<int>(8), idx);
    auto gathered = sv::back_permute(a, idx);
    std::cout << sv::table().row("A", a).row("I", idx).row("permute(0..7, I)", permuted)
                             .row("back-permute(A, I)", gathered) << "\n";
    expect(gathered.to_host() == std::vector<int>{7, 1, 4, 0, 1, 6, 3, 3}, "back_permute");

    std::cout << "-- segmented +-scan: restart at each head flag\n";
    sv::vector<int> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    sv::vector<bool> heads = {true, false, false, false, true, false, false, false, false, true};
    auto seg = sv::segmented_scan(v, heads);
    auto sums = sv::segmented_reduce(v, heads);
    std::cout << sv::table().row("A", v).row("Flags", heads).row("seg-+-scan(A)", seg)
                             .row("seg-index", sv::segmented_index(heads))
                             .row("seg-+-reduce(A)", sums) << "\n";
    expect(seg.to_host() == std::vector<int>{0, 1, 3, 6, 0, 5, 11, 18, 26, 0}, "segmented_scan");

    std::cout << "-- enumerate, pack and split on the flags of Blelloch's split example\n";
    sv::vector<int> keys = {5, 7, 3, 1, 4, 2, 7, 2};
    auto odd = sv::map(SCANVEC_FN(int k) { return (k & 1) == 1; }, keys);
    auto split = sv::split(keys, odd);
    std::cout << sv::table().row("A", keys).row("Flags", odd).row("enumerate(Flags)", sv::enumerate(odd))
                             .row("pack(A, Flags)", sv::pack(keys, odd)).row("split(A, Flags)", split) << "\n";
    expect(split.to_host() == std::vector<int>{4, 2, 2, 5, 7, 3, 1, 7}, "split");

    std::cout << "tour: all results checked\n";
    return 0;
}
