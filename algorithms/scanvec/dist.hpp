// scanvec/dist.hpp - distributed vectors over MPI (and, on CUDA builds with NCCL, NCCL).
//
//     #include <scanvec/dist.hpp>
//     namespace sv = scanvec;
//     sv::dist::environment env(argc, argv);                 // MPI_Init ... MPI_Finalize
//     auto a = sv::dist::vector<int>::scatter(host_data);   // from rank 0, in even blocks
//     auto s = sv::dist::scan(a);                            // the same meaning as sv::scan
//     std::vector<int> h = s.to_host();                      // on rank 0
//
// Needs MPI (link MPI::MPI_CXX, or the scanvec::dist target); <scanvec/scanvec.hpp> does not.
// The book's programs written on sv::vector run unchanged on dist::vector
// (sv::split_radix_sort(d), sv::split_by_enumerate(d, f), sv::line_of_sight(d)):
// their primitives are found by argument-dependent lookup in sv::dist, their
// lazy views through the program_traits specialised below (on distributed
// vectors a lazy view is computed into a vector when made: one more pass).
// dist::radix_sort is the distributed sort (one all-to-all, then the
// one-device sort on each rank).
//
// Every dist:: call is collective over the vectors' communicator unless its
// contract says it is local. The design: docs/design/distributed.md.
#pragma once

#include <scanvec/scanvec.hpp>

#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/transport.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <scanvec/primitives/dist/elementwise.hpp>
#include <scanvec/primitives/dist/multisplit.hpp>
#include <scanvec/primitives/dist/pack_split.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/primitives/dist/segmented.hpp>

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// lazy::index(n) in a distributed program: the global positions 0..n-1, laid
/// out as the vectors it is mapped with (no vector of its own).
struct global_index {
    std::size_t n;
    std::size_t size() const { return n; }
};

template <class X> struct is_dist_vector : std::false_type {};
template <class T> struct is_dist_vector<vector<T>> : std::true_type {};

/// The first distributed vector among the arguments.
template <class X, class... Y> const auto& first_vector(const X& x, const Y&... y) {
    if constexpr (is_dist_vector<X>::value) return x;
    else {
        static_assert(sizeof...(Y) > 0, "sv::dist lazy map: one argument at least must be a sv::dist::vector");
        return first_vector(y...);
    }
}

/// An argument of a map, on the layout of the map's first vector.
template <class X> struct on_first {
    const X* x;
    std::optional<X> moved;
    const X& get() const { return moved ? *moved : *x; }
};
template <> struct on_first<global_index> {
    global_index x;
};

template <class X, class V> auto align_to(const X& x, const V& first, const char* op) {
    if constexpr (std::is_same_v<X, global_index>) {
        return on_first<global_index>{x};
    } else {
        expect_same_comm(op, first, x);
        on_first<X> r{&x, std::nullopt};
        if (!same_layout(x.layout(), first.layout())) r.moved.emplace(moved_to(x, first.layout(), op));
        return r;
    }
}

/// This rank's part of an aligned argument: its block, or the global positions of the block.
template <class X, std::enable_if_t<!std::is_same_v<X, global_index>, int> = 0>
const auto& local_part(const on_first<X>& a, index_t, std::size_t) {
    return a.get().local();
}
inline auto local_part(const on_first<global_index>&, index_t base, std::size_t m) {
    return scanvec::lazy::map(plus_base{base}, scanvec::lazy::index(m));
}

/// The lazy views of a program on distributed vectors: each computes its
/// result into a dist::vector on the layout of its first vector argument.
struct program_lazy {
    template <class F, class... S> static auto map(F f, const S&... s) {
        const auto& first = first_vector(s...);
        (::scanvec::detail::expect_same_length("dist::map", first.size(), s.size()), ...);
        auto args = std::make_tuple(align_to(s, first, "dist::map")...);
        const index_t base = first.offset();
        const std::size_t m = first.local().size();
        auto block = std::apply([&](const auto&... a) { return scanvec::map(f, local_part(a, base, m)...); }, args);
        return on_layout(std::move(block), first.layout(), first.comm());
    }
    static global_index index(std::size_t n) { return global_index{n}; }
    template <class T> static auto radix_digit(const vector<T>& keys, int lo, int k) {
        auto digits = scanvec::lazy::radix_digit(keys.local(), lo, k);  // checks lo and k on every rank alike
        return on_layout(materialize(digits), keys.layout(), keys.comm());
    }
    template <class T, class Op> static vector<T> scan(const vector<T>& x, Op op) { return dist::scan(x, op); }
};

}  // namespace detail
}  SCANVEC_NAMESPACE_END  // dist

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Programs on distributed vectors: results are dist::vectors on the input's layout.
template <class T> struct program_traits<dist::vector<T>, void> {
    using value_type = T;
    template <class U> using vector_type = dist::vector<U>;
    using lazy = dist::detail::program_lazy;
    template <class U> static dist::vector<U> empty(const dist::vector<T>& like) {
        return dist::detail::on_layout(scanvec::vector<U>(), like.layout(), like.comm());
    }
};

}  SCANVEC_NAMESPACE_END  // detail

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// An integer key as an unsigned number in the same order (signed keys: the sign bit flipped).
template <class K> struct ordered_key {
    SCANVEC_HD std::uint64_t operator()(const K& k) const {
        using U = std::make_unsigned_t<K>;
        if constexpr (std::is_signed_v<K>) return std::uint64_t(U(U(k) ^ (U(1) << (8 * sizeof(K) - 1))));
        else return std::uint64_t(k);
    }
};

