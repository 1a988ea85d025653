// scanvec/primitives/segmented_scan.hpp - segmented scans driven by head flags.
//
// A segmented vector is a flat vector plus head flags: flags[i] true starts a
// segment (position 0 always does). Each scan restarts at every head:
//
//   sv::segmented_scan(a, flags, op)              exclusive, per segment
//   sv::segmented_inclusive_scan(a, flags, op)    inclusive, per segment
//   sv::segmented_backward_scan / _backward_inclusive_scan   right to left
//   sv::segmented_reduce(a, flags, op)            one value per segment
//   sv::segmented_index(flags)                    position within the segment
//   sv::segmented_distribute(a, flags)            each segment's first element across it
//   sv::segmented_enumerate(f, flags)             true f before i within its segment
//   sv::segmented_split(a, f, flags)              stable split of every segment on f
//
// Descriptor conversions (position 0 always heads a segment; head flags cannot
// express empty segments, so zero lengths vanish in flag form):
//   sv::flags_to_lengths(flags)   sv::flags_to_offsets(flags)   sv::segment_ids(flags)
//   sv::lengths_to_offsets(len)   sv::lengths_to_flags(len)     sv::offsets_to_flags(off, n)
//
// The scans are one pass over the values and flags (on CUDA a tile kernel
// with look-back: detail/segmented_scan/cuda/tiles.hpp).
#pragma once

#include <scanvec/primitives/detail/segmented_scan/passes.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/split/destination.hpp>

SCANVEC_NAMESPACE_BEGIN

/// Exclusive scan restarting at every head flag (identity at each head).
template <class A, class Flags, class Op = plus<value_t<A>>>
vector<value_t<A>> segmented_scan(const A& a, const Flags& flags, Op op = {}) {
    return detail::segmented_pass<false, true>("segmented_scan", a, flags, op);
}

/// Inclusive scan restarting at every head flag.
template <class A, class Flags, class Op = plus<value_t<A>>>
vector<value_t<A>> segmented_inclusive_scan(const A& a, const Flags& flags, Op op = {}) {
    return detail::segmented_pass<false, false>("segmented_inclusive_scan", a, flags, op);
}

/// Right-to-left exclusive scan within each segment: r[i] = a[i+1] op ... op a[last of segment].
template <class A, class Flags, class Op = plus<value_t<A>>>
vector<value_t<A>> segmented_backward_scan(const A& a, const Flags& flags, Op op = {}) {
    return detail::segmented_pass<true, true>("segmented_backward_scan", a, flags, op);
}

/// Right-to-left inclusive scan within each segment: r[i] = a[i] op ... op a[last of segment].
template <class A, class Flags, class Op = plus<value_t<A>>>
vector<value_t<A>> segmented_backward_inclusive_scan(const A& a, const Flags& flags, Op op = {}) {
    return detail::segmented_pass<true, false>("segmented_backward_inclusive_scan", a, flags, op);
}

/// The four segmented scans written into the caller's memory (sv::into): out
/// holds a.size() elements of a's type and does not overlap a or flags.
/// Return out's view of the result. Queued (no wait).
template <class A, class Flags, class Op, class S> S segmented_scan(const A& a, const Flags& flags, Op op, output<S> out) {
    return detail::segmented_pass<false, true>("segmented_scan", a, flags, op, out);
}
template <class A, class Flags, class S> S segmented_scan(const A& a, const Flags& flags, output<S> out) {
    return segmented_scan(a, flags, plus<value_t<A>>{}, out);
}
template <class A, class Flags, class Op, class S>
S segmented_inclusive_scan(const A& a, const Flags& flags, Op op, output<S> out) {
    return detail::segmented_pass<false, false>("segmented_inclusive_scan", a, flags, op, out);
}
template <class A, class Flags, class S> S segmented_inclusive_scan(const A& a, const Flags& flags, output<S> out) {
    return segmented_inclusive_scan(a, flags, plus<value_t<A>>{}, out);
}
template <class A, class Flags, class Op, class S>
S segmented_backward_scan(const A& a, const Flags& flags, Op op, output<S> out) {
    return detail::segmented_pass<true, true>("segmented_backward_scan", a, flags, op, out);
}
template <class A, class Flags, class S> S segmented_backward_scan(const A& a, const Flags& flags, output<S> out) {
    return segmented_backward_scan(a, flags, plus<value_t<A>>{}, out);
}
template <class A, class Flags, class Op, class S>
S segmented_backward_inclusive_scan(const A& a, const Flags& flags, Op op, output<S> out) {
    return detail::segmented_pass<true, false>("segmented_backward_inclusive_scan", a, flags, op, out);
}
template <class A, class Flags, class S>
S segmented_backward_inclusive_scan(const A& a, const Flags& flags, output<S> out) {
    return segmented_backward_inclusive_scan(a, flags, plus<value_t<A>>{}, out);
}

/// One value per segment: the reduction of each segment, in order.
template <class A, class Flags, class Op = plus<value_t<A>>>
vector<value_t<A>> segmented_reduce(const A& a, const Flags& flags, Op op = {}) {
    return detail::labelled({"segmented_reduce", {"A", "Heads"}, "Sums"}, a.size(), [&] {
        // Sums = segmented +-scan (inclusive); keep the value at each segment's end
        auto sums = segmented_inclusive_scan(a, flags, op);
        auto ends = view(thrust::make_transform_iterator(
                             thrust::counting_iterator<index_t>(0),
                             detail::is_segment_end<decltype(detail::reader(flags))>{detail::reader(flags),
                                                                                   index_t(a.size())}),
                         a.size());
        return pack(sums, ends);
    }, a, flags);
}

