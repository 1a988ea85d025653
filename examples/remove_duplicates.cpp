// remove_duplicates - the distinct values of a vector, in order of first occurrence.
//
// A sort in the model does the grouping: rank gives every element its place in
// a stable sort, so equal values end up side by side with their first
// occurrence in front; comparing each sorted element with its left neighbour
// flags the first of every run, a back-permute returns the flags to the
// elements' own positions, and a pack keeps the flagged ones. The program
// prints the steps, checks a larger case against a sequential pass with a
// hash set, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>
#include <random>
#include <unordered_set>

namespace sv = scanvec;

static std::vector<int> sequential(const std::vector<int>& a) {
    std::unordered_set<int> seen;
    std::vector<int> r;
    for (int x : a) if (seen.insert(x).second) r.push_back(x);
    return r;
}

int main() {
    std::cout << "remove duplicates (" << sv::backend_name() << " backend)\n\n";
    sv::vector<int> a = {5, 3, 5, 8, 1, 3, 3, 9, 8, 2, 5, 1};
    auto r = sv::rank(a);
    auto s = sv::permute(a, r);
    auto distinct = sv::remove_duplicates(a);
    std::cout << sv::table().row("A", a).row("R = rank(A)", r).row("S = permute(A, R)", s)
                            .row("remove-duplicates(A)", distinct)
              << "\n";
    bool ok = distinct.to_host() == std::vector<int>{5, 3, 8, 1, 9, 2};

    std::mt19937 rng(4);
    std::vector<int> big(500000);
    for (auto& x : big) x = int(rng() % 20000) - 10000;
    auto got = sv::remove_duplicates(sv::vector<int>(big));
    ok = ok && got.to_host() == sequential(big);
    std::cout << big.size() << " random values: " << got.size() << " distinct\n";
    if (!ok) {
        std::cerr << "remove_duplicates: wrong result\n";
        return 1;
    }
    std::cout << "remove_duplicates: all results checked\n";
    return 0;
}
