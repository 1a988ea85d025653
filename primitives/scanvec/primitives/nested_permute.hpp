// scanvec/primitives/nested_permute.hpp - permutes and reshaping of nested vectors.
//
// Indices are relative to the segment: idx[i] = 3 means position 3 of the
// element's own segment. idx is flat (one per element, x.total() of them) or
// a nested vector of the same shape.
//
//   sv::permute(x, idx)                    r[start + idx[i]] = x[i]; idx a permutation of every segment
//   sv::back_permute(x, idx)               r[i] = x[start + idx[i]]; r has the shape of idx
//   sv::default_permute(x, idx, d, segs)   r shaped by segs (same count), d where nothing is written
//   sv::flag_permute(x, idx, f, segs)      only the elements whose flag is true move; r shaped by segs
//   sv::pack(x, f)                         the flagged elements; segment lengths shrink to their counts
//   sv::split(x, f)                        every segment split stably on its flags (falses first)
//   sv::rank(x)                            position of every element in a stable sort of its segment
//   sv::reverse(x)                         every segment reversed
//   sv::append(x, y)                       segment k of x followed by segment k of y
//   sv::flag_merge(f, x, y)                segment k merges x's and y's segment k by f (false takes
//                                          from x); r is shaped like append(x, y)
//
// All are one to three passes over the total length (plus passes over the
// segment count); rank is two sorts. With checks on, indices outside their
// segment and positions written twice throw sv::index_error naming the segment.
#pragma once

#include <scanvec/primitives/detail/split/destination.hpp>
#include <scanvec/primitives/rearrange.hpp>
#include <scanvec/primitives/nested.hpp>

#include <limits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

template <class Idx>
[[noreturn]] void throw_segment_placement(const char* op, const placement_fault& fault, const Idx& idx,
                                          const segments& elems, const segments& out) {
    if (fault.element >= 0) {
        const index_t k = segment_of(elems, fault.element);
        const auto& off = out.offsets();
        throw index_error(std::string(op) + ": index idx[" + std::to_string(fault.element) + "] = " +
                          std::to_string((long long)element_at(idx, fault.element)) + " is out of range for segment " +
                          std::to_string(k) + " of length " + std::to_string(off[k + 1] - off[k]));
    }
    const index_t k = segment_of(out, fault.target);
    throw index_error(std::string(op) + ": position " + std::to_string(fault.target - out.offsets()[k]) +
                      " of segment " + std::to_string(k) +
                      " is written twice; idx must not repeat within a segment");
}

/// Checks a placement of the elements of `elems` into the segments of `out`.
template <class Place, class Idx>
void check_segment_placement(const char* op, Place p, const segments& elems, const segments& out, bool unique,
                             const Idx& idx) {
#if SCANVEC_CHECKS
    auto fault = find_placement_fault(p, out.total(), unique, nullptr,
                                      [&](auto check) { elems.for_each_element(check); });
    if (fault) throw_segment_placement(op, fault, idx, elems, out);
#else
    (void)op; (void)p; (void)elems; (void)out; (void)unique; (void)idx;
#endif
}

template <class U> void expect_same_segments(const char* op, const basic_segments<U>& a, const basic_segments<U>& b) {
    if (a != b) throw length_error(std::string(op) + ": the segments differ (counts " + std::to_string(a.count()) +
                                   " and " + std::to_string(b.count()) + ", totals " + std::to_string(a.total()) +
                                   " and " + std::to_string(b.total()) + ")");
}

template <class X> const auto& values_of(const X& x) {
    if constexpr (is_nested<X>::value) return x.values(); else return x;
}

}  // namespace detail

// ---- permute, back_permute -----------------------------------------------------

/// r[start + idx[i]] = x[i] within every segment; the caller guarantees idx.
template <class T, class Idx> nested<T> permute(const nested<T>& x, const Idx& idx, unchecked_t) {
    const auto& ix = detail::values_of(idx);
    static_assert(std::is_integral_v<value_t<decltype(ix)>>, "sv::permute(x, idx): idx must hold integers");
    return detail::labelled("permute (nested)", x.total(), [&] {
        detail::expect_same_length("permute", x.total(), ix.size());
        const auto& s = x.segments();
        vector<T> r(x.total(), no_init);
        using Place = detail::placement<decltype(detail::reader(ix))>;
        const Place p{detail::reader(ix), {}, s.offsets().data(), 0};
        using In = decltype(detail::reader(x.values()));
        s.for_each_element(detail::placement_scatter<T, Place, In, decltype(detail::writer(r))>{
            p, detail::reader(x.values()), detail::writer(r)});
        return nested<T>(std::move(r), s);
    });
}

