// scanvec/primitives/detail/sort/host.hpp - the stable sorts on the host: merge sort on every OpenMP thread.
//
// Thrust's OpenMP stable sort takes the temporaries of its merges inside its
// parallel region, where an out-of-memory cannot be thrown (std::terminate).
// This sort takes all of its memory (one buffer the size of the input) from
// the cache before the region, so a failed allocation throws sv::out_of_memory
// to the caller and nothing in the region allocates:
//
//   omp_stable_sort(keys, n, comp)                keys only
//   omp_stable_sort_by_key(keys, n, values, comp) values follow their keys
//
// Every thread sorts one tile: integer keys in ascending order by an LSD radix
// sort, other keys or orders by a merge sort (insertion sort of short runs,
// then bottom-up merges), each ping-ponging between the input and the buffer.
// Then the tiles are merged in pairs, log2(threads) rounds, also ping-ponging.
#pragma once

#if !defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/memory.hpp>

#include <omp.h>

#include <algorithm>
#include <type_traits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct ascending {
    template <class T> SCANVEC_HD bool operator()(const T& a, const T& b) const { return a < b; }
};

/// Tuning of the host merge sort.
struct host_sort_policy {
    static constexpr index_t insertion_run = 32;    // runs first sorted by insertion
    static constexpr index_t min_per_thread = 1024; // fewer elements per thread: fewer threads
};

/// Keys and their values, at one offset (V = void: keys only).
template <class K, class V> struct sort_arrays {
    K* k;
    V* v;
    struct item {
        K key;
        V value;
    };
    sort_arrays at(index_t i) const { return {k + i, v + i}; }
    item get(index_t i) const { return {k[i], v[i]}; }
    void set(index_t i, const item& x) const { k[i] = x.key; v[i] = x.value; }
    void put(index_t i, const sort_arrays& src, index_t j) const { k[i] = src.k[j]; v[i] = src.v[j]; }
    void copy_to(index_t n, const sort_arrays& dst) const {
        std::copy_n(k, n, dst.k);
        std::copy_n(v, n, dst.v);
    }
};
template <class K> struct sort_arrays<K, void> {
    K* k;
    struct item {
        K key;
    };
    sort_arrays at(index_t i) const { return {k + i}; }
    item get(index_t i) const { return {k[i]}; }
    void set(index_t i, const item& x) const { k[i] = x.key; }
    void put(index_t i, const sort_arrays& src, index_t j) const { k[i] = src.k[j]; }
    void copy_to(index_t n, const sort_arrays& dst) const { std::copy_n(k, n, dst.k); }
};

template <class A, class C> void insertion_sort(const A& a, index_t n, C comp) {
    for (index_t i = 1; i < n; ++i) {
        const auto x = a.get(i);
        index_t j = i;
        for (; j > 0 && comp(x.key, a.k[j - 1]); --j) a.put(j, a, j - 1);
        a.set(j, x);
    }
}

/// Stable merge of a[0, na) and b[0, nb) into out (on ties, a first).
template <class A, class C> void merge_into(const A& a, index_t na, const A& b, index_t nb, const A& out, C comp) {
    index_t i = 0, j = 0, o = 0;
    while (i < na && j < nb) {
        if (comp(b.k[j], a.k[i])) out.put(o++, b, j++);
        else out.put(o++, a, i++);
    }
    a.at(i).copy_to(na - i, out.at(o));
    b.at(j).copy_to(nb - j, out.at(o + na - i));
}

/// Sorts a[0, n) with buf[0, n) as the merges' other side; the result is left in a.
template <class A, class C> void sequential_merge_sort(const A& a, const A& buf, index_t n, C comp) {
    constexpr index_t run = host_sort_policy::insertion_run;
    for (index_t i = 0; i < n; i += run) insertion_sort(a.at(i), std::min(run, n - i), comp);
    A src = a, dst = buf;
    for (index_t w = run; w < n; w *= 2) {
        for (index_t i = 0; i < n; i += 2 * w) {
            const index_t m = std::min(i + w, n), e = std::min(i + 2 * w, n);
            merge_into(src.at(i), m - i, src.at(m), e - m, dst.at(i), comp);
        }
        std::swap(src, dst);
    }
    if (src.k != a.k) src.copy_to(n, a);
}

/// Integer keys (not bool), ascending: a tile is radix sorted.
template <class K, class C>
constexpr bool radix_sortable = std::is_integral_v<K> && !std::is_same_v<K, bool> && std::is_same_v<C, ascending>;

