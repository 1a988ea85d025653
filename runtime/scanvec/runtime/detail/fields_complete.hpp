// scanvec/runtime/detail/fields_complete.hpp - whether SCANVEC_FIELDS lists every field of its struct.
//
// A field left out of the list has no array in sv::vector<T>, so every value
// of it would be dropped when T is stored. SCANVEC_FIELDS therefore checks at
// compile time that the listed fields are all of T's fields, in two ways:
//
// - An aggregate (no constructors): the listed fields are distinct members
//   of T, so they are all of them exactly when T cannot be brace-initialised
//   from one more initialiser than there are fields listed. This is the only
//   check that sees a field small enough to sit in padding the alignment
//   rules would have put there anyway ({int a; char b; char c;} with a and b
//   listed takes 8 bytes either way); comparing sizes and offsets cannot.
//   Each initialiser is any_field, convertible to every type, written two
//   ways:
//     T{{any}, {any}, ...}  gives one member per initialiser: the inner
//       braces stop brace elision, so an array or a nested struct is one
//       member. It never counts more members than T has; it counts fewer
//       when a member cannot be list-initialised from one value (an empty
//       struct, a class whose constructors make {any} ambiguous).
//     T{any, any, ...}      reaches those members through the conversion,
//       but brace elision spreads an array member over one initialiser per
//       element, so it counts more members than T has when T has an array.
//   T has a field left out if either form takes one more initialiser than
//   there are fields listed; the second form is consulted only when no
//   listed field is an array (then, if every field is listed, T has no
//   array, and the second form counts exactly). A struct with an array field
//   is refused by sv::vector<T> itself. A base class counts as one
//   initialiser, so an aggregate with a base class is reported as having a
//   field left out (SCANVEC_FIELDS cannot list a base's fields).
//
// - A struct with constructors cannot be brace-counted. It must be
//   standard-layout, and the listed fields, in the order of their offsets,
//   must lay out sizeof(T) exactly as the alignment rules do: each at the
//   first offset of its alignment after the one before, T's size the end of
//   the last rounded up to T's alignment. A field left out leaves bytes this
//   layout does not explain, unless it fits in padding the next field's
//   alignment would have put there anyway; such structs are not told apart
//   from complete ones. Members declared with alignas or in a packed struct
//   do not follow the rule and are refused although complete.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class S, auto... Members> struct field_list;
template <auto Member> struct member_traits;

/// One initialiser of any type, for counting an aggregate's members (unevaluated operands only).
template <std::size_t> struct any_field {
    template <class U> operator U() const;
};

template <class T, class Seq, class = void> struct takes_braced : std::false_type {};
template <class T, std::size_t... I>
struct takes_braced<T, std::index_sequence<I...>, std::void_t<decltype(T{{any_field<I>{}}...})>> : std::true_type {};

template <class T, class Seq, class = void> struct takes_plain : std::false_type {};
template <class T, std::size_t... I>
struct takes_plain<T, std::index_sequence<I...>, std::void_t<decltype(T{any_field<I>{}...})>> : std::true_type {};

/// Whether the fields, at these offsets, lay out T as the alignment rules do (no bytes unexplained).
template <class T, auto... M, class... Offsets>
constexpr bool lays_out_exactly(field_list<T, M...>, Offsets... offsets) {
    constexpr std::size_t n = sizeof...(M);
    const std::size_t at[n] = {std::size_t(offsets)...};
    const std::size_t size[n] = {sizeof(typename member_traits<M>::field_type)...};
    const std::size_t align[n] = {alignof(typename member_traits<M>::field_type)...};
    std::size_t order[n] = {};
    for (std::size_t i = 0; i < n; ++i) {  // insertion sort by offset
        std::size_t j = i;
        for (; j > 0 && at[order[j - 1]] > at[i]; --j) order[j] = order[j - 1];
        order[j] = i;
    }
    std::size_t end = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t f = order[k];
        if (at[f] != (end + align[f] - 1) / align[f] * align[f]) return false;
        end = at[f] + size[f];
    }
    return (end + alignof(T) - 1) / alignof(T) * alignof(T) == sizeof(T);
}

/// Each member pointer appears once in the list.
template <class T, auto... M> constexpr bool listed_once(field_list<T, M...>) {
    constexpr std::size_t at[] = {field_list<T, M...>::template index_of<M>()...};
    for (std::size_t i = 0; i < sizeof...(M); ++i)
        if (at[i] != i) return false;
    return true;
}

/// Every member pointer names a member T declares itself (not one of a base class).
template <class T, auto... M> constexpr bool declared_in(field_list<T, M...>) {
    return (std::is_same_v<typename member_traits<M>::struct_type, T> && ...);
}

/// A struct whose fields can be checked: an aggregate, or standard-layout.
template <class T> constexpr bool checkable_layout() { return std::is_aggregate_v<T> || std::is_standard_layout_v<T>; }

/// Whether the list holds all of T's fields (see the comment at the top of the file);
/// offsets are offsetof(T, f) of the listed fields, in list order.
template <class T, auto... M, class... Offsets>
constexpr bool lists_every_field(field_list<T, M...> list, Offsets... offsets) {
    if constexpr (std::is_aggregate_v<T>) {
        using one_more = std::make_index_sequence<sizeof...(M) + 1>;
        constexpr bool array_listed = (std::is_array_v<typename member_traits<M>::field_type> || ...);
        return !takes_braced<T, one_more>::value && (array_listed || !takes_plain<T, one_more>::value);
    } else if constexpr (std::is_standard_layout_v<T>) {
        return lays_out_exactly(list, offsets...);
    } else {
        return true;  // refused by checkable_layout, with its own message
    }
}

}  SCANVEC_NAMESPACE_END  // detail
