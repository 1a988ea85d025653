// scanvec/primitives/segment_descriptor.hpp - sv::segments: the descriptor of a vector of vectors.
//
// A nested vector is a flat vector of values plus a segment descriptor saying
// where each segment starts. sv::segments keeps the descriptor as offsets
// (count + 1 of them, so segments of length 0 are representable, which head
// flags cannot do) and derives the other forms from them:
//
//   sv::segments::from_lengths(len)        segment k holds len[k] >= 0 elements (len on the backend or a host
//                                          std::vector<sv::index_t>: from_lengths({3, 0, 2}))
//   sv::segments::from_offsets(off)        count + 1 offsets: off[0] = 0 <= off[1] <= ... <= off[count] = total
//   sv::segments::from_starts(st, total)   count starts (st[0] = 0, non-decreasing) and the total length
//   sv::segments::from_flags(heads)        head flags (position 0 always heads; no empty segments)
//   sv::segments::single(n)                one segment of n elements
//   sv::segments::from_offsets(off, sv::unchecked)   offsets a primitive built, taken over unchecked
//   s.count(), s.total(), s.size()         segments, elements (size() == total())
//   s.offsets(), s.starts(), s.lengths()   the numeric forms (offsets has count + 1 values;
//                                          starts and lazy_lengths() are views, computed when consumed)
//   s.flags()                              head flags of the total elements
//   s.ids()                                segment number of every element (lazy_ids(): a view that
//                                          searches the offsets when consumed)
//   s.empty_count(), s.has_empty()         segments of length 0
//   s == t                                 same count and same lengths
//   s.for_each_element(f)                  f(i, k) for every element i and its segment k, in one pass
//
// Descriptors are immutable values: copies share the offsets and whatever is
// derived from them. Flags (and, with empty segments, the list of non-empty
// segments) are derived on first use, in one pass, and kept; a descriptor made
// from flags keeps them from the start. Bad lengths or offsets throw
// sv::index_error (checked unless SCANVEC_CHECKS=0).
//
// Segmented primitives that need each element's segment number do not store
// ids: for_each_element runs one +-scan over the head flags and hands
// (element, segment) to a functor as the scan writes out, so finding the
// segment costs a one-byte read per element, whatever the shape of the
// segments, and no kernel is launched per segment.
#pragma once

#include <scanvec/primitives/detail/permute/placement.hpp>
#include <scanvec/primitives/detail/segments/functors.hpp>
#include <scanvec/primitives/segmented_scan.hpp>

#include <thrust/binary_search.h>
#include <thrust/iterator/tabulate_output_iterator.h>

#include <limits>
#include <memory>
#include <mutex>
#include <string>

SCANVEC_NAMESPACE_BEGIN

