// scanvec/primitives/detail/sorted_runs.hpp - merging sorted runs and searching
// a sorted vector (Thrust's merge and vectorised binary searches, on the
// vector's stream, both backends). The distributed sort stands on them.
#pragma once

#include <scanvec/runtime/policy.hpp>
#include <scanvec/runtime/vector.hpp>

#include <thrust/binary_search.h>
#include <thrust/merge.h>

#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The runs v[bounds[0]..bounds[1]), v[bounds[1]..bounds[2]), ... (each sorted
/// ascending) merged into one sorted vector: ceil(log2 runs) merge passes of
/// adjacent pairs, each reading and writing every element once.
template <class K> vector<K> merge_sorted_runs(vector<K> v, std::vector<index_t> bounds) {
    const auto s = policy(current_stream());
    while (bounds.size() > 2) {
        vector<K> out(v.size(), no_init);
        std::vector<index_t> next{0};
        for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
            const index_t a = bounds[r], b = bounds[r + 1];
            const index_t c = r + 2 < bounds.size() ? bounds[r + 2] : b;
            if (c > b) thrust::merge(s, v.data() + a, v.data() + b, v.data() + b, v.data() + c, out.data() + a);
            else if (b > a) thrust::copy(s, v.data() + a, v.data() + b, out.data() + a);
            next.push_back(c);
        }
        v = std::move(out);
        bounds = std::move(next);
    }
    return v;
}

/// For each of the (few) values, how many elements of the ascending vector v
/// are below it (lower bound) or not above it (upper bound); waits for the device.
template <class K> std::vector<index_t> count_below(const vector<K>& v, const std::vector<K>& values, bool or_equal) {
    if (values.empty()) return {};
    const vector<K> q(values);
    vector<index_t> r(values.size(), no_init);
    const auto s = policy(current_stream());
    if (or_equal) thrust::upper_bound(s, v.data(), v.data() + v.size(), q.data(), q.data() + q.size(), r.data());
    else thrust::lower_bound(s, v.data(), v.data() + v.size(), q.data(), q.data() + q.size(), r.data());
    return r.to_host();
}

}  SCANVEC_NAMESPACE_END  // detail
