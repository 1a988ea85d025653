// scanvec/primitives/detail/three_way/cuda/block_sort_segments.hpp - sort each middling segment whole in one block (CUDA).
//
// The base case's second tier, for keys whose bits sort as they do (4- and
// 8-byte integers, float and double: block_sort_by_radix): a segment longer than
// a short-sort tile but within block_sort_limit<T> keys is sorted by one block
// (a radix sort of its keys' bits in shared memory) in the round after the
// split that made it, instead of by the three or so more rounds of splits it
// would take to fall under the tile's limit. Two block sizes
// (block_sort_small<T> and block_sort_large<T> in three_way/policy.hpp), the larger
// with its shared memory dynamic (past the static 48 KB). The split queues
// such segments' heads as it makes them, one queue per size, and in a third
// the heads of the segments longer than block_sort_limit<T>, whose pivots
// are the only ones left to choose after the base case (choose_pivots reads
// it): queue[0], queue[1], queue[2] count them, each has `slots` places
// after those three words. A block reads one word to learn its segment;
// blocks beyond the count leave. A segment owns its positions, so blocks
// never share one.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/short_sort_tiles.hpp>
#include <scanvec/primitives/detail/three_way/place.hpp>
#include <scanvec/primitives/detail/three_way/policy.hpp>
#include <scanvec/runtime/backend.hpp>

#include <cub/block/block_radix_sort.cuh>

#include <algorithm>
#include <cstdint>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The block radix sort of T's radix words in a block_sort_shape (three_way/policy.hpp).
template <class T, class Shape> using block_sort_of = cub::BlockRadixSort<radix_word_t<T>, Shape::threads, Shape::items>;

/// The queues: each size's, then the longer segments'.
constexpr int block_sort_queues = 3, block_sort_long_queue = 2;
/// The queue words for `slots` segments in each queue.
constexpr std::size_t block_sort_queue_words(std::size_t slots) { return block_sort_queues * (1 + slots); }
/// And back: the slots of each queue in that many words.
constexpr std::size_t block_sort_queue_slots(std::size_t words) { return words / block_sort_queues - 1; }
/// The queue of a segment of len keys longer than a short-sort tile.
template <class T> __host__ __device__ constexpr int block_sort_queue_of(std::uint32_t len) {
    return len > block_sort_limit<T> ? block_sort_long_queue : int(len > std::uint32_t(block_sort_small<T>::keys));
}
/// Where queue q's heads are.
inline __host__ __device__ std::uint32_t* block_sort_heads(std::uint32_t* queue, std::uint32_t slots, int q) {
    return queue + block_sort_queues + std::size_t(q) * slots;
}

/// Queues a new segment of len keys at head, when it is longer than a short-sort tile.
template <class T>
__device__ void queue_block_sort(std::uint32_t* queue, std::uint32_t slots, std::uint32_t head, std::uint32_t len) {
    if (len <= std::uint32_t(short_sort_shape<T>::tile_keys)) return;
    const int q = block_sort_queue_of<T>(len);
    const std::uint32_t slot = atomicAdd(queue + q, 1u);
    if (slot < slots) block_sort_heads(queue, slots, q)[slot] = head;
}

/// Every thread's least and greatest word, made the block's in every thread
/// (each warp's by shuffles, then the warps' through shared memory).
template <class W, int Threads> struct block_span {
    W lo[Threads / 32], hi[Threads / 32];
    W least;  // the block's, for after a sort
    static __device__ void take(W& least, W& greatest, W l, W h) {
        least = l < least ? l : least;
        greatest = h > greatest ? h : greatest;
    }
    __device__ void fold(W& least, W& greatest) {
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            take(least, greatest, __shfl_xor_sync(~0u, least, o), __shfl_xor_sync(~0u, greatest, o));
        }
        if (threadIdx.x % 32 == 0) {
            lo[threadIdx.x / 32] = least;
            hi[threadIdx.x / 32] = greatest;
        }
        __syncthreads();
#pragma unroll
        for (int w = 0; w < Threads / 32; ++w) {
            take(least, greatest, lo[w], hi[w]);
        }
    }
};

/// The bits a word of at most `span` needs (at least one).
template <class W> __device__ int bits_of_span(W span) {
    if constexpr (sizeof(W) == 8) return span ? 64 - __clzll(static_cast<long long>(span)) : 1;
    else return span ? 32 - __clz(static_cast<int>(span)) : 1;
}

/// The block's words sorted by their bits below `used`, in one of a few
/// sorts whose bits are known at compile time (End, End - 4, ...), so that
/// CUB's passes of 4 bits unroll as in the full sort (docs/design/quicksort.md).
template <class T, class Shape, int End, int Variants = 5>
__device__ void sort_low_bits(typename block_sort_of<T, Shape>::TempStorage& smem, radix_word_t<T> (&bits)[Shape::items],
                              int used) {
    if constexpr (Variants > 1) {
        if (used <= End - 4) {
            sort_low_bits<T, Shape, End - 4, Variants - 1>(smem, bits, used);
            return;
        }
    }
    block_sort_of<T, Shape>(smem).SortBlockedToStriped(bits, 0, End);
}

