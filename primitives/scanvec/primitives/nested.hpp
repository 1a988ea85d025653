// scanvec/primitives/nested.hpp - sv::nested<T>, and the segmented set on descriptors.
//
// sv::nested<T> is the model's vector of vectors: a flat sv::vector<T> of
// values and the sv::segments descriptor of its segments (one descriptor for
// all fields of a described struct). Every primitive below acts on all
// segments at once, in passes whose cost depends on the total length only:
// no per-segment loops, no per-segment launches, empty segments allowed.
//
//   sv::nested<T> x(host_vector_of_vectors);  x.to_host();  x.values();  x.segments()
//   x.count(), x.total(), x.lengths()
//
// Each has a form on (a, segs) - a flat sequence of segs.total() values and
// a descriptor - returning flat vectors, and a form on nested vectors:
//
//   sv::scan(x, op), sv::inclusive_scan(x, op)                     per segment, exclusive / inclusive
//   sv::backward_scan(x, op), sv::backward_inclusive_scan(x, op)   right to left, per segment
//   sv::scan(a, segs, op) ... sv::backward_inclusive_scan(a, segs, op)   the same on flat values
//   sv::reduce(x, op), sv::reduce(a, segs, op)     one value per segment; the identity for an empty one
//   sv::index(segs)                                position of every element within its segment
//   sv::distribute(v, segs)                        v[k] copied across segment k (v: one value per segment)
//   sv::length(x), sv::length(segs)                the length of every segment
//   sv::extract(x, idx), sv::extract(a, segs, idx) r[k] = element idx[k] of segment k
//   sv::replace(x, idx, v)                         element idx[k] of segment k set to v[k]
//   sv::enumerate(nf), sv::enumerate(f, segs)      true flags before each element, within its segment
//                                                  (nf a nested vector of flags, f flat flags)
//   sv::count(nf), sv::count(f, segs)              the true flags of every segment
//   sv::allocate(counts)                           descriptor with counts[i] slots for element i
//   sv::expand(a, counts)                          a[i] copied into its counts[i] slots (nested)
//
// Cost in the model: every call is O(total) work and one step (extract and
// replace touch one element per segment). Waits: the calls only queue work,
// except where a check with checks on reads its verdict (extract, replace:
// indices inside their segment) and where a descriptor is first made from
// lengths (its offsets' total comes to the host).
//
// Permutes, pack, split, rank, append and flag_merge on nested vectors are
// in nested_permute.hpp. Every form checks that lengths agree with the
// descriptor (sv::length_error) and, with checks on, that indices lie inside
// their segment (sv::index_error).
#pragma once

#include <scanvec/primitives/segment_descriptor.hpp>

#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

/// A vector of vectors: values and the segment descriptor.
template <class T> class nested {
public:
    using value_type = T;

    nested() = default;
    /// values.size() must equal segs.total().
    nested(vector<T> values, scanvec::segments segs) : values_(std::move(values)), segs_(std::move(segs)) {
        detail::expect_same_length("nested(values, segments)", values_.size(), segs_.total());
    }
    /// Copies host data: segment k holds host[k] (which may be empty).
    explicit nested(const std::vector<std::vector<T>>& host) {
        std::vector<index_t> lengths(host.size());
        std::vector<T> flat;
        std::size_t total = 0;
        for (auto& seg : host) total += seg.size();
        flat.reserve(total);
        for (std::size_t k = 0; k < host.size(); ++k) {
            lengths[k] = index_t(host[k].size());
            flat.insert(flat.end(), host[k].begin(), host[k].end());
        }
        values_ = vector<T>(flat);
        segs_ = scanvec::segments::from_lengths(lengths);
    }

    /// Copies back to the host, one std::vector per segment.
    std::vector<std::vector<T>> to_host() const {
        auto flat = values_.to_host();
        auto off = segs_.offsets().to_host();
        std::vector<std::vector<T>> out(count());
        for (std::size_t k = 0; k < count(); ++k) out[k].assign(flat.begin() + off[k], flat.begin() + off[k + 1]);
        return out;
    }

    /// The number of segments.
    std::size_t count() const { return segs_.count(); }
    /// The number of values in all segments.
    std::size_t total() const { return values_.size(); }
    /// The length of the flat value vector: total().
    std::size_t size() const { return total(); }
    /// No segments at all (segments of length 0 still count).
    bool empty() const { return count() == 0; }

    /// The flat values (keep their length: the descriptor describes it).
    const vector<T>& values() const { return values_; }
    vector<T>& values() { return values_; }
    /// The segment descriptor.
    const scanvec::segments& segments() const { return segs_; }
    /// The length of every segment.
    vector<index_t> lengths() const { return segs_.lengths(); }

private:
    vector<T> values_;
    scanvec::segments segs_;
};

