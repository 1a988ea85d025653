// radix_sort - radix sort with k-bit digits: one multisplit per digit.
//
// Beyond the book. Split radix sort splits on one bit per pass; a multisplit
// splits into 2^k classes at once (the elements with digit 0, then 1, ...,
// each class in its order), so a pass sorts on k bits:
//     for each k-bit digit, from the lowest:  A <- multisplit(A, digit(A), 2^k)
// In the model a multisplit is a histogram of the digits, a +-scan of it (where
// each class starts), a multi-enumerate (the equal digits before each
// element) and a permute. The program prints the passes on small keys with
// 2-bit digits, sorts larger signed and unsigned keys with 8-bit digits,
// checks everything against std::sort / std::stable_sort, and exits with 1 on
// a wrong answer.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <iostream>
#include <random>

namespace sv = scanvec;

namespace ex {
struct event {
    std::uint32_t time;
    int id;
};
SCANVEC_FIELDS(event, time, id)
}  // namespace ex

template <class T> bool sorts(std::vector<T> h, const char* what) {
    auto got = sv::radix_sort(sv::vector<T>(h)).to_host();
    std::sort(h.begin(), h.end());
    std::cout << "  " << what << ": " << h.size() << " keys, " << sizeof(T) << " passes of 8 bits\n";
    return got == h;
}

int main() {
    std::cout << "radix sort with k-bit digits (" << sv::backend_name() << " backend)\n\n";
    bool ok = true;

    // 4-bit keys, 2-bit digits: two passes.
    sv::vector<int> a = {13, 7, 2, 9, 4, 14, 7, 0, 11, 5, 2, 8};
    sv::vector<int> pass = a;
    for (int lo = 0; lo < 4; lo += 2) {
        auto digit = sv::lazy::radix_digit(pass, lo, 2);
        auto next = sv::multisplit(pass, digit, 4);
        std::cout << "digit at bit " << lo << "\n"
                  << sv::table().row("A", pass).row("D", digit).row("multisplit(A, D, 4)", next)
                  << sv::table().row("histogram(D, 4)", sv::histogram(digit, 4)) << "\n";
        pass = std::move(next);
    }
    auto want = a.to_host();
    std::sort(want.begin(), want.end());
    ok = ok && pass.to_host() == want && sv::radix_sort(a, 2).to_host() == want;

    sv::vector<int> s = {3, -1, INT_MIN, 0, INT_MAX, -7, 2, -1};
    auto sorted = sv::radix_sort(s);
    std::cout << sv::table().row("signed A", s).row("radix-sort(A)", sorted) << "\n";
    auto hs = s.to_host();
    std::sort(hs.begin(), hs.end());
    ok = ok && sorted.to_host() == hs;

    std::mt19937_64 rng(3);
    const std::size_t n = 1 << 20;
    std::vector<std::int32_t> i32(n);
    std::vector<std::uint64_t> u64(n);
    for (auto& x : i32) x = std::int32_t(rng());
    for (auto& x : u64) x = rng();
    ok = sorts(i32, "random int32") && ok;
    ok = sorts(u64, "random uint64") && ok;

    // Records by one field, stably.
    std::vector<ex::event> ev(200000);
    for (std::size_t i = 0; i < ev.size(); ++i) ev[i] = {std::uint32_t(rng() % 5000), int(i)};
    auto got = sv::radix_sort(sv::vector<ex::event>(ev), &ex::event::time).to_host();
    std::stable_sort(ev.begin(), ev.end(), [](const ex::event& x, const ex::event& y) { return x.time < y.time; });
    for (std::size_t i = 0; i < ev.size(); ++i) ok = ok && got[i].time == ev[i].time && got[i].id == ev[i].id;
    std::cout << "  events by time, stably: " << ev.size() << " records\n";

    if (!ok) {
        std::cerr << "radix_sort: wrong result\n";
        return 1;
    }
    std::cout << "radix_sort: all results checked\n";
    return 0;
}
