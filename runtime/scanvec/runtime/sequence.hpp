// scanvec/runtime/sequence.hpp - what primitives accept: vectors and lazy views.
//
// A view is a Thrust iterator plus a length. Lazy primitives (sv::lazy::map,
// sv::lazy::index, ...) return views instead of vectors, so that a map or an
// index feeding a scan or a permute is computed inside that primitive's pass
// and never written to memory. Every primitive takes vectors and views alike.
#pragma once

#include <scanvec/runtime/vector.hpp>

#include <iterator>

SCANVEC_NAMESPACE_BEGIN

/// A lazy sequence: n values read through iterator `first`; never owns memory.
template <class Iterator> class view {
public:
    using iterator = Iterator;
    using value_type = typename std::iterator_traits<Iterator>::value_type;

    view(Iterator first, std::size_t n) : first_(first), n_(n) {}
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    Iterator begin() const { return first_; }
    Iterator end() const { return first_ + n_; }
    /// Evaluates the view into a vector.
    vector<value_type> to_vector() const;
    std::vector<value_type> to_host() const { return to_vector().to_host(); }

private:
    Iterator first_;
    std::size_t n_;
};

namespace detail {

template <class X> struct sequence_traits { static constexpr bool value = false; };
template <class T, bool S> struct sequence_traits<vector<T, S>> {
    static constexpr bool value = true;
    using value_type = T;
};
template <class It> struct sequence_traits<view<It>> {
    static constexpr bool value = true;
    using value_type = typename view<It>::value_type;
};

/// An iterator that reads the sequence's elements as values. Flat vectors give
/// raw pointers: every call passes an explicit execution policy, and CUB
/// vectorises loads and stores only through plain pointers.
template <class T> const T* reader(const vector<T, false>& v) { return v.data(); }
template <class T> auto reader(const vector<T, true>& v) { return v.read_begin(); }
template <class It> It reader(const view<It>& v) { return v.begin(); }

/// An iterator that writes whole elements into a vector.
template <class T> T* writer(vector<T, false>& v) { return v.data(); }
template <class T> auto writer(vector<T, true>& v) { return v.write_begin(); }
/// A view over a raw pointer (non-const) is written in place.
template <class T> T* writer(const view<T*>& v) { return v.begin(); }

/// Other sequences (views of a struct's field arrays) read and write through their own members.
template <class X> auto reader(const X& x) -> decltype(x.read_begin()) { return x.read_begin(); }
template <class X> auto writer(const X& x) -> decltype(x.write_begin()) { return x.write_begin(); }

}  // namespace detail

template <class X> inline constexpr bool is_sequence_v = detail::sequence_traits<std::decay_t<X>>::value;
/// Element type of a vector or view.
template <class X> using value_t = typename detail::sequence_traits<std::decay_t<X>>::value_type;

/// Evaluates any sequence into a new vector (a vector is copied).
template <class X> vector<value_t<X>> materialize(const X& x) {
    vector<value_t<X>> out(x.size(), no_init);
    if (x.size()) {
        thrust::copy_n(detail::policy(current_stream()), detail::reader(x), x.size(), detail::writer(out));
        backend::check_launch("materialize");
    }
    return out;
}

namespace detail {
/// One element of any sequence, read back to the host (a round trip).
template <class X> value_t<X> element_at(const X& x, std::size_t i) {
    using T = value_t<X>;
    if constexpr (std::is_pointer_v<decltype(reader(x))>) {  // a flat vector: copy the element itself
        T v;
        backend::read_small(&v, reader(x) + i, sizeof(T), current_stream(), "element read");
        return v;
    } else {
        vector<T> one(1, no_init);
        thrust::copy_n(policy(current_stream()), reader(x) + i, 1, writer(one));
        return one[0];
    }
}
}  // namespace detail

template <class Iterator> vector<typename view<Iterator>::value_type> view<Iterator>::to_vector() const {
    return materialize(*this);
}

SCANVEC_NAMESPACE_END
