// scanvec/primitives/detail/segments/functors.hpp - the per-element work of the segmented set.
//
// Small functors run inside one scan or transform pass: descriptor checks and
// conversions (segment_descriptor.hpp), the segment-total scan of the segmented reduce
// and the element moves of the segmented primitives (nested.hpp,
// nested_permute.hpp). Each is a plain struct with a SCANVEC_HD operator(), so
// it compiles for the device under nvcc.
#pragma once

#include <scanvec/primitives/detail/common/first_where.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/operators.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <limits>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

// ---- descriptors -------------------------------------------------------------

/// Whether two offset arrays differ at k (segments' operator==, with first_index_where).
struct offsets_differ {
    const index_t* a;
    const index_t* b;
    SCANVEC_HD bool operator()(index_t k) const { return a[k] != b[k]; }
};

/// A running total of lengths, and the first position of a negative length
/// (the largest index_t: none): segments::from_lengths scans these, so one
/// pass makes the offsets and checks the lengths.
struct lengths_so_far {
    index_t total;
    index_t first_negative;
};
struct add_lengths {
    SCANVEC_HD lengths_so_far operator()(const lengths_so_far& a, const lengths_so_far& b) const {
        return {a.total + b.total, a.first_negative < b.first_negative ? a.first_negative : b.first_negative};
    }
};
template <class It> struct given_length_at {
    It len;
    SCANVEC_HD lengths_so_far operator()(index_t k) const {
        const auto v = len[k];
        bool negative = false;
        if constexpr (std::is_signed_v<std::decay_t<decltype(v)>>) negative = v < 0;
        return {index_t(v), negative ? k : std::numeric_limits<index_t>::max()};
    }
};
/// Stores each offset; the last (position m, after every length) also at *last,
/// memory the host reads after a wait.
struct store_offset {
    index_t* off;
    index_t m;
    lengths_so_far* last;
    SCANVEC_HD void operator()(index_t i, const lengths_so_far& v) const {
        off[i] = v.total;
        if (i == m) *last = v;
    }
};

/// The segment number of position i: the last k with off[k] <= i, by binary
/// search of the count + 1 offsets (the empty segments before it share its offset).
SCANVEC_HD inline index_t segment_holding(const index_t* off, index_t count, index_t i) {
    index_t lo = 0, hi = count;  // off[lo] <= i < off[hi]
    while (hi - lo > 1) {
        const index_t mid = lo + (hi - lo) / 2;
        if (off[mid] <= i) lo = mid;
        else hi = mid;
    }
    return lo;
}

/// segment_holding as a functor of the position.
struct segment_of_position {
    const index_t* off;
    index_t count;
    SCANVEC_HD index_t operator()(index_t i) const { return segment_holding(off, count, i); }
};

/// Offsets that decrease from k to k + 1.
struct decreases_at {
    const index_t* off;
    SCANVEC_HD bool operator()(index_t k) const { return off[k + 1] < off[k]; }
};
struct is_empty_at {
    const index_t* off;
    SCANVEC_HD bool operator()(index_t k) const { return off[k + 1] == off[k]; }
};
struct is_nonempty_at {
    const index_t* off;
    SCANVEC_HD bool operator()(index_t k) const { return off[k + 1] != off[k]; }
};
struct length_at {
    const index_t* off;
    SCANVEC_HD index_t operator()(index_t k) const { return off[k + 1] - off[k]; }
};
template <class To> struct convert_to {
    template <class X> SCANVEC_HD To operator()(const X& x) const { return To(x); }
};
/// Marks the first position of every non-empty segment.
struct mark_head {
    const index_t* off;
    bool* flags;
    SCANVEC_HD void operator()(index_t k) const {
        if (off[k + 1] != off[k]) flags[off[k]] = true;
    }
};

/// Calls f(i, k) from the inclusive +-scan of the heads (the number of heads up to i).
template <class F> struct with_segment {
    F f;
    const index_t* nonempty;  // segment number of the j-th non-empty segment; null when none is empty
    SCANVEC_HD void operator()(std::ptrdiff_t i, index_t heads) const {
        index_t k = heads - 1;
        if (nonempty) k = nonempty[k];
        f(index_t(i), k);
    }
};

