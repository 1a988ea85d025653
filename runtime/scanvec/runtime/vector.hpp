// scanvec/runtime/vector.hpp - sv::vector<T>: n elements in the backend's memory.
//
// T is an arithmetic type, bool, or a struct described with SCANVEC_FIELDS, which
// is stored as one sv::vector per field (struct-of-arrays). Vectors are values:
// copies are deep, moves are cheap. begin()/end() are Thrust iterators of the
// backend (thrust::device_ptr<T>; a zip of the field pointers for structs).
#pragma once

#include <scanvec/runtime/buffer.hpp>
#include <scanvec/runtime/fields.hpp>
#include <scanvec/runtime/policy.hpp>

#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/fill.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

template <class T, bool Soa = is_described_v<T>> class vector;

/// Tag for a vector whose elements are left unwritten (to be overwritten at once).
struct no_init_t {};
inline constexpr no_init_t no_init{};

namespace detail {

template <class T> inline constexpr bool is_element_v = std::is_arithmetic_v<T> || is_described_v<T>;

[[noreturn]] inline void throw_element_index(std::size_t i, std::size_t n) {
    throw index_error("vector element read: index " + std::to_string(i) + " is out of range for length " +
                      std::to_string(n));
}

// Encodes/decodes a described struct to/from the tuple of its fields, on the backend.
template <class List, class Seq = std::make_index_sequence<List::size>> struct soa_codec;
template <class S, auto... M, std::size_t... I>
struct soa_codec<field_list<S, M...>, std::index_sequence<I...>> {
    using tuple_type = thrust::tuple<typename member_traits<M>::field_type...>;
    struct decode {
        template <class Tuple> SCANVEC_HD S operator()(const Tuple& t) const {
            S s{};
            ((s.*M = thrust::get<I>(t)), ...);
            return s;
        }
    };
    struct encode {
        SCANVEC_HD tuple_type operator()(const S& s) const { return tuple_type(s.*M...); }
    };
};

/// A zip iterator over the begin() of each field vector.
template <class Tuple> auto zip_begin(Tuple& fields) {
    return std::apply([](auto&... v) { return thrust::make_zip_iterator(v.begin()...); }, fields);
}

}  // namespace detail

/// A vector of arithmetic values or bools, stored as one backend array.
template <class T> class vector<T, false> {
    static_assert(std::is_arithmetic_v<T>,
                  "sv::vector<T>: T must be arithmetic, bool, or a struct described with "
                  "SCANVEC_FIELDS(T, fields...) at T's namespace scope");

public:
    using value_type = T;
    using iterator = thrust::device_ptr<T>;
    using const_iterator = thrust::device_ptr<const T>;

    vector() = default;
    /// n value-initialised (zero) elements.
    explicit vector(std::size_t n) : buf_(n) { backend::fill_zero(buf_.data(), n * sizeof(T), stream(), "vector(n)"); }
    /// n elements left unwritten.
    vector(std::size_t n, no_init_t) : buf_(n) {}
    /// n copies of value.
    vector(std::size_t n, const T& value) : buf_(n) {
        thrust::fill_n(detail::policy(stream()), begin(), n, value);
        backend::check_launch("vector(n, value)");
    }
    vector(std::initializer_list<T> values) : vector(values.begin(), values.size()) {}
    explicit vector(const std::vector<T>& host) : vector(host_data(host).get(), host.size()) {}
    /// Copies n host values.
    vector(const T* host, std::size_t n) : buf_(n) {
        backend::copy_to_device(buf_.data(), host, n * sizeof(T), "vector upload (host to device)");
    }

    std::size_t size() const { return buf_.size(); }
    bool empty() const { return size() == 0; }
    /// Keeps the first min(m, size()) elements; new ones are zero.
    void resize(std::size_t m) { buf_.resize(m); }

    /// Copies the vector to the host.
    std::vector<T> to_host() const {
        if constexpr (std::is_same_v<T, bool>) {
            std::unique_ptr<bool[]> tmp(new bool[size()]);
            backend::copy_to_host(tmp.get(), buf_.data(), size() * sizeof(T), "vector download (device to host)");
            return std::vector<bool>(tmp.get(), tmp.get() + size());
        } else {
            std::vector<T> h(size());
            backend::copy_to_host(h.data(), buf_.data(), size() * sizeof(T), "vector download (device to host)");
            return h;
        }
    }
    /// Copies the vector to the host, converting each element to U.
    template <class U> std::vector<U> to_host() const {
        auto h = to_host();
        return std::vector<U>(h.begin(), h.end());
    }

    /// Reads one element (a device round trip: for debugging and small results).
    T operator[](std::size_t i) const {
        if (i >= size()) detail::throw_element_index(i, size());
        T v;
        backend::read_small(&v, buf_.data() + i, sizeof(T), current_stream(), "vector element read");
        return v;
    }
    /// Writes one element (a device round trip).
    void set(std::size_t i, const T& v) {
        if (i >= size()) detail::throw_element_index(i, size());
        backend::copy_to_device(buf_.data() + i, &v, sizeof(T), "vector element write");
    }

    iterator begin() { return iterator(buf_.data()); }
    iterator end() { return begin() + size(); }
    const_iterator begin() const { return const_iterator(buf_.data()); }
    const_iterator end() const { return begin() + size(); }
    T* data() { return buf_.data(); }
    const T* data() const { return buf_.data(); }

    /// Where the elements live: the device, and the stream the vector belongs
    /// to (current when it was made; its memory is freed in that stream's order).
    const place& where() const { return buf_.where(); }
    stream_t stream() const { return buf_.where().stream; }

private:
    // std::vector<bool> has no data(): stage it as a plain bool array.
    static std::shared_ptr<const T> host_data(const std::vector<T>& h) {
        if constexpr (std::is_same_v<T, bool>) {
            std::shared_ptr<bool> tmp(new bool[h.size() + 1], std::default_delete<bool[]>());
            std::copy(h.begin(), h.end(), tmp.get());
            return tmp;
        } else {
            return std::shared_ptr<const T>(h.data(), [](const T*) {});
        }
    }

    detail::buffer<T> buf_;
};

