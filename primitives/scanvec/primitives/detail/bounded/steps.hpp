// scanvec/primitives/detail/bounded/steps.hpp - the steps on bounded
// sequences: every argument seen as a view of its capacity, with the length
// all of them share in device memory (detail/common/live.hpp masks by it).
#pragma once

#include <scanvec/primitives/detail/common/live.hpp>
#include <scanvec/primitives/detail/elementwise/map.hpp>
#include <scanvec/primitives/detail/segments/functors.hpp>
#include <scanvec/runtime/bounded.hpp>
#include <scanvec/runtime/error.hpp>

#include <memory>
#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

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

}  SCANVEC_NAMESPACE_END  // detail
