// scanvec/runtime/interop.hpp - memory the caller owns, as inputs and outputs.
//
//   thrust::device_vector<int> in(n), out(n);              // or cudaMalloc'd pointers
//   auto s = sv::scan(sv::view_of(in));                     // read in place, no copy
//   sv::scan(sv::view_of(in), sv::plus<int>{}, sv::into(out));  // written into out
//   sv::copy(sv::lazy::map(f, sv::view_of(in)), sv::into(out)); // a map into out, one pass
//
// A view never owns or copies: the caller keeps the memory alive, and ordered
// before the work that reads it (same stream, or synchronised), while scanvec
// uses it. On the CUDA backend the memory must be the current device's memory,
// managed memory or pinned host memory; with checks on (SCANVEC_CHECKS, the
// default) any other pointer is an sv::error naming the argument.
#pragma once

#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/device_ptr.h>

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN

namespace detail {

/// A null pointer with elements, or memory of the wrong kind (checked mode).
inline void check_view_memory(const void* p, std::size_t n, const std::string& what) {
    if (n == 0) return;
    if (!p) throw error(what + " is a null pointer, for " + std::to_string(n) + " elements");
#if SCANVEC_CHECKS
    backend::check_user_memory(p, what);
#endif
}

template <class P> auto raw(P p) { return thrust::raw_pointer_cast(p); }

}  // namespace detail

/// The described struct T seen through one array per field (SCANVEC_FIELDS
/// order), as a vector of T stores it; no copy. Reads and writes whole structs.
template <class T, class... F> class fields_view {
    using codec = detail::soa_codec<fields_of<T>>;

public:
    using value_type = T;
    fields_view(std::size_t n, F*... fields) : n_(n), fields_(fields...) {}
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    /// Zip of the field arrays (as sv::vector<T>::begin()).
    auto zip() const {
        return std::apply([](auto*... p) { return thrust::make_zip_iterator(thrust::device_pointer_cast(p)...); },
                          fields_);
    }
    auto read_begin() const { return thrust::make_transform_iterator(zip(), typename codec::decode{}); }
    auto write_begin() const { return thrust::make_transform_output_iterator(zip(), typename codec::encode{}); }
    vector<T> to_vector() const;
    std::vector<T> to_host() const { return to_vector().to_host(); }

private:
    std::size_t n_;
    std::tuple<F*...> fields_;
};

namespace detail {
template <class T, class... F> struct sequence_traits<fields_view<T, F...>> {
    static constexpr bool value = true;
    using value_type = T;
};

template <class C, class = void> struct is_contiguous : std::false_type {};
template <class C>
struct is_contiguous<C, std::void_t<decltype(raw(std::declval<C&>().data())), decltype(std::declval<C&>().size())>>
    : std::bool_constant<std::is_arithmetic_v<std::remove_cv_t<std::remove_pointer_t<decltype(raw(std::declval<C&>().data()))>>>> {};
}  // namespace detail

template <class T, class... F> vector<T> fields_view<T, F...>::to_vector() const { return materialize(*this); }

/// n elements at p, in memory the caller owns; a view over T* can also be
/// written (sv::into). Checked: p is null with n > 0, or (CUDA) p is not
/// memory the device can use.
template <class T, std::enable_if_t<std::is_arithmetic_v<std::remove_cv_t<T>>, int> = 0>
view<T*> view_of(T* p, std::size_t n) {
    detail::check_view_memory(p, n, "sv::view_of: the pointer");
    return view<T*>(p, n);
}

/// The elements of a contiguous container of arithmetic values: anything with
/// data() and size(), such as thrust::device_vector, cuda::std::span or
/// std::span (on the host backend also std::vector). No copy.
template <class C, std::enable_if_t<detail::is_contiguous<std::remove_reference_t<C>>::value, int> = 0>
auto view_of(C& c) {
    auto* p = detail::raw(c.data());
    detail::check_view_memory(p, std::size_t(c.size()), "sv::view_of: the container's data()");
    return view<decltype(p)>(p, std::size_t(c.size()));
}

/// A described struct T from one array per field, given in SCANVEC_FIELDS
/// order, each of n elements of that field's type. No copy.
template <class T, class... F> fields_view<T, F...> view_of_fields(std::size_t n, F*... fields) {
    using list = fields_of<T>;
    static_assert(sizeof...(F) == list::size, "sv::view_of_fields<T>: give one array per field of T");
    static_assert(std::is_same_v<std::tuple<std::remove_const_t<F>...>, typename list::storage_tuple>,
                  "sv::view_of_fields<T>: each array's element type must be its field's type, in SCANVEC_FIELDS order");
    std::size_t k = 0;
    (detail::check_view_memory(fields, n, "sv::view_of_fields: field " + std::to_string(k++)), ...);
    return fields_view<T, F...>(n, fields...);
}

/// Where a primitive writes its result instead of a new vector: the overloads
/// taking an output write there and return it as a view for the next step.
template <class Target> struct output {
    Target target;
    std::size_t size() const { return target.size(); }
};

/// An output over a writable view, a view of fields, a container (as view_of)
/// or an existing sv::vector (its elements are overwritten; it is not resized).
template <class T> output<view<T*>> into(const view<T*>& v) { return {v}; }
template <class T, class... F> output<fields_view<T, F...>> into(const fields_view<T, F...>& v) { return {v}; }
template <class T> output<view<T*>> into(vector<T, false>& v) { return {view<T*>(v.data(), v.size())}; }
template <class C, std::enable_if_t<detail::is_contiguous<C>::value && !is_sequence_v<C>, int> = 0>
auto into(C& c) {
    return output<decltype(view_of(c))>{view_of(c)};
}

namespace detail {
template <class X> struct is_output : std::false_type {};
template <class S> struct is_output<output<S>> : std::true_type {};

/// Checks an output's length against the result's and its element type.
template <class T, class S> void check_output(const char* op, const output<S>& out, std::size_t n) {
    static_assert(std::is_same_v<value_t<S>, T>, "sv::into: the output's element type must be the result's");
    if (out.size() != n)
        throw length_error(std::string(op) + ": the output holds " + std::to_string(out.size()) +
                           " elements, the result has " + std::to_string(n));
}
}  // namespace detail

template <class X> inline constexpr bool is_output_v = detail::is_output<std::decay_t<X>>::value;

/// Evaluates the sequence a (a vector, a view, a lazy map) into out: one pass.
/// Queued (no wait).
template <class A, class S> S copy(const A& a, output<S> out) {
    detail::check_output<value_t<A>>("copy", out, a.size());
    return detail::labelled("copy", a.size(), [&] {
        if (a.size()) {
            thrust::copy_n(detail::policy(), detail::reader(a), a.size(), detail::writer(out.target));
            backend::check_launch("copy");
        }
        return out.target;
    }, a);
}

SCANVEC_NAMESPACE_END
