// scanvec/primitives/multisplit.hpp - histogram and the stable m-way split.
//
//   sv::histogram(digits, m)             r[b] = number of i with digits[i] == b   (b in 0..m-1)
//   sv::multisplit(a, digits, m)         stable: the elements whose digit is 0, then 1, ..., then m-1,
//                                        each class in its original order (split is m = 2)
//   sv::lazy::radix_digit(keys, lo, k)   r[i] = the k-bit digit at bit lo of keys[i] in key order:
//                                        bits of the key with its sign bit flipped when signed,
//                                        so digits order negative keys before positive ones
//
// digits is any integral vector or view (a lazy map of a key, typically) with
// values in 0..m-1. With checks on (SCANVEC_CHECKS) other values throw
// sv::index_error (multisplit reads the digits once more for it; histogram
// tallies them while it counts). With checks off histogram leaves them
// uncounted, and for multisplit they are undefined behaviour (elements lost
// or written out of bounds).
//
// In the model a multisplit is split with m classes instead of two:
//
//   procedure multisplit(A, D, m)
//       Counts <- histogram(D, m)           the size of each class
//       Starts <- +-scan(Counts)            where each class begins
//       Rank   <- multi-enumerate(D)        the equal digits before i: m enumerates at once
//       permute(A, Starts[D] + Rank)
//
// Written with the flat primitives, multi-enumerate is m enumerates (m passes)
// or one scan whose value is a vector of m counters (m times the work of a
// scan). Done tile by tile it is a counting sort: each tile counts its digits,
// one scan over the m x tiles table of counts gives every tile its start in
// every class, and each tile writes its elements in order. That is what this
// primitive runs, in two or three passes over the data whatever m is:
//
//   CUDA  one pass of CUB's onesweep radix sort (cub::DeviceRadixSort) on the
//         digits: a histogram kernel (one read), a scan of the m counts, and
//         one kernel that ranks each tile's digits in shared memory, finds the
//         tile's start in every class by decoupled look-back over the tiles
//         before it, and scatters (one read, one write). A stable sort of
//         ceil(log2 m)-bit keys is exactly the m-way split; m <= 256 is one
//         onesweep pass. When digits is sv::lazy::radix_digit(keys, lo, k) of
//         a flat vector, CUB reads bits lo..lo+k-1 of the keys themselves and
//         no digit array exists: multisplit(keys, radix_digit(keys, lo, 8), 256)
//         reads the keys twice and writes them once (12 bytes per 32-bit key).
//         Other digits are stored once as 32-bit keys (onesweep ranks keys of
//         at least 4 bytes) and sorted with the values.
//   host  the tile-wise counting sort itself on Thrust's OpenMP system: a
//         count per tile (for_each), an exclusive scan of the m x tiles
//         table, a scatter per tile (for_each).
#pragma once

#include <scanvec/primitives/derived.hpp>

#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cub/device/device_histogram.cuh>
#  include <cub/device/device_radix_sort.cuh>
#endif

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>
#if !defined(SCANVEC_BACKEND_CUDA)
#  include <omp.h>
#endif

