// scanvec/primitives/detail/multisplit/host.hpp - histogram and multisplit on the host (Thrust's OpenMP system).
//
//   histogram_into(digits, r)         few bins: a count per tile, summed per bin;
//                                     many: each thread owns a range of bins
//   multisplit_into(a, digits, m, r)  the tile-wise counting sort: a count per tile,
//                                     an exclusive scan of the m x tiles table, a scatter per tile
//   multisplit_records(keys, in, out, bits, op)
//                                     plain records (one array) by 32-bit keys: the same
//                                     counting sort, its class starts returned
//   radix_run_into(keys, r)           a radix sort's multisplits as one run: the top
//                                     digit over the vector, the rest bucket by bucket
//
// Included by multisplit.hpp for the host backend only; the CUDA counterpart is
// multisplit/cuda/passes.hpp, with the same first three entry points. Why these paths and how
// fast: docs/design/multisplit.md.
#pragma once

#if !defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/multisplit/policy.hpp>
#include <scanvec/primitives/detail/common/radix_digit_view.hpp>

#include <thrust/for_each.h>
#include <thrust/scan.h>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Part p of `parts` counts the digits in its own range of bins, reading every
/// digit: no atomics and no shared cache lines, and each part's random
/// increments stay inside 1/parts of the counts. Part 0 tallies the digits
/// outside 0..m-1.
template <class DIt> struct count_bin_range {
    DIt d;
    index_t n, m, parts;
    index_t* counts;
    unsigned long long* outside;
    void operator()(index_t p) const {
        const index_t lo = m * p / parts, hi = m * (p + 1) / parts;
        unsigned long long bad = 0;
        for (index_t i = 0; i < n; ++i) {
            const auto j = static_cast<long long>(d[i]);
            if (j >= lo && j < hi) ++counts[j];
            bad += std::uint64_t(j) >= std::uint64_t(m);
        }
        if (p == 0) *outside = bad;
    }
};

/// Every digit counted into r (zeroed) without per-tile copies of the bins:
/// each thread owns a range of bins. O(m) memory for any m.
template <class D> void count_many_bins(const D& digits, vector<index_t>& r, unsigned long long* outside) {
    const index_t parts = omp_get_max_threads();
    thrust::for_each_n(policy(), thrust::counting_iterator<index_t>(0), parts,
                       count_bin_range<decltype(reader(digits))>{reader(digits), index_t(digits.size()),
                                                                 index_t(r.size()), parts, r.data(), outside});
}

// A tile works on its own contiguous copy of its column of the table: the
// column's entries lie tiles * 8 bytes apart, each on its own cache line and,
// at power-of-two strides, all in a few cache sets. The copies (rows, m a
// tile) are taken before the parallel loop: an out-of-memory cannot leave it.

/// counts[d * tiles + t] = number of digits d in tile t (each tile owns its column
/// and its row of rows); digits outside 0..m-1 are not counted but added to
/// *outside (when not null).
template <class DIt> struct count_tile {
    DIt d;
    index_t n, m, tiles;
    index_t* counts;
    index_t* rows;
    unsigned long long* outside;
    void operator()(index_t t) const {
        const index_t lo = n * t / tiles, hi = n * (t + 1) / tiles;
        index_t* mine = rows + t * m;
        std::fill(mine, mine + m, index_t(0));
        unsigned long long bad = 0;
        for (index_t i = lo; i < hi; ++i) {
            const auto j = static_cast<long long>(d[i]);
            if (j >= 0 && j < m) ++mine[j];
            else ++bad;
        }
        for (index_t b = 0; b < m; ++b) counts[b * tiles + t] = mine[b];
        if (bad && outside) __atomic_fetch_add(outside, bad, __ATOMIC_RELAXED);
    }
};

