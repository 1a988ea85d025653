// bench/nested.cpp - the scan of a nested vector against the flat scan of the same elements.
//
// The same n values cut into segments of length 1, 32 and 1000, one single
// segment, and power-law lengths (a few long segments among many short ones):
// sv::scan(a, segments) should cost about what the flat sv::scan costs,
// whatever the shape. Power-law lengths are Pareto: P(L >= x) = x^-1.1, at
// most 2^20 (mean about 10). The reference is computed on the host from the lengths.
#include "harness.hpp"
#include "rows.hpp"

#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/scan.hpp>

#include <cmath>
#include <random>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <thrust/scan.h>
#endif

namespace bench {
namespace {

struct shape {
    const char* name;
    std::size_t length;  // 0: power-law lengths
};

/// Segment lengths summing to n: all `length` (the last one shorter), or power-law.
std::vector<sv::index_t> lengths_of(const shape& sh, std::size_t n) {
    std::vector<sv::index_t> len;
    if (sh.length) {
        len.assign(n / sh.length, sv::index_t(sh.length));
        if (n % sh.length) len.push_back(sv::index_t(n % sh.length));
        return len;
    }
    std::mt19937_64 gen(5);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double cap = double(std::min<std::size_t>(n, std::size_t(1) << 20));
    std::size_t total = 0;
    while (total < n) {
        const double x = std::min(cap, std::floor(std::pow(1.0 - u(gen), -1.0 / 1.1)));
        const std::size_t l = std::min(n - total, std::size_t(x));
        len.push_back(sv::index_t(l));
        total += l;
    }
    return len;
}

}  // namespace

void bench_nested(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    const std::vector<int> host_a = a.to_host();
    const shape shapes[] = {{"len 1", 1}, {"len 32", 32}, {"len 1000", 1000}, {"one segment", n}, {"power-law", 0}};
    for (const shape& sh : shapes) {
        const std::vector<sv::index_t> len = lengths_of(sh, n);
        // Reference on the host: the exclusive +-scan restarting at every segment.
        std::vector<int> want(n), ids(n);
        for (std::size_t k = 0, i = 0; k < len.size(); ++k) {
            int sum = 0;
            for (sv::index_t j = 0; j < len[k]; ++j, ++i) want[i] = sum, sum += host_a[i], ids[i] = int(k);
        }
        const sv::vector<int> ref(want);
        const sv::segments segs = sh.length == n ? sv::segments::single(n) : sv::segments::from_lengths(len);

        config c(s, "nested", sh.name, "int32", n);
        c.bytes(2.0 * n * sizeof(int), n * sizeof(int));
        c.alternative("sv::scan (flat, the same elements)", "flat sv::scan", [&] { auto r = sv::scan(a); });
#if defined(SCANVEC_BACKEND_CUDA)
        const sv::vector<int> keys(ids);
        sv::vector<int> out(n, sv::no_init);
        c.alternative("thrust::exclusive_scan_by_key (int32 segment ids)", "thrust scan_by_key", [&] {
            thrust::exclusive_scan_by_key(thrust::device, keys.begin(), keys.end(), a.begin(), out.begin());
        });
#else
        sv::vector<int> out(n, sv::no_init);
        c.alternative("sequential loop", "loop", [&] { scan_by_lengths(len, a.data(), out.data()); });
#endif
        c.scanvec_call("sv::scan(a, segments)", [&](std::string&) { return same(sv::scan(a, segs), ref); },
                       [&] { auto r = sv::scan(a, segs); });
        c.finish();
    }
}

}  // namespace bench