/// The bucket of a key: (ordered(k) - lo) >> shift.
template <class K> struct bucket_of {
    std::uint64_t lo;
    int shift;
    SCANVEC_HD index_t operator()(const K& k) const { return index_t((ordered_key<K>{}(k) - lo) >> shift); }
};

/// The rank a key goes to: the rank its bucket was given.
template <class K> struct rank_of_key {
    std::uint64_t lo;
    int shift;
    const int* rank_of_bucket;
    SCANVEC_HD int operator()(const K& k) const { return rank_of_bucket[bucket_of<K>{lo, shift}(k)]; }
};

inline int bit_width(std::uint64_t x) {
    int w = 0;
    while (x) {
        ++w;
        x >>= 1;
    }
    return w;
}

}  // namespace detail

/// Buckets of the distributed sort's partition: 2^bucket_bits of them over
/// the keys' range (enough for the ranks' shares to come out even unless one
/// key value dominates).
inline constexpr int sort_bucket_bits = 12;

/// Sorts integer keys ascending across the ranks; r on a's blocks.
/// 1. the global range of the keys (one MPI_Allreduce of min and max), cut into
///    2^12 buckets by the top bits of key - min;
/// 2. a global histogram of the buckets (MPI_Allreduce of 2^12 counts): each
///    bucket goes whole to one rank, in key order, the rank whose block of a's
///    layout holds the bucket's middle;
/// 3. the one all-to-all of the keys (MPI_Alltoall of p counts, one exchange:
///    each rank sends at most its block), grouped by rank with one local multisplit;
/// 4. each rank sorts what it received with the one-device sv::radix_sort;
/// 5. rebalance to a's block sizes (one exchange; each rank's share is known
///    from the histogram, no communication).
/// O(n/p) work per rank plus the one-device sort of its share; a rank's share
/// is at most its block plus the largest bucket (all-equal keys: one rank sorts
/// them all). Collective; waits for the device.
template <class K> vector<K> radix_sort(const vector<K>& a) {
    ::scanvec::detail::expect_radix_key<K>();
    const auto& comm = a.comm();
    const int p = comm.size(), me = comm.rank();
    if (p == 1) return detail::on_layout(scanvec::radix_sort(a.local()), a.layout(), comm);
    const auto& x = a.local();
    const std::size_t m = x.size();
    // 1. The keys' range
    std::uint64_t lo = ~std::uint64_t(0), hi = 0;
    if (m) {
        lo = scanvec::reduce(lazy::map(detail::ordered_key<K>{}, x), scanvec::min<std::uint64_t>{});
        hi = scanvec::reduce(lazy::map(detail::ordered_key<K>{}, x), scanvec::max<std::uint64_t>{});
    }
    std::tie(lo, hi) = detail::allreduce_min_max(comm, lo, hi, "dist::radix_sort (MPI_Allreduce of the key range)");
    if (a.size() == 0) return a;
    const int shift = std::max(0, detail::bit_width(hi - lo) - sort_bucket_bits);
    const index_t buckets = index_t((hi - lo) >> shift) + 1;
    // 2. The buckets' counts here and everywhere; each bucket to one rank, in key order
    std::vector<index_t> here(std::size_t(buckets), 0);
    if (m) here = scanvec::histogram(lazy::map(detail::bucket_of<K>{lo, shift}, x), buckets).to_host();
    const auto all = detail::allreduce_sums(comm, here, "dist::radix_sort (MPI_Allreduce of the histogram)");
    const auto& o = a.offsets();
    std::vector<int> rank_of_bucket(static_cast<std::size_t>(buckets));
    std::vector<index_t> share(std::size_t(p), 0), send_counts(std::size_t(p), 0);
    index_t before = 0;
    for (std::size_t c = 0; c < std::size_t(buckets); ++c) {
        const index_t middle = before + all[c] / 2;
        const int q = int(std::upper_bound(o.begin(), o.end() - 1, middle) - o.begin()) - 1;
        rank_of_bucket[c] = q;
        share[std::size_t(q)] += all[c];
        send_counts[std::size_t(q)] += here[c];
        before += all[c];
    }
    // 3. One all-to-all: the keys grouped by destination rank
    const auto recv_counts = detail::exchange_counts(comm, send_counts, "dist::radix_sort (MPI_Alltoall of counts)");
    scanvec::vector<K> mine(std::size_t(share[std::size_t(me)]), no_init);
    {
        // grouped by destination rank (ranks lie in 0..p-1 by construction)
        scanvec::vector<K> grouped(m, no_init);
        const scanvec::vector<int> table(rank_of_bucket);
        if (m)
            ::scanvec::detail::multisplit_into(x, lazy::map(detail::rank_of_key<K>{lo, shift, table.data()}, x), index_t(p),
                                               grouped);
        std::vector<detail::column> cols;
        detail::add_columns(cols, grouped, mine);
        detail::exchange_columns(comm, send_counts, recv_counts, cols, "dist::radix_sort (exchange of the keys)");
    }
    // 4. The one-device sort of this rank's share; 5. back to a's block sizes
    auto sorted = mine.empty() ? std::move(mine) : scanvec::radix_sort(mine);
    vector<K> r(std::move(sorted), detail::make_layout(detail::offsets_of(share)), comm, detail::agreed);
    return detail::moved_to(r, a.layout(), "dist::radix_sort (rebalance)");
}

}  SCANVEC_NAMESPACE_END  // dist
