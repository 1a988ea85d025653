// scanvec/primitives/dist/detail/addressed.hpp - a permute's elements sent to the ranks
// that own their targets, each with its place there.
//
//   route_addressed(comm, a, dest, to, ...)   every a[i] to the rank owning global position dest[i]
//                                              on layout `to`, as one record {place in that rank's
//                                              block (32 bits), a[i]}; blocks below 2^32 elements
//   scatter_records(got, r)                   r[place] = value for every record received
//
// In the model: Keys <- (owner, window of the place) of each target; the
// records multisplit by Keys (one pass); one exchange of the records. On
// CUDA, where a block outgrows the L2, the window is the top bits of the
// place, so every sender's run reaches its receiver grouped as the one-device
// permute groups its pairs (detail/permute/grouped.hpp), and the receiver
// scatters window by window across the runs without grouping them again.
// Why, and what it measured: docs/design/distributed.md.
#pragma once

#include <scanvec/primitives/dist/detail/common.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/runtime/dist/phases.hpp>

#include <thrust/copy.h>
#include <thrust/for_each.h>
#include <thrust/scan.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scatter.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail {

/// What a permute sends: an element and its place in the receiving rank's block.
template <class T> struct addressed {
    std::uint32_t place;
    T value;
};

struct place_of {
    template <class T> SCANVEC_HD std::uint32_t operator()(const addressed<T>& x) const { return x.place; }
};
template <class T> struct value_of {
    SCANVEC_HD T operator()(const addressed<T>& x) const { return x.value; }
};

/// How the records are grouped: key = owner << window_bits | the place's top
/// window_bits bits (place >> shift), below 2^bits().
struct addressing {
    int rank_bits = 0, window_bits = 0, shift = 0;
    int bits() const { return rank_bits + window_bits; }
};

/// Blocks of `to` all below 2^32 elements: the grouping for elements of `bytes` each; else nothing.
inline std::optional<addressing> addressing_for(const layout& to, std::size_t bytes) {
    const index_t largest = to.largest_block();
    if (largest >= (index_t(1) << 32)) return std::nullopt;
    addressing a;
    a.rank_bits = std::max(1, block::bits_for(index_t(to.offsets.size() - 1)));
    // windows of the largest block, in the bits one grouping pass has left over
    a.window_bits = block::scatter_window_bits(std::size_t(largest) * bytes,
                                        std::max(0, block::permute_policy::grouped_max_bits - a.rank_bits));
    a.shift = std::max(0, block::bits_for(largest) - a.window_bits);
    return a;
}

/// keys[i] and records[i] of the element bound for global position dest[i].
/// A bad target (refused by the checks before the exchange, undefined
/// behaviour without them) still gets a place inside its owner's block.
template <class DIt, class AIt, class T> struct address_each {
    DIt dest;
    AIt a;
    const index_t* offsets;
    int ranks;
    addressing how;
    std::uint32_t* keys;
    addressed<T>* records;
    SCANVEC_HD void operator()(index_t i) const {
        const index_t g = index_t(dest[i]);
        const int r = owner_of{offsets, ranks}(g);
        const index_t base = offsets[r], size = offsets[r + 1] - base;
        const index_t place = g < base ? 0 : g - base < size ? g - base : size > 0 ? size - 1 : 0;
        const std::uint32_t last = (std::uint32_t(1) << how.window_bits) - 1;
        const std::uint32_t window = std::uint32_t(place >> how.shift) < last ? std::uint32_t(place >> how.shift) : last;
        keys[i] = (std::uint32_t(r) << how.window_bits) | window;
        records[i] = addressed<T>{std::uint32_t(place), T(a[i])};
    }
};

/// The records a rank received: one run per sender, in rank order, each
/// grouped by window as `how` says.
template <class T> struct routed_records {
    runtime::scratch records;
    std::vector<index_t> run_starts{0};  // where sender r's run begins; p + 1 entries (the last: the size)
    addressing how;
    std::size_t size() const { return std::size_t(run_starts.back()); }
    const addressed<T>* data() const { return records.as<const addressed<T>>(); }
    auto places() const { return thrust::make_transform_iterator(data(), place_of{}); }
    auto values() const { return thrust::make_transform_iterator(data(), value_of<T>{}); }
    /// The places and the values as sequences (for the one-device calls).
    auto place_sequence() const { return view(places(), size()); }
    auto value_sequence() const { return view(values(), size()); }
    /// The places as a vector (for the error path's exact search).
    scanvec::vector<std::uint32_t> place_vector() const {
        scanvec::vector<std::uint32_t> p(size(), no_init);
        if (size()) {
            thrust::copy_n(block::policy(current_stream()), places(), size(), p.data());
            backend::check_launch("dist::permute (places)");
        }
        return p;
    }
};

