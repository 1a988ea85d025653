// scanvec/primitives/detail/block_sort_segments.hpp - sort each middling segment whole in one block (CUDA).
//
// The base case's second tier, for 32-bit integer keys: a segment longer than
// a short-sort tile but within block_sort_limit<T> keys is sorted by one block
// (a radix sort of its keys' bits in shared memory) in the round after the
// split that made it, instead of by the three or so more rounds of splits it
// would take to fall under the tile's limit. The split queues such segments'
// heads as it makes them (queue[0] counts them, queue[1..] holds them), so a
// block reads one word to learn its segment; blocks beyond the count leave.
// A segment owns its positions, so blocks never share one: one launch.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/short_sort_tiles.hpp>
#include <scanvec/runtime/backend.hpp>

#include <cub/block/block_radix_sort.cuh>

#include <cstdint>

namespace scanvec::detail {

struct block_sort_shape {
    static constexpr int threads = 512;
    static constexpr int items = 16;  // 8192 keys: the radix sort's 32 KB of shared memory
    static constexpr int keys = threads * items;
};

/// The longest segment sort_short_segments sorts on CUDA tiles: a block's
/// whole segment for 32-bit integers, else a short-sort tile.
template <class T>
constexpr std::uint32_t block_sort_limit =
    short_sort_by_radix<T> ? std::uint32_t(block_sort_shape::keys) : std::uint32_t(short_sort_shape<T>::own);

/// Whether the split queues a new segment of len keys for block_sort_segments.
template <class T> __device__ bool block_sorts(std::uint32_t len) {
    return len > std::uint32_t(short_sort_shape<T>::own) && len <= block_sort_limit<T>;
}

template <class T>
__global__ void __launch_bounds__(block_sort_shape::threads, 2)  // 64 registers (16 bytes spilled): 2 blocks an SM, not 1
    block_sort_segments(T* keys, std::uint32_t* start, const std::uint32_t* length, const std::uint32_t* queue) {
    constexpr int threads = block_sort_shape::threads, items = block_sort_shape::items;
    using sort = cub::BlockRadixSort<std::uint32_t, threads, items>;
    __shared__ typename sort::TempStorage smem;
    const std::uint32_t count = queue[0];
    for (std::uint32_t b = blockIdx.x; b < count; b += gridDim.x) {
        const std::uint32_t s = queue[1 + b], len = length[s];
        // striped loads (coalesced; a sort's input order is free), the end
        // padded with the greatest bits, which sort last
        std::uint32_t bits[items];
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const std::uint32_t j = std::uint32_t(k * threads) + threadIdx.x;
            bits[k] = j < len ? radix_bits(keys[s + j]) : ~std::uint32_t(0);
        }
        sort(smem).SortBlockedToStriped(bits);
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const std::uint32_t j = std::uint32_t(k * threads) + threadIdx.x;
            if (j >= len) continue;
            keys[s + j] = from_radix_bits<T>(bits[k]);
            start[s + j] = s + j;  // finished
        }
        __syncthreads();  // the next segment reuses the shared memory
    }
}

/// Sorts the segments queued by the last split (queue: 1 + slots words).
template <class T>
void block_sort_queued(T* keys, std::uint32_t* start, const std::uint32_t* length, const std::uint32_t* queue,
                       std::size_t slots, stream_t s) {
    if constexpr (short_sort_by_radix<T>) {
        // a few blocks an SM loop over the queue: its count is known on the device only
        const int blocks = int(slots < 1024 ? slots : 1024);
        if (blocks == 0) return;
        block_sort_segments<T><<<blocks, block_sort_shape::threads, 0, s>>>(keys, start, length, queue);
        backend::check_launch("sort_short_segments (block sort of queued segments)");
    }
}

}  // namespace scanvec::detail

#endif
