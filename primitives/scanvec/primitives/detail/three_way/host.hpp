// scanvec/primitives/detail/three_way/host.hpp - the three-way split family on the host, by blocks of positions.
//
// The form three_way/dispatch.hpp picks on the host backend, for every key
// type. Each call is one or two parallel passes over blocks of positions
// (three_way_host_block), on every OpenMP thread, whatever the number of
// segments: one segment of 2^24 keys and a million short ones split alike.
//
//   count   each block compares its keys with their segment's pivot (a
//           finished key counts as equal) and keeps, for every segment of two
//           or more, the (less, equal) counts before its head (at the head) and
//           through its last key (at head + 1), from the start of the block
//           counting; the blocks' totals, scanned in order, make them global;
//           the descents are counted in the same pass
//   split   each block compares again and, from the counts before its first
//           position and those of its segments, places every key without a
//           branch on its class; the key landing at a new segment's head
//           writes its length
//   sort_short  the heads of segments of 2 to three_way_host_short_limit keys,
//           found per block, then each such segment sorted by one thread
//           (std::sort for integers, std::stable_sort otherwise) and finished
//
// Lengths are kept at every head (1 for a finished key), so that the passes
// go from head to head. The counts live in the state's bookkeeping (counts:
// n words, two per segment of two or more, then one per block and the total).
// docs/design/quicksort.md says how it runs and what it measured.
#pragma once

#if !defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/generic.hpp>

#include <omp.h>