namespace detail {

template <class X> struct is_nested : std::false_type {};
template <class T> struct is_nested<nested<T>> : std::true_type {};

/// Checks that idx holds one index per segment, inside the segment.
template <class Idx> void check_element_indices(const char* op, const segments& s, const Idx& idx) {
    static_assert(std::is_integral_v<value_t<Idx>>, "segment element indices must be integers");
    expect_same_length(op, idx.size(), s.count());
#if SCANVEC_CHECKS
    const index_t k = first_index_where(outside_segment<decltype(reader(idx))>{s.offsets().data(), reader(idx)},
                                        s.count(), current_stream());
    if (k >= 0) {
        const auto& off = s.offsets();
        throw index_error(std::string(op) + ": index idx[" + std::to_string(k) + "] = " +
                          std::to_string((long long)element_at(idx, k)) + " is out of range for segment " +
                          std::to_string(k) + " of length " + std::to_string(off[k + 1] - off[k]));
    }
#endif
}

template <class A> void expect_total(const char* op, const A& a, const segments& s) {
    expect_same_length(op, a.size(), s.total());
}

}  // namespace detail

// ---- scans -----------------------------------------------------------------

/// Exclusive scan within every segment (the identity at each segment's start).
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> scan(const A& a, const segments& s, Op op = {}) {
    detail::expect_total("scan", a, s);
    return segmented_scan(a, s.flags(), op);
}
/// Inclusive scan within every segment.
template <class A, class Op = plus<value_t<A>>>
vector<value_t<A>> inclusive_scan(const A& a, const segments& s, Op op = {}) {
    detail::expect_total("inclusive_scan", a, s);
    return segmented_inclusive_scan(a, s.flags(), op);
}
/// Right-to-left exclusive scan within every segment.
template <class A, class Op = plus<value_t<A>>>
vector<value_t<A>> backward_scan(const A& a, const segments& s, Op op = {}) {
    detail::expect_total("backward_scan", a, s);
    return segmented_backward_scan(a, s.flags(), op);
}
/// Right-to-left inclusive scan within every segment.
template <class A, class Op = plus<value_t<A>>>
vector<value_t<A>> backward_inclusive_scan(const A& a, const segments& s, Op op = {}) {
    detail::expect_total("backward_inclusive_scan", a, s);
    return segmented_backward_inclusive_scan(a, s.flags(), op);
}

template <class T, class Op = plus<T>> nested<T> scan(const nested<T>& x, Op op = {}) {
    return nested<T>(scan(x.values(), x.segments(), op), x.segments());
}
template <class T, class Op = plus<T>> nested<T> inclusive_scan(const nested<T>& x, Op op = {}) {
    return nested<T>(inclusive_scan(x.values(), x.segments(), op), x.segments());
}
template <class T, class Op = plus<T>> nested<T> backward_scan(const nested<T>& x, Op op = {}) {
    return nested<T>(backward_scan(x.values(), x.segments(), op), x.segments());
}
template <class T, class Op = plus<T>> nested<T> backward_inclusive_scan(const nested<T>& x, Op op = {}) {
    return nested<T>(backward_inclusive_scan(x.values(), x.segments(), op), x.segments());
}

// ---- reduce ----------------------------------------------------------------

/// One value per segment: a[first] op ... op a[last]; the identity for an empty segment.
/// One pass: a scan over (value, heads so far) that stores only each segment's last value.
template <class A, class Op = plus<value_t<A>>> vector<value_t<A>> reduce(const A& a, const segments& s, Op op = {}) {
    using T = value_t<A>;
    return detail::labelled("reduce (segments)", a.size(), [&] {
        detail::expect_total("reduce", a, s);
        const std::size_t n = a.size();
        const index_t* nonempty = s.nonempty_list();  // null when no segment is empty
        vector<T> r = s.has_empty() ? vector<T>(s.count(), detail::identity_of<T>(op)) : vector<T>(s.count(), no_init);
        if (n == 0) return r;
        const auto& flags = s.flags();
        const bool* f = flags.data();
        using In = detail::seg_count_input<T, decltype(detail::reader(a)), const bool*>;
        auto in = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), In{detail::reader(a), f});
        using Store = detail::store_segment_total<decltype(detail::writer(r)), const bool*>;
        auto out = thrust::make_tabulate_output_iterator(Store{detail::writer(r), f, index_t(n), nonempty});
        detail::inclusive_scan_n(in, n, out, detail::seg_count_op<Op>{op}, current_stream());
        return r;
    });
}
template <class T, class Op = plus<T>> vector<T> reduce(const nested<T>& x, Op op = {}) {
    return reduce(x.values(), x.segments(), op);
}

