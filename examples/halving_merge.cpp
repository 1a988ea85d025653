// halving_merge - merging two sorted vectors by recursion on their odd halves.
//
// Blelloch's halving merge. The odd-indexed elements of both vectors are
// merged recursively; between two neighbours of that half-size merge there is
// room for at most one even-indexed element of each vector, so one comparison
// per element places the rest. The recursion returns merge flags (F: the next
// element comes from A, T: from B) and a flag-merge builds the result. The
// program prints the first level on a small case, checks the results against
// std::merge (equal keys keep A's elements first), and exits with 1 on a wrong
// answer.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>

namespace sv = scanvec;

struct is_odd {
    SCANVEC_HD bool operator()(sv::index_t i) const { return (i & 1) != 0; }
};

int main() {
    std::cout << "halving merge (" << sv::backend_name() << " backend)\n\n";
    sv::vector<int> a = {1, 4, 6, 9, 12, 15, 17, 20};
    sv::vector<int> b = {2, 3, 6, 10, 11, 18, 21};
    auto a_odd = sv::pack(a, sv::lazy::map(is_odd{}, sv::lazy::index(a.size())));
    auto b_odd = sv::pack(b, sv::lazy::map(is_odd{}, sv::lazy::index(b.size())));
    auto f_odd = sv::halving_merge_flags(a_odd, b_odd);
    auto flags = sv::halving_merge_flags(a, b);
    auto merged = sv::halving_merge(a, b);
    std::cout << sv::table().row("A", a).row("B", b) << "\nthe odd-indexed halves, merged recursively:\n"
              << sv::table().row("A'", a_odd).row("B'", b_odd).row("F'", f_odd)
                            .row("flag-merge(F', A', B')", sv::flag_merge(f_odd, a_odd, b_odd))
              << "\nthe even elements placed gap by gap:\n"
              << sv::table().row("F", flags).row("flag-merge(F, A, B)", merged) << "\n";

    std::vector<int> want;
    auto ha = a.to_host(), hb = b.to_host();
    std::merge(ha.begin(), ha.end(), hb.begin(), hb.end(), std::back_inserter(want));
    bool ok = merged.to_host() == want;

    // Larger inputs with many equal keys.
    std::mt19937 rng(5);
    std::vector<int> la(300000), lb(200001);
    for (auto& x : la) x = int(rng() % 1000);
    for (auto& x : lb) x = int(rng() % 1000);
    std::sort(la.begin(), la.end());
    std::sort(lb.begin(), lb.end());
    std::vector<int> lwant;
    std::merge(la.begin(), la.end(), lb.begin(), lb.end(), std::back_inserter(lwant));
    ok = ok && sv::halving_merge(sv::vector<int>(la), sv::vector<int>(lb)).to_host() == lwant;
    std::cout << "merged " << la.size() << " + " << lb.size() << " keys\n";
    if (!ok) {
        std::cerr << "halving_merge: wrong result\n";
        return 1;
    }
    std::cout << "halving_merge: all results checked\n";
    return 0;
}
