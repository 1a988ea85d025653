// scanvec/primitives/detail/pack/cuda/one_block.hpp - the pack of a vector
// that fits one block (CUDA): one launch, the count stored where the host reads
// it after its one wait.
#pragma once

#include <scanvec/primitives/detail/pack/generic.hpp>
#include <scanvec/primitives/detail/scan/policy.hpp>

#include <cub/block/block_scan.cuh>

SCANVEC_NAMESPACE_BEGIN namespace detail {

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

/// Whether pack_in_one_block takes n elements.
inline bool pack_fits_one_block(std::size_t n) { return n <= std::size_t(one_block_scan_shape<int>::size); }

/// Queues the pack of a (n = a.size(), fits one block) into r and the count's store at *count.
template <class A, class Flags, class R> void pack_to_in_one_block(const A& a, const Flags& flags, R& r, index_t* count, stream_t s) {
    pack_one_block<<<1, one_block_scan_shape<int>::threads, 0, s>>>(reader(a), reader(flags), writer(r),
                                                                     int(a.size()), count);
    backend::check_launch("pack (one block)");
}

template <class A, class Flags> vector<value_t<A>> pack_in_one_block(const A& a, const Flags& flags, stream_t s) {
    return packed_count_last<value_t<A>>(a.size(), s, [&](vector<value_t<A>>& r, index_t* count) {
        pack_to_in_one_block(a, flags, r, count, s);
    });
}

} SCANVEC_NAMESPACE_END