namespace scanvec {
namespace detail {

/// The k-bit digit at bit lo of a key in radix order (sign bit flipped for signed keys).
template <class K> struct radix_digit_of {
    int lo;
    int bits;
    SCANVEC_HD std::uint32_t operator()(const K& x) const {
        using U = std::make_unsigned_t<K>;
        constexpr U sign = std::is_signed_v<K> ? U(U(1) << (8 * sizeof(K) - 1)) : U(0);
        const U key = U(U(x) ^ sign);
        return std::uint32_t(U(key >> lo) & U((std::uint64_t(1) << bits) - 1));
    }
};

template <class K> void expect_radix_key() {
    static_assert(std::is_integral_v<K> && !std::is_same_v<K, bool>,
                  "radix digits and radix sorts need integer keys (8 to 64 bits, signed or unsigned)");
}

/// The number of bits that hold the values 0..m-1.
inline int bits_for(index_t m) {
    int b = 0;
    while (b < 63 && (index_t(1) << b) < m) ++b;
    return b;
}

/// How histogram counts, by the number of bins m.
struct histogram_policy {
    /// Up to this many bins each block (CUDA: CUB's histogram, its counters in
    /// shared memory) or tile (host: a tile per thread's share, counts of at
    /// most n/4 entries in all) keeps counts of its own, merged at the end.
    /// Past it CUB keeps one copy of every bin per block in global memory
    /// (blocks x m counters: out of memory, then out-of-bounds writes, for
    /// millions of bins), and the host's tiles grow too large to give every
    /// thread one, so the one result array is counted into directly
    /// (count_many_bins): O(m) memory.
#if defined(SCANVEC_BACKEND_CUDA)
    static constexpr index_t privatized_max_bins = 256;
#else
    static constexpr index_t privatized_max_bins = index_t(1) << 16;
#endif
};

/// r[d[i]] += 1 for every i, by atomic increments (r zeroed); a digit outside
/// 0..m-1 is not counted but added to *outside.
template <class DIt> struct increment_bin {
    DIt d;
    index_t m;
    unsigned long long* counts;
    unsigned long long* outside;
    SCANVEC_HD void operator()(index_t i) const {
        const auto j = static_cast<long long>(d[i]);
        atomic_combine(j >= 0 && j < m ? counts + j : outside, 1ull, plus<unsigned long long>{});
    }
};

#if !defined(SCANVEC_BACKEND_CUDA)
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
#endif

template <class D> void count_by_atomics(const D& digits, vector<index_t>& r, unsigned long long* outside) {
    static_assert(sizeof(index_t) == sizeof(unsigned long long));
    auto* counts = reinterpret_cast<unsigned long long*>(r.data());
    thrust::for_each_n(policy(stream_of(digits)), thrust::counting_iterator<index_t>(0), index_t(digits.size()),
                       increment_bin<decltype(reader(digits))>{reader(digits), index_t(r.size()), counts, outside});
    backend::check_launch("histogram (atomic counts)");
}

/// Every digit counted into r (zeroed) without per-block copies of the bins: on
/// CUDA one atomic increment each; on the host each thread owns a range of bins.
template <class D> void count_many_bins(const D& digits, vector<index_t>& r, unsigned long long* outside) {
#if defined(SCANVEC_BACKEND_CUDA)
    count_by_atomics(digits, r, outside);
#else
    const index_t parts = omp_get_max_threads();
    thrust::for_each_n(policy(), thrust::counting_iterator<index_t>(0), parts,
                       count_bin_range<decltype(reader(digits))>{reader(digits), index_t(digits.size()),
                                                                 index_t(r.size()), parts, r.data(), outside});
#endif
}

struct digit_outside {
    index_t m;
    template <class D> SCANVEC_HD index_t operator()(const D& d) const {
        return (index_t(d) < 0 || index_t(d) >= m) ? 1 : 0;
    }
};

template <class D> void check_digits(const char* op, const D& digits, index_t m) {
#if SCANVEC_CHECKS
    const index_t bad = reduce(lazy::map(digit_outside{m}, digits));
    if (bad)
        throw index_error(std::string(op) + ": " + std::to_string(bad) + " digits are outside 0.." +
                          std::to_string(m - 1));
#else
    (void)op; (void)digits; (void)m;
#endif
}

inline void expect_classes(const char* op, index_t m) {
    if (m < 1 || m > (index_t(1) << 31))
        throw error(std::string(op) + ": the number of classes must be in 1..2^31 (got " + std::to_string(m) + ")");
}

/// sv::lazy::radix_digit(v, lo, k) of a flat vector: the keys and the bits are recoverable.
template <class D> struct radix_digits_view : std::false_type {};
template <class K, class... R>
struct radix_digits_view<view<thrust::transform_iterator<radix_digit_of<K>, const K*, R...>>> : std::true_type {
    using key_type = K;
};

#if defined(SCANVEC_BACKEND_CUDA)

/// r <- the elements of a, stably ordered by bits lo..hi-1 of keys (CUB's radix sort, one
/// onesweep pass for hi - lo <= 8). keys == reader(a) sorts the keys themselves.
template <class K, class A, class R>
void sort_by_key_bits(const K* keys, int lo, int hi, const A& a, R& r, stream_t s) {
    using T = value_t<A>;
    const std::size_t n = a.size();
    const char* op = "multisplit (cub::DeviceRadixSort)";
    if constexpr (std::is_same_v<std::remove_cv_t<K>, T> && std::is_same_v<A, vector<T>>) {
        if (reader(a) == keys) {  // the keys are the elements: sort them alone
            cub_run(op, [&](void* t, std::size_t& b) {
                return cub::DeviceRadixSort::SortKeys(t, b, keys, r.data(), n, lo, hi, s);
            });
            return;
        }
    }
    runtime::scratch keys_out(n * sizeof(K));
    if constexpr (std::is_arithmetic_v<T>) {  // the elements ride along as values
        vector<T> values_copy;
        const T* values = nullptr;
        if constexpr (std::is_pointer_v<decltype(reader(a))>) values = reader(a);
        else { values_copy = materialize(a); values = values_copy.data(); }
        cub_run(op, [&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortPairs(t, b, keys, keys_out.as<std::remove_cv_t<K>>(), values, r.data(),
                                                   n, lo, hi, s);
        });
    } else {  // structs: sort positions, then gather every field once
        vector<index_t> from = materialize(lazy::index(n)), order(n, no_init);
        cub_run(op, [&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortPairs(t, b, keys, keys_out.as<std::remove_cv_t<K>>(), from.data(),
                                                   order.data(), n, lo, hi, s);
        });
        thrust::gather(policy(s), order.begin(), order.end(), reader(a), writer(r));
        backend::check_launch("multisplit (gather)");
    }
}

struct to_u32 {
    template <class D> SCANVEC_HD std::uint32_t operator()(const D& d) const { return std::uint32_t(d); }
};
struct to_index {
    SCANVEC_HD index_t operator()(unsigned long long c) const { return index_t(c); }
};
/// A digit as CUB's bin, or m (no bin) when outside 0..m-1.
struct bin_or_past {
    index_t m;
    template <class D> SCANVEC_HD std::uint32_t operator()(const D& d) const {
        const auto j = static_cast<long long>(d);
        return std::uint32_t(j >= 0 && j < m ? j : m);
    }
};

#else  // host: the tile-wise counting sort

/// Tiles for the counting sort: enough for every thread, few enough that the
/// m x tiles table of counts stays small next to the data.
inline index_t tiles_for(index_t n, index_t m) {
    const index_t per_tile = std::max<index_t>(16384, 4 * m);
    return std::max<index_t>(1, std::min<index_t>(256, n / per_tile));
}

// A tile works on its own contiguous copy of its column of the table: the
// column's entries lie tiles * 8 bytes apart, each on its own cache line and,
// at power-of-two strides, all in a few cache sets.

/// counts[d * tiles + t] = number of digits d in tile t (each tile owns its column);
/// digits outside 0..m-1 are not counted but added to *outside (when not null).
template <class DIt> struct count_tile {
    DIt d;
    index_t n, m, tiles;
    index_t* counts;
    unsigned long long* outside;
    void operator()(index_t t) const {
        const index_t lo = n * t / tiles, hi = n * (t + 1) / tiles;
        std::vector<index_t> mine(std::size_t(m), 0);
        unsigned long long bad = 0;
        for (index_t i = lo; i < hi; ++i) {
            const auto j = static_cast<long long>(d[i]);
            if (j >= 0 && j < m) ++mine[std::size_t(j)];
            else ++bad;
        }
        for (index_t b = 0; b < m; ++b) counts[b * tiles + t] = mine[std::size_t(b)];
        if (bad && outside) __atomic_fetch_add(outside, bad, __ATOMIC_RELAXED);
    }
};

/// Writes tile t's elements at their class's next free place (starts from the scanned table).
template <class In, class DIt, class Out> struct scatter_tile {
    In a;
    DIt d;
    Out out;
    index_t n, m, tiles;
    const index_t* starts;
    void operator()(index_t t) const {
        const index_t lo = n * t / tiles, hi = n * (t + 1) / tiles;
        std::vector<index_t> place(static_cast<std::size_t>(m));
        for (index_t b = 0; b < m; ++b) place[std::size_t(b)] = starts[b * tiles + t];
        for (index_t i = lo; i < hi; ++i) out[place[std::size_t(d[i])]++] = a[i];
    }
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

template <class D>
runtime::scratch count_tiles(const D& digits, index_t m, index_t tiles, unsigned long long* outside = nullptr) {
    const index_t n = index_t(digits.size());
    runtime::scratch counts(std::size_t(m * tiles) * sizeof(index_t));
    thrust::for_each_n(policy(), thrust::counting_iterator<index_t>(0), tiles,
                       count_tile<decltype(reader(digits))>{reader(digits), n, m, tiles, counts.as<index_t>(), outside});
    return counts;
}

#endif

}  // namespace detail

namespace lazy {

/// r[i] = the k-bit digit at bit lo of keys[i] in key order (the sign bit flipped
/// for signed keys), computed when consumed. multisplit recognises it.
template <class X> auto radix_digit(const X& keys, int lo, int k) {
    detail::expect_radix_key<value_t<X>>();
    if (k < 1 || k > 16 || lo < 0 || lo >= int(8 * sizeof(value_t<X>)))
        throw error("radix_digit: need 1 <= k <= 16 and lo inside the key (lo = " + std::to_string(lo) +
                    ", k = " + std::to_string(k) + ")");
    return lazy::map(detail::radix_digit_of<value_t<X>>{lo, k}, keys);
}

}  // namespace lazy

/// r[b] = the number of digits equal to b, for b in 0..m-1. Digits outside
/// 0..m-1 throw sv::index_error with their number (checks on; with checks off
/// they are not counted). Any m in 1..2^31:
/// few bins are counted per block (CUB's histogram on CUDA, per-tile counts on
/// the host), many by atomic increments of one shared count array, so memory
/// stays O(m) whatever m is (histogram_policy).
template <class D> vector<index_t> histogram(const D& digits, index_t m) {
    detail::expect_flags<D>();
    return detail::labelled("histogram", digits.size(), [&] {
        detail::expect_classes("histogram", m);
        const index_t n = index_t(digits.size());
        vector<index_t> r(static_cast<std::size_t>(m));
        if (n == 0) return r;
        auto s = detail::stream_of(digits);
        // Digits outside 0..m-1 are never counted; with checks on, their number is found
        // in the same pass and reported after it.
        index_t outside = 0;
        if (m > detail::histogram_policy::privatized_max_bins) {
            device_value<unsigned long long> tally(s);
            backend::fill_zero(tally.ptr(), sizeof(unsigned long long), s, "histogram (init)");
            detail::count_many_bins(digits, r, tally.ptr());
            if (SCANVEC_CHECKS) outside = index_t(tally.get());
        } else {
#if defined(SCANVEC_BACKEND_CUDA)
            runtime::scratch counts(std::size_t(m) * sizeof(unsigned long long));
            // out-of-range digits become m, past CUB's bins [0, m): missing from the total
            auto samples = thrust::make_transform_iterator(detail::reader(digits), detail::bin_or_past{m});
            detail::cub_run("histogram (cub::DeviceHistogram::HistogramEven)", [&](void* t, std::size_t& b) {
                return cub::DeviceHistogram::HistogramEven(t, b, samples, counts.as<unsigned long long>(), int(m + 1),
                                                           std::uint32_t(0), std::uint32_t(m), n, s);
            });
            auto c = counts.as<unsigned long long>();
            thrust::transform(detail::policy(s), c, c + m, r.data(), detail::to_index{});
            backend::check_launch("histogram (copy)");
            if (SCANVEC_CHECKS) outside = n - detail::reduce_n(r.data(), r.size(), plus<index_t>{}, index_t(0), s);
#else
            device_value<unsigned long long> tally(s);
            backend::fill_zero(tally.ptr(), sizeof(unsigned long long), s, "histogram (init)");
            const index_t tiles = detail::tiles_for(n, m);
            auto counts = detail::count_tiles(digits, m, tiles, tally.ptr());
            thrust::for_each_n(detail::policy(), thrust::counting_iterator<index_t>(0), m,
                               detail::sum_row{counts.template as<index_t>(), tiles, r.data()});
            if (SCANVEC_CHECKS) outside = index_t(tally.get());
#endif
        }
        if (outside)
            throw index_error("histogram: " + std::to_string(outside) + " digits are outside 0.." + std::to_string(m - 1));
        return r;
    }, digits);
}

/// Stable m-way split: the elements whose digit is 0 first, then those with 1, ...,
/// each class in its original order. digits[i] in 0..m-1.
template <class A, class D> vector<value_t<A>> multisplit(const A& a, const D& digits, index_t m) {
    detail::expect_flags<D>();
    return detail::labelled("multisplit", a.size(), [&] {
        detail::expect_same_length("multisplit", a.size(), digits.size());
        detail::expect_classes("multisplit", m);
        using T = value_t<A>;
        const index_t n = index_t(a.size());
        vector<T> r(a.size(), no_init);
        if (n == 0) return r;
        // digits of lazy::radix_digit are in range by construction
        bool radix = false;
        if constexpr (detail::radix_digits_view<D>::value) radix = m == (index_t(1) << digits.begin().functor().bits);
        if (!radix) detail::check_digits("multisplit", digits, m);
#if defined(SCANVEC_BACKEND_CUDA)
        auto s = detail::stream_of(a);
        if constexpr (detail::radix_digits_view<D>::value) {
            if (radix) {  // CUB reads the digit's bits from the keys: no digit array
                auto f = digits.begin().functor();
                detail::sort_by_key_bits(digits.begin().base(), f.lo, f.lo + f.bits, a, r, s);
                return r;
            }
        }
        vector<std::uint32_t> keys = map(detail::to_u32{}, digits);
        detail::sort_by_key_bits(static_cast<const std::uint32_t*>(keys.data()), 0, detail::bits_for(m), a, r, s);
#else
        const index_t tiles = detail::tiles_for(n, m);
        // Counts <- per tile and class; Starts <- +-scan of the table, class-major
        auto next = detail::count_tiles(digits, m, tiles);
        index_t* table = next.template as<index_t>();
        thrust::exclusive_scan(detail::policy(), table, table + m * tiles, table);
        // permute: every tile writes its elements in order from its start in each class
        using Scatter = detail::scatter_tile<decltype(detail::reader(a)), decltype(detail::reader(digits)),
                                             decltype(detail::writer(r))>;
        thrust::for_each_n(detail::policy(), thrust::counting_iterator<index_t>(0), tiles,
                           Scatter{detail::reader(a), detail::reader(digits), detail::writer(r), n, m, tiles, table});
#endif
        return r;
    }, a, digits);
}

}  // namespace scanvec
