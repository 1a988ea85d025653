// bench/rows.hpp - what more than one benchmark program times the same way:
// scanvec_bench (primitives.cpp, nested.cpp) and scanvec_host_bench (host.cpp)
// time permute and the nested scan with the same calls and the same
// sequential loops beside them.
#pragma once

#include "harness.hpp"

#include <scanvec/primitives/permute.hpp>

#include <vector>

namespace bench {

/// out[idx[i]] = in[i] for i < n: the sequential scatter a permute is timed against.
inline void scatter_loop(const sv::vector<int>& in, const sv::vector<int>& idx, sv::vector<int>& out) {
    const int* a = in.data();
    const int* to = idx.data();
    int* o = out.data();
    for (std::size_t i = 0, n = in.size(); i < n; ++i) o[to[i]] = a[i];
}

/// The checked and the unchecked sv::permute of a by idx, each checked once against ref.
inline void permute_rows(config& c, const sv::vector<int>& a, const sv::vector<int>& idx, const sv::vector<int>& ref) {
    c.scanvec_call("sv::permute", [&](std::string&) { return same(sv::permute(a, idx), ref); },
                   [&] { auto r = sv::permute(a, idx); });
    c.scanvec_call("sv::permute unchecked", [&](std::string&) { return same(sv::permute(a, idx, sv::unchecked), ref); },
                   [&] { auto r = sv::permute(a, idx, sv::unchecked); });
}

/// out[i] = the sum of in's elements before i in its segment, the segments
/// of the given lengths one after the other: the sequential exclusive
/// +-scan by segment (the nested scan's reference and its loop).
inline void scan_by_lengths(const std::vector<sv::index_t>& len, const int* in, int* out) {
    for (std::size_t k = 0, i = 0; k < len.size(); ++k) {
        int sum = 0;
        for (sv::index_t j = 0; j < len[k]; ++j, ++i) out[i] = sum, sum += in[i];
    }
}

}  // namespace bench