/// r[start + idx[i]] = x[i]: idx must be a permutation of 0..length-1 in every segment.
template <class T, class Idx> nested<T> permute(const nested<T>& x, const Idx& idx) {
    const auto& ix = detail::values_of(idx);
    if constexpr (detail::is_nested<Idx>::value) detail::expect_same_segments("permute", x.segments(), idx.segments());
    detail::expect_same_length("permute", x.total(), ix.size());
    const auto& s = x.segments();
    detail::check_segment_placement("permute", detail::placement<decltype(detail::reader(ix))>{
                                        detail::reader(ix), {}, s.offsets().data(), 0},
                                    s, s, true, ix);
    return permute(x, idx, unchecked);
}

/// r[i] = x[start + idx[i]] within every segment (0 <= idx[i] < length). idx flat:
/// r has x's shape; idx nested (as many segments as x): r has idx's shape.
template <class T, class Idx> nested<T> back_permute(const nested<T>& x, const Idx& idx) {
    const auto& ix = detail::values_of(idx);
    static_assert(std::is_integral_v<value_t<decltype(ix)>>, "sv::back_permute(x, idx): idx must hold integers");
    return detail::labelled("back_permute (nested)", ix.size(), [&] {
        const segments* shape = &x.segments();
        if constexpr (detail::is_nested<Idx>::value) {
            shape = &idx.segments();
            detail::expect_same_length("back_permute (segment counts)", x.count(), idx.count());
        } else {
            detail::expect_same_length("back_permute", x.total(), ix.size());
        }
        using Place = detail::placement<decltype(detail::reader(ix))>;
        const Place p{detail::reader(ix), {}, x.segments().offsets().data(), 0};
        detail::check_segment_placement("back_permute", p, *shape, x.segments(), false, ix);
        vector<T> r(ix.size(), no_init);
        using In = decltype(detail::reader(x.values()));
        shape->for_each_element(detail::placement_gather<T, Place, In, decltype(detail::writer(r))>{
            p, detail::reader(x.values()), detail::writer(r)});
        return nested<T>(std::move(r), *shape);
    });
}

// ---- default_permute, flag_permute -------------------------------------------------

/// r shaped by out (same segment count as x), d where nothing is written;
/// element i of segment k goes to position idx[i] of segment k of r.
template <class T, class Idx>
nested<T> default_permute(const nested<T>& x, const Idx& idx, const T& d, const segments& out) {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::default_permute(x, idx, d, out): idx must hold integers");
    return detail::labelled("default_permute (nested)", x.total(), [&] {
        detail::expect_same_length("default_permute", x.total(), idx.size());
        detail::expect_same_length("default_permute (segment counts)", x.count(), out.count());
        using Place = detail::placement<decltype(detail::reader(idx))>;
        const Place p{detail::reader(idx), {}, out.offsets().data(), 0};
        detail::check_segment_placement("default_permute", p, x.segments(), out, true, idx);
        vector<T> r(out.total(), d);
        using In = decltype(detail::reader(x.values()));
        x.segments().for_each_element(detail::placement_scatter<T, Place, In, decltype(detail::writer(r))>{
            p, detail::reader(x.values()), detail::writer(r)});
        return nested<T>(std::move(r), out);
    });
}

/// r shaped by out (value-initialised); only the elements whose flag is true move,
/// element i of segment k to position idx[i] of segment k of r.
template <class T, class Idx, class Flags>
nested<T> flag_permute(const nested<T>& x, const Idx& idx, const Flags& f, const segments& out) {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::flag_permute(x, idx, f, out): idx must hold integers");
    detail::expect_flags<Flags>();
    return detail::labelled("flag_permute (nested)", x.total(), [&] {
        detail::expect_same_length("flag_permute", x.total(), idx.size());
        detail::expect_same_length("flag_permute", x.total(), f.size());
        detail::expect_same_length("flag_permute (segment counts)", x.count(), out.count());
        using Place = detail::placement<decltype(detail::reader(idx)), decltype(detail::reader(f))>;
        const Place p{detail::reader(idx), detail::reader(f), out.offsets().data(), 0};
        detail::check_segment_placement("flag_permute", p, x.segments(), out, true, idx);
        vector<T> r(out.total());
        using In = decltype(detail::reader(x.values()));
        x.segments().for_each_element(detail::placement_scatter<T, Place, In, decltype(detail::writer(r))>{
            p, detail::reader(x.values()), detail::writer(r)});
        return nested<T>(std::move(r), out);
    });
}