/// A rank's records {place of dest[i] in its owner's block, a[i]} grouped
/// by key (owner, window of the place) in one multisplit, into `sent`: each
/// key's run in a's order. Returns where each key's run starts ((p <<
/// window_bits) + 1 entries). a is any sequence (its values travel as T).
template <class T, class A, class Dest>
std::vector<index_t> group_by_owner(const A& a, const Dest& dest, const layout& to, const addressing& how, int p,
                                    runtime::scratch& sent, const char* op) {
    const std::size_t m = a.size();
    if (!m) return std::vector<index_t>((std::size_t(p) << how.window_bits) + 1, 0);
    scanvec::vector<std::uint32_t> keys(m, no_init);
    runtime::scratch records(m * sizeof(addressed<T>));
    using each = address_each<decltype(block::reader(dest)), decltype(block::reader(a)), T>;
    thrust::for_each_n(block::policy(current_stream()), thrust::counting_iterator<index_t>(0), index_t(m),
                       each{block::reader(dest), block::reader(a), to.device_offsets().data(), p, how, keys.data(),
                            records.as<addressed<T>>()});
    backend::check_launch(step(op, "addressing").c_str());
    sent = runtime::scratch(m * sizeof(addressed<T>));
    return block::multisplit_records(keys, records.as<const addressed<T>>(), sent.as<addressed<T>>(), how.bits(),
                                    step(op, "grouping by owner").c_str());
}

/// How many records go to each rank, from the key runs' starts.
inline std::vector<index_t> counts_per_rank(const std::vector<index_t>& key_starts, const addressing& how, int p) {
    std::vector<index_t> counts(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r)
        counts[std::size_t(r)] =
            key_starts[std::size_t(r + 1) << how.window_bits] - key_starts[std::size_t(r) << how.window_bits];
    return counts;
}

/// Sends every local a[i] to the rank owning global position dest[i] on
/// layout `to`, as route() does (its counts, its verdicts, the same
/// agree_before_exchange), but as one record per element, grouped by one
/// multisplit: 4 + sizeof(T) bytes (padded) an element on the wire instead
/// of 8 + sizeof(T). Nothing when a block of `to` has 2^32 elements or more.
template <class T, class Dest, class Agree>
std::optional<routed_records<T>> route_addressed(const communicator& comm, const scanvec::vector<T>& a, const Dest& dest,
                                                 const layout& to, const char* op, local_failure& failed,
                                                 Agree&& agree_before_exchange) {
    const auto how = addressing_for(to, sizeof(T));
    if (!how) return std::nullopt;
    std::vector<index_t> send_counts(std::size_t(comm.size()), 0);
    runtime::scratch sent;
    failed.run([&] { send_counts = counts_per_rank(group_by_owner<T>(a, dest, to, *how, comm.size(), sent, op), *how, comm.size()); });
    phase_done("addressing and grouping by owner");
    const auto recv_counts = exchange_counts(comm, send_counts, failed, step(op, "MPI_Alltoall of counts").c_str());
    routed_records<T> got;
    got.how = *how;
    for (index_t c : recv_counts) got.run_starts.push_back(got.run_starts.back() + c);
    failed.run([&] { got.records = runtime::scratch(got.size() * sizeof(addressed<T>)); });
    agree_before_exchange();
    phase_done("counts and checks");
    std::vector<column> cols{column{sent.get(), got.records.get(), sizeof(addressed<T>)}};
    exchange_columns(comm, send_counts, recv_counts, cols, step(op, "exchange of the elements").c_str());
    phase_done("exchange of the records");
    return got;
}

