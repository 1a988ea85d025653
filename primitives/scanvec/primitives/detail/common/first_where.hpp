// scanvec/primitives/detail/common/first_where.hpp - the first position where a predicate holds.
//
// One min-reduction over "k if bad(k)", with no host round trip until the
// result is read. Written here rather than with thrust::find / thrust::equal:
// those reduce a tuple<bool, index> whose padding bytes no one writes, and
// copy it to the host, which compute-sanitizer's initcheck reports.
#pragma once

#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/operators.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <limits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// k if bad(k), else the largest index: reduced with min to the first bad k.
template <class Bad> struct first_where {
    Bad bad;
    SCANVEC_HD index_t operator()(index_t k) const {
        return bad(k) ? k : std::numeric_limits<index_t>::max();
    }
};
/// The search queued on the device: its result, read with found_at(r.get()) when the
/// host needs it (a caller that queues more work first waits once for both).
template <class Bad> device_value<index_t> first_index_where_queued(Bad bad, std::size_t n, stream_t s) {
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), first_where<Bad>{bad});
    device_value<index_t> r(s);
    reduce_into(in, n, min<index_t>{}, std::numeric_limits<index_t>::max(), r.ptr(), s);
    return r;
}
/// -1 for "none found", else k.
inline index_t found_at(index_t k) { return k == std::numeric_limits<index_t>::max() ? -1 : k; }
template <class Bad> index_t first_index_where(Bad bad, std::size_t n, stream_t s) {
    if (n == 0) return -1;
    return found_at(first_index_where_queued(bad, n, s).get());
}

}  SCANVEC_NAMESPACE_END  // detail