/// Writes tile t's elements at their class's next free place (starts from the
/// scanned table; the places kept in the tile's row of rows).
template <class In, class DIt, class Out> struct scatter_tile {
    In a;
    DIt d;
    Out out;
    index_t n, m, tiles;
    const index_t* starts;
    index_t* rows;
    void operator()(index_t t) const {
        const index_t lo = n * t / tiles, hi = n * (t + 1) / tiles;
        index_t* place = rows + t * m;
        for (index_t b = 0; b < m; ++b) place[b] = starts[b * tiles + t];
#if defined(__SSE2__)
        if constexpr (std::is_pointer_v<Out> && std::is_arithmetic_v<std::remove_pointer_t<Out>>) {
            if (m <= counting_sort_policy::max_buffered_classes) {
                by_lines(lo, hi, place);
                return;
            }
        }
#endif
        for (index_t i = lo; i < hi; ++i) out[place[std::size_t(d[i])]++] = a[i];
    }
#if defined(__SSE2__)
    /// The same through one cache line per class: an element goes to its
    /// class's line at the slot of its place in memory, and a line written
    /// whole is stored with non-temporal stores (no read of the line first,
    /// which a scatter's ordinary stores cost); a class's first and last
    /// lines, shared with the places of other tiles or classes, are stored
    /// element by element.
    void by_lines(index_t lo, index_t hi, index_t* place) const {
        using V = std::remove_pointer_t<Out>;
        constexpr index_t lane = index_t(64 / sizeof(V));
        alignas(64) V line[counting_sort_policy::max_buffered_classes][lane];
        index_t from[counting_sort_policy::max_buffered_classes];  // the first place held in the class's line
        index_t next[counting_sort_policy::max_buffered_classes];  // the places, in a local array
        const auto slot = [&](index_t p) { return index_t((reinterpret_cast<std::uintptr_t>(out + p) / sizeof(V)) % lane); };
        for (index_t b = 0; b < m; ++b) from[b] = next[b] = place[b];
        // the digits of a run of elements first (a loop without stores to
        // dependent places, which the compiler vectorises), then their moves
        static_assert(counting_sort_policy::max_buffered_classes <= 65536, "the digits of a run are 16-bit");
        constexpr index_t run = counting_sort_policy::digit_run;
        std::uint16_t digit[run];
        for (index_t r = lo; r < hi; r += run) {
            const index_t end = r + run < hi ? r + run : hi;
            for (index_t i = r; i < end; ++i) digit[i - r] = std::uint16_t(d[i]);
            for (index_t i = r; i < end; ++i) {
                const std::size_t b = digit[i - r];
                const index_t p = next[b]++;
                const index_t k = slot(p);
                line[b][k] = V(a[i]);
                if (k == lane - 1) {  // the line is full, or holds the class's first places
                    V* to = out + (p - k);
                    if (p - k >= from[b]) {
                        const __m128i* src = reinterpret_cast<const __m128i*>(line[b]);
                        __m128i* dst = reinterpret_cast<__m128i*>(to);
                        for (int q = 0; q < 4; ++q) _mm_stream_si128(dst + q, _mm_load_si128(src + q));
                    } else {
                        for (index_t j = from[b] - (p - k); j < lane; ++j) to[j] = line[b][j];
                    }
                    from[b] = p + 1;
                }
            }
        }
        for (index_t b = 0; b < m; ++b) place[b] = next[b];
        for (index_t b = 0; b < m; ++b)  // what is left in each line
            for (index_t p = from[b]; p < place[b]; ++p) out[p] = line[b][slot(p)];
        _mm_sfence();
    }
#endif
};

/// One row of the table summed: the count of class b over all tiles.
struct sum_row {
    const index_t* counts;
    index_t tiles;
    index_t* out;
    void operator()(index_t b) const {
        index_t c = 0;
        for (index_t t = 0; t < tiles; ++t) c += counts[b * tiles + t];
        out[b] = c;
    }
};

/// The m x tiles table of counts (class-major); rows: m x tiles counts of room.
template <class D>
runtime::scratch count_tiles(const D& digits, index_t m, index_t tiles, index_t* rows, unsigned long long* outside = nullptr) {
    const index_t n = index_t(digits.size());
    runtime::scratch counts(std::size_t(m * tiles) * sizeof(index_t));
    thrust::for_each_n(policy(), thrust::counting_iterator<index_t>(0), tiles,
                       count_tile<decltype(reader(digits))>{reader(digits), n, m, tiles, counts.as<index_t>(), rows,
                                                            outside});
    return counts;
}

/// r[b] = the digits equal to b (r zeroed, m = r.size() bins, n > 0). Returns the
/// number of digits outside 0..m-1 with checks on, 0 with checks off.
template <class D> index_t histogram_into(const D& digits, vector<index_t>& r) {
    const index_t n = index_t(digits.size()), m = index_t(r.size());
    device_value<unsigned long long> tally(current_stream());
    backend::fill_zero(tally.ptr(), sizeof(unsigned long long), current_stream(), "histogram (init)");
    if (m > histogram_policy::privatized_max_bins) {
        count_many_bins(digits, r, tally.ptr());
    } else {
        const index_t tiles = counting_sort_policy::tiles(n, m);
        runtime::scratch rows(std::size_t(m * tiles) * sizeof(index_t));
        auto counts = count_tiles(digits, m, tiles, rows.as<index_t>(), tally.ptr());
        thrust::for_each_n(policy(), thrust::counting_iterator<index_t>(0), m,
                           sum_row{counts.template as<index_t>(), tiles, r.data()});
    }
    return SCANVEC_CHECKS ? index_t(tally.get()) : 0;
}

/// out <- the stable m-way split of the n = digits.size() elements read
/// through `in` (n > 0, digits in 0..m-1); class_starts (when given, m
/// entries) gets where each class begins in out.
template <class In, class D, class Out>
void multisplit_placed(In in, const D& digits, index_t m, Out out, index_t* class_starts) {
    const index_t n = index_t(digits.size());
    const index_t tiles = counting_sort_policy::tiles(n, m);
    // Counts <- per tile and class; Starts <- +-scan of the table, class-major
    runtime::scratch rows(std::size_t(m * tiles) * sizeof(index_t));  // the tiles' counts, then their places
    auto next = count_tiles(digits, m, tiles, rows.as<index_t>());
    index_t* table = next.template as<index_t>();
    thrust::exclusive_scan(policy(), table, table + m * tiles, table);
    if (class_starts)
        for (index_t b = 0; b < m; ++b) class_starts[b] = table[b * tiles];
    // permute: every tile writes its elements in order from its start in each class
    using Scatter = scatter_tile<In, decltype(reader(digits)), Out>;
    thrust::for_each_n(policy(), thrust::counting_iterator<index_t>(0), tiles,
                       Scatter{in, reader(digits), out, n, m, tiles, table, rows.as<index_t>()});
}

