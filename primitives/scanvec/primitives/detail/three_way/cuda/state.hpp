// scanvec/primitives/detail/three_way/cuda/state.hpp - what the CUDA tile form keeps in a state between its passes.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/generic.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cstdint>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The tile form's state (three_way_bookkeeping::form), beside the counts
/// (each segment's less and greater totals at its head) and the number of splits.
template <class T> struct three_way_tile_form_state {
    using Pos = std::uint32_t;
    /// Per tile of short_sort_shape<T>::tile_keys positions, the
    /// last split (by number) that left a short segment's head there, and the
    /// last that left a longer one's: [2t] and [2t + 1]. sort_short_segments
    /// and choose_pivots read them to skip the tiles they have nothing to do in.
    vector<std::uint32_t> tile_heads;
    /// The heads of the segments longer than short_tile() that the
    /// last split made, in three queues (three_way/cuda/block_sort_segments.hpp): up to
    /// short_limit() keys, one queue per block size, which sort_short_segments
    /// sorts a block each (keys a block sorts by radix: block_sort_by_radix);
    /// and the longer ones, whose pivots choose_pivots after the base case
    /// takes from there.
    vector<std::uint32_t> block_sort_queue;
    /// Per tile of the count and split passes, the state (by its
    /// number of splits) in which every key of it was first seen finished,
    /// three_way_never_finished before. From the next state on both passes skip
    /// it: the keys and starts two splits ago, where the split writes, hold it
    /// too, since finished keys never move.
    vector<std::uint32_t> finished;
    /// Per tile of the count and split passes, what the tiles
    /// before it in the count pass's order took of the segments at its two
    /// ends (three_way_round::tile_offsets), for the split in any order.
    vector<std::uint64_t> tile_offsets;
    /// The count's flag that it saw a descent (three_way_round::descents_seen, one word).
    vector<std::uint32_t> descents_seen;
    /// The state (by its number of splits) sort_short_segments
    /// last ran on; choose_pivots after it reads only where segments are left.
    std::uint32_t short_sorted = ~std::uint32_t(0);
    /// The buffers of the state before the previous one, which the
    /// next split writes (so that rounds after the second allocate nothing).
    vector<T> keys_two_splits_ago;
    vector<Pos> start_two_splits_ago;
    vector<Pos> length_two_splits_ago;
    vector<typename three_way_counts<Pos>::word> counts_two_splits_ago;
    /// The look-back status words of the next split's tiles, which
    /// choose_pivots before it initialises (a launch fewer a round); kept from
    /// round to round, initialised for this state's split when split_status_chosen.
    runtime::scratch split_status;
    bool split_status_chosen = false;
    /// The number of splits on the device (three_way_round::splits):
    /// a state of s splits reads [s % 2], its split writes [(s + 1) % 2].
    vector<std::uint32_t> split_words;
    /// Where a first state made over a program's keys
    /// (first_segments) reads them until its split; null otherwise. The
    /// state's own keys are then unwritten: the split after next writes them.
    const T* first_keys = nullptr;
};

}  SCANVEC_NAMESPACE_END  // detail

#endif
