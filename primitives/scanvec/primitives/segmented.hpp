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
    });
}

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
    });
}

/// Position of each element within its segment.
template <class Flags> vector<index_t> segmented_index(const Flags& flags) {
    return detail::labelled("segmented_index", flags.size(), [&] {
        return segmented_scan(lazy::distribute(index_t(1), flags.size()), flags);
    });
}

/// Copies the first element of each segment across the segment.
template <class A, class Flags> vector<value_t<A>> segmented_distribute(const A& a, const Flags& flags) {
    return detail::segmented_pass<false, false>("segmented_distribute", a, flags, detail::keep_left{});
}

}  // namespace scanvec
