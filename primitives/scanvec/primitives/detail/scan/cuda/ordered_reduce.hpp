// scanvec/primitives/detail/scan/cuda/ordered_reduce.hpp - a reduction that keeps the operands' order (CUDA).
//
// cub::DeviceReduce may combine elements in any order, so it is correct only
// for operators that commute. This one combines in[0] op in[1] op ... as
// written, for any associative operator: each block reduces a contiguous run
// of tiles in order (a tile loaded in blocked arrangement, each thread folding
// its consecutive items, then cub::BlockReduce, which combines the threads in
// rank order), and one block reduces the blocks' partials in order.
// Shape and grid: ordered_reduce_policy below.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstdint>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Tuning of the ordered reduction, in one place.
template <class T> struct ordered_reduce_policy {
    static constexpr int threads = 256;
    /// About 32 bytes of elements per thread: loads enough in flight to stream.
    static constexpr int items = sizeof(T) >= 32 ? 1 : int(32 / sizeof(T));
    static constexpr int tile = threads * items;
    /// Blocks per SM in the first pass: enough resident warps to hide latency;
    /// more only lengthens the second pass.
    static constexpr int blocks_per_sm = 4;
};

/// out[blockIdx.x] = the reduction, in order, of tiles [b * tiles_per_block, (b + 1) * tiles_per_block)
/// of in[0..n); padding past n reads as id (op's identity).
template <class T, class In, class Op>
__global__ void __launch_bounds__(ordered_reduce_policy<T>::threads)
    ordered_reduce_blocks(In in, index_t n, index_t tiles_per_block, Op op, T id, T* out) {
    using policy = ordered_reduce_policy<T>;
    using load = cub::BlockLoad<T, policy::threads, policy::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using block_reduce = cub::BlockReduce<T, policy::threads, cub::BLOCK_REDUCE_RAKING>;
    __shared__ union {
        typename load::TempStorage load;
        typename block_reduce::TempStorage reduce;
    } smem;

    const index_t num_tiles = (n + policy::tile - 1) / policy::tile;
    const index_t lo = index_t(blockIdx.x) * tiles_per_block;
    const index_t hi = lo + tiles_per_block < num_tiles ? lo + tiles_per_block : num_tiles;
    T total = id;  // meaningful in thread 0
    for (index_t t = lo; t < hi; ++t) {
        const index_t base = t * policy::tile;
        const index_t rest = n - base;
        T v[policy::items];
        if (rest >= policy::tile) load(smem.load).Load(in + base, v);
        else load(smem.load).Load(in + base, v, int(rest), id);
        __syncthreads();
        T mine = v[0];
#pragma unroll
        for (int k = 1; k < policy::items; ++k) mine = op(mine, v[k]);
        const T tile_total = block_reduce(smem.reduce).Reduce(mine, op);
        __syncthreads();
        if (threadIdx.x == 0) total = t == lo ? tile_total : op(total, tile_total);
    }
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

/// *out = in[0] op ... op in[n-1], in that order; init is op's identity (also the padding). n > 0.
template <class In, class Op, class T> void ordered_reduce(In in, std::size_t n, Op op, T init, T* out, stream_t s) {
    using policy = ordered_reduce_policy<T>;
    const char* name = "reduce (in order, non-commutative operator)";
    const index_t num_tiles = index_t((n + policy::tile - 1) / policy::tile);
    const index_t blocks = std::min<index_t>(num_tiles, index_t(policy::blocks_per_sm) * backend::multiprocessor_count(name));
    const index_t per_block = (num_tiles + blocks - 1) / blocks;
    if (blocks == 1) {
        ordered_reduce_blocks<T><<<1, policy::threads, 0, s>>>(in, index_t(n), per_block, op, init, out);
        backend::check_launch(name);
        return;
    }
    runtime::scratch partials(std::size_t(blocks) * sizeof(T));
    ordered_reduce_blocks<T><<<unsigned(blocks), policy::threads, 0, s>>>(in, index_t(n), per_block, op, init, partials.as<T>());
    backend::check_launch(name);
    const T* p = partials.as<T>();
    const index_t partial_tiles = (blocks + policy::tile - 1) / policy::tile;
    ordered_reduce_blocks<T><<<1, policy::threads, 0, s>>>(p, blocks, partial_tiles, op, init, out);
    backend::check_launch(name);
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