// ---- pack, split, rank, reverse ---------------------------------------------------

/// The elements whose flag is true, segment by segment; segment k keeps its true count.
template <class T, class Flags> nested<T> pack(const nested<T>& x, const Flags& flags) {
    const auto& f = detail::values_of(flags);
    detail::expect_flags<std::decay_t<decltype(f)>>();
    return detail::labelled("pack (nested)", x.total(), [&] {
        detail::expect_same_length("pack", x.total(), f.size());
        const auto& s = x.segments();
        const std::size_t n = x.total();
        // Index = enumerate(Flags); Count = its total
        auto index = scan_total(lazy::map(detail::flag_to_count{}, f));
        vector<T> r(std::size_t(index.total), no_init);
        if (n) {
            auto in = detail::reader(x.values());
            thrust::scatter_if(detail::policy(), in, in + n, index.values.begin(),
                               detail::map_iterator(detail::is_set{}, f), detail::writer(r));
            backend::check_launch("pack (nested)");
        }
        // New offsets: the true flags before every old offset
        vector<index_t> off(s.count() + 1, no_init);
        thrust::transform(detail::policy(), thrust::counting_iterator<index_t>(0),
                          thrust::counting_iterator<index_t>(index_t(s.count() + 1)), off.begin(),
                          detail::offset_after_pack{s.offsets().data(), index.values.data(), index_t(n), index.total});
        backend::check_launch("pack (nested offsets)");
        return nested<T>(std::move(r), segments::from_offsets(std::move(off), unchecked));
    });
}

/// Every segment split stably on its own flags: its falses first, then its trues.
/// Two passes: the false flags before every position, then one scatter (placed
/// as sv::split places, detail/split/destination.hpp).
template <class T, class Flags> nested<T> split(const nested<T>& x, const Flags& flags) {
    const auto& f = detail::values_of(flags);
    detail::expect_flags<std::decay_t<decltype(f)>>();
    return detail::labelled("split (nested)", x.total(), [&] {
        detail::expect_same_length("split", x.total(), f.size());
        const auto& s = x.segments();
        auto down = detail::count_false_before(f);
        vector<T> r(x.total(), no_init);
        using In = decltype(detail::reader(x.values()));
        s.for_each_element(detail::split_in_offset_segment<T, decltype(detail::reader(f)), In, decltype(detail::writer(r))>{
            detail::reader(f), down.data(), s.offsets().data(), detail::reader(x.values()), detail::writer(r)});
        return nested<T>(std::move(r), s);
    });
}

/// Position of every element in a stable ascending sort of its own segment.
/// A stable sort by value, then a stable sort of that order by segment.
template <class T> nested<index_t> rank(const nested<T>& x) {
    static_assert(detail::has_less_v<T>,
                  "sv::rank: the element type needs a SCANVEC_HD operator< (bool operator<(const T&, const T&))");
    if constexpr (!detail::has_less_v<T>) return nested<index_t>();
    else return detail::labelled("rank (nested)", x.total(), [&] {
        const auto& s = x.segments();
        const std::size_t n = x.total();
        auto order = detail::sorted_order(x.values());
        vector<index_t> r(n, no_init);
        if (n == 0) return nested<index_t>(std::move(r), s);
        if (s.count() == 1) {  // one segment: the flat rank
            thrust::scatter(detail::policy(), thrust::counting_iterator<index_t>(0),
                            thrust::counting_iterator<index_t>(index_t(n)), order.begin(), r.begin());
            backend::check_launch("rank (nested)");
            return nested<index_t>(std::move(r), s);
        }
        auto ids = s.ids();
        auto by_segment = [&](auto key) {
            using K = decltype(key);
            // Seg[j] = segment of order[j]; a stable sort by it keeps value order within segments
            vector<K> seg(n, no_init);
            thrust::gather(detail::policy(), order.begin(), order.end(),
                           thrust::make_transform_iterator(ids.begin(), detail::convert_to<K>{}), seg.begin());
            detail::stable_sort_pairs(seg.begin(), seg.end(), order.begin(), nullptr);
            // r[order[j]] = j - start of segment Seg[j]
            auto pos = thrust::make_transform_iterator(
                thrust::counting_iterator<index_t>(0),
                detail::rank_in_segment<decltype(seg.begin())>{s.offsets().data(), seg.begin()});
            thrust::scatter(detail::policy(), pos, pos + n, order.begin(), r.begin());
            backend::check_launch("rank (nested)");
        };
        if (s.count() <= std::numeric_limits<unsigned>::max()) by_segment(0u);  // 32-bit keys: half the radix passes
        else by_segment(index_t(0));
        return nested<index_t>(std::move(r), s);
    });
}

