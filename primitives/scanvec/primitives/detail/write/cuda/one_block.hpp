// scanvec/primitives/detail/write/cuda/one_block.hpp - a small struct write
// in one block (CUDA): one launch instead of two passes over the grid.
#pragma once

#include <scanvec/primitives/detail/write/generic.hpp>
#include <scanvec/primitives/detail/write/policy.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Both passes of a small struct write in one block: the barrier between them
/// makes the block's elections visible to all its threads. With live (the
/// writes bounded, their length on the device), the first *live of the m.
template <class K, class IdxIt, class In, class Out>
__global__ void __launch_bounds__(write_policy::elected_block_threads)
    write_elected_one_block(IdxIt idx, In vals, Out out, K* winner, index_t m, index_t bound, const index_t* live) {
    if (live) m = *live < 0 ? 0 : (*live < m ? *live : m);
    const elect_writer<K, IdxIt> elect{idx, winner, bound};
    for (index_t k = index_t(threadIdx.x); k < m; k += index_t(blockDim.x)) elect(k);
    __syncthreads();
    const write_if_elected<K, IdxIt, In, Out> store{idx, winner, vals, out, bound};
    for (index_t k = index_t(threadIdx.x); k < m; k += index_t(blockDim.x)) store(k);
}

/// Whether write_elected_in_one_block takes m writes.
inline bool write_fits_one_block(std::size_t m) { return m <= write_policy::elected_one_block_max; }

template <class K, class T, class Idx, class V>
void write_elected_in_one_block(vector<T>& dst, const Idx& idx, const V& vals, K* winner, const index_t* live, stream_t s) {
    write_elected_one_block<<<1, write_policy::elected_block_threads, 0, s>>>(
        reader(idx), reader(vals), writer(dst), winner, index_t(idx.size()), index_t(dst.size()), live);
    backend::check_launch("write (elect and write, one block)");
}

} SCANVEC_NAMESPACE_END
