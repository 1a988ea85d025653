// scanvec/primitives/detail/split/destination.hpp - where an element goes in a stable split.
//
// One formula serves every split: the flat one (sv::split, one segment), the
// segmented one on head flags (sv::segmented_split) and the nested one
// (sv::split of an sv::nested). Each describes an element's segment by where
// it starts and by counts of false flags; only how those counts are found
// differs (a lazy scan fused with the scatter, segmented scans, one scan over
// the whole vector).
#pragma once

#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/device_value.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Destination of element i in a stable split of its segment, which starts at
/// `start`: a false goes to start + (falses before it in the segment), a true
/// after all of the segment's falses, at its place among the segment's trues.
/// The three counts of false flags may be measured from any common origin (a
/// running count): before the segment, before i, and through the segment's end.
template <class F>
SCANVEC_HD index_t split_destination(const F& flag, index_t i, index_t start, index_t falses_before_segment,
                                     index_t falses_before_i, index_t falses_through_segment) {
    return flag ? falses_through_segment + (i - falses_before_i) : start + (falses_before_i - falses_before_segment);
}

/// The flat split (one segment, from 0): f(flag, down, i) with down = the
/// falses before i (the lazy scan's prefix) and *falses, on the device, all of them.
struct split_in_one_segment {
    const index_t* falses;
    template <class F> SCANVEC_HD index_t operator()(const F& flag, index_t down, index_t i) const {
        return split_destination(flag, i, 0, 0, down, read_only(falses));
    }
};

/// A segment given by head flags: f(flag, down, pos, falses, i) with down the
/// falses before i in its segment, pos its position in the segment and falses
/// the segment's count of false flags (all three from segmented scans).
struct split_in_headed_segment {
    template <class F>
    SCANVEC_HD index_t operator()(const F& flag, index_t down, index_t pos, index_t falses, index_t i) const {
        return split_destination(flag, i, i - pos, 0, down, falses);
    }
};

/// A segment given by offsets: out[destination] = in[i] for element i of
/// segment k = [off[k], off[k + 1]), with down[j] the falses before position j
/// of the whole vector (n + 1 counts). Run by segments::for_each_element.
template <class T, class FIt, class In, class Out> struct split_in_offset_segment {
    FIt f;
    const index_t* down;
    const index_t* off;
    In in;
    Out out;
    SCANVEC_HD void operator()(index_t i, index_t k) const {
        const index_t s = off[k], e = off[k + 1];
        out[split_destination(f[i], i, s, down[s], down[i], down[e])] = T(in[i]);
    }
};

}  SCANVEC_NAMESPACE_END  // detail
