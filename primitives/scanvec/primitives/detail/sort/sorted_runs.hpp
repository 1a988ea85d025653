// scanvec/primitives/detail/sort/sorted_runs.hpp - merging sorted runs and searching
// a sorted vector (Thrust's merge and vectorised binary searches, on the
// vector's stream, both backends). The distributed sort stands on them.
#pragma once

#include <scanvec/primitives/detail/common/radix_digit_view.hpp>
#include <scanvec/runtime/policy.hpp>
#include <scanvec/runtime/vector.hpp>

#include <thrust/binary_search.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/merge.h>

#include <type_traits>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// A run of positions [begin, end) of a vector.
struct run_range {
    index_t begin, end;
    index_t size() const { return end - begin; }
};

/// Radix order (radix_key_bits) for floating-point keys, where it differs
/// from < (NaNs at the ends by their sign, -0.0 equal to +0.0); < for others.
template <class K> struct radix_less {
    SCANVEC_HD bool operator()(const K& a, const K& b) const {
        if constexpr (std::is_floating_point_v<K>) return radix_key_bits(a) < radix_key_bits(b);
        else return a < b;
    }
};

/// The sorted runs of v (ascending in radix order, as the radix sort leaves
/// them), which may have gaps between them, merged into one sorted vector of
/// their total length: ceil(log2 runs) merge passes of adjacent pairs, each
/// reading and writing every element once (one copy when there is one run
/// with gaps around it).
template <class K> vector<K> merge_sorted_runs(vector<K> v, std::vector<run_range> runs) {
    const auto s = policy(current_stream());
    index_t total = 0;
    for (const auto& r : runs) total += r.size();
    if (runs.size() == 1 && runs[0].begin == 0 && runs[0].end == index_t(v.size())) return v;
    if (runs.empty()) return vector<K>();
    do {
        vector<K> out(std::size_t(total), no_init);
        std::vector<run_range> next;
        index_t at = 0;
        for (std::size_t r = 0; r < runs.size(); r += 2) {
            const run_range a = runs[r], b = r + 1 < runs.size() ? runs[r + 1] : run_range{a.end, a.end};
            if (b.size() > 0)
                thrust::merge(s, v.data() + a.begin, v.data() + a.end, v.data() + b.begin, v.data() + b.end, out.data() + at,
                              radix_less<K>{});
            else if (a.size() > 0) thrust::copy(s, v.data() + a.begin, v.data() + a.end, out.data() + at);
            next.push_back({at, at + a.size() + b.size()});
            at = next.back().end;
        }
        v = std::move(out);
        runs = std::move(next);
    } while (runs.size() > 1);
    return v;
}

/// The runs v[bounds[0]..bounds[1]), v[bounds[1]..bounds[2]), ... (each sorted
/// ascending, no gaps) merged into one sorted vector.
template <class K> vector<K> merge_sorted_runs(vector<K> v, const std::vector<index_t>& bounds) {
    std::vector<run_range> runs;
    for (std::size_t r = 0; r + 1 < bounds.size(); ++r) runs.push_back({bounds[r], bounds[r + 1]});
    return merge_sorted_runs(std::move(v), std::move(runs));
}

/// The key's bits in radix order (radix_key_bits), as a callable.
template <class K> struct radix_bits_of {
    SCANVEC_HD auto operator()(const K& x) const { return radix_key_bits(x); }
};

/// For each of the (few) values u, how many elements of v (ascending in radix
/// order, as the radix sort leaves it) have radix_key_bits at most u: one
/// vectorised binary search; waits for the device.
template <class K, class U> std::vector<index_t> count_through_radix(const vector<K>& v, const std::vector<U>& values) {
    if (values.empty()) return {};
    if (v.size() == 0) return std::vector<index_t>(values.size(), 0);
    const vector<U> q(values);
    vector<index_t> r(values.size(), no_init);
    const auto bits = thrust::make_transform_iterator(v.data(), radix_bits_of<K>{});
    thrust::upper_bound(policy(current_stream()), bits, bits + v.size(), q.data(), q.data() + q.size(), r.data());
    return r.to_host();
}

}  SCANVEC_NAMESPACE_END  // detail
