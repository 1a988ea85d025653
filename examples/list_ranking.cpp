// list_ranking - the distance of every element of a linked list to its end.
//
// List ranking by pointer jumping (Wyllie). Every element adds the rank of the
// element it points to and then points twice as far: two back-permutes per
// round, ceil(log2 n) rounds. The program prints the rounds for a list of ten
// elements stored in scrambled order, ranks a million-element list, checks
// both against a sequential walk, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <random>

namespace sv = scanvec;

static std::vector<sv::index_t> walk(const std::vector<sv::index_t>& next) {
    // from the head (the one element nobody points to) to the tail
    const std::size_t n = next.size();
    std::vector<bool> pointed(n);
    for (std::size_t i = 0; i < n; ++i) if (next[i] != sv::index_t(i)) pointed[next[i]] = true;
    sv::index_t at = sv::index_t(std::find(pointed.begin(), pointed.end(), false) - pointed.begin());
    std::vector<sv::index_t> rank(n);
    for (std::size_t k = 0; k < n; ++k, at = next[at]) rank[at] = sv::index_t(n - 1 - k);
    return rank;
}

int main() {
    std::cout << "list ranking (" << sv::backend_name() << " backend)\n\n";
    // the list 7 -> 2 -> 9 -> 0 -> 5 -> 1 -> 8 -> 3 -> 6 -> 4 (the tail points at itself)
    sv::vector<sv::index_t> next = {5, 8, 9, 6, 4, 1, 4, 2, 3, 0};
    // The rounds, spelled out; sv::list_rank runs the same loop.
    sv::vector<sv::index_t> rank = sv::map(SCANVEC_FN(sv::index_t j, sv::index_t i) { return sv::index_t(j != i); },
                                           next, sv::lazy::index(next.size()));
    sv::vector<sv::index_t> ptr = next;
    sv::table t;
    t.row("Next", next).row("Rank (round 0)", rank);
    for (int round = 1; (1u << (round - 1)) < next.size(); ++round) {
        rank = sv::map(sv::plus<sv::index_t>{}, rank, sv::back_permute(rank, ptr));
        ptr = sv::back_permute(ptr, ptr);
        t.row("Rank (round " + std::to_string(round) + ")", rank);
    }
    auto ranked = sv::list_rank(next);
    std::cout << t.row("list_rank(Next)", ranked) << "\n";
    bool ok = ranked.to_host() == walk(next.to_host()) && rank.to_host() == ranked.to_host();

    // A million elements in random order.
    const std::size_t n = 1000000;
    std::vector<sv::index_t> order(n), big(n);
    std::iota(order.begin(), order.end(), sv::index_t(0));
    std::shuffle(order.begin(), order.end(), std::mt19937_64(2));
    for (std::size_t k = 0; k < n; ++k) big[order[k]] = order[k + 1 < n ? k + 1 : k];
    ok = ok && sv::list_rank(sv::vector<sv::index_t>(big)).to_host() == walk(big);
    std::cout << "a list of " << n << " elements ranked in 20 rounds\n";
    if (!ok) {
        std::cerr << "list_ranking: wrong result\n";
        return 1;
    }
    std::cout << "list_ranking: all results checked\n";
    return 0;
}