/// r <- the stable m-way split of a by digits (same length, n > 0, digits in
/// 0..m-1); class_starts (when given, m entries) gets where each class begins in r.
template <class A, class D, class T>
void multisplit_into(const A& a, const D& digits, index_t m, vector<T>& r, index_t* class_starts = nullptr) {
    multisplit_placed(reader(a), digits, m, writer(r), class_starts);
}

/// out <- the n = keys.size() records of `in` (one array of any trivially
/// copyable P), stably ordered by their keys, all below 2^bits. Returns
/// where each class begins, 2^bits + 1 entries (the last: n).
template <class P>
std::vector<index_t> multisplit_records(const vector<std::uint32_t>& keys, const P* in, P* out, int bits, const char*) {
    const index_t m = index_t(1) << bits;
    std::vector<index_t> starts(std::size_t(m) + 1, index_t(keys.size()));
    if (!keys.empty()) multisplit_placed(in, keys, m, out, starts.data());
    return starts;
}

/// Sorts keys[0..n) stably by the low `bits` bits of their radix order
/// (radix_key_bits), the bits above being equal in all of them: one counting
/// pass per 8-bit digit from the lowest, moving between keys and spare (n
/// each); the result ends in keys. One thread: the buckets of a radix run
/// (below) are sorted one to a thread, in its cache.
template <class K> void sort_bucket_by_low_digits(K* keys, K* spare, index_t n, int bits) {
    constexpr int digit = 8;
    if (n < 2) return;
    if (n <= radix_run_policy::insertion_max) {  // a few keys: insertion sort, stable
        for (index_t i = 1; i < n; ++i) {  // (the keys share every bit above the low ones: compare whole keys)
            const K x = keys[i];
            const auto kx = radix_key_bits(x);
            index_t j = i;
            for (; j > 0 && radix_key_bits(keys[j - 1]) > kx; --j) keys[j] = keys[j - 1];
            keys[j] = x;
        }
        return;
    }
    K* from = keys;
    K* to = spare;
    for (int lo = 0; lo < bits; lo += digit) {
        const radix_digit_of<K> digit_of{lo, bits - lo < digit ? bits - lo : digit};
        index_t count[1 << digit] = {};
        for (index_t i = 0; i < n; ++i) ++count[digit_of(from[i])];
        if (count[digit_of(from[0])] == n) continue;  // every key has this digit: nothing moves
        index_t at = 0;
        for (index_t& c : count) {
            const index_t here = c;
            c = at;
            at += here;
        }
        for (index_t i = 0; i < n; ++i) to[count[digit_of(from[i])]++] = from[i];
        std::swap(from, to);
    }
    if (from != keys) std::copy(from, from + n, keys);
}

/// The consecutive multisplits of a radix sort as one run on the host: one
/// multisplit by the keys' top digit over the whole vector (keys -> r), then
/// each of its 256 buckets sorted by the remaining digits, one bucket to a
/// thread at a time: a bucket of 2^24 / 256 keys stays in the core's cache for
/// all its passes, where each whole-vector pass would go to memory. Stable, so
/// the result is the digit passes' own. n > 0.
template <class K> void radix_run_into(const vector<K>& keys, vector<K>& r) {
    constexpr int bits = 8 * int(sizeof(K)), digit = 8, buckets = 1 << digit;
    const index_t n = index_t(keys.size());
    index_t starts[buckets + 1];
    multisplit_into(keys, radix_digit_view<const K*>(keys.data(), keys.size(), bits - digit, digit), buckets, r,
                    starts);
    starts[buckets] = n;
    K* out = r.data();
    // The spare room taken before the region (an out-of-memory cannot leave
    // it): the largest bucket's for each thread, or (when that is more) each
    // bucket's own place in n.
    index_t largest = 0;
    for (int b = 0; b < buckets; ++b) largest = std::max(largest, starts[b + 1] - starts[b]);
    const int threads = omp_get_max_threads();
    const bool per_thread = index_t(threads) * largest <= n;
    runtime::scratch spare(std::size_t(per_thread ? index_t(threads) * largest : n) * sizeof(K));
#pragma omp parallel num_threads(threads)
    {
        K* mine = spare.as<K>() + (per_thread ? index_t(omp_get_thread_num()) * largest : 0);
#pragma omp for schedule(dynamic, 1)
        for (int b = 0; b < buckets; ++b) {
            const index_t size = starts[b + 1] - starts[b];
            sort_bucket_by_low_digits(out + starts[b], per_thread ? mine : spare.as<K>() + starts[b], size, bits - digit);
        }
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