// ---- index, distribute, length ----------------------------------------------

/// Position of every element within its segment.
template <class U> vector<index_t> index(const basic_segments<U>& s) { return segmented_index(s.flags()); }

/// v[k] copied across segment k; v holds one value per segment.
template <class V> vector<value_t<V>> distribute(const V& v, const segments& s) {
    static_assert(is_sequence_v<V>, "sv::distribute(v, segs): v must be a vector or view (one value per segment)");
    using T = value_t<V>;
    return detail::labelled("distribute (segments)", s.total(), [&] {
        detail::expect_same_length("distribute", v.size(), s.count());
        vector<T> r(s.total(), no_init);
        s.for_each_element(detail::copy_from_segment<T, decltype(detail::reader(v)), decltype(detail::writer(r))>{
            detail::reader(v), detail::writer(r)});
        return r;
    });
}

/// The length of every segment.
template <class U> vector<index_t> length(const basic_segments<U>& s) { return s.lengths(); }
template <class T> vector<index_t> length(const nested<T>& x) { return x.lengths(); }

// ---- extract, replace --------------------------------------------------------

/// r[k] = element idx[k] of segment k (0 <= idx[k] < length of segment k).
template <class A, class Idx> vector<value_t<A>> extract(const A& a, const segments& s, const Idx& idx) {
    return detail::labelled("extract (segments)", s.count(), [&] {
        detail::expect_total("extract", a, s);
        detail::check_element_indices("extract", s, idx);
        vector<value_t<A>> r(s.count(), no_init);
        if (!r.empty()) {
            auto pos = thrust::make_transform_iterator(
                thrust::counting_iterator<index_t>(0),
                detail::element_of_segment<decltype(detail::reader(idx))>{s.offsets().data(), detail::reader(idx)});
            thrust::copy_n(detail::policy(current_stream()), thrust::make_permutation_iterator(detail::reader(a), pos),
                           s.count(), detail::writer(r));
            backend::check_launch("extract");
        }
        return r;
    });
}
template <class T, class Idx> vector<T> extract(const nested<T>& x, const Idx& idx) {
    return extract(x.values(), x.segments(), idx);
}

/// A copy of x with element idx[k] of segment k set to v[k].
template <class T, class Idx, class V> nested<T> replace(const nested<T>& x, const Idx& idx, const V& v) {
    static_assert(is_sequence_v<V>, "sv::replace(x, idx, v): v must be a vector or view (one value per segment)");
    return detail::labelled("replace (nested)", x.total(), [&] {
        const auto& s = x.segments();
        detail::check_element_indices("replace", s, idx);
        detail::expect_same_length("replace", v.size(), s.count());
        vector<T> r = x.values();
        if (s.count()) {
            auto pos = thrust::make_transform_iterator(
                thrust::counting_iterator<index_t>(0),
                detail::element_of_segment<decltype(detail::reader(idx))>{s.offsets().data(), detail::reader(idx)});
            thrust::scatter(detail::policy(current_stream()), detail::reader(v), detail::reader(v) + s.count(), pos,
                            detail::writer(r));
            backend::check_launch("replace");
        }
        return nested<T>(std::move(r), s);
    });
}

// ---- enumerate, count --------------------------------------------------------

/// Within every segment, the number of true flags before each element.
template <class Flags> vector<index_t> enumerate(const Flags& f, const segments& s) {
    detail::expect_total("enumerate", f, s);
    return segmented_enumerate(f, s.flags());
}
template <class F> nested<index_t> enumerate(const nested<F>& f) {
    return nested<index_t>(enumerate(f.values(), f.segments()), f.segments());
}

/// The number of true flags of every segment (0 for an empty segment).
template <class Flags> vector<index_t> count(const Flags& f, const segments& s) {
    detail::expect_flags<Flags>();
    return reduce(lazy::map(detail::flag_to_count{}, f), s, plus<index_t>{});
}
template <class F> vector<index_t> count(const nested<F>& f) { return count(f.values(), f.segments()); }

// ---- allocate, expand ------------------------------------------------------

/// The descriptor of counts[i] slots for every element i (counts >= 0).
template <class Counts> segments allocate(const Counts& counts) { return segments::from_lengths(counts); }

/// Element a[i] copied into counts[i] slots: segment i of the result.
template <class A, class Counts> nested<value_t<A>> expand(const A& a, const Counts& counts) {
    return detail::labelled("expand", a.size(), [&] {
        detail::expect_same_length("expand", a.size(), counts.size());
        auto s = allocate(counts);
        return nested<value_t<A>>(distribute(a, s), s);
    });
}

SCANVEC_NAMESPACE_END