/// Writes the segment number of every element.
/// Writes k at the first position of segment k when it is not empty: one
/// writer per position (empty segments before it share its offset), so a
/// max-scan of the marks (zeros elsewhere) is every element's segment number.
struct mark_segment_number {
    const index_t* off;
    index_t* marks;
    SCANVEC_HD void operator()(index_t k) const {
        if (off[k + 1] != off[k]) marks[off[k]] = k;
    }
};


// ---- segmented reduce, distribute, extract -------------------------------------------

/// (value, heads so far): the heads count doubles as the head flag of a run.
template <class T> struct seg_count_value {
    T v;
    index_t heads;
};
template <class Op> struct seg_count_op {
    Op op;
    template <class T>
    SCANVEC_HD seg_count_value<T> operator()(const seg_count_value<T>& a, const seg_count_value<T>& b) const {
        return seg_count_value<T>{b.heads ? b.v : T(op(a.v, b.v)), a.heads + b.heads};
    }
};
template <class T, class AIt, class FIt> struct seg_count_input {
    AIt a;
    FIt f;
    SCANVEC_HD seg_count_value<T> operator()(index_t i) const {
        return seg_count_value<T>{T(a[i]), f[i] ? index_t(1) : index_t(0)};
    }
};
/// At the last element of a segment, stores the segment's total in out[k].
template <class OutIt, class FIt> struct store_segment_total {
    OutIt out;
    FIt f;
    index_t n;
    const index_t* nonempty;
    template <class V> SCANVEC_HD void operator()(std::ptrdiff_t i, const V& s) const {
        if (index_t(i) + 1 == n || f[i + 1]) {
            index_t k = s.heads - 1;
            if (nonempty) k = nonempty[k];
            out[k] = s.v;
        }
    }
};

/// out[i] = in[k]: the value of element i's segment.
template <class T, class In, class Out> struct copy_from_segment {
    In in;
    Out out;
    SCANVEC_HD void operator()(index_t i, index_t k) const { out[i] = T(in[k]); }
};

/// offsets[k] + idx[k]: the flat position of element idx[k] of segment k.
template <class IdxIt> struct element_of_segment {
    const index_t* off;
    IdxIt idx;
    SCANVEC_HD index_t operator()(index_t k) const { return off[k] + index_t(idx[k]); }
};
template <class IdxIt> struct outside_segment {
    const index_t* off;
    IdxIt idx;
    SCANVEC_HD bool operator()(index_t k) const {
        const index_t j = index_t(idx[k]);
        return j < 0 || j >= off[k + 1] - off[k];
    }
};

// ---- segmented permutes, reverse, append, flag_merge ------------------------------

/// out[i + shift[k]] = in[i]: element i of segment k moved by its segment's shift.
template <class T, class In, class Out> struct shift_scatter {
    In in;
    Out out;
    const index_t* shift;
    SCANVEC_HD void operator()(index_t i, index_t k) const { out[i + shift[k]] = T(in[i]); }
};

/// out[i] = in[s + e - 1 - i] within segment k = [s, e).
template <class T, class In, class Out> struct reverse_in_segment {
    const index_t* off;
    In in;
    Out out;
    SCANVEC_HD void operator()(index_t i, index_t k) const { out[i] = T(in[off[k] + off[k + 1] - 1 - i]); }
};

/// New offsets after a pack: the true flags before each old offset.
struct offset_after_pack {
    const index_t* off;
    const index_t* before;  // true flags before each position
    index_t n;
    index_t total;
    SCANVEC_HD index_t operator()(index_t k) const { return off[k] < n ? before[off[k]] : total; }
};

struct add_offsets {
    const index_t* a;
    const index_t* b;
    SCANVEC_HD index_t operator()(index_t k) const { return a[k] + b[k]; }
};

/// Position within its segment of the j-th element in segment-then-value order.
template <class KeyIt> struct rank_in_segment {
    const index_t* off;
    KeyIt seg;
    SCANVEC_HD index_t operator()(index_t j) const { return j - off[seg[j]]; }
};

/// Where segment k of the merged result holds a different number of false flags than x has elements.
struct merge_mismatch {
    const index_t* down;
    const index_t* off_r;
    const index_t* off_a;
    SCANVEC_HD bool operator()(index_t k) const { return down[off_r[k]] != off_a[k]; }
};

}  SCANVEC_NAMESPACE_END  // detail