/// Position of each element within its segment.
template <class Flags> vector<index_t> segmented_index(const Flags& flags) {
    return detail::labelled({"segmented_index", {"Heads"}, "Index"}, flags.size(), [&] {
        return segmented_scan(lazy::distribute(index_t(1), flags.size()), flags);
    }, flags);
}

/// Copies the first element of each segment across the segment.
template <class A, class Flags> vector<value_t<A>> segmented_distribute(const A& a, const Flags& flags) {
    return detail::segmented_pass<false, false>("segmented_distribute", a, flags, detail::keep_left{});
}

/// Within each segment, the number of true f before position i.
template <class F, class Flags> vector<index_t> segmented_enumerate(const F& f, const Flags& flags) {
    detail::expect_flags<F>();
    return detail::labelled({"segmented_enumerate", {"Flags", "Heads"}, "Enumerate"}, f.size(), [&] {
        return segmented_scan(lazy::map(detail::flag_to_count{}, f), flags);
    }, f, flags);
}

/// Stable split of every segment on its own flags f (falses first within the segment).
/// Model: O(n) work, 4 steps (three segmented scans and a permute); does not wait
/// for the device. Placement shared with sv::split (detail/split/destination.hpp):
///
///   I-down <- segmented-enumerate(not F)          falses before i in its segment
///   P      <- segmented-index                     position of i in its segment
///   Falses <- falses of each segment, distributed across it (backward copy of the last count)
///   Index  <- start + (if F then Falses + (P - I-down) else I-down),   start = i - P
///   permute(A, Index)
template <class A, class F, class Flags> vector<value_t<A>> segmented_split(const A& a, const F& f, const Flags& flags) {
    detail::expect_flags<F>();
    return detail::labelled({"segmented_split", {"A", "Flags", "Heads"}, "Split"}, a.size(), [&] {
        detail::expect_same_length("segmented_split", a.size(), f.size());
        detail::expect_same_length("segmented_split", a.size(), flags.size());
        auto down = segmented_scan(lazy::map(detail::flag_not_to_count{}, f), flags);
        auto pos = segmented_index(flags);
        auto upto = lazy::map(SCANVEC_FN(index_t d, bool t) { return d + (t ? 0 : 1); }, down,
                              lazy::map(detail::is_set{}, f));
        auto falses = segmented_backward_inclusive_scan(upto, flags, detail::keep_right{});
        auto index = lazy::map(detail::split_in_headed_segment{}, f, down, pos, falses, lazy::index(a.size()));
        return permute(a, index, unchecked);
    }, a, f, flags);
}

/// The length of every segment.
template <class Flags> vector<index_t> flags_to_lengths(const Flags& flags) {
    return segmented_reduce(lazy::distribute(index_t(1), flags.size()), flags);
}

/// The start offset of every segment.
template <class Flags> vector<index_t> flags_to_offsets(const Flags& flags) {
    return pack(lazy::index(flags.size()), detail::heads_of(flags));
}

/// Per-element segment number (0 for the first segment).
template <class Flags> vector<index_t> segment_ids(const Flags& flags) {
    return detail::labelled({"segment_ids", {"Heads"}, "Segment"}, flags.size(), [&] {
        // ids = +-scan(heads, inclusive) - 1
        auto ids = inclusive_scan(lazy::map(detail::flag_to_count{}, detail::heads_of(flags)));
        return map(SCANVEC_FN(index_t c) { return c - 1; }, ids);
    }, flags);
}

/// Start offsets from lengths: the exclusive +-scan.
template <class Lengths> vector<value_t<Lengths>> lengths_to_offsets(const Lengths& lengths) {
    return scan(lengths);
}

/// Head flags of n = sum(lengths) elements marking each offset (offsets >= n are ignored).
template <class Offsets> vector<bool> offsets_to_flags(const Offsets& offsets, std::size_t n) {
    return detail::labelled({"offsets_to_flags", {"Offsets"}, "Heads"}, offsets.size(), [&] {
        vector<bool> flags(n);
        if (n && !offsets.empty()) {
            auto off = detail::reader(offsets);
            auto in_range = lazy::map(SCANVEC_FN(index_t o) { return o >= 0 && o < index_t(n); }, offsets);
            thrust::scatter_if(detail::policy(current_stream()), thrust::constant_iterator<bool>(true),
                               thrust::constant_iterator<bool>(true) + offsets.size(), off, in_range.begin(),
                               flags.begin());
            backend::check_launch("offsets_to_flags");
        }
        return flags;
    }, offsets);
}

/// Head flags from segment lengths (zero-length segments vanish: flags cannot hold them).
template <class Lengths> vector<bool> lengths_to_flags(const Lengths& lengths) {
    auto offsets = scan_total(lazy::map(SCANVEC_FN(value_t<Lengths> l) { return index_t(l); }, lengths));
    return offsets_to_flags(offsets.values, std::size_t(offsets.total));
}

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(segmented_scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(segmented_inclusive_scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(segmented_backward_scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(segmented_backward_inclusive_scan, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(segmented_reduce, dist::vector<T>)

SCANVEC_NAMESPACE_END
