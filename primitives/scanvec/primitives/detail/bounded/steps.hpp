// scanvec/primitives/detail/bounded/steps.hpp - the steps on bounded
// sequences: every argument seen as a view of its capacity, with the length
// all of them share in device memory (detail/common/live.hpp masks by it).
#pragma once

#include <scanvec/primitives/detail/common/deferred.hpp>
#include <scanvec/primitives/detail/common/live.hpp>
#include <scanvec/primitives/detail/elementwise/map.hpp>
#include <scanvec/primitives/detail/pack/dispatch.hpp>
#include <scanvec/primitives/detail/permute/checks.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/detail/segments/functors.hpp>
#include <scanvec/primitives/detail/write/dispatch.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/runtime/bounded.hpp>
#include <scanvec/runtime/error.hpp>

#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <memory>
#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN

class bounded_segments;  // primitives/bounded.hpp

namespace detail {

template <class X> inline constexpr bool is_sequence_or_bounded_v = is_sequence_v<X> || is_bounded_v<X>;

/// A bounded sequence's length, shared by what it derives; a view made from a
/// device_value the program holds (lazy::index(n, capacity)) borrows it (no owner).
using shared_length = std::shared_ptr<device_value<index_t>>;

/// Any argument of a bounded step as a view of all its capacity (or a sequence as it is).
template <class T> auto room_view(const bounded<T>& b) { return view(reader(b.room()), b.capacity()); }
template <class It> auto room_view(const bounded_view<It>& b) { return view(b.begin(), b.capacity()); }
template <class X, std::enable_if_t<is_sequence_v<X>, int> = 0> const X& room_view(const X& x) { return x; }

/// The element type of a sequence or a bounded one.
template <class X> using element_t = value_t<decltype(room_view(std::declval<const X&>()))>;

template <class X> std::size_t extent(const X& x) {
    if constexpr (is_bounded_v<X>) return x.capacity();
    else return x.size();
}

template <class X> const shared_length* length_of(const X& x) {
    if constexpr (is_bounded_v<X>) return &x.shared_length();
    else return nullptr;
}

/// What the arguments of a bounded step share: the capacity (a plain
/// sequence's length must equal it) and the length on the device (every
/// bounded argument's must be the same: made by one step, or derived from it).
struct common_bound {
    std::size_t capacity = 0;
    shared_length length;
    const index_t* live() const { return length->ptr(); }
};

template <class A, class... B> common_bound common_bound_of(const char* op, const A& a, const B&... b) {
    static_assert((is_bounded_v<A> || ... || is_bounded_v<B>), "a step on bounded sequences needs one among its arguments");
    common_bound c;
    c.capacity = extent(a);
    auto take = [&](const auto& x) {
        expect_same_length(op, c.capacity, extent(x));
        const shared_length* l = length_of(x);
        if (!l) return;
        if (!c.length) c.length = *l;
        else if (c.length->ptr() != (*l)->ptr())
            throw length_error(std::string(op) + ": two bounded sequences whose lengths on the device are not one "
                               "(each step that makes a bounded vector writes a length of its own): combine "
                               "element by element only a bounded vector and what was computed from it");
    };
    take(a);
    (take(b), ...);
    return c;
}

/// The length for a bounded result: shared with the arguments, or (a length
/// that a view only borrows) a copy of it in a number of the result's own.
inline shared_length owned_length(const shared_length& l, stream_t s) {
    if (l.use_count() > 0) return l;
    auto own = std::make_shared<device_value<index_t>>(s);
    backend::copy_on_device(own->ptr(), l->ptr(), sizeof(index_t), s, "bounded step (the length)");
    return own;
}

/// out[k] = in[k] for the positions below *live.
template <class In, class Out> struct copy_live_element {
    In in;
    Out out;
    SCANVEC_HD void operator()(index_t k) const { out[k] = in[k]; }
};

/// A bounded vector holding the first *live values read through `in` (capacity c).
template <class T, class In> bounded<T> evaluate_bounded(In in, const common_bound& c, const char* op) {
    const stream_t s = current_stream();
    vector<T> room(c.capacity, no_init);
    for_each_position(c.capacity, copy_live_element<In, decltype(writer(room))>{in, writer(room)}, c.live(), s, op);
    return bounded<T>(std::move(room), owned_length(c.length, s));
}

/// The segment of slot i among the first *live segments (offsets off, off[*live] the total).
struct segment_of_live_position {
    const index_t* off;
    const index_t* live;
    SCANVEC_HD index_t operator()(index_t i) const { return segment_holding(off, read_only(live), i); }
};

/// Stores each start as the scan writes it; at position m (after every
/// count) the total becomes the slots' length, or, past the capacity, length
/// 0 and the failure stored for the host's next wait.
struct store_start {
    index_t* starts;
    index_t m;
    index_t* length;
    index_t capacity;
    const char* op;
    deferred_failure* record;
    SCANVEC_HD void operator()(index_t i, index_t v) const {
        starts[i] = v;
        if (i != m) return;
        if (v <= capacity) {
            *length = v;
            return;
        }
        *length = 0;
        if (record->op) return;
        record->position = 0;
        record->value = static_cast<long long>(v);
        record->bound = static_cast<long long>(capacity);
        record->kind = 1;
        record->op = op;
    }
};

/// map(f, a, b...) with a bounded argument: f over the first length() positions.
template <class F, class A, class... B> auto map_bounded(F f, const A& a, const B&... b) {
    using R = std::decay_t<std::invoke_result_t<F, element_t<A>, element_t<B>...>>;
    const common_bound c = common_bound_of("map", a, b...);
    return evaluate_bounded<R>(map_iterator(f, room_view(a), room_view(b)...), c, "map");
}

/// pack(a, flags, length_on_device): the count stored where the result's length is.
template <class A, class Flags> bounded<element_t<A>> pack_bounded(const A& a, const Flags& flags) {
    using T = element_t<A>;
    const stream_t s = current_stream();
    const std::size_t n = extent(a);
    expect_same_length("pack", n, extent(flags));
    if (n == 0) return bounded<T>(0);
    // the pack stores the count: the length needs no fill
    bounded<T> r(vector<T>(n, no_init), std::make_shared<device_value<index_t>>(s));
    index_t* count = const_cast<index_t*>(r.length_ptr());
    if constexpr (is_bounded_v<A> || is_bounded_v<Flags>) {
        // positions past the length are not flagged, and their values are not
        // evaluated (a pass may read every value, and a value past the length
        // may gather through a stale index)
        const common_bound c = common_bound_of("pack", a, flags);
        pack_to(view(masked(reader(room_view(a)), c.live(), T{}), n), view(masked(reader(room_view(flags)), c.live(), false), n),
                r.room(), count, s);
    } else {
        pack_to(a, flags, r.room(), count, s);
    }
    return r;
}

/// back_permute(a, idx) for a bounded idx; checked: a bad index reads T{} and
/// its first position goes to the thread's record (a is checked against its capacity).
template <class A, class It> bounded<element_t<A>> back_permute_bounded(const A& a, const bounded_view<It>& idx, bool checked) {
    using T = element_t<A>;
    const common_bound c = common_bound_of("back_permute", idx);
    auto from = reader(room_view(a));
    if (!checked) return evaluate_bounded<T>(thrust::make_permutation_iterator(from, idx.begin()), c, "back_permute");
    const stream_t s = current_stream();
    unsigned long long* first_bad = deferred_word();
    vector<T> room(c.capacity, no_init);
    using Gather = gather_checked_at<T, decltype(from), It, decltype(writer(room))>;
    for_each_position_then_store(c.capacity, Gather{idx.begin(), writer(room), {from, index_t(extent(a)), first_bad}},
                                 c.live(), "back_permute", first_bad, view(idx.begin(), idx.capacity()), extent(a), s);
    return bounded<T>(std::move(room), owned_length(c.length, s));
}

/// write(dst, idx, vals) for a bounded idx; checked: a target out of range
/// writes nothing and goes to the thread's record.
template <class T, bool S, class Idx, class V> vector<T, S> write_bounded(vector<T, S> dst, const Idx& idx, const V& vals, bool checked) {
    expect_written_values<T, std::decay_t<decltype(room_view(vals))>>();
    const common_bound c = common_bound_of("write", idx, vals);
    write_into(dst, room_view(idx), room_view(vals), checked ? "write" : nullptr, c.live());
    return dst;
}

template <class T, bool S, class Idx, class V, class Op>
vector<T, S> combining_write_bounded(vector<T, S> dst, const Idx& idx, const V& vals, Op op, bool checked) {
    expect_commutative<Op>();
    expect_written_values<T, std::decay_t<decltype(room_view(vals))>>();
    static_assert(has_atomic_combine_v<T>, "sv::combining_write with bounded indices: the elements must have atomics "
                                           "(arithmetic types; combine structs with unbounded indices)");
    const common_bound c = common_bound_of("combining_write", idx, vals);
    combine_into(dst, room_view(idx), room_view(vals), op, checked ? "combining_write" : nullptr, c.live());
    return dst;
}

/// The exclusive scan of the first length() elements (past it, the identity).
template <class It, class Op> bounded<typename bounded_view<It>::value_type> scan_bounded(const bounded_view<It>& x, Op op) {
    using T = typename bounded_view<It>::value_type;
    const stream_t s = current_stream();
    const common_bound c = common_bound_of("scan", x);
    const T id = identity_of<T>(op);
    vector<T> r(x.capacity(), no_init);
    exclusive_scan_n(masked(x.begin(), c.live(), id), x.capacity(), r.data(), op, id, s);
    return bounded<T>(std::move(r), owned_length(c.length, s));
}

template <class It, class Op> device_value<typename bounded_view<It>::value_type> reduce_bounded(const bounded_view<It>& x, Op op) {
    using T = typename bounded_view<It>::value_type;
    const stream_t s = current_stream();
    const T id = identity_of<T>(op);
    device_value<T> r(s);
    reduce_into(masked(x.begin(), x.length_ptr(), id), x.capacity(), op, id, r.ptr(), s);
    return r;
}

/// allocate(counts, capacity): Starts <- +-scan(Counts), its sum (the masked
/// counts add 0) the slots' total, stored as the scan writes it.
template <class Counts, class Segments = bounded_segments>
Segments allocate_bounded(const Counts& counts, std::size_t capacity) {
    static_assert(std::is_integral_v<element_t<Counts>>, "sv::allocate(counts, capacity): counts must hold integers");
    const stream_t s = current_stream();
    const common_bound c = common_bound_of("allocate", counts);
    const std::size_t m = counts.capacity();
    vector<index_t> starts(m + 1, no_init);
    auto total = std::make_shared<device_value<index_t>>(s);
    exclusive_scan_with_total_n(
        masked(thrust::make_transform_iterator(reader(room_view(counts)), convert_to<index_t>{}), c.live(), index_t(0)),
        m,
        thrust::make_tabulate_output_iterator(store_start{starts.data(), index_t(m), total->ptr(), index_t(capacity),
                                                          "allocate", backend::deferred_record()}),
        plus<index_t>{}, index_t(0), s);
    return Segments(bounded<index_t>(std::move(starts), owned_length(c.length, s)), std::move(total), capacity);
}

}  SCANVEC_NAMESPACE_END  // detail
