// scanvec/primitives/detail/three_way/cuda/tiles.hpp - the three-way split
// family in tile passes (CUDA): the host driver.
//
// Arithmetic keys, 32-bit positions, below 2^31 elements (three_way_tiles<T>
// hands larger states to the generic form). Each element's counts (is it less
// than its segment's pivot, is it greater) and whether it heads a segment pack
// into one word: the head flag in the top bit, less above greater. Scanning
// those words with
//     a (+) b = b if b heads a segment, else a + b
// is a segmented +-scan of both counts at once; it is associative, so CUB's
// block scan and decoupled look-back run it like a sum.
//
// count pass: each segment's pivot chosen where its part of the tile begins
// (by its head, or again by the tile it crosses into: the same answer); the
// tile's scan in shared memory; the last element of each segment in the tile
// leaves the segment's counts at its head: a plain store when the whole
// segment lies in the tile, an atomic add when it crosses a tile boundary (the
// split that made the segment zeroed its totals). What the atomic add finds
// there, the counts of the tiles before it in the pass's order, is kept for the
// tile (tile_offsets). The same pass counts the descents inside segments (one
// atomic per tile).
// split pass, stable: the same scan, now across tiles by look-back, gives each
// element its counts before it in its segment; with the segment's totals that
// is its place. In any order (integer keys): the tile's own scan and its
// tile_offsets give each element its place, and no tile waits for another.
// The element that lands first in a new segment writes the segment's length
// and zeroes its totals for the next count pass.
//
// A segment of one element (finished) has no pivot, no totals and never
// moves: both passes recognise it from the starts alone (it is a head and so
// is the next position). A tile of finished keys only is marked by the count
// pass (finished[t] = the state's number of splits) and skipped by both passes
// in every later state; the stable split then publishes it to the look-back as a tile
// of heads, which no counts cross. docs/design/quicksort.md has the rest.
//
// Rooms: cuda/word.hpp (the packed word, a thread's run of a tile),
// cuda/count.hpp, cuda/split_stable.hpp, cuda/split_one_segment.hpp,
// cuda/split_any_order.hpp (with the split that counts and its fill),
// cuda/pivots.hpp, cuda/first_state.hpp; here the launches and
// three_way_tiles, the form three_way/dispatch.hpp picks.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/count.hpp>
#include <scanvec/primitives/detail/three_way/cuda/first_state.hpp>
#include <scanvec/primitives/detail/three_way/cuda/pivots.hpp>
#include <scanvec/primitives/detail/three_way/cuda/split_any_order.hpp>
#include <scanvec/primitives/detail/three_way/cuda/split_stable.hpp>
#include <scanvec/primitives/detail/three_way/cuda/state.hpp>
#include <scanvec/primitives/detail/three_way/cuda/word.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// choose_pivots over the state round.from, by the marks of the last split
/// (after_short_sort: sort_short_segments ran on this state); the next
/// split's look-back status is initialised by the same launch, in
/// split_status (allocated when it does not have the size: once for a
/// program's rounds, which then allocate nothing).
template <class T, class Chooser>
void pivots_by_tiles(const three_way_round<T>& round, const Chooser& chooser, bool after_short_sort,
                     runtime::scratch& split_status) {
    const int tiles = int((std::size_t(round.n) + short_sort_shape<T>::tile_keys - 1) / short_sort_shape<T>::tile_keys);
    const int split_tiles = three_way_tiles_of<T>(round.n);
    // a warp per tile: 32 threads for every tile_keys positions, so a thread for every tile of the split
    static_assert(short_sort_shape<T>::tile_keys <= three_way_tile_shape<T>::size * 32,
                  "the pivots' grid has a thread for every tile of the split");
    constexpr int warps = three_way_pivot_threads / 32;
    const std::size_t status_bytes = tile_state_bytes<three_way_tile_state>(split_tiles, "choose_pivots");
    if (split_status.size() != status_bytes) split_status = runtime::scratch(status_bytes);
    const auto status = tile_state_on<three_way_tile_state>(split_tiles, split_status.get(), split_status.size(),
                                                            "choose_pivots");
    // warps for the long queue: no more than its slots (n / (block_sort_limit<T> + 1) can be that long)
    const int queue_warps =
        after_short_sort ? int(std::min<std::size_t>(std::size_t(round.n) / (std::size_t(block_sort_limit<T>) + 1),
                                                     three_way_pivot_queue_warps))
                         : 0;
    std::uint32_t* queue = round.block_sort_queue;
    pivots_at_marked_tiles<T, Chooser><<<(tiles + queue_warps + warps - 1) / warps, three_way_pivot_threads, 0, round.stream>>>(
        round.from.keys, round.from.start, round.from.length, round.pivot, chooser, round.tile_heads, round.splits,
        round.n, status, split_tiles, after_short_sort, queue + block_sort_long_queue,
        block_sort_heads(queue, round.queue_slots, block_sort_long_queue), queue_warps);
    backend::check_launch("choose_pivots (by marked tiles)");
}