/// The descriptor (sv::segments). A class template only so that its members
/// are compiled where a program uses them: as a plain class, every translation
/// unit that included this header compiled the kernels of all its members.
template <class Unused> class basic_segments {
    struct state {
        vector<index_t> offsets;  // count + 1
        index_t total = 0;
        mutable std::mutex lock;
        mutable index_t empties = -1;  // number of empty segments; -1 until counted
        mutable std::unique_ptr<vector<bool>> flags;
        mutable std::unique_ptr<vector<index_t>> nonempty;
    };

public:
    /// No segments (and no elements).
    basic_segments() = default;

    /// Segment k holds lengths[k] elements; lengths may be 0, never negative.
    template <class Lengths> static basic_segments from_lengths(const Lengths& lengths) {
        static_assert(std::is_integral_v<value_t<Lengths>>, "segments::from_lengths: lengths must hold integers");
        return detail::labelled("segments::from_lengths", lengths.size(), [&] {
            const std::size_t m = lengths.size();
            const stream_t s = current_stream();
            if (m == 0) return basic_segments(vector<index_t>(1, index_t(0)), 0, 0);
            // Offsets = the exclusive +-scan of the lengths, the total at offsets[m]; the
            // same scan finds the first negative length. Its last item lands where the
            // host reads it (the pinned result buffer): one launch, one wait, no copy.
            auto* last = static_cast<detail::lengths_so_far*>(backend::result_buffer());
            vector<index_t> off(m + 1, no_init);
            detail::exclusive_scan_with_total_n(
                thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                detail::given_length_at<decltype(detail::reader(lengths))>{detail::reader(lengths)}),
                m, thrust::make_tabulate_output_iterator(detail::store_offset{off.data(), index_t(m), last}),
                detail::add_lengths{}, detail::lengths_so_far{0, std::numeric_limits<index_t>::max()}, s);
            backend::synchronize(s, "segments::from_lengths (total)");
            const detail::lengths_so_far all = *last;
#if SCANVEC_CHECKS
            if (const index_t neg = detail::found_at(all.first_negative); neg >= 0)
                throw index_error("segments::from_lengths: lengths[" + std::to_string(neg) + "] = " +
                                  std::to_string((long long)detail::element_at(lengths, neg)) + " is negative");
#endif
            return basic_segments(std::move(off), all.total, -1);
        });
    }

    /// Lengths given on the host: sv::segments::from_lengths({3, 0, 2}).
    static basic_segments from_lengths(const std::vector<index_t>& lengths) {
        std::vector<index_t> off(lengths.size() + 1, 0);
        index_t empties = 0;
        for (std::size_t k = 0; k < lengths.size(); ++k) {
            if (lengths[k] < 0)
                throw index_error("segments::from_lengths: lengths[" + std::to_string(k) + "] = " +
                                  std::to_string(lengths[k]) + " is negative");
            off[k + 1] = off[k] + lengths[k];
            empties += lengths[k] == 0;
        }
        const index_t total = off.back();
        return basic_segments(vector<index_t>(off), total, empties);
    }

    /// count + 1 offsets: offsets[0] = 0, non-decreasing, offsets[count] = the total length.
    template <class Offsets> static basic_segments from_offsets(const Offsets& offsets) {
        static_assert(std::is_integral_v<value_t<Offsets>>, "segments::from_offsets: offsets must hold integers");
        return detail::labelled("segments::from_offsets", offsets.size(), [&] {
            if (offsets.empty())
                throw index_error("segments::from_offsets: offsets needs count + 1 values (at least the 0)");
            vector<index_t> off(offsets.size(), no_init);
            thrust::transform(detail::policy(current_stream()), detail::reader(offsets),
                              detail::reader(offsets) + offsets.size(), off.begin(), detail::convert_to<index_t>{});
            backend::check_launch("segments::from_offsets");
            check_offsets("segments::from_offsets", off, off.size() - 1, "offsets");
            const index_t total = off[off.size() - 1];
            return basic_segments(std::move(off), total, -1);
        });
    }

    /// Offsets the caller guarantees (built by a primitive): taken over, not checked.
    static basic_segments from_offsets(vector<index_t> offsets, unchecked_t) {
        if (offsets.empty()) return basic_segments();
        const index_t total = offsets[offsets.size() - 1];
        return basic_segments(std::move(offsets), total, -1);
    }

    /// count starts (starts[0] = 0, non-decreasing, at most total) and the total length.
    template <class Starts> static basic_segments from_starts(const Starts& starts, std::size_t total) {
        static_assert(std::is_integral_v<value_t<Starts>>, "segments::from_starts: starts must hold integers");
        return detail::labelled("segments::from_starts", starts.size(), [&] {
            const std::size_t m = starts.size();
            if (m == 0 && total != 0)
                throw index_error("segments::from_starts: no segments, but a total of " + std::to_string(total) +
                                  " elements");
            vector<index_t> off(m + 1, no_init);
            thrust::transform(detail::policy(current_stream()), detail::reader(starts),
                              detail::reader(starts) + m, off.begin(), detail::convert_to<index_t>{});
            backend::check_launch("segments::from_starts");
            off.set(m, index_t(total));
            check_offsets("segments::from_starts", off, m, "starts");
            return basic_segments(std::move(off), index_t(total), -1);
        });
    }

    /// Head flags (any integral sequence, nonzero = true; position 0 always heads).
    template <class Flags> static basic_segments from_flags(const Flags& heads) {
        detail::expect_flags<Flags>();
        return detail::labelled("segments::from_flags", heads.size(), [&] {
            const std::size_t n = heads.size();
            const stream_t s = current_stream();
            auto flags = std::make_unique<vector<bool>>(materialize(detail::heads_of(heads)));
            // Offsets = the positions of the heads, then n
            auto pos = scan_total(lazy::map(detail::flag_to_count{}, *flags));
            vector<index_t> off(std::size_t(pos.total) + 1, no_init);
            if (n) {
                thrust::scatter_if(detail::policy(s), thrust::counting_iterator<index_t>(0),
                                   thrust::counting_iterator<index_t>(index_t(n)), pos.values.begin(),
                                   flags->begin(), off.begin());
                backend::check_launch("segments::from_flags");
            }
            off.set(std::size_t(pos.total), index_t(n));
            basic_segments r(std::move(off), index_t(n), 0);
            r.s_->flags = std::move(flags);
            return r;
        });
    }

    /// One segment of n elements (for n = 0, one empty segment).
    static basic_segments single(std::size_t n) {
        vector<index_t> off(2, no_init);
        off.set(0, 0);
        off.set(1, index_t(n));
        return basic_segments(std::move(off), index_t(n), n ? 0 : 1);
    }

    /// The number of segments.
    std::size_t count() const { return s_ ? s_->offsets.size() - 1 : 0; }
    /// The number of elements in all segments.
    std::size_t total() const { return s_ ? std::size_t(s_->total) : 0; }
    /// The length of the flat vector described: total().
    std::size_t size() const { return total(); }

    /// count() + 1 offsets: segment k is [offsets[k], offsets[k + 1]).
    const vector<index_t>& offsets() const { return st().offsets; }
    /// The first count() offsets: where each segment starts.
    auto starts() const { return view(st().offsets.begin(), count()); }
    /// The lengths, computed when consumed.
    auto lazy_lengths() const {
        return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                    detail::length_at{st().offsets.data()}),
                    count());
    }
    /// The length of every segment.
    vector<index_t> lengths() const {
        return detail::labelled("segments::lengths", count(), [&] { return materialize(lazy_lengths()); });
    }

    /// Head flags of the total() elements (derived on first use, then kept).
    const vector<bool>& flags() const {
        const state& s = st();
        std::lock_guard<std::mutex> guard(s.lock);
        if (!s.flags) {
            auto f = std::make_unique<vector<bool>>(std::size_t(s.total));
            if (s.total) {
                thrust::for_each_n(detail::policy(), thrust::counting_iterator<index_t>(0), count(),
                                   detail::mark_head{s.offsets.data(), f->data()});
                backend::check_launch("segments::flags");
            }
            s.flags = std::move(f);
        }
        return *s.flags;
    }

    /// The number of empty segments.
    std::size_t empty_count() const {
        const state& s = st();
        std::lock_guard<std::mutex> guard(s.lock);
        return std::size_t(empties_locked(s));
    }
    /// Whether some segment has length 0.
    bool has_empty() const { return empty_count() > 0; }

    /// The segment number of every element, computed when consumed: each
    /// read is a binary search of the offsets (log2(count) + 1 reads), so it
    /// suits short vectors and values read once; ids() stores them.
    auto lazy_ids() const {
        return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                    detail::segment_of_position{st().offsets.data(), index_t(count())}),
                    total());
    }
    /// The segment number of every element.
    vector<index_t> ids() const {
        return detail::labelled("segments::ids", total(), [&] {
            // Marks <- k at the start of each non-empty segment k; Ids <- max-scan(Marks).
            // Queued: empty segments need no list of their own (and no count read back).
            const std::size_t n = total();
            // One launch: each element searches the offsets.
            if (detail::segment_ids_policy::by_search(n)) return materialize(lazy_ids());
            vector<index_t> r(n, no_init);
            if (n == 0) return r;
            vector<index_t> marks(n);
            thrust::for_each_n(detail::policy(), thrust::counting_iterator<index_t>(0), count(),
                               detail::mark_segment_number{st().offsets.data(), marks.data()});
            backend::check_launch("segments::ids");
            detail::inclusive_scan_n(marks.data(), n, r.data(), max<index_t>{}, current_stream());
            return r;
        });
    }

    /// Same count and same lengths.
    friend bool operator==(const basic_segments& a, const basic_segments& b) {
        if (a.count() != b.count() || a.total() != b.total()) return false;
        if (a.s_ == b.s_ || a.count() == 0) return true;
        return detail::first_index_where(detail::offsets_differ{a.offsets().data(), b.offsets().data()},
                                         a.count() + 1, current_stream()) < 0;
    }
    friend bool operator!=(const basic_segments& a, const basic_segments& b) { return !(a == b); }

    /// Runs f(i, k) for every element i and its segment k: one +-scan over the
    /// head flags, f called as the scan writes (nothing stored).
    template <class F> void for_each_element(F f, stream_t s = nullptr) const {
        const std::size_t n = total();
        if (n == 0) return;
        const index_t* ne = nonempty_list();
        auto heads = thrust::make_transform_iterator(detail::reader(flags()), detail::flag_to_count{});
        auto out = thrust::make_tabulate_output_iterator(detail::with_segment<F>{f, ne});
        detail::inclusive_scan_n(heads, n, out, plus<index_t>{}, s);
    }

    /// Segment number of the j-th non-empty segment, or null when no segment is empty.
    const index_t* nonempty_list() const {
        const state& s = st();
        std::lock_guard<std::mutex> guard(s.lock);
        if (empties_locked(s) == 0) return nullptr;
        if (!s.nonempty) {
            const std::size_t m = count();
            auto keep = view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                             detail::is_nonempty_at{s.offsets.data()}),
                             m);
            s.nonempty = std::make_unique<vector<index_t>>(pack(lazy::index(m), keep));
        }
        return s.nonempty->data();
    }

