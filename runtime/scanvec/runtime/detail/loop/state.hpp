// scanvec/runtime/detail/loop/state.hpp - a loop's state as the arrays it
// occupies: every field array of every vector the program named.
//
// sv::repeat_while takes its state as vectors (std::tie(a, b, ...)); a
// vector of described structs is one array per field. The loop records where
// each array was before the body's first call and, after it, finds where each
// one is now, so it can tell the device to carry a replaced array's new value
// back to the old place, or put the old value back after a failure.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/bounded.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/fields.hpp>
#include <scanvec/runtime/vector.hpp>

#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace runtime::detail {

/// One array of the state: the vector that holds it, where it was, and its length then.
struct state_array {
    void* vec = nullptr;
    void* (*data)(void* vec) = nullptr;
    std::size_t (*size)(void* vec) = nullptr;
    std::size_t element_bytes = 0;
    /// Makes the vector n elements (left unwritten), in a new block.
    void (*remake)(void* vec, std::size_t n) = nullptr;
    void* before = nullptr;
    std::size_t size_before = 0;
    /// A bounded vector's room: the vector (owner), where its length is now
    /// (live(owner): elements past it need no carrying), and the position of
    /// its length among the arrays.
    void* owner = nullptr;
    const index_t* (*live)(void* owner) = nullptr;
    std::size_t length_array = 0;

    void* now() const { return data(vec); }
    std::size_t size_now() const { return size(vec); }
    std::size_t bytes_before() const { return size_before * element_bytes; }
};

template <class T> void add_arrays(vector<T>& v, std::vector<state_array>& out);
template <class T, std::size_t... I> void add_field_arrays(vector<T>& v, std::vector<state_array>& out, std::index_sequence<I...>) {
    (add_arrays(v.template field<fields_of<T>::template member<I>>(), out), ...);
}

template <class T> void add_arrays(vector<T>& v, std::vector<state_array>& out) {
    if constexpr (is_described_v<T>) {
        add_field_arrays(v, out, std::make_index_sequence<fields_of<T>::size>{});
    } else {
        state_array a;
        a.vec = &v;
        a.data = [](void* p) -> void* { return static_cast<vector<T>*>(p)->data(); };
        a.size = [](void* p) { return static_cast<vector<T>*>(p)->size(); };
        a.element_bytes = sizeof(T);
        a.remake = [](void* p, std::size_t n) { *static_cast<vector<T>*>(p) = vector<T>(n, no_init); };
        a.before = v.data();
        a.size_before = v.size();
        out.push_back(a);
    }
}

/// The array of one number in device memory, held by owner (a device_value,
/// a bounded vector's length) and remade by remake.
template <class Owner> state_array number_array(Owner& owner, void* (*data)(void*), void (*remake)(void*, std::size_t),
                                                std::size_t bytes) {
    state_array a;
    a.vec = &owner;
    a.data = data;
    a.size = [](void*) { return std::size_t(1); };
    a.element_bytes = bytes;
    a.remake = remake;
    a.before = data(&owner);
    a.size_before = 1;
    return a;
}

/// A device_value of the state (a counter the body advances): its one number.
template <class T> void add_arrays(device_value<T>& v, std::vector<state_array>& out) {
    out.push_back(number_array(
        v, [](void* p) -> void* { return static_cast<device_value<T>*>(p)->ptr(); },
        [](void* p, std::size_t) {
            auto* d = static_cast<device_value<T>*>(p);
            *d = device_value<T>(d->stream());
        },
        sizeof(T)));
}

/// A bounded vector of the state: its room's arrays and its length.
template <class T> void add_arrays(bounded<T>& b, std::vector<state_array>& out) {
    const std::size_t first = out.size();
    add_arrays(b.room(), out);
    for (std::size_t k = first; k < out.size(); ++k) {
        out[k].owner = &b;
        out[k].live = [](void* p) { return static_cast<bounded<T>*>(p)->length_ptr(); };
        out[k].length_array = out.size();
    }
    out.push_back(number_array(
        b, [](void* p) -> void* { return const_cast<index_t*>(static_cast<bounded<T>*>(p)->length_ptr()); },
        [](void* p, std::size_t) { static_cast<bounded<T>*>(p)->remake_length(); }, sizeof(index_t)));
}

/// The arrays of every vector of the state, as they are now.
template <class... V> std::vector<state_array> arrays_of(const std::tuple<V&...>& state) {
    std::vector<state_array> out;
    std::apply([&](auto&... v) { (add_arrays(v, out), ...); }, state);
    return out;
}

}  SCANVEC_NAMESPACE_END  // runtime::detail
