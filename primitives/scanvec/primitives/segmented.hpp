// scanvec/primitives/segmented.hpp - segmented scans driven by head flags.
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
// All are one pass of the look-back scan over (value, head) pairs read lazily
// from the two vectors: the pairs are never stored.
#pragma once

#include <scanvec/primitives/derived.hpp>

namespace scanvec {
namespace detail {

template <class T> struct seg_value {
    T v;
    bool head;
};

/// (a, fa) + (b, fb) = (fb ? b : a op b, fa or fb): associative whenever op is.
template <class Op> struct seg_op {
    Op op;
    template <class T> SCANVEC_HD seg_value<T> operator()(const seg_value<T>& a, const seg_value<T>& b) const {
        return b.head ? b : seg_value<T>{op(a.v, b.v), a.head};
    }
};

struct seg_take_value {
    template <class T> SCANVEC_HD T operator()(const seg_value<T>& s) const { return s.v; }
};

/// The (value, head) pair at scan position j, for the four directions/kinds.
/// Exclusive scans are inclusive scans of the input shifted by one within each
/// segment, with the identity at every head.
template <class AIt, class FIt, class T, bool Backward, bool Exclusive> struct seg_input {
    AIt a;
    FIt f;
    index_t n;
    T id;
    SCANVEC_HD bool head(index_t j) const {
        if (!Backward) return j == 0 || f[j];
        index_t i = n - 1 - j;
        return i == n - 1 || f[i + 1];
    }
    SCANVEC_HD T value(index_t j) const { return Backward ? T(a[n - 1 - j]) : T(a[j]); }
    SCANVEC_HD seg_value<T> operator()(index_t j) const {
        bool h = head(j);
        if (!Exclusive) return {value(j), h};
        return h ? seg_value<T>{id, true} : seg_value<T>{value(j - 1), false};
    }
};

template <bool Backward, bool Exclusive, class A, class Flags, class Op>
vector<value_t<A>> segmented_pass(const char* name, const A& a, const Flags& flags, Op op) {
    expect_flags<Flags>();
    return labelled(name, a.size(), [&] {
        expect_same_length(name, a.size(), flags.size());
        using T = value_t<A>;
        const std::size_t n = a.size();
        vector<T> r(n, no_init);
        if (n == 0) return r;
        T id{};
        if constexpr (Exclusive) id = T(op.identity());
        using In = seg_input<decltype(reader(a)), decltype(reader(flags)), T, Backward, Exclusive>;
        auto in = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                  In{reader(a), reader(flags), index_t(n), id});
        if constexpr (Backward) {
            auto out = thrust::make_transform_output_iterator(reversed_writer(r), seg_take_value{});
            inclusive_scan_n(in, n, out, seg_op<flipped<Op>>{flipped<Op>{op}}, stream_of(a));
        } else {
            auto out = thrust::make_transform_output_iterator(writer(r), seg_take_value{});
            inclusive_scan_n(in, n, out, seg_op<Op>{op}, stream_of(a));
        }
        return r;
    }, a, flags);
}

/// Head flags as the model reads them: position 0 always starts a segment.
template <class FIt> struct is_segment_head {
    FIt f;
    SCANVEC_HD bool operator()(index_t i) const { return i == 0 || f[i]; }
};
template <class Flags> auto heads_of(const Flags& flags) {
    return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                is_segment_head<decltype(reader(flags))>{reader(flags)}),
                flags.size());
}

struct keep_right {
    template <class T> SCANVEC_HD T operator()(const T&, const T& b) const { return b; }
};

/// Destination of element i in a segmented split (see segmented_split).
struct segmented_split_index {
    template <class F>
    SCANVEC_HD index_t operator()(const F& flag, index_t down, index_t pos, index_t falses, index_t i) const {
        const index_t start = i - pos;
        return start + (flag ? falses + (pos - down) : down);
    }
};

/// Last position of each segment: i == n-1 or flags[i+1].
template <class FIt> struct is_segment_end {
    FIt f;
    index_t n;
    SCANVEC_HD bool operator()(index_t i) const { return i == n - 1 || f[i + 1]; }
};

}  // namespace detail

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

/// One value per segment: the reduction of each segment, in order.
template <class A, class Flags, class Op = plus<value_t<A>>>
vector<value_t<A>> segmented_reduce(const A& a, const Flags& flags, Op op = {}) {
    return detail::labelled("segmented_reduce", a.size(), [&] {
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
    return detail::labelled("segmented_index", flags.size(), [&] {
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
    return detail::labelled("segmented_enumerate", f.size(), [&] {
        return segmented_scan(lazy::map(detail::flag_to_count{}, f), flags);
    }, f, flags);
}

/// Stable split of every segment on its own flags f (falses first within the segment).
///
///   I-down <- segmented-enumerate(not F)          falses before i in its segment
///   P      <- segmented-index                     position of i in its segment
///   Falses <- falses of each segment, distributed across it (backward copy of the last count)
///   Index  <- start + (if F then Falses + (P - I-down) else I-down),   start = i - P
///   permute(A, Index)
template <class A, class F, class Flags> vector<value_t<A>> segmented_split(const A& a, const F& f, const Flags& flags) {
    detail::expect_flags<F>();
    return detail::labelled("segmented_split", a.size(), [&] {
        detail::expect_same_length("segmented_split", a.size(), f.size());
        detail::expect_same_length("segmented_split", a.size(), flags.size());
        auto down = segmented_scan(lazy::map(detail::flag_not_to_count{}, f), flags);
        auto pos = segmented_index(flags);
        auto upto = lazy::map(SCANVEC_FN(index_t d, bool t) { return d + (t ? 0 : 1); }, down,
                              lazy::map(detail::is_set{}, f));
        auto falses = segmented_backward_inclusive_scan(upto, flags, detail::keep_right{});
        auto index = lazy::map(detail::segmented_split_index{}, f, down, pos, falses, lazy::index(a.size()));
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
    return detail::labelled("segment_ids", flags.size(), [&] {
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
    return detail::labelled("offsets_to_flags", offsets.size(), [&] {
        vector<bool> flags(n);
        if (n && !offsets.empty()) {
            auto off = detail::reader(offsets);
            auto in_range = lazy::map(SCANVEC_FN(index_t o) { return o >= 0 && o < index_t(n); }, offsets);
            thrust::scatter_if(detail::policy(detail::stream_of(offsets)), thrust::constant_iterator<bool>(true),
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

}  // namespace scanvec