/// LSD radix sort of a[0, n) by key, a byte a pass (passes where every key has
/// the same byte are skipped), with buf[0, n); the result is left in a.
template <class A> void sequential_radix_sort(const A& a, const A& buf, index_t n) {
    using K = std::remove_cv_t<std::remove_reference_t<decltype(*a.k)>>;
    using U = std::make_unsigned_t<K>;
    constexpr int digits = int(sizeof(K));
    const U flip = std::is_signed_v<K> ? U(U(1) << (8 * sizeof(K) - 1)) : U(0);  // negatives first
    index_t count[digits][256] = {};
    for (index_t i = 0; i < n; ++i) {
        const U u = U(a.k[i]) ^ flip;
        for (int d = 0; d < digits; ++d) ++count[d][(u >> (8 * d)) & 0xff];
    }
    A src = a, dst = buf;
    for (int d = 0; d < digits; ++d) {
        index_t* c = count[d];
        if (std::any_of(c, c + 256, [&](index_t x) { return x == n; })) continue;
        index_t at = 0;
        for (int b = 0; b < 256; ++b) at += std::exchange(c[b], at);
        for (index_t i = 0; i < n; ++i) dst.put(c[((U(src.k[i]) ^ flip) >> (8 * d)) & 0xff]++, src, i);
        std::swap(src, dst);
    }
    if (src.k != a.k) src.copy_to(n, a);
}

/// Sorts one tile: radix sort where it applies, merge sort otherwise.
template <class A, class C> void sequential_sort(const A& a, const A& buf, index_t n, C comp) {
    using K = std::remove_cv_t<std::remove_reference_t<decltype(*a.k)>>;
    if constexpr (radix_sortable<K, C>) sequential_radix_sort(a, buf, n);
    else sequential_merge_sort(a, buf, n, comp);
}

/// The parallel sort of a[0, n); buffer: n more elements of each array.
template <class A, class C> void omp_merge_sort(const A& a, const A& buf, index_t n, C comp) {
    const index_t wanted = std::max<index_t>(1, std::min<index_t>(omp_get_max_threads(),
                                                                   n / host_sort_policy::min_per_thread));
    if (wanted == 1) return sequential_sort(a, buf, n, comp);
#pragma omp parallel num_threads(int(wanted))
    {
        const index_t p = omp_get_num_threads(), t = omp_get_thread_num();
        const auto begin = [&](index_t tile) { return tile >= p ? n : n / p * tile + std::min(tile, n % p); };
        sequential_sort(a.at(begin(t)), buf.at(begin(t)), begin(t + 1) - begin(t), comp);
        // rounds of pairwise merges of tiles (t, t + w) from src into dst; a tile without a pair is copied
        bool in_a = true;
        for (index_t w = 1; w < p; w *= 2) {
#pragma omp barrier
            const A src = in_a ? a : buf, dst = in_a ? buf : a;
            if (t % (2 * w) == 0) {
                const index_t lo = begin(t), mid = begin(t + w), hi = begin(t + 2 * w);
                if (mid < hi) merge_into(src.at(lo), mid - lo, src.at(mid), hi - mid, dst.at(lo), comp);
                else src.at(lo).copy_to(hi - lo, dst.at(lo));
            }
            in_a = !in_a;
        }
        if (!in_a) {  // the result is in buf: every thread copies its tile back
#pragma omp barrier
            buf.at(begin(t)).copy_to(begin(t + 1) - begin(t), a.at(begin(t)));
        }
    }
}

/// Stable sort of keys[0, n) by comp.
template <class K, class C> void omp_stable_sort(K* keys, index_t n, C comp) {
    if (n < 2) return;
    runtime::scratch kb(std::size_t(n) * sizeof(K));  // before the parallel region: this may throw
    omp_merge_sort(sort_arrays<K, void>{keys}, sort_arrays<K, void>{kb.as<K>()}, n, comp);
}

/// Stable sort of (keys[i], values[i]) by key.
template <class K, class V, class C> void omp_stable_sort_by_key(K* keys, index_t n, V* values, C comp) {
    if (n < 2) return;
    runtime::scratch kb(std::size_t(n) * sizeof(K));  // before the parallel region: these may throw
    runtime::scratch vb(std::size_t(n) * sizeof(V));
    omp_merge_sort(sort_arrays<K, V>{keys, values}, sort_arrays<K, V>{kb.as<K>(), vb.as<V>()}, n, comp);
}

}  SCANVEC_NAMESPACE_END  // detail

#endif  // !SCANVEC_BACKEND_CUDA
