// scanvec/primitives/dist/addressed.hpp - a permute's elements sent to the ranks
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
// permute groups its pairs (detail/permute_grouped.hpp), and the receiver
// scatters window by window across the runs without grouping them again.
// Why, and what it measured: docs/design/distributed.md.
#pragma once

#include <scanvec/primitives/dist/common.hpp>
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
    a.rank_bits = std::max(1, core::bits_for(index_t(to.offsets.size() - 1)));
#if defined(SCANVEC_BACKEND_CUDA)
    // windows of the largest block, in the bits one grouping pass has left over
    a.window_bits = core::window_bits(std::size_t(largest) * bytes,
                                      std::max(0, core::permute_policy::grouped_max_bits - a.rank_bits));
#else
    (void)bytes;  // the host scatters directly (docs/design/permutes.md: grouping does not pay there)
#endif
    a.shift = std::max(0, core::bits_for(largest) - a.window_bits);
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
            thrust::copy_n(core::policy(current_stream()), places(), size(), p.data());
            backend::check_launch("dist::permute (places)");
        }
        return p;
    }
};

/// A rank's records {place of dest[i] in its owner's block, a[i]} grouped
/// by key (owner, window of the place) in one multisplit, into `sent`; the
/// counts for each rank. a is any sequence (its values travel as T).
template <class T, class A, class Dest>
std::vector<index_t> group_by_owner(const A& a, const Dest& dest, const layout& to, const addressing& how, int p,
                                    runtime::scratch& sent, const char* op) {
    const std::size_t m = a.size();
    std::vector<index_t> send_counts(std::size_t(p), 0);
    if (!m) return send_counts;
    scanvec::vector<std::uint32_t> keys(m, no_init);
    runtime::scratch records(m * sizeof(addressed<T>));
    using each = address_each<decltype(core::reader(dest)), decltype(core::reader(a)), T>;
    thrust::for_each_n(core::policy(current_stream()), thrust::counting_iterator<index_t>(0), index_t(m),
                       each{core::reader(dest), core::reader(a), to.device_offsets().data(), p, how, keys.data(),
                            records.as<addressed<T>>()});
    backend::check_launch(step(op, "addressing").c_str());
    sent = runtime::scratch(m * sizeof(addressed<T>));
    const auto starts = core::multisplit_records(keys, records.as<const addressed<T>>(), sent.as<addressed<T>>(),
                                                 how.bits(), step(op, "grouping by owner").c_str());
    for (int r = 0; r < p; ++r)
        send_counts[std::size_t(r)] = starts[std::size_t(r + 1) << how.window_bits] - starts[std::size_t(r) << how.window_bits];
    return send_counts;
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
    failed.run([&] { send_counts = group_by_owner<T>(a, dest, to, *how, comm.size(), sent, op); });
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

/// Segment j of the received records read window by window: window j / p
/// of sender j % p's run. Where it begins in the records (src) and its
/// length, found by binary search (a run is ordered by window).
template <class T> struct window_segment {
    const addressed<T>* records;
    const index_t* run_starts;
    int ranks, shift;
    index_t* src;
    index_t* len;
    SCANVEC_HD index_t first_at_least(index_t lo, index_t hi, index_t w) const {
        while (lo < hi) {
            const index_t mid = lo + (hi - lo) / 2;
            if (index_t(records[mid].place >> shift) < w) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
    SCANVEC_HD void operator()(index_t j) const {
        const index_t w = j / ranks, b = run_starts[j % ranks], e = run_starts[j % ranks + 1];
        src[j] = first_at_least(b, e, w);
        len[j] = first_at_least(b, e, w + 1) - src[j];
    }
};

/// out[place] = value for the k-th record in window order: segment j holds
/// the positions [dst[j], dst[j] + its length) of that order.
template <class T, class Out> struct scatter_window_major {
    const addressed<T>* records;
    const index_t* dst;
    const index_t* src;
    int segments;
    Out out;
    SCANVEC_HD void operator()(index_t k) const {
        const int j = owner_of{dst, segments}(k);
        const addressed<T> x = records[src[j] + (k - dst[j])];
        out[x.place] = x.value;
    }
};

/// r[place] = value for every record received. Places lie inside the
/// rank's block by construction; an empty block takes nothing. Where the
/// records came grouped by window, they are written window by window across
/// the senders' runs: one window's records from every sender together, so
/// that its sectors of r are whole while the L2 holds them.
template <class T> void scatter_records(const routed_records<T>& got, scanvec::vector<T>& r) {
    if (got.size() == 0 || r.empty()) return;
    const auto s = current_stream();
    const char* op = "dist::permute (scatter)";
    if (got.how.window_bits == 0) {
        thrust::scatter(core::policy(s), got.values(), got.values() + got.size(), got.places(), core::writer(r));
        backend::check_launch(op);
        return;
    }
    const int p = int(got.run_starts.size()) - 1;
    const index_t segments = index_t(p) << got.how.window_bits;
    const scanvec::vector<index_t> runs(got.run_starts);
    runtime::scratch table(3 * std::size_t(segments) * sizeof(index_t));
    index_t* src = table.as<index_t>();
    index_t* len = src + segments;
    index_t* dst = len + segments;
    thrust::for_each_n(core::policy(s), thrust::counting_iterator<index_t>(0), segments,
                       window_segment<T>{got.data(), runs.data(), p, got.how.shift, src, len});
    thrust::exclusive_scan(core::policy(s), len, len + segments, dst);
    thrust::for_each_n(core::policy(s), thrust::counting_iterator<index_t>(0), index_t(got.size()),
                       scatter_window_major<T, decltype(core::writer(r))>{got.data(), dst, src, int(segments), core::writer(r)});
    backend::check_launch(op);
}

}  SCANVEC_NAMESPACE_END  // dist::detail
