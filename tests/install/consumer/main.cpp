// A consumer of the installed package: one scan and one radix sort, checked
// against sequential results, and the backend the target carried.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace sv = scanvec;

int main() {
    std::vector<int> keys(1000);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>((i * 7919) % 1013) - 500;

    sv::vector<int> a(keys);
    std::vector<int> sums = sv::scan(a).to_host();
    std::vector<int> sorted = sv::radix_sort(a).to_host();

    std::vector<int> expect_sums(keys.size());
    int running = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) { expect_sums[i] = running; running += keys[i]; }
    std::vector<int> expect_sorted = keys;
    std::sort(expect_sorted.begin(), expect_sorted.end());

    const bool scan_ok = sums == expect_sums;
    const bool sort_ok = sorted == expect_sorted;
    const bool backend_ok = std::strcmp(sv::backend_name(), CONSUMER_BACKEND) == 0;
    std::printf("consumer (%s backend, package says %s): scan %s, radix_sort %s\n", sv::backend_name(),
                CONSUMER_BACKEND, scan_ok ? "ok" : "WRONG", sort_ok ? "ok" : "WRONG");
    return scan_ok && sort_ok && backend_ok ? 0 : 1;
}