/// A vector of described structs, stored as one sv::vector per field.
template <class T> class vector<T, true> {
    using list = fields_of<T>;
    using codec = detail::soa_codec<list>;

    template <class Tuple> struct vectors_of;
    template <class... F> struct vectors_of<std::tuple<F...>> { using type = std::tuple<vector<F>...>; };
    using storage = typename vectors_of<typename list::storage_tuple>::type;

    template <auto M> static constexpr std::size_t index_of() {
        constexpr std::size_t i = list::template index_of<M>();
        static_assert(i < list::size, "field<&T::f>(): f is not among the fields given to SCANVEC_FIELDS");
        return i;
    }

    template <class F> void each_field(F&& f) {
        std::apply([&](auto&... v) { (f(v), ...); }, fields_);
    }

public:
    using value_type = T;
    using iterator = decltype(detail::zip_begin(std::declval<storage&>()));
    using const_iterator = decltype(detail::zip_begin(std::declval<const storage&>()));

    vector() = default;
    explicit vector(std::size_t n) { each_field([&](auto& v) { v = std::decay_t<decltype(v)>(n); }); }
    vector(std::size_t n, no_init_t) { each_field([&](auto& v) { v = std::decay_t<decltype(v)>(n, no_init); }); }
    vector(std::size_t n, const T& value) : vector(n, no_init) {
        thrust::fill_n(detail::policy(stream()), write_begin(), n, value);
        backend::check_launch("vector(n, value)");
    }
    vector(std::initializer_list<T> values) : vector(values.begin(), values.size()) {}
    explicit vector(const std::vector<T>& host) : vector(host.data(), host.size()) {}
    vector(const T* host, std::size_t n) { upload(host, n, std::make_index_sequence<list::size>{}); }

    std::size_t size() const { return std::get<0>(fields_).size(); }
    bool empty() const { return size() == 0; }
    void resize(std::size_t m) { each_field([&](auto& v) { v.resize(m); }); }

    std::vector<T> to_host() const { return download(std::make_index_sequence<list::size>{}); }

    T operator[](std::size_t i) const {
        if (i >= size()) detail::throw_element_index(i, size());
        return element(i, std::make_index_sequence<list::size>{});
    }

    /// The array of one field, no copy. Keep its length equal to the others'.
    template <auto Member> auto& field() { return std::get<index_of<Member>()>(fields_); }
    template <auto Member> const auto& field() const { return std::get<index_of<Member>()>(fields_); }

    iterator begin() { return detail::zip_begin(fields_); }
    iterator end() { return begin() + size(); }
    const_iterator begin() const { return detail::zip_begin(fields_); }
    const_iterator end() const { return begin() + size(); }

    /// Iterators that read and write whole structs (the library's own view).
    auto read_begin() const { return thrust::make_transform_iterator(begin(), typename codec::decode{}); }
    auto write_begin() { return thrust::make_transform_output_iterator(begin(), typename codec::encode{}); }

    const place& where() const { return std::get<0>(fields_).where(); }
    stream_t stream() const { return where().stream; }

private:
    template <std::size_t... I> void upload(const T* host, std::size_t n, std::index_sequence<I...>) {
        (upload_field<I>(host, n), ...);
    }
    template <std::size_t I> void upload_field(const T* host, std::size_t n) {
        constexpr auto m = list::template member<I>;
        using F = typename detail::member_traits<m>::field_type;
        std::vector<F> column(n);
        for (std::size_t k = 0; k < n; ++k) column[k] = host[k].*m;
        std::get<I>(fields_) = vector<F>(column);
    }
    template <std::size_t... I> std::vector<T> download(std::index_sequence<I...>) const {
        std::vector<T> out(size());
        (download_field<I>(out), ...);
        return out;
    }
    template <std::size_t I> void download_field(std::vector<T>& out) const {
        constexpr auto m = list::template member<I>;
        auto column = std::get<I>(fields_).to_host();
        for (std::size_t k = 0; k < out.size(); ++k) out[k].*m = column[k];
    }
    template <std::size_t... I> T element(std::size_t i, std::index_sequence<I...>) const {
        T s{};
        ((s.*(list::template member<I>) = std::get<I>(fields_)[i]), ...);
        return s;
    }

    storage fields_;
};

SCANVEC_NAMESPACE_END