#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class T, class Pos> struct three_way_host {
    using segments = pivoted_segments<T, Pos>;
    using state = three_way_no_state;
    using C = three_way_counts<Pos>;
    using word = typename C::word;
    static constexpr index_t block = three_way_host_block;

    static std::size_t short_limit(std::size_t) { return three_way_host_short_limit; }
    /// No tiles on the host: no short segment waits for a longer one near it.
    static std::size_t short_tile(std::size_t) { return 1; }

    static index_t blocks_of(index_t n) { return (n + block - 1) / block; }

    static void begin(segments& segs) {
        const index_t n = index_t(segs.size());
        three_way_access::book(segs).counts = vector<word>(std::size_t(n + blocks_of(n) + 1), no_init);
        if (n) segs.length.data()[0] = Pos(n);
    }

    template <class Chooser> static void choose_pivots(segments& segs, const Chooser& chooser) {
        const index_t n = index_t(segs.size());
        auto keys = reader(segs.keys);
        auto pivot = writer(segs.pivot);
        const Pos* start = segs.start.data();
        const Pos* length = segs.length.data();
        const index_t blocks = blocks_of(n);
#pragma omp parallel for schedule(static)
        for (index_t b = 0; b < blocks; ++b) {  // from head to head: the segments headed in block b
            const index_t lo = b * block, hi = std::min(n, lo + block);
            for (index_t s = index_t(start[lo]) == lo ? lo : index_t(start[lo]) + index_t(length[start[lo]]); s < hi;) {
                const index_t len = index_t(length[s]);
                if (len >= 2) pivot[s] = chooser(keys, Pos(s), Pos(len));
                s += len;
            }
        }
    }

    /// The word of `less` and `equal` counts.
    static word make(index_t less, index_t equal) {
        if constexpr (std::is_same_v<Pos, std::uint32_t>) return (word(less) << 32) | word(equal);
        else return word{std::uint64_t(less), std::uint64_t(equal)};
    }

    template <class Chooser> static device_value<index_t> count(segments& segs, const Chooser& chooser) {
        const index_t n = index_t(segs.size());
        device_value<index_t> descents(current_stream());
        *descents.ptr() = 0;
        if (n < 2) return descents;
        if constexpr (!is_chosen_pivot<Chooser>) {  // a step of its own, as the public choose_pivots
            labelled("choose_pivots", std::size_t(n), [&] {
                choose_pivots(segs, chooser);
                return 0;
            });
        }
        const index_t blocks = blocks_of(n);
        auto keys = reader(segs.keys);
        auto pivot = reader(segs.pivot);
        const Pos* start = segs.start.data();
        const Pos* length = segs.length.data();
        auto& counts = three_way_access::book(segs).counts;
        auto at = writer(counts);
        index_t desc = 0;
        // A finished key (a segment of one) counts as equal, whatever the pivot.
        // At the head s of a longer segment: the counts before it; at s + 1 (not
        // a head) those through its last key; both from the start of the block
        // that holds the position counted.
#pragma omp parallel for schedule(static) reduction(+ : desc)
        for (index_t b = 0; b < blocks; ++b) {
            const index_t lo = b * block, hi = std::min(n, lo + block);
            index_t less = 0, equal = 0;
            for (index_t i = lo; i < hi;) {  // a segment's keys in this block at a time
                const index_t s = index_t(start[i]), e = s + index_t(length[s]), end = std::min(e, hi);
                if (e - s == 1) {  // a finished key
                    ++equal, ++i;
                    continue;
                }
                if (s == i) at[i] = make(less, equal);
                const T p = pivot[s];
                T prev = keys[i > s ? i - 1 : i];
                for (; i < end; ++i) {
                    const T x = keys[i];
                    const bool lt = x < p, gt = p < x;
                    desc += index_t(x < prev);
                    less += index_t(lt);
                    equal += index_t(!lt & !gt);
                    prev = x;
                }
                if (end == e) at[s + 1] = make(less, equal);
            }
            at[n + b] = make(less, equal);
        }
        const typename C::op add{};
        word sum = add.identity();  // the blocks' totals into the counts before each block
        for (index_t b = 0; b <= blocks; ++b) {
            const word here = b < blocks ? word(counts[std::size_t(n + b)]) : add.identity();
            at[n + b] = sum;
            sum = add(sum, here);
        }
        *descents.ptr() = desc;
        return descents;
    }

    static void sort_short(segments& segs) {
        const index_t n = index_t(segs.size());
        if (n < 2) return;
        const index_t blocks = blocks_of(n), limit = index_t(three_way_host_short_limit);
        Pos* start = segs.start.data();
        Pos* length = segs.length.data();
        // the heads first, then the sorts: a sort rewrites the starts that name heads.
        // Nothing allocates inside a parallel region (an exception cannot leave
        // one): the heads are counted, then written into memory taken before.
        const auto each_head = [&](index_t b, auto&& f) {  // f(s, len) for each short segment's head in block b
            const index_t lo = b * block, hi = std::min(n, lo + block);
            for (index_t s = index_t(start[lo]) == lo ? lo : index_t(start[lo]) + index_t(length[start[lo]]); s < hi;) {
                const index_t len = index_t(length[s]);  // from head to head
                if (len >= 2 && len <= limit) f(s, len);
                s += len;
            }
        };
        std::vector<index_t> first(static_cast<std::size_t>(blocks) + 1, 0), longest(static_cast<std::size_t>(blocks), 0);
#pragma omp parallel for schedule(static)
        for (index_t b = 0; b < blocks; ++b)
            each_head(b, [&](index_t, index_t len) {
                ++first[std::size_t(b) + 1];
                longest[std::size_t(b)] = std::max(longest[std::size_t(b)], len);
            });
        for (index_t b = 0; b < blocks; ++b) first[std::size_t(b) + 1] += first[std::size_t(b)];
        std::vector<index_t> heads(static_cast<std::size_t>(first[std::size_t(blocks)]));
#pragma omp parallel for schedule(static)
        for (index_t b = 0; b < blocks; ++b) {
            index_t at = first[std::size_t(b)];
            each_head(b, [&](index_t s, index_t) { heads[std::size_t(at++)] = s; });
        }
        const index_t widest = blocks ? *std::max_element(longest.begin(), longest.end()) : 0;
        if (widest == 0) return;
        std::vector<T> bufs(std::size_t(omp_get_max_threads()) * std::size_t(widest));  // one segment's keys per thread
        auto keys = reader(segs.keys);
        auto keys_out = writer(segs.keys);
#pragma omp parallel
        {
            T* buf = bufs.data() + std::size_t(omp_get_thread_num()) * std::size_t(widest);
#pragma omp for schedule(dynamic, 1)
            for (index_t b = 0; b < blocks; ++b) {
                for (index_t h = first[std::size_t(b)]; h < first[std::size_t(b) + 1]; ++h) {
                    const index_t s = heads[std::size_t(h)], len = index_t(length[s]);
                    std::copy(keys + s, keys + s + len, buf);
                    if (!std::is_sorted(buf, buf + len)) {
                        // std::stable_sort falls back to an in-place merge when it gets no memory: it never throws for it
                        if constexpr (std::is_integral_v<T>) std::sort(buf, buf + len);
                        else std::stable_sort(buf, buf + len);
                        for (index_t k = 0; k < len; ++k) keys_out[s + k] = buf[k];
                    }
                    for (index_t k = s; k < s + len; ++k) start[k] = Pos(k), length[k] = Pos(1);
                }
            }
        }
    }

    /// The stable split is one of the orders split_three_ways(segs, any_order) allows.
    static segments split_any_order(segments& segs) { return split(segs); }
    /// No split of this form counts: count_split_three_ways counts, then splits
    /// (the descents say whether every segment was sorted).
    static constexpr bool counts_in_split = false;

    static segments split(segments& segs) {
        const index_t n = index_t(segs.size());
        segments out;
        out.pivot = std::move(segs.pivot);
        auto& book = three_way_access::book(out);
        book = std::move(three_way_access::book(segs));
        ++book.splits;
        if (n < 2) {
            out.keys = std::move(segs.keys);
            out.start = std::move(segs.start);
            out.length = std::move(segs.length);
            return out;
        }
        out.keys = vector<T>(std::size_t(n), no_init);
        out.start = vector<Pos>(std::size_t(n), no_init);
        out.length = vector<Pos>(std::size_t(n), no_init);
        const index_t blocks = blocks_of(n);
        auto keys = reader(segs.keys);
        auto pivot = reader(out.pivot);
        const Pos* start = segs.start.data();
        const Pos* length = segs.length.data();
        auto counts = reader(book.counts);
        auto keys_out = writer(out.keys);
        Pos* start_out = out.start.data();
        Pos* length_out = out.length.data();
        // the counts kept at position x (by count, from the start of block k) made global
        const auto global = [&](index_t x, index_t k, index_t& less, index_t& equal) {
            const word w = counts[x], from = counts[n + k];
            less = index_t(C::less(w)) + index_t(C::less(from));
            equal = index_t(C::equal(w)) + index_t(C::equal(from));
        };
        // Each key's place, its new segment's start and (0 but at a head) that
        // segment's length, without a branch on the key's class: a less key goes
        // to s + (less before it in the segment), an equal one after all the
        // less, a greater one after all the less and equal.
#pragma omp parallel for schedule(static)
        for (index_t b = 0; b < blocks; ++b) {
            const index_t lo = b * block, hi = std::min(n, lo + block);
            const word from = counts[n + b];  // the counts before i
            index_t less = index_t(C::less(from)), equal = index_t(C::equal(from));
            for (index_t i = lo; i < hi;) {  // a segment's keys in this block at a time
                const index_t s = index_t(start[i]), e = s + index_t(length[s]), end = std::min(e, hi);
                if (e - s == 1) {  // a finished key stays
                    keys_out[i] = T(keys[i]);
                    start_out[i] = Pos(i);
                    length_out[i] = Pos(1);
                    ++equal, ++i;
                    continue;
                }
                index_t base_less, base_equal, through_less, through_equal;
                global(s, s / block, base_less, base_equal);
                global(s + 1, (e - 1) / block, through_less, through_equal);  // kept at s + 1 from its last key's block
                const index_t all_less = through_less - base_less, all_equal = through_equal - base_equal;
                const index_t greater_from = s + all_less + all_equal, greater_length = e - greater_from;
                const T p = pivot[s];
                for (; i < end; ++i) {
                    const T x = keys[i];
                    const index_t lt = index_t(x < p), gt = index_t(p < x), eq = 1 - lt - gt;
                    const index_t lb = less - base_less, eb = equal - base_equal;
                    const index_t at_equal = s + all_less + eb;
                    const index_t dest = lt * (s + lb) + gt * (greater_from + (i - s - lb - eb)) + eq * at_equal;
                    const index_t head = lt * s + gt * greater_from + eq * at_equal;
                    const index_t len = lt * all_less + gt * greater_length + eq;
                    keys_out[dest] = x;
                    start_out[dest] = Pos(head);
                    if (dest == head) length_out[dest] = Pos(len);  // rare but for equal keys
                    less += lt;
                    equal += eq;
                }
            }
        }
        return out;
    }
};

}  SCANVEC_NAMESPACE_END  // detail

#endif
