// scanvec/primitives/bounded.hpp - the steps that take sequences whose length lives on the device.
//
//   sv::pack(a, flags, sv::length_on_device)   the flagged a[i], their count left on the device
//   sv::lazy::map(f, x, ...), sv::map(f, x, ...)          element by element
//   sv::lazy::back_permute(a, idx), sv::back_permute(a, idx[, sv::unchecked])   r[i] = a[idx[i]]
//   sv::lazy::index(n, capacity)               0 .. n-1 for a length n on the device
//   sv::write(dst, idx, vals[, sv::unchecked]), sv::combining_write(dst, idx, vals, op[, sv::unchecked])
//   sv::scan(x, op), sv::reduce_to_device(x, op)
//   sv::allocate(counts, capacity)             segments of counts[k] slots, their total on the device
//
// where x, idx, vals are sv::bounded vectors or views (runtime/bounded.hpp),
// or, beside one, vectors and views of its capacity. None of these waits for
// the device: a program of them runs in a loop the device repeats
// (sv::repeat_while), a frontier growing and shrinking inside its capacity.
//
// What they compute is what the unbounded calls compute on the first length()
// elements. How: each is launched over the capacity, and a position past the
// length does nothing (docs/design/loops.md). Cost: the unbounded call's work
// on capacity() elements, of which those past the length only compare
// themselves with it; a bounded result's room is the capacity.
//
// The bounded arguments of one call must share their length: one step made
// them, or they were computed from one bounded vector (map, back_permute and
// scan results share their argument's length). Otherwise sv::length_error, as
// for a plain sequence whose length is not the capacity. Checks never wait:
// an index out of range writes nothing (reads T{}) and is reported as
// sv::index_error at the thread's next wait (as in sv::deferred_checks).
// Combining writes on bounded indices take elements with atomics (arithmetic
// of 4 or 8 bytes, and smaller integers).
#pragma once

#include <scanvec/primitives/detail/bounded/steps.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/write.hpp>
#include <scanvec/runtime/bounded.hpp>

#include <memory>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN

/// Tag: the result's length stays on the device (a sv::bounded result).
struct length_on_device_t {};
inline constexpr length_on_device_t length_on_device{};

namespace lazy {

/// r[i] = f(x[i], ...) for the first length() positions, computed when consumed.
template <class F, class A, class... B,
          std::enable_if_t<(detail::is_sequence_or_bounded_v<A> && ... && detail::is_sequence_or_bounded_v<B>) &&
                               (is_bounded_v<A> || ... || is_bounded_v<B>),
                           int> = 0>
auto map(F f, const A& a, const B&... b) {
    const detail::common_bound c = detail::common_bound_of("map", a, b...);
    auto it = detail::map_iterator(f, detail::room_view(a), detail::room_view(b)...);
    return bounded_view<decltype(it)>(it, c.capacity, c.length);
}

/// r[i] = a[idx[i]] for the first idx.length() positions, read when consumed.
template <class A, class It> auto back_permute(const A& a, const bounded_view<It>& idx) {
    auto it = thrust::make_permutation_iterator(detail::reader(detail::room_view(a)), idx.begin());
    return bounded_view<decltype(it)>(it, idx.capacity(), idx.shared_length());
}
template <class A, class T> auto back_permute(const A& a, const bounded<T>& idx) { return lazy::back_permute(a, idx.view()); }

/// 0, 1, ..., n - 1 for a length n on the device, at most capacity (the view borrows n).
inline auto index(const device_value<index_t>& n, std::size_t capacity) {
    return bounded_view<thrust::counting_iterator<index_t>>(
        thrust::counting_iterator<index_t>(0), capacity,
        std::shared_ptr<device_value<index_t>>(std::shared_ptr<void>(), const_cast<device_value<index_t>*>(&n)));
}

}  // namespace lazy

/// The a[i] whose flag is true, in order, with their count left on the device:
/// a bounded vector of capacity a's (capacity or length). a and flags may be
/// bounded (then only their first length() count). O(capacity) work, two steps
/// (one launch where it fits one block); queued (no wait).
template <class A, class Flags, std::enable_if_t<detail::is_sequence_or_bounded_v<A>, int> = 0>
bounded<detail::element_t<A>> pack(const A& a, const Flags& flags, length_on_device_t) {
    return detail::labelled("pack", detail::extent(a), [&] { return detail::pack_bounded(a, flags); });
}

/// r[i] = f(x[i], ...) for the first length() positions: a bounded vector of
/// the same length. O(capacity) work, one step; queued (no wait).
template <class F, class A, class... B,
          std::enable_if_t<(detail::is_sequence_or_bounded_v<A> && ... && detail::is_sequence_or_bounded_v<B>) &&
                               (is_bounded_v<A> || ... || is_bounded_v<B>),
                           int> = 0>
auto map(F f, const A& a, const B&... b) {
    return detail::labelled("map", detail::extent(a), [&] { return detail::map_bounded(f, a, b...); });
}

/// r[i] = a[idx[i]] for the first idx.length() positions (a bounded vector of
/// idx's length); every such idx[i] in 0..a.size()-1. O(capacity) work, one
/// step; queued (no wait). Checked: a bad index reads T{} and the error comes
/// at the next wait; with sv::unchecked a bad index is undefined behaviour.
template <class A, class T> auto back_permute(const A& a, const bounded<T>& idx) { return back_permute(a, idx.view()); }
template <class A, class It> bounded<detail::element_t<A>> back_permute(const A& a, const bounded_view<It>& idx) {
    return detail::labelled("back_permute", idx.capacity(),
                            [&] { return detail::back_permute_bounded(a, idx, SCANVEC_CHECKS != 0); });
}
template <class A, class T> auto back_permute(const A& a, const bounded<T>& idx, unchecked_t) {
    return back_permute(a, idx.view(), unchecked);
}
template <class A, class It>
bounded<detail::element_t<A>> back_permute(const A& a, const bounded_view<It>& idx, unchecked_t) {
    return detail::labelled("back_permute", idx.capacity(), [&] { return detail::back_permute_bounded(a, idx, false); });
}

