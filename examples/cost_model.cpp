// cost_model - the model's cost, seen: steps and work against n.
//
// For n = 2^4, 2^5, ... 2^max it runs six programs on random input (host or
// CUDA backend) and prints one CSV line per program and size: its steps (the
// model's depth: leaf primitive calls, counted by sv::trace), its work
// (elements touched, summed over the steps) and its measured time (the
// second run). The programs and the depths the book gives them:
//
//   split              O(1)       a reduce and a fused scan-permute
//   segmented          O(1)       a segmented +-distribute: each element gets its segment's sum
//   split_radix_sort   O(bits)    one split per key bit: 64 steps for 32-bit keys
//   radix_sort         O(bits/k)  one multisplit pass per 8 bits
//   quicksort          O(log n)   expected rounds of a constant number of steps (the model's
//                                 rounds down to segments of one: sv::quicksort_rounds; the
//                                 library's sv::quicksort sorts short segments at once, and on
//                                 CUDA a vector of 2^12 is one short segment)
//   list_ranking       O(log n)   pointer jumping: ceil(log2 n) rounds
//
// `cost_model` runs up to 2^12 and checks those shapes (exit 1 if one fails),
// so it is also a test; `cost_model 20` goes to 2^20 for the plots
// (docs/plot-cost-model.sh draws docs/images/cost-model.png). docs/trace.md
// reads the plot.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <numeric>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sv = scanvec;

struct is_odd {
    SCANVEC_HD bool operator()(int k) const { return (k & 1) == 1; }
};

struct cost {
    std::size_t steps, work;
    double ms;
};

/// The second run of program(), timed and traced (the first warms the memory cache).
template <class Program> cost measure(Program program) {
    (void)program();
    sv::trace t;
    const auto t0 = std::chrono::steady_clock::now();
    auto out = program();
    if (out.size()) (void)out[out.size() - 1];  // an element read waits for the device
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return {t.steps(), t.work(), ms};
}

int main(int argc, char** argv) {
    const int max_log = argc > 1 ? std::atoi(argv[1]) : 12;
    if (max_log < 6 || max_log > 30) {
        std::cerr << "cost_model [max log2 n, 6 to 30]\n";
        return 2;
    }
    std::map<std::string, std::vector<std::size_t>> steps;  // per program, per size
    std::cout << "program,log2n,n,steps,work,ms\n";
    for (int lg = 4; lg <= max_log; ++lg) {
        const std::size_t n = std::size_t(1) << lg;
        std::mt19937 rng(2026 + lg);
        std::vector<int> h(n);
        for (auto& x : h) x = int(rng());
        const sv::vector<int> keys(h);
        // small values for the sums (random keys would overflow int)
        std::vector<int> hv(n);
        for (std::size_t i = 0; i < n; ++i) hv[i] = int(std::uint32_t(h[i]) % 1000u);
        const sv::vector<int> values(hv);
        // segments of 1 to 16 elements, at random
        std::vector<bool> hh(n);
        for (std::size_t i = 0; i < n; i += 1 + rng() % 16) hh[i] = true;
        const sv::vector<bool> heads(hh);
        // a list through the elements in random order; the tail points at itself
        std::vector<sv::index_t> order(n), next(n);
        std::iota(order.begin(), order.end(), sv::index_t(0));
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t k = 0; k < n; ++k) next[order[k]] = order[k + 1 < n ? k + 1 : k];
        const sv::vector<sv::index_t> list(next);

        const std::pair<const char*, cost> rows[] = {
            {"split", measure([&] { return sv::split(keys, sv::lazy::map(is_odd{}, keys)); })},
            {"segmented", measure([&] {
                 return sv::back_permute(sv::segmented_reduce(values, heads), sv::segment_ids(heads));
             })},
            {"split_radix_sort", measure([&] { return sv::split_radix_sort(keys); })},
            {"radix_sort", measure([&] { return sv::radix_sort(keys); })},
            {"quicksort", measure([&] { return sv::quicksort_rounds(keys, [](int, const auto&, const auto&) {}).sorted; })},
            {"list_ranking", measure([&] { return sv::list_rank(list); })},
        };
        for (auto& [name, c] : rows) {
            std::cout << name << "," << lg << "," << n << "," << c.steps << "," << c.work << "," << c.ms << "\n";
            steps[name].push_back(c.steps);
        }
    }
    // the shapes the book gives them
    auto constant = [&](const char* p) {
        auto& s = steps[p];
        return std::all_of(s.begin(), s.end(), [&](std::size_t x) { return x == s.front(); });
    };
    bool ok = constant("split") && constant("segmented") && constant("split_radix_sort") && constant("radix_sort");
    ok = ok && steps["split_radix_sort"].front() == 64 && steps["split"].front() == 2;
    // pointer jumping: a constant number of steps per round, ceil(log2 n) rounds
    auto& lr = steps["list_ranking"];
    ok = ok && lr.back() > lr.front() && lr.back() - lr.front() <= std::size_t(8) * std::size_t(max_log - 4);
    auto& qs = steps["quicksort"];
    ok = ok && qs.back() > qs.front();
    if (!ok) {
        std::cerr << "cost_model: a program's steps do not have the shape the model gives them\n";
        return 1;
    }
    return 0;
}
