// quicksort - Blelloch's segmented quicksort, every segment split in one round.
//
// Each round picks a pivot in every segment (the median of three medians of
// three hashed positions), compares every element with its segment's pivot,
// and splits every segment three ways at once - less, equal, greater - with
// segmented scans and one permute. The equal elements are finished; the less
// and greater groups are the next round's segments. The loop stops when no
// segment holds a descent, so the rounds are the depth of the recursion,
// O(log n) expected. The program prints the segments after each round on 16
// keys, sorts larger inputs (random, sorted, reversed, all equal, floats,
// records), checks them against std::sort, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

namespace sv = scanvec;

namespace ex {
struct point {
    float x;
    int id;
};
SCANVEC_HD inline bool operator<(const point& a, const point& b) { return a.x < b.x || (!(b.x < a.x) && a.id < b.id); }
SCANVEC_FIELDS(point, x, id)
}  // namespace ex

/// "[3 1 2 | 5 | 9 8]": the keys with a bar before every head but the first.
template <class Keys, class Heads> std::string segments(const Keys& keys, const Heads& heads) {
    auto k = keys.to_host();
    auto h = heads.to_host();
    std::ostringstream os;
    os << "[";
    for (std::size_t i = 0; i < k.size(); ++i) os << (i == 0 ? "" : h[i] ? " | " : " ") << k[i];
    os << "]";
    return os.str();
}

template <class T> bool sorts(const std::vector<T>& h, const char* what, int* rounds_out = nullptr) {
    int rounds = 0;
    auto got = sv::quicksort(sv::vector<T>(h), &rounds).to_host();
    auto want = h;
    std::sort(want.begin(), want.end());
    std::cout << "  " << what << ": " << h.size() << " keys in " << rounds << " rounds\n";
    if (rounds_out) *rounds_out = rounds;
    return got == want;
}

int main() {
    std::cout << "segmented quicksort (" << sv::backend_name() << " backend)\n\n";
    bool ok = true;

    sv::vector<int> a = {9, 4, 12, 1, 7, 4, 15, 3, 8, 11, 0, 6, 4, 14, 2, 10};
    std::cout << "round 0: [";
    for (std::size_t i = 0; i < a.size(); ++i) std::cout << (i ? " " : "") << a[i];
    std::cout << "]\n";
    auto result = sv::quicksort_rounds(a, [](int round, const auto& keys, const auto& heads) {
        std::cout << "round " << round << ": " << segments(keys, heads) << "\n";
    });
    auto want = a.to_host();
    std::sort(want.begin(), want.end());
    ok = ok && result.sorted.to_host() == want;
    std::cout << "sorted in " << result.rounds << " rounds\n\n";

    std::mt19937 rng(11);
    const std::size_t n = 1 << 20;
    std::vector<int> random(n), few(n);
    for (auto& x : random) x = int(rng());
    for (auto& x : few) x = int(rng() % 4);
    std::vector<int> sorted = random, reversed;
    std::sort(sorted.begin(), sorted.end());
    reversed.assign(sorted.rbegin(), sorted.rend());
    int r_sorted = 0, r_reversed = 0, r_equal = 0;
    ok = sorts(random, "random ints") && ok;
    ok = sorts(sorted, "sorted ints", &r_sorted) && ok;
    ok = sorts(reversed, "reversed ints", &r_reversed) && ok;
    ok = sorts(std::vector<int>(n, 42), "all equal", &r_equal) && ok;
    ok = sorts(few, "four distinct keys") && ok;
    std::vector<float> floats(n);
    for (auto& x : floats) x = std::ldexp(float(rng() % 100000) - 50000.f, -7);
    ok = sorts(floats, "floats") && ok;
    std::vector<ex::point> points(100000);
    for (std::size_t i = 0; i < points.size(); ++i) points[i] = {float(rng() % 1000), int(i)};
    auto got = sv::quicksort(sv::vector<ex::point>(points)).to_host();
    std::sort(points.begin(), points.end());
    for (std::size_t i = 0; i < points.size(); ++i) ok = ok && got[i].x == points[i].x && got[i].id == points[i].id;
    std::cout << "  points by (x, id): " << points.size() << " records\n";
    // O(log n) rounds whatever the order of the input
    ok = ok && r_sorted <= 4 * 20 + 8 && r_reversed <= 4 * 20 + 8 && r_equal <= 4 * 20 + 8;

    if (!ok) {
        std::cerr << "quicksort: wrong result\n";
        return 1;
    }
    std::cout << "quicksort: all results checked\n";
    return 0;
}
