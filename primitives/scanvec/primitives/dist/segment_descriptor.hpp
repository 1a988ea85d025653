// scanvec/primitives/dist/segment_descriptor.hpp - the segment descriptor of a
// distributed vector of vectors, and the segmented reduce over it.
//
//   sv::dist::segments::from_lengths(len)   segment k holds len[k] >= 0 elements (len: a dist::vector)
//   s.count(), s.total()                    segments, elements
//   s.heads()                               head flags over the elements (even blocks)
//   sv::dist::reduce(a, s, op)              one value per segment, the identity for an empty one
//   sv::dist::scan(a, s, op), inclusive_scan, backward_scan, backward_inclusive_scan
//                                           within every segment (as sv::scan(a, segments, op));
//                                           also named segmented_scan(a, s, op), ...
//
// As sv::segments on one device, empty segments are allowed, which head flags
// alone cannot describe: the descriptor keeps the flags of the non-empty
// segments and their numbers. The book's programs on descriptors (spmv) run
// on it unchanged.
#pragma once

#include <scanvec/primitives/dist/elementwise.hpp>
#include <scanvec/primitives/dist/enumerate_pack.hpp>
#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/primitives/dist/segmented_scan.hpp>
#include <scanvec/primitives/dist/write.hpp>

#include <string>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

struct is_positive {
    template <class I> SCANVEC_HD bool operator()(const I& x) const { return x > 0; }
};

}  // namespace detail

/// The descriptor of a distributed nested vector: count() segments over
/// total() elements, segments of length 0 allowed.
class segments {
public:
    /// Segment k holds lengths[k] >= 0 elements (a negative length throws
    /// sv::index_error on every rank, as on one device). Collective: maps, a scan, counts and packs of
    /// the lengths, one write of the head flags (each a dist call, agreed by
    /// every rank).
    template <class I> static segments from_lengths(const vector<I>& lengths) {
        static_assert(std::is_integral_v<I>, "sv::dist::segments::from_lengths: lengths must be integers");
        const auto& comm = lengths.comm();
        const index_t negatives = dist::count(dist::map(negative{}, lengths));
        if (negatives)
            throw index_error("scanvec::dist::segments::from_lengths: " + std::to_string(negatives) + " negative length(s)");
        segments s(comm);
        s.count_ = index_t(lengths.size());
        const auto wide = dist::map(widen{}, lengths);
        s.total_ = dist::reduce(wide);
        const auto nonempty = dist::map(detail::is_positive{}, wide);
        s.empties_ = s.count_ - dist::count(nonempty);
        // Heads <- write(false..., the starts of the non-empty segments, true)
        const auto starts = dist::pack(dist::scan(wide), nonempty);
        s.heads_ = dist::write(dist::distribute(false, std::size_t(s.total_), comm), starts,
                               dist::distribute(true, starts.size(), comm));
        if (s.empties_) s.nonempty_ = dist::pack(dist::index(std::size_t(s.count_), comm), nonempty);
        return s;
    }

    index_t count() const { return count_; }
    index_t total() const { return total_; }
    std::size_t size() const { return std::size_t(total_); }
    index_t empty_count() const { return empties_; }
    const communicator& comm() const { return comm_; }
    /// Head flags over the elements, even blocks (position 0 heads when total() > 0).
    const vector<bool>& heads() const { return heads_; }
    /// The numbers of the non-empty segments, in order (only when some are empty).
    const vector<index_t>& nonempty() const { return nonempty_; }

    // (public: nvcc's generated host stubs name the functors of the kernels they launch)
    struct negative {
        template <class I> SCANVEC_HD bool operator()(const I& x) const { return x < 0; }
    };
    struct widen {
        template <class I> SCANVEC_HD index_t operator()(const I& x) const { return index_t(x); }
    };

private:
    explicit segments(const communicator& comm) : comm_(comm) {}

    communicator comm_;
    index_t count_ = 0, total_ = 0, empties_ = 0;
    vector<bool> heads_;
    vector<index_t> nonempty_;
};

/// One value per segment of s: the fold of its elements in order, the
/// identity of op for an empty segment. a.size() == s.total() (else
/// sv::length_error). Any associative operator. The result is on even blocks
/// of s.count() when s has empty segments, else where the segments' heads are.
/// Costs as dist::segmented_reduce, plus one write with empty segments. Collective.
template <class T, class Op = plus<T>> vector<T> reduce(const vector<T>& a, const segments& s, Op op = {}) {
    detail::expect_same_comm("dist::reduce (segments)", a, s.heads());
    detail::block::expect_same_length("dist::reduce (the vector and its segments' total)", a.size(), s.size());
    const T id = detail::block::identity_of<T>(op);
    if (s.total() == 0) return dist::distribute(id, std::size_t(s.count()), s.comm());
    auto per_nonempty = dist::segmented_reduce(a, s.heads(), op);
    if (s.empty_count() == 0) return per_nonempty;
    return dist::write(dist::distribute(id, std::size_t(s.count()), s.comm()), s.nonempty(), per_nonempty);
}

namespace detail {

template <bool Inclusive, bool Backward, class T, class Op>
vector<T> scan_by_segments(const vector<T>& a, const segments& s, Op op, const char* name) {
    expect_same_comm(name, a, s.heads());
    block::expect_same_length(name, a.size(), s.size());
    return segmented_pass<Inclusive, Backward>(a, s.heads(), op, name);
}

}  // namespace detail

/// Exclusive scan within every segment of s (the identity at each segment's
/// start), as sv::scan(a, segments, op) on one device; a.size() == s.total()
/// (else sv::length_error); r on a's blocks. Any associative operator.
/// Costs as dist::segmented_scan by the head flags. Collective; waits for the device.
template <class T, class Op = plus<T>> vector<T> scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<false, false>(a, s, op, "dist::scan (segments)");
}

/// Inclusive scan within every segment of s. Costs as dist::scan(a, s, op).
template <class T, class Op = plus<T>> vector<T> inclusive_scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<true, false>(a, s, op, "dist::inclusive_scan (segments)");
}

/// Right-to-left exclusive scan within every segment of s (the identity at
/// each segment's last position). Costs as dist::scan(a, s, op).
template <class T, class Op = plus<T>> vector<T> backward_scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<false, true>(a, s, op, "dist::backward_scan (segments)");
}

/// Right-to-left inclusive scan within every segment of s. Costs as dist::scan(a, s, op).
template <class T, class Op = plus<T>>
vector<T> backward_inclusive_scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<true, true>(a, s, op, "dist::backward_inclusive_scan (segments)");
}

/// dist::scan(a, s, op) under the flags' name: exclusive within every segment of s.
template <class T, class Op = plus<T>> vector<T> segmented_scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<false, false>(a, s, op, "dist::segmented_scan (segments)");
}

/// dist::inclusive_scan(a, s, op) under the flags' name.
template <class T, class Op = plus<T>>
vector<T> segmented_inclusive_scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<true, false>(a, s, op, "dist::segmented_inclusive_scan (segments)");
}

/// dist::backward_scan(a, s, op) under the flags' name.
template <class T, class Op = plus<T>>
vector<T> segmented_backward_scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<false, true>(a, s, op, "dist::segmented_backward_scan (segments)");
}

/// dist::backward_inclusive_scan(a, s, op) under the flags' name.
template <class T, class Op = plus<T>>
vector<T> segmented_backward_inclusive_scan(const vector<T>& a, const segments& s, Op op = {}) {
    return detail::scan_by_segments<true, true>(a, s, op, "dist::segmented_backward_inclusive_scan (segments)");
}

}  SCANVEC_NAMESPACE_END  // dist
