// scanvec/primitives/enumerate_pack.hpp - enumerate and pack, written on scan and permute.
//
//   sv::enumerate(flags)   r[i] = number of true flags before i
//   sv::count(flags)       number of true flags
//   sv::pack(a, flags)     the a[i] whose flag is true, in order
//
// Flags are sv::vector<bool> or any integral sequence, read as nonzero = true.
#pragma once

#include <scanvec/primitives/detail/one_device_only.hpp>
#include <scanvec/primitives/detail/scan_policy.hpp>

#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>

#include <thrust/for_each.h>
#include <thrust/scatter.h>

#include <type_traits>

#if defined(SCANVEC_BACKEND_CUDA)
#include <cub/block/block_scan.cuh>
#endif

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// out[index[i]] = in[i] where flag[i] is set; position 0 also stores the
/// count (index[n]) at *count when count is given (pinned memory the host reads after a wait).
template <class In, class F, class Out> struct pack_scatter {
    In in;
    F flag;
    const index_t* index;
    Out out;
    index_t n;
    index_t* count;
    SCANVEC_HD void operator()(index_t i) const {
        if (flag[i]) out[index[i]] = in[i];
        if (i == 0 && count) *count = index[n];
    }
};

struct flag_to_count {
    template <class F> SCANVEC_HD index_t operator()(const F& f) const { return f ? 1 : 0; }
};
struct flag_not_to_count {
    template <class F> SCANVEC_HD index_t operator()(const F& f) const { return f ? 0 : 1; }
};
struct is_set {
    template <class F> SCANVEC_HD bool operator()(const F& f) const { return f ? true : false; }
};

#if defined(SCANVEC_BACKEND_CUDA)
/// The pack of n <= one_block_scan_shape<int>::size elements by one block:
/// each thread reads its run of items' flags once, the block scan of their
/// counts places the flagged ones, and thread 0 stores the count at *count.
template <class In, class F, class Out>
__global__ void __launch_bounds__(one_block_scan_shape<int>::threads)
    pack_one_block(In in, F flag, Out out, int n, index_t* count) {
    using shape = one_block_scan_shape<int>;
    using block_scan = cub::BlockScan<int, shape::threads>;
    __shared__ typename block_scan::TempStorage temp;
    const int first = int(threadIdx.x) * shape::items;
    bool kept[shape::items];
    int place[shape::items];
#pragma unroll
    for (int k = 0; k < shape::items; ++k) {
        kept[k] = first + k < n && flag[first + k];
        place[k] = kept[k] ? 1 : 0;
    }
    int total = 0;
    block_scan(temp).ExclusiveSum(place, place, total);
#pragma unroll
    for (int k = 0; k < shape::items; ++k)
        if (kept[k]) out[place[k]] = in[first + k];
    if (threadIdx.x == 0) *count = index_t(total);
}
#endif

template <class Flags> void expect_flags() {
    static_assert(std::is_integral_v<value_t<Flags>>, "flags must be sv::vector<bool> or hold integers");
}

}  // namespace detail

/// r[i] = number of true flags before position i.
/// O(n) work, one step; queued (no wait).
template <class Flags> vector<index_t> enumerate(const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled("enumerate", flags.size(),
                            [&] { return scan(lazy::map(detail::flag_to_count{}, flags)); }, flags);
}

/// The number of true flags. O(n) work, one step; waits for the device.
template <class Flags> index_t count(const Flags& flags) {
    detail::expect_flags<Flags>();
    return reduce(lazy::map(detail::flag_to_count{}, flags));
}

namespace detail {

/// A pack's result when the count is read last: room for all n elements,
/// move(r, count) queues the work that fills it and stores the count in this
/// thread's pinned result buffer, then one wait and the result cut to the count.
template <class T, class Move> vector<T> packed_count_last(std::size_t n, stream_t s, Move move) {
    auto* count = static_cast<index_t*>(backend::result_buffer());
    vector<T> r(n, no_init);
    move(r, count);
    backend::synchronize(s, "pack (count)");
    r.resize(std::size_t(*count));
    return r;
}

/// pack past one block: a scan of the flags (the count at its end), then a
/// scatter that reads them again.
template <class A, class Flags> vector<value_t<A>> pack_by_scan(const A& a, const Flags& flags, stream_t s) {
    const std::size_t n = a.size();
    // Index = enumerate(Flags), with the count at Index[n]
    vector<index_t> index(n + 1, no_init);
    exclusive_scan_with_total_n(reader(lazy::map(flag_to_count{}, flags)), n, index.data(), plus<index_t>{},
                                index_t(0), s);
    // permute the flagged elements to Index
    auto scatter = [&](vector<value_t<A>>& r, index_t* count) {
        auto in = reader(a);
        auto f = reader(flags);
        thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), index_t(n),
                           pack_scatter<decltype(in), decltype(f), decltype(writer(r))>{in, f, index.data(), writer(r),
                                                                                        index_t(n), count});
        backend::check_launch("pack");
    };
    // one pass moves the elements and stores the count in pinned memory: one wait, no copy
    if (n <= pack_policy::scatter_before_count_max) return packed_count_last<value_t<A>>(n, s, scatter);
    vector<value_t<A>> r(std::size_t(index[n]), no_init);
    scatter(r, nullptr);
    return r;
}

}  // namespace detail

/// The elements of a whose flag is true, in their order. O(n) work, two steps
/// (a scan, a permute); waits for the device once (the result's length).
/// Flags given lazily (sv::lazy::map(...)) are computed once per element.
template <class A, class Flags> vector<value_t<A>> pack(const A& a, const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled("pack", a.size(), [&] {
        detail::expect_same_length("pack", a.size(), flags.size());
        const std::size_t n = a.size();
        const stream_t s = current_stream();
        if (n == 0) return vector<value_t<A>>();
#if defined(SCANVEC_BACKEND_CUDA)
        if (n <= std::size_t(detail::one_block_scan_shape<int>::size)) {  // one launch, one wait, no copy
            return detail::packed_count_last<value_t<A>>(n, s, [&](vector<value_t<A>>& r, index_t* count) {
                detail::pack_one_block<<<1, detail::one_block_scan_shape<int>::threads, 0, s>>>(
                    detail::reader(a), detail::reader(flags), detail::writer(r), int(n), count);
                backend::check_launch("pack (one block)");
            });
        }
#endif
        // the scan and the scatter both read the flags: lazy ones are evaluated once, first
        if constexpr (std::is_pointer_v<decltype(detail::reader(flags))>) return detail::pack_by_scan(a, flags, s);
        else return detail::pack_by_scan(a, materialize(lazy::map(detail::is_set{}, flags)), s);
    }, a, flags);
}

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(enumerate, dist::vector<index_t>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(count, index_t)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(pack, dist::vector<T>)

SCANVEC_NAMESPACE_END