/// Every segment reversed.
template <class T> nested<T> reverse(const nested<T>& x) {
    return detail::labelled("reverse (nested)", x.total(), [&] {
        const auto& s = x.segments();
        vector<T> r(x.total(), no_init);
        using In = decltype(detail::reader(x.values()));
        s.for_each_element(detail::reverse_in_segment<T, In, decltype(detail::writer(r))>{
            s.offsets().data(), detail::reader(x.values()), detail::writer(r)});
        return nested<T>(std::move(r), s);
    });
}

// ---- append, flag_merge --------------------------------------------------------

/// Segment k of the result is segment k of x followed by segment k of y.
template <class T> nested<T> append(const nested<T>& x, const nested<T>& y) {
    return detail::labelled("append (nested)", x.total() + y.total(), [&] {
        detail::expect_same_length("append (segment counts)", x.count(), y.count());
        const auto& ox = x.segments().offsets();
        const auto& oy = y.segments().offsets();
        vector<index_t> off(x.count() + 1, no_init);
        thrust::transform(detail::policy(), thrust::counting_iterator<index_t>(0),
                          thrust::counting_iterator<index_t>(index_t(x.count() + 1)), off.begin(),
                          detail::add_offsets{ox.data(), oy.data()});
        backend::check_launch("append (nested offsets)");
        vector<T> r(x.total() + y.total(), no_init);
        using In = decltype(detail::reader(x.values()));
        using Out = decltype(detail::writer(r));
        // x's element i of segment k moves by y's offset of k; y's by x's offset of k + 1
        x.segments().for_each_element(detail::shift_scatter<T, In, Out>{detail::reader(x.values()), detail::writer(r), oy.data()});
        y.segments().for_each_element(detail::shift_scatter<T, In, Out>{detail::reader(y.values()), detail::writer(r), ox.data() + 1});
        return nested<T>(std::move(r), segments::from_offsets(std::move(off), unchecked));
    });
}

/// Segment k merges segment k of x and of y by the flags (false takes the next of x);
/// the result is shaped like append(x, y), and each of its segments needs as many
/// false flags as x's segment has elements.
template <class Flags, class T> nested<T> flag_merge(const Flags& flags, const nested<T>& x, const nested<T>& y) {
    const auto& f = detail::values_of(flags);
    detail::expect_flags<std::decay_t<decltype(f)>>();
    return detail::labelled("flag_merge (nested)", f.size(), [&] {
        detail::expect_same_length("flag_merge (segment counts)", x.count(), y.count());
        detail::expect_same_length("flag_merge", f.size(), x.total() + y.total());
        const auto& ox = x.segments().offsets();
        const auto& oy = y.segments().offsets();
        const std::size_t m = x.count() + 1;
        vector<index_t> off(m, no_init);
        thrust::transform(detail::policy(), thrust::counting_iterator<index_t>(0),
                          thrust::counting_iterator<index_t>(index_t(m)), off.begin(),
                          detail::add_offsets{ox.data(), oy.data()});
        backend::check_launch("flag_merge (nested offsets)");
        auto down = detail::count_false_before(f);
        // Every segment of the result holds exactly as many false flags as x's segment has elements
        const index_t bad = detail::first_index_where(detail::merge_mismatch{down.data(), off.data(), ox.data()}, m, nullptr);
        if (bad >= 0) {
            const index_t k = bad - 1;  // offsets agree at 0, so the first mismatch ends segment bad - 1
            throw length_error("flag_merge: segment " + std::to_string(k) + " has " +
                               std::to_string(down[off[k + 1]] - down[off[k]]) + " false flags for " +
                               std::to_string(ox[k + 1] - ox[k]) + " elements of x");
        }
        auto r = detail::merge_by_flags<T>(f, down, x.values(), y.values());
        return nested<T>(std::move(r), segments::from_offsets(std::move(off), unchecked));
    });
}

SCANVEC_NAMESPACE_END
