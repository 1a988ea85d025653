// scanvec/primitives/detail/three_way/place.hpp - the records the three-way split's passes share.
#pragma once

#include <scanvec/runtime/backend.hpp>

#include <cstdint>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// An element's place after the split, its new segment's start, and that
/// segment's length (the tile split writes it only where the segment's first
/// element lands, else 0). Pos: the position type.
template <class Pos> struct three_way_place {
    Pos dest, start, length;
};

/// One state's arrays as the CUDA tile passes see them (below 2^31 positions).
template <class T> struct three_way_arrays {
    T* keys;
    std::uint32_t* start;   ///< where each position's segment begins
    std::uint32_t* length;  ///< at each head of a segment of two or more
    std::uint64_t* totals;  ///< each such segment's less and greater counts, at its head
};

/// What the tile passes of one round read and write: the state read (`from`),
/// the state the split writes (`to`), the pivots, and the bookkeeping carried
/// from state to state (three_way_bookkeeping says what each array holds).
template <class T> struct three_way_round {
    three_way_arrays<T> from;
    three_way_arrays<T> to;  ///< split_three_ways' output; the other passes leave it empty
    T* pivot;                ///< at each head of a segment of two or more
    std::uint32_t* tile_heads;
    std::uint32_t* block_sort_queue;
    std::uint32_t queue_slots;  ///< each queue's slots in block_sort_queue
    std::uint32_t* finished;
    /// Per count tile, [2t] and [2t + 1]: the (less, greater) counts that
    /// tiles before it in the count pass's order took of the segments
    /// holding its first and its last position (0 where the segment lies in
    /// the tile). The split in any order places the tile's keys after them.
    std::uint64_t* tile_offsets;
    /// The last state (by its number of splits) whose count found a descent:
    /// in any other state every segment is sorted, and the split in any
    /// order moves no key, as the stable one.
    std::uint32_t* descents_seen;
    /// The split that counts sets it (it was zeroed) where a tile holds a key
    /// not finished: left 0, every key of the state read was finished.
    unsigned long long* unsorted;
    /// How many splits made the state read, on the device: the passes read
    /// it there, so that rounds repeated on the device (quicksort's loop, one
    /// graph) see each state's own; the split writes its output's into
    /// next_splits (three_way_bookkeeping::split_words).
    const std::uint32_t* splits;
    std::uint32_t* next_splits;
    std::int32_t n;
    stream_t stream;
};

}  SCANVEC_NAMESPACE_END  // detail
