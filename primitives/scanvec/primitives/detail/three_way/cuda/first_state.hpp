// scanvec/primitives/detail/three_way/cuda/first_state.hpp - a program's first
// state on tiles (CUDA): its bookkeeping set in one launch, its offsets after
// the first count.
// The family on tiles and its passes: cuda/tiles.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/word.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The tiles of the count and split passes over n positions.
template <class T> int three_way_tiles_of(std::int32_t n) {
    return int((std::size_t(n) + three_way_tile_shape<T>::size - 1) / three_way_tile_shape<T>::size);
}

/// After the count pass over a first state that is one segment: each of its
/// `tiles` tiles left its own counts in taken[2t] and its descents in
/// taken[2t + 1], instead of adding them at the one head (where 2^17 tiles'
/// atomic adds to one word wait in line: docs/design/quicksort.md). A block
/// scans three_way_first_offsets_threads tiles' counts, across blocks by
/// decoupled look-back: each tile's offset (the counts of the tiles before
/// it) at both its ends, the totals at head 0 (the last tile), the descents
/// added into *descents (an add a block) and noted in *descents_seen.
template <class T>
__global__ void __launch_bounds__(three_way_first_offsets_threads)
    three_way_first_offsets(three_way_round<T> round, std::int32_t tiles, unsigned long long* descents,
                            three_way_tile_state status) {
    constexpr int threads = three_way_first_offsets_threads;
    using block_scan = cub::BlockScan<std::uint64_t, threads>;
    using block_sum = cub::BlockReduce<std::uint64_t, threads>;
    using look_back = cub::TilePrefixCallbackOp<std::uint64_t, ::cuda::std::plus<std::uint64_t>, three_way_tile_state>;
    __shared__ struct {
        typename block_scan::TempStorage scan;
        typename look_back::TempStorage prefix;
        typename block_sum::TempStorage sum;
    } smem;
    std::uint64_t* taken = round.tile_offsets;
    const std::int32_t t = std::int32_t(blockIdx.x) * threads + std::int32_t(threadIdx.x);
    const std::uint64_t counts = t < tiles ? taken[2 * t] : 0, down = t < tiles ? taken[2 * t + 1] : 0;
    std::uint64_t before;  // less << 32 | greater of the tiles before tile t (each below 2^31: no carry)
    if (blockIdx.x == 0) {
        std::uint64_t block_total;
        block_scan(smem.scan).ExclusiveScan(counts, before, std::uint64_t(0), ::cuda::std::plus<std::uint64_t>{}, block_total);
        if (threadIdx.x == 0) status.SetInclusive(0, block_total);
    } else {
        look_back prefix(status, smem.prefix, ::cuda::std::plus<std::uint64_t>{}, int(blockIdx.x));
        block_scan(smem.scan).ExclusiveScan(counts, before, ::cuda::std::plus<std::uint64_t>{}, prefix);
    }
    if (t < tiles) taken[2 * t] = taken[2 * t + 1] = before;
    if (t == tiles - 1) *round.from.totals = before + counts;  // the one segment's, at its head
    const std::uint64_t block_down = block_sum(smem.sum).Sum(down);
    if (threadIdx.x == 0 && block_down) {
        atomicAdd(descents, (unsigned long long)block_down);
        *round.descents_seen = 0;  // the first state's number of splits
    }
}

/// A first state's bookkeeping (three_way_tiles::begin): every word of it
/// is written by one launch, since each launch costs the host time that
/// small sorts wait for (docs/design/quicksort.md).
struct three_way_first_words {
    std::uint64_t* counts;         ///< counts[0] <- 0: the count pass adds into the head's totals
    std::uint32_t* length;         ///< length[0] <- n: the one segment
    std::uint32_t* tile_heads;     ///< `heads` words <- ~0 (no tile marked), but head_word <- splits (split 0's head)
    std::uint32_t* queue;          ///< `queue_words` <- 0, but queue_one <- 1 (the one segment) where >= 0
    std::uint32_t* finished;       ///< `finished_words` <- three_way_never_finished
    std::uint64_t* tile_offsets;   ///< `offset_words` <- 0
    std::uint32_t* descents_seen;  ///< <- ~0
    std::uint32_t* split_words;    ///< both <- 0
    /// null, or a first state's starts, all 0 (one segment), where the passes
    /// before its split read them: the two ends of each count and split tile
    /// (one_segment: every tile is then inside the one segment, and loads no
    /// other start) and the first short-sort tile and the position after it,
    /// where choose_pivots without the base case before it looks for heads.
    /// The rest the split after next writes, as it writes a state's buffers of
    /// two states ago.
    std::uint32_t* start;
    std::uint32_t splits;
    std::int32_t n, heads, head_word, queue_words, queue_one, finished_words, offset_words, head_span, start_threads;
    std::int32_t threads() const {
        return std::max({std::int32_t(1), heads, queue_words, finished_words, offset_words, start ? start_threads : 0});
    }
};

template <class T> __global__ void three_way_first_words_set(three_way_first_words w) {
    const std::int32_t i = std::int32_t(blockIdx.x) * std::int32_t(blockDim.x) + std::int32_t(threadIdx.x);
    if (i == 0) {
        w.counts[0] = 0;
        w.length[0] = std::uint32_t(w.n);
        *w.descents_seen = ~std::uint32_t(0);
        w.split_words[0] = w.split_words[1] = 0;
    }
    if (i < w.heads) w.tile_heads[i] = i == w.head_word ? w.splits : ~std::uint32_t(0);
    if (i < w.queue_words) w.queue[i] = i == w.queue_one ? 1u : 0u;
    if (i < w.finished_words) w.finished[i] = three_way_never_finished;
    if (i < w.offset_words) w.tile_offsets[i] = 0;
    if (!w.start || i >= w.start_threads) return;
    if (i < w.head_span) w.start[i] = 0;
    const std::int32_t base = i * three_way_tile_shape<T>::size;
    if (base >= w.n) return;
    w.start[base] = 0;
    w.start[three_way_run<T>::last_of(base, w.n)] = 0;
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