private:
    basic_segments(vector<index_t> off, index_t total, index_t empties) : s_(std::make_shared<state>()) {
        s_->offsets = std::move(off);
        s_->total = total;
        s_->empties = empties;
    }

    const state& st() const {
        if (s_) return *s_;
        static const std::shared_ptr<state> none = [] {  // built on first use, never at static initialisation
            auto e = std::make_shared<state>();
            e->offsets = vector<index_t>(1);
            e->empties = 0;
            e->flags = std::make_unique<vector<bool>>();
            return e;
        }();
        return *none;
    }

    index_t empties_locked(const state& s) const {
        if (s.empties < 0) {
            const std::size_t m = s.offsets.size() - 1;
            auto empty = thrust::make_transform_iterator(
                thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                detail::is_empty_at{s.offsets.data()}),
                detail::flag_to_count{});
            s.empties = detail::reduce_n(empty, m, plus<index_t>{}, index_t(0), nullptr);
        }
        return s.empties;
    }

    /// offsets[0] = 0 and offsets never decrease (m + 1 offsets; the last is the total for starts).
    static void check_offsets(const char* op, const vector<index_t>& off, std::size_t m, const char* what) {
#if SCANVEC_CHECKS
        const std::string w = what;
        const index_t first = off[0];
        if (first != 0) throw index_error(std::string(op) + ": " + w + "[0] = " + std::to_string(first) + ", must be 0");
        const index_t k = detail::first_index_where(detail::decreases_at{off.data()}, m, current_stream());
        if (k < 0) return;
        const std::string at = w + "[" + std::to_string(k) + "] = " + std::to_string(off[k]);
        if (w == "starts" && std::size_t(k) + 1 == m)
            throw index_error(std::string(op) + ": " + at + " exceeds the total " + std::to_string(off[m]));
        throw index_error(std::string(op) + ": " + w + " must not decrease, but " + at + " > " + w + "[" +
                          std::to_string(k + 1) + "] = " + std::to_string(off[k + 1]));
#else
        (void)op; (void)off; (void)m; (void)what;
#endif
    }

    std::shared_ptr<state> s_;
};

/// A vector of vectors' descriptor: see the top of this file.
using segments = basic_segments<void>;

namespace detail {
/// The segment holding element (or result position) pos: a binary search, for error messages.
template <class U> index_t segment_of(const basic_segments<U>& s, index_t pos) {
    const auto& off = s.offsets();
    auto it = thrust::upper_bound(policy(), off.begin(), off.end(), pos);
    return index_t(it - off.begin()) - 1;
}

/// Runs f(i, k) over every element i of s with its segment k (one scan of the flags).
template <class F> void for_each_in_segments(const segments& s, F f, stream_t st = nullptr) {
    s.for_each_element(f, st);
}
}  // namespace detail

SCANVEC_NAMESPACE_END