/// The count pass over round.from, each segment's pivot chosen on the way
/// (chooser(keys, s, length[s]), stored at its head); the descents are added
/// into *descents, which the caller zeroed. first_state: three_way_one_first_segment.
template <class T, class Chooser>
void three_way_count_by_tiles(const three_way_round<T>& round, const Chooser& chooser, unsigned long long* descents,
                              bool first_state) {
    const int num_tiles = int((std::size_t(round.n) + three_way_tile_shape<T>::size - 1) / three_way_tile_shape<T>::size);
    three_way_count_tiles<T, Chooser><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round, chooser,
                                                                                                      descents);
    backend::check_launch("count_three_ways (count by tiles)");
    if (first_state) {  // the tiles left their counts: offsets, totals
        const int blocks = (num_tiles + three_way_first_offsets_threads - 1) / three_way_first_offsets_threads;
        const tile_state<three_way_tile_state> status(blocks, round.stream, "count_three_ways (first offsets)");
        three_way_first_offsets<T><<<blocks, three_way_first_offsets_threads, 0, round.stream>>>(round, num_tiles, descents,
                                                                                              status.tiles);
        backend::check_launch("count_three_ways (the first state's tile offsets)");
    }
}

/// Whether split_three_ways(segs, any_order) takes the pass without look-back.
template <class T> constexpr bool three_way_splits_any_order = std::is_integral_v<T>;

/// The split pass: round.from split into round.to, stably or in any order
/// within each class (AnyOrder: integer keys only; with round.unsorted, the
/// split that counts and its fill pass, no count before them). The stable pass's
/// look-back status is the one choose_pivots initialised in `*chosen`;
/// without one (the pivots chosen by the count pass, or none chosen since
/// the last split) it is made and initialised here.
template <class T, bool AnyOrder> void three_way_split_by_tiles(const three_way_round<T>& round, const runtime::scratch* chosen) {
    const int num_tiles = three_way_tiles_of<T>(round.n);
    backend::fill_zero(round.block_sort_queue, block_sort_queues * sizeof(std::uint32_t), round.stream,
                       "split_three_ways (block-sort queues)");
    if constexpr (AnyOrder) {
        if (round.unsorted) {
            three_way_split_counting_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round);
            backend::check_launch("split_three_ways (split that counts, by tiles)");
            three_way_fill_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round);
            backend::check_launch("split_three_ways (fill of the equal and greater parts)");
            return;
        }
        static_assert(three_way_splits_any_order<T>, "the split without look-back takes integer keys");
        three_way_split_any_order_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round);
        backend::check_launch("split_three_ways (split by tiles, any order)");
        return;
    }
    const std::size_t bytes = tile_state_bytes<three_way_tile_state>(num_tiles, "split_three_ways");
    std::optional<tile_state<three_way_tile_state>> fresh;
    three_way_tile_state tiles;
    if (chosen && chosen->size() == bytes) {
        tiles = tile_state_on<three_way_tile_state>(num_tiles, chosen->get(), bytes, "split_three_ways");
    } else {
        fresh.emplace(num_tiles, round.stream, "split_three_ways");
        tiles = fresh->tiles;
    }
    three_way_split_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round, tiles);
    backend::check_launch("split_three_ways (split by tiles)");
}