template <class T, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::blocks_per_sm)  // 64 registers (16 bytes spilled)
    block_sort_segments(T* keys, std::uint32_t* start, const std::uint32_t* length, const std::uint32_t* count,
                        const std::uint32_t* heads) {
    constexpr int threads = Shape::threads, items = Shape::items;
    using W = radix_word_t<T>;
    extern __shared__ __align__(16) unsigned char block_sort_memory[];  // sizeof(block_sort_of<T, Shape>::TempStorage)
    auto& smem = *reinterpret_cast<typename block_sort_of<T, Shape>::TempStorage*>(block_sort_memory);
    __shared__ block_span<W, threads> span;
    const std::uint32_t segments = *count;
    for (std::uint32_t b = blockIdx.x; b < segments; b += gridDim.x) {
        const std::uint32_t s = heads[b], len = length[s];
        // striped loads (coalesced; a sort's input order is free)
        W bits[items];
        W lo = ~W(0), hi = 0;
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const std::uint32_t j = std::uint32_t(k * threads) + threadIdx.x;
            if (j < len) {
                bits[k] = radix_bits(keys[s + j]);
                block_span<W, threads>::take(lo, hi, bits[k], bits[k]);
            }
        }
        // A segment's keys lie between two pivots, so their words share their
        // top bits: sorted less their least, only the bits below need passes
        // (22 of 32 for 16384 random keys of 2^24). The end is padded with the
        // greatest, which sorts last whatever the order of equal words.
        span.fold(lo, hi);
        if (threadIdx.x == 0) span.least = lo;  // read back after the sort: not a register held across it
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const std::uint32_t j = std::uint32_t(k * threads) + threadIdx.x;
            bits[k] = j < len ? W(bits[k] - lo) : W(hi - lo);
        }
        sort_low_bits<T, Shape, 8 * sizeof(W)>(smem, bits, bits_of_span(W(hi - lo)));
        lo = *static_cast<volatile W*>(&span.least);  // (the sort's barriers order it after the store)
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const std::uint32_t j = std::uint32_t(k * threads) + threadIdx.x;
            if (j >= len) continue;
            keys[s + j] = from_radix_bits<T>(W(bits[k] + lo));
            start[s + j] = s + j;  // finished
        }
        __syncthreads();  // the next segment reuses the shared memory
    }
}

/// One size's queue of segments longer than `shortest` - 1 keys: the blocks an SM holds loop over it
/// (its count is known on the device only), no more blocks than n positions hold such segments.
template <class T, class Shape>
void block_sort_tier(T* keys, std::uint32_t* start, const std::uint32_t* length, const std::uint32_t* count,
                     const std::uint32_t* heads, std::size_t slots, std::size_t n, std::size_t shortest, stream_t s) {
    const std::size_t resident = std::size_t(Shape::blocks_per_sm) * std::size_t(backend::multiprocessor_count("sort_short_segments"));
    const std::size_t blocks = std::min({slots, resident, n / shortest});
    if (blocks == 0) return;
    constexpr int bytes = int(sizeof(typename block_sort_of<T, Shape>::TempStorage));
    static const bool sized = [] {  // past the 48 KB a launch gets unasked
        backend::check(cudaFuncSetAttribute(block_sort_segments<T, Shape>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
                       "sort_short_segments (block sort's shared memory)");
        return true;
    }();
    (void)sized;
    block_sort_segments<T, Shape><<<int(blocks), Shape::threads, bytes, s>>>(keys, start, length, count, heads);
    backend::check_launch("sort_short_segments (block sort of queued segments)");
}

/// Sorts the segments of round.from queued by the last split
/// (round.block_sort_queue: block_sort_queue_words(round.queue_slots) words).
template <class T> void block_sort_queued(const three_way_round<T>& round) {
    if constexpr (block_sort_by_radix<T>) {
        T* keys = round.from.keys;
        std::uint32_t* start = round.from.start;
        const std::uint32_t* length = round.from.length;
        std::uint32_t* queue = round.block_sort_queue;
        const std::uint32_t slots = round.queue_slots;
        const std::size_t n = std::size_t(round.n), tile = std::size_t(short_sort_shape<T>::tile_keys);
        block_sort_tier<T, block_sort_small<T>>(keys, start, length, queue, block_sort_heads(queue, slots, 0), slots, n,
                                             tile + 1, round.stream);
        block_sort_tier<T, block_sort_large<T>>(keys, start, length, queue + 1, block_sort_heads(queue, slots, 1), slots, n,
                                             std::size_t(block_sort_small<T>::keys) + 1, round.stream);
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