/// dst with vals[k] written at idx[k] for the first idx.length() positions k
/// (one of the values sent to one target wins). O(capacity) work on dst's own
/// memory when dst is moved in, one step; queued (no wait): a target out of
/// range writes nothing and is reported at the next wait (not checked with sv::unchecked).
template <class T, bool S, class Idx, class V, std::enable_if_t<is_bounded_v<Idx>, int> = 0>
vector<T, S> write(vector<T, S> dst, const Idx& idx, const V& vals) {
    return detail::labelled("write", idx.capacity(),
                            [&] { return detail::write_bounded(std::move(dst), idx, vals, SCANVEC_CHECKS != 0); });
}
template <class T, bool S, class Idx, class V, std::enable_if_t<is_bounded_v<Idx>, int> = 0>
vector<T, S> write(vector<T, S> dst, const Idx& idx, const V& vals, unchecked_t) {
    return detail::labelled("write", idx.capacity(), [&] { return detail::write_bounded(std::move(dst), idx, vals, false); });
}

/// r[j] = dst[j] op (every vals[k] with idx[k] == j, k below idx.length()); op
/// commutes; T has atomics. O(capacity) work, one step; queued (no wait),
/// checked as write above.
template <class T, bool S, class Idx, class V, class Op, std::enable_if_t<is_bounded_v<Idx>, int> = 0>
vector<T, S> combining_write(vector<T, S> dst, const Idx& idx, const V& vals, Op op) {
    return detail::labelled("combining_write", idx.capacity(), [&] {
        return detail::combining_write_bounded(std::move(dst), idx, vals, op, SCANVEC_CHECKS != 0);
    });
}
template <class T, bool S, class Idx, class V, class Op, std::enable_if_t<is_bounded_v<Idx>, int> = 0>
vector<T, S> combining_write(vector<T, S> dst, const Idx& idx, const V& vals, Op op, unchecked_t) {
    return detail::labelled("combining_write", idx.capacity(),
                            [&] { return detail::combining_write_bounded(std::move(dst), idx, vals, op, false); });
}

/// Exclusive scan of the first x.length() elements (a bounded vector of x's
/// length); op need not commute. O(capacity) work, one step; queued (no wait).
template <class T, class Op = plus<T>> bounded<T> scan(const bounded<T>& x, Op op = {}) { return scan(x.view(), op); }
template <class It, class Op = plus<typename bounded_view<It>::value_type>>
bounded<typename bounded_view<It>::value_type> scan(const bounded_view<It>& x, Op op = {}) {
    return detail::labelled("scan", x.capacity(), [&] { return detail::scan_bounded(x, op); });
}

/// x[0] op ... op x[length() - 1] (the identity for length 0), left on the
/// device; op need not commute. O(capacity) work, one step; queued (no wait).
template <class T, class Op = plus<T>> device_value<T> reduce_to_device(const bounded<T>& x, Op op = {}) {
    return reduce_to_device(x.view(), op);
}
template <class It, class Op = plus<typename bounded_view<It>::value_type>>
device_value<typename bounded_view<It>::value_type> reduce_to_device(const bounded_view<It>& x, Op op = {}) {
    return detail::labelled_scalar("reduce", x.capacity(), [&] { return detail::reduce_bounded(x, op); });
}

/// The segments of a bounded allocation: segment k (k below count()) holds
/// counts[k] slots, starting at starts()[k]; total() slots in all, at most capacity().
class bounded_segments {
public:
    /// The number of segments, on the device (the counts' length).
    const device_value<index_t>& count() const { return starts_.length(); }
    /// Where each segment starts (a bounded vector of count() values).
    const bounded<index_t>& starts() const { return starts_; }
    /// The number of slots, on the device.
    const device_value<index_t>& total() const { return *total_; }
    /// The most slots: the room of the bounded vectors a program makes per slot.
    std::size_t capacity() const { return capacity_; }
    /// The segment of every slot, computed when consumed (a binary search of the starts).
    auto lazy_ids() const {
        auto it = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                  detail::segment_of_live_position{starts_.room().data(),
                                                                                   starts_.length_ptr()});
        return bounded_view<decltype(it)>(it, capacity_, total_);
    }
    /// Every slot's position, 0 .. total() - 1 (computed when consumed).
    auto lazy_index() const {
        return bounded_view<thrust::counting_iterator<index_t>>(thrust::counting_iterator<index_t>(0), capacity_,
                                                                total_);
    }

    bounded_segments(bounded<index_t> starts, std::shared_ptr<device_value<index_t>> total, std::size_t capacity)
        : starts_(std::move(starts)), total_(std::move(total)), capacity_(capacity) {}

private:
    bounded<index_t> starts_;  // room for count + 1: the total after the last start
    std::shared_ptr<device_value<index_t>> total_;
    std::size_t capacity_;
};

/// Segments of counts[k] slots for the first counts.length() counts (NESL's
/// allocate, its total left on the device), at most capacity slots in all.
/// O(counts.capacity()) work, one step; queued (no wait). A total above the
/// capacity leaves no slots and is reported as sv::length_error at the next wait.
template <class Counts, std::enable_if_t<is_bounded_v<Counts>, int> = 0>
bounded_segments allocate(const Counts& counts, std::size_t capacity) {
    return detail::labelled("allocate", counts.capacity(), [&] { return detail::allocate_bounded(counts, capacity); });
}

SCANVEC_NAMESPACE_END