/// The family on tiles (three_way/dispatch.hpp picks it for arithmetic keys
/// with 32-bit positions); states of 2^31 elements or more go to the generic form.
template <class T> struct three_way_tiles {
    using Pos = std::uint32_t;
    using segments = pivoted_segments<T, Pos>;
    using state = three_way_tile_form_state<T>;
    using generic = three_way_generic<T, Pos>;

    /// The passes index positions with 32-bit signed integers.
    static bool fits(std::size_t n) { return n <= std::size_t(std::numeric_limits<std::int32_t>::max()); }

    static std::size_t short_limit(std::size_t n) {
        return fits(n) ? std::size_t(block_sort_limit<T>) : generic::short_limit(n);
    }
    static std::size_t short_tile(std::size_t n) {
        return fits(n) ? std::size_t(short_sort_shape<T>::tile_keys) : generic::short_tile(n);
    }

    /// The tile passes' view of a state (the split adds its output, round.to).
    static three_way_round<T> round_of(vector<T>& keys, vector<Pos>& start, vector<Pos>& length, vector<T>& pivot,
                                       three_way_bookkeeping<T, Pos, state>& book) {
        three_way_round<T> r{};
        // a first state over a program's keys reads them there (the passes before
        // its split write no key: first_segments makes it only where none would)
        T* const from_keys = book.form.first_keys ? const_cast<T*>(book.form.first_keys) : keys.data();
        r.from = {from_keys, start.data(), length.data(), book.counts.data()};
        r.pivot = pivot.data();
        r.tile_heads = book.form.tile_heads.data();
        r.block_sort_queue = book.form.block_sort_queue.data();
        const std::size_t queue_words = book.form.block_sort_queue.size();
        r.queue_slots = queue_words ? std::uint32_t(block_sort_queue_slots(queue_words)) : 0;
        r.finished = book.form.finished.data();
        r.tile_offsets = book.form.tile_offsets.data();
        r.descents_seen = book.form.descents_seen.data();
        r.splits = book.form.split_words.data() + book.splits % 2;
        r.next_splits = book.form.split_words.data() + (book.splits + 1) % 2;
        r.n = std::int32_t(keys.size());
        r.stream = current_stream();
        return r;
    }
    static three_way_round<T> round_of(segments& segs) {
        return round_of(segs.keys, segs.start, segs.length, segs.pivot, three_way_access::book(segs));
    }

    /// A new state of one segment: its bookkeeping allocated and set (with
    /// first_starts, the starts the passes before its split read).
    static void begin_with(segments& segs, bool first_starts) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) {
            generic::begin(segs);
            // the count pass adds into the totals at heads
            if (n) backend::fill_zero(three_way_access::book(segs).counts.data(), sizeof(std::uint64_t), current_stream(),
                                      "pivoted_segments (counts)");
            return;
        }
        generic::begin_unwritten(segs);
        auto& book = three_way_access::book(segs);
        const std::size_t tile_keys = short_sort_shape<T>::tile_keys, tiles = (n + tile_keys - 1) / tile_keys;
        const std::size_t passes = three_way_tile_shape<T>::size, words = (n + passes - 1) / passes;
        book.form.tile_heads = vector<std::uint32_t>(2 * tiles, no_init);
        // slots in each queue for the most segments longer than a tile a split can make
        book.form.block_sort_queue = vector<std::uint32_t>(block_sort_queue_words(tiles), no_init);
        book.form.finished = vector<std::uint32_t>(words, no_init);
        book.form.tile_offsets = vector<std::uint64_t>(2 * words, no_init);  // a finished tile's are read, not used
        book.form.descents_seen = vector<std::uint32_t>(1, no_init);
        book.form.split_words = vector<std::uint32_t>(2, no_init);
        three_way_first_words w{};
        static_assert(sizeof(*book.counts.data()) == sizeof(std::uint64_t), "the head's totals are one 64-bit word");
        w.counts = reinterpret_cast<std::uint64_t*>(book.counts.data());
        w.length = segs.length.data();
        w.tile_heads = book.form.tile_heads.data();
        w.queue = book.form.block_sort_queue.data();
        w.finished = book.form.finished.data();
        w.tile_offsets = book.form.tile_offsets.data();
        w.descents_seen = book.form.descents_seen.data();
        w.split_words = book.form.split_words.data();
        w.splits = book.splits;
        w.n = std::int32_t(n);
        w.heads = std::int32_t(2 * tiles);
        w.head_word = n > tile_keys ? 1 : 0;  // "split 0" left one head, at 0
        w.queue_words = std::int32_t(book.form.block_sort_queue.size());
        w.queue_one = n > tile_keys ? std::int32_t(block_sort_queue_of<T>(std::uint32_t(n))) : -1;
        w.finished_words = std::int32_t(words);
        w.offset_words = std::int32_t(2 * words);
        if (first_starts) {
            w.start = segs.start.data();
            w.head_span = std::min<std::int32_t>(w.n, std::int32_t(tile_keys) + 1);
            w.start_threads = std::max(three_way_tiles_of<T>(w.n), w.head_span);
        }
        constexpr int threads = three_way_first_words_threads;
        three_way_first_words_set<T><<<(w.threads() + threads - 1) / threads, threads, 0, current_stream()>>>(w);
        backend::check_launch("pivoted_segments (first state's bookkeeping)");
    }

    /// The set-up is queued (one launch, three_way_first_words_set): no wait.
    static void begin(segments& segs) { begin_with(segs, false); }

    /// Whether a first state of n keys can read them where the program holds
    /// them (begin_over): positions the passes index, and more keys than the
    /// base case sorts in place, so that no pass writes a key before the split.
    static bool reads_in_place(std::size_t n) { return fits(n) && n > std::size_t(block_sort_limit<T>); }

    /// begin for a state whose keys are read at `keys` until its split (its own
    /// are unwritten): of its starts, all 0, only those the passes before the
    /// split read are written (three_way_first_words::start).
    static void begin_over(segments& segs, const T* keys) {
        begin_with(segs, true);
        three_way_access::book(segs).form.first_keys = keys;
    }

    template <class Chooser> static void choose_pivots(segments& segs, const Chooser& chooser) {
        const std::size_t n = segs.size();
        if (n < 2) return;  // no segment of two
        if (!fits(n)) return generic::choose_pivots(segs, chooser);
        auto& book = three_way_access::book(segs);  // the split marked the tiles with heads
        pivots_by_tiles(round_of(segs), chooser, book.form.short_sorted == book.splits, book.form.split_status);
        book.form.split_status_chosen = true;
    }

    template <class Chooser> static device_value<index_t> count(segments& segs, const Chooser& chooser) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) return generic::count(segs, chooser);
        device_value<index_t> descents = generic::no_descents(current_stream());  // the count pass adds into it
        count_into(segs, chooser, descents);
        return descents;
    }
    /// The count into a zeroed word of the caller's.
    template <class Chooser> static void count_into(segments& segs, const Chooser& chooser, device_value<index_t>& descents) {
        static_assert(sizeof(index_t) == sizeof(unsigned long long), "the tile pass adds 64-bit words");
        auto& book = three_way_access::book(segs);
        three_way_count_by_tiles(round_of(segs), chooser, reinterpret_cast<unsigned long long*>(descents.ptr()),
                                 three_way_one_first_segment<T>(book.splits, std::int32_t(segs.size())));
    }

    static void sort_short(segments& segs) {
        const std::size_t n = segs.size();
        if (n < 2) return;
        if (!fits(n)) return generic::sort_short(segs);
        auto& book = three_way_access::book(segs);
        // a first state of one segment longer than the base case sorts has nothing to sort (no launch)
        if (!three_way_one_first_segment<T>(book.splits, std::int32_t(n))) {
            const three_way_round<T> round = round_of(segs);
            block_sort_queued(round);
            short_sort_by_tiles(round);
        }
        book.form.short_sorted = book.splits;  // choose_pivots then takes the long segments from their queue
    }

    /// Writes into the buffers of two states ago: the tiles it skips (finished) hold their keys already.
    static segments split(segments& segs) { return split_by_tiles<false>(segs); }
    /// Integer keys without look-back; others stably (one of the orders).
    static segments split_any_order(segments& segs) { return split_by_tiles<three_way_splits_any_order<T>>(segs); }

    /// Whether a state's rounds (the base case, choose_pivots,
    /// count_split_any_order into a caller's word) are to be repeated by the
    /// device: from the third round on they allocate nothing and wait for
    /// nothing, their buffers alternating; worth a graph from
    /// three_way_rounds_on_device_from keys.
    static bool repeats_on_device(std::size_t n) { return n >= three_way_rounds_on_device_from && fits(n); }

    /// Whether count_split_any_order counts in the split itself (one pass fewer).
    static constexpr bool counts_in_split = three_way_splits_any_order<T>;
    /// The split that counts (counts_in_split), and whether any key it read was
    /// not finished; other keys count, then split.
    static std::pair<segments, device_value<index_t>> count_split_any_order(segments& segs) {
        device_value<index_t> unsorted(current_stream());
        segments out = count_split_any_order(segs, unsorted);
        return {std::move(out), std::move(unsorted)};
    }
    /// The same, the number in the caller's word (zeroed here first): no
    /// allocation once the state's rounds have made their buffers (after two
    /// splits), so rounds of it can be repeated on the device.
    static segments count_split_any_order(segments& segs, device_value<index_t>& unsorted) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) return number_into(generic::count_split_any_order(segs), unsorted);
        backend::fill_zero(unsorted.ptr(), sizeof(index_t), current_stream(), "count_split_three_ways (its number)");
        if constexpr (!counts_in_split) {
            count_into(segs, chosen_pivot<decltype(reader(segs.pivot))>{reader(segs.pivot)}, unsorted);
            return split_any_order(segs);
        } else {
            static_assert(sizeof(index_t) == sizeof(unsigned long long), "the tile pass stores a 64-bit word");
            return split_by_tiles<counts_in_split>(segs, reinterpret_cast<unsigned long long*>(unsorted.ptr()));
        }
    }

    template <bool AnyOrder> static segments split_by_tiles(segments& segs, unsigned long long* unsorted = nullptr) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) return generic::split(segs);
        segments out;
        out.pivot = std::move(segs.pivot);
        auto& book = three_way_access::book(out);
        book = std::move(three_way_access::book(segs));
        const bool reuse = book.form.keys_two_splits_ago.size() == n;
        vector<std::uint64_t> totals = std::move(book.counts);  // read here; the new state's are zeroed at its heads
        // the buffers of two states ago, where there are such (no split reads what they hold)
        book.counts = reuse ? std::move(book.form.counts_two_splits_ago) : vector<std::uint64_t>(n, no_init);
        out.length = reuse ? std::move(book.form.length_two_splits_ago) : vector<Pos>(n, no_init);
        out.keys = reuse ? std::move(book.form.keys_two_splits_ago) : vector<T>(n, no_init);
        out.start = reuse ? std::move(book.form.start_two_splits_ago) : vector<Pos>(n, no_init);
        three_way_round<T> round = round_of(segs.keys, segs.start, segs.length, out.pivot, book);
        round.from.totals = totals.data();
        round.to = {out.keys.data(), out.start.data(), out.length.data(), book.counts.data()};
        round.unsorted = unsorted;
        three_way_split_by_tiles<T, AnyOrder>(round, book.form.split_status_chosen ? &book.form.split_status : nullptr);
        book.form.split_status_chosen = false;  // the next split's is initialised by the next choose_pivots
        book.form.first_keys = nullptr;  // the split wrote every key into out.keys
        ++book.splits;
        book.form.keys_two_splits_ago = std::move(segs.keys);
        book.form.start_two_splits_ago = std::move(segs.start);
        book.form.length_two_splits_ago = std::move(segs.length);
        book.form.counts_two_splits_ago = std::move(totals);
        return out;
    }
};

}  SCANVEC_NAMESPACE_END  // detail

#endif
