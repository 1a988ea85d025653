// split_radix_sort - sorting integers with one split per bit.
//
// Blelloch's split radix sort: for every bit of the keys, from the lowest,
// split the vector on that bit (keys with a 0 first, then those with a 1, each
// group in its order). A split is stable, so after the pass on bit i the keys
// are sorted on their low i+1 bits. The program prints every pass on the 3-bit
// keys of Blelloch's example, then sorts signed keys (the sign bit is read
// flipped, so negative keys come first) and records by one field, checks
// everything against std::sort / std::stable_sort, and exits with 1 on a wrong
// answer.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <iostream>
#include <random>

namespace sv = scanvec;

namespace ex {
struct order {
    std::int32_t customer;
    float amount;
};
SCANVEC_FIELDS(order, customer, amount)
}  // namespace ex

int main() {
    std::cout << "split radix sort (" << sv::backend_name() << " backend)\n\n";
    bool ok = true;

    // The loop written out on Blelloch's keys: A <- split(A, A<i>) for i = 0, 1, 2.
    sv::vector<int> a = {5, 7, 3, 1, 4, 2, 7, 2};
    const auto want_small = [&] { auto h = a.to_host(); std::sort(h.begin(), h.end()); return h; }();
    sv::vector<int> pass = a;
    for (int i = 0; i < 3; ++i) {
        auto bit = sv::lazy::radix_digit(pass, i, 1);
        auto next = sv::split(pass, bit);
        std::cout << sv::table().row("A", pass).row("A<" + std::to_string(i) + ">", bit)
                                .row("split(A, A<" + std::to_string(i) + ">)", next) << "\n";
        pass = std::move(next);
    }
    ok = ok && pass.to_host() == want_small && sv::split_radix_sort(a).to_host() == want_small;

    // Signed keys: the top bit read flipped puts negative keys first.
    sv::vector<int> s = {3, -1, INT_MIN, 0, INT_MAX, -7, 2, -1};
    auto sorted = sv::split_radix_sort(s);
    std::cout << sv::table().row("signed A", s).row("split-radix-sort(A)", sorted) << "\n";
    auto hs = s.to_host();
    std::sort(hs.begin(), hs.end());
    ok = ok && sorted.to_host() == hs;

    // Records by one field, stably: equal customers keep their order.
    sv::vector<ex::order> orders = {{3, 1.5f}, {1, 2.0f}, {3, 0.5f}, {-2, 9.0f}, {1, 4.0f}};
    auto by_customer = sv::split_radix_sort(orders, &ex::order::customer);
    std::cout << "orders by customer:";
    for (auto& o : by_customer.to_host()) std::cout << " (" << o.customer << ", " << o.amount << ")";
    std::cout << "\n";
    auto ho = orders.to_host();
    std::stable_sort(ho.begin(), ho.end(), [](const ex::order& x, const ex::order& y) { return x.customer < y.customer; });
    auto got = by_customer.to_host();
    for (std::size_t i = 0; i < ho.size(); ++i) ok = ok && got[i].customer == ho[i].customer && got[i].amount == ho[i].amount;

    // A million random 64-bit keys.
    std::mt19937_64 rng(7);
    std::vector<std::int64_t> big(1000000);
    for (auto& x : big) x = std::int64_t(rng());
    auto big_sorted = sv::split_radix_sort(sv::vector<std::int64_t>(big)).to_host();
    std::sort(big.begin(), big.end());
    ok = ok && big_sorted == big;
    std::cout << "sorted " << big.size() << " random 64-bit keys in 64 splits\n";

    if (!ok) {
        std::cerr << "split_radix_sort: wrong result\n";
        return 1;
    }
    std::cout << "split_radix_sort: all results checked\n";
    return 0;
}