/// Segment j of items that come in runs, each run ordered by the window of
/// its places (place >> shift): window j / runs of run j % runs. Where it
/// begins (src) and its length, found by binary search.
template <class Places> struct window_segment {
    Places places;  // places[i]: where item i goes
    const index_t* run_starts;
    int runs, shift;
    index_t* src;
    index_t* len;
    SCANVEC_HD index_t first_at_least(index_t lo, index_t hi, index_t w) const {
        while (lo < hi) {
            const index_t mid = lo + (hi - lo) / 2;
            if (index_t(places[mid] >> shift) < w) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
    SCANVEC_HD void operator()(index_t j) const {
        const index_t w = j / runs, b = run_starts[j % runs], e = run_starts[j % runs + 1];
        src[j] = first_at_least(b, e, w);
        len[j] = first_at_least(b, e, w + 1) - src[j];
    }
};

/// The largest j in [lo, hi] with dst[j] <= k (dst ascending, dst[lo] <= k).
SCANVEC_HD inline int last_at_most(const index_t* dst, int lo, int hi, index_t k) {
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (dst[mid] <= k) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/// The segment of every tile's first item (and of the last item, at the end):
/// each item then searches only the segments its tile spans.
struct tile_first_segment {
    const index_t* dst;
    int segments;
    index_t n, tile;
    int* first;
    SCANVEC_HD void operator()(index_t t) const {
        const index_t k = t * tile < n ? t * tile : n - 1;
        first[t] = last_at_most(dst, 0, segments - 1, k);
    }
};

/// out[places[i]] = values[i] for the k-th item in window order: segment j
/// holds the positions [dst[j], dst[j] + its length) of that order.
template <class Places, class Values, class Out> struct scatter_window_major {
    Places places;
    Values values;
    const index_t* dst;
    const index_t* src;
    const int* first;  // tile_first_segment's
    index_t tile;
    Out out;
    SCANVEC_HD void operator()(index_t k) const {
        const index_t t = k / tile;
        const int j = last_at_most(dst, first[t], first[t + 1], k);
        const index_t i = src[j] + (k - dst[j]);
        out[places[i]] = values[i];
    }
};

/// out[places[i]] = values[i] for every item i, where the items come in
/// runs (run_starts: runs + 1 entries, the last the count), each ordered by
/// the window of its places (place >> shift, below 2^window_bits): written
/// one window at a time across the runs, so that each window's sectors of
/// out are whole while the L2 holds them. window_bits 0: one plain scatter.
template <class Places, class Values, class Out>
void scatter_by_windows(Places places, Values values, const std::vector<index_t>& run_starts, int window_bits, int shift,
                        Out out, const char* op) {
    const index_t n = run_starts.back();
    if (n == 0) return;
    const auto s = current_stream();
    if (window_bits == 0) {
        thrust::scatter(block::policy(s), values, values + n, places, out);
        backend::check_launch(op);
        return;
    }
    const int runs = int(run_starts.size()) - 1;
    const index_t segments = index_t(runs) << window_bits;
    const scanvec::vector<index_t> starts(run_starts);
    runtime::scratch table(3 * std::size_t(segments) * sizeof(index_t));
    index_t* src = table.as<index_t>();
    index_t* len = src + segments;
    index_t* dst = len + segments;
    thrust::for_each_n(block::policy(s), thrust::counting_iterator<index_t>(0), segments,
                       window_segment<Places>{places, starts.data(), runs, shift, src, len});
    thrust::exclusive_scan(block::policy(s), len, len + segments, dst);
    const index_t tile = 256, tiles = (n + tile - 1) / tile;
    runtime::scratch first(std::size_t(tiles + 1) * sizeof(int));
    thrust::for_each_n(block::policy(s), thrust::counting_iterator<index_t>(0), tiles + 1,
                       tile_first_segment{dst, int(segments), n, tile, first.as<int>()});
    thrust::for_each_n(block::policy(s), thrust::counting_iterator<index_t>(0), n,
                       scatter_window_major<Places, Values, Out>{places, values, dst, src, first.as<const int>(), tile, out});
    backend::check_launch(op);
}

/// r[place] = value for every record received. Places lie inside the
/// rank's block by construction; an empty block takes nothing. Where the
/// records came grouped by window, they are written window by window across
/// the senders' runs.
template <class T> void scatter_records(const routed_records<T>& got, scanvec::vector<T>& r) {
    if (r.empty()) return;
    scatter_by_windows(got.places(), got.values(), got.run_starts, got.how.window_bits, got.how.shift, block::writer(r),
                       "dist::permute (scatter)");
}

}  SCANVEC_NAMESPACE_END  // dist::detail
