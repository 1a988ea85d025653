// scanvec/runtime/fields.hpp - describing a user struct for struct-of-arrays storage.
//
//     struct point { float x; float y; int id; };
//     SCANVEC_FIELDS(point, x, y, id)
//
// The macro, written at the struct's namespace scope, declares a function found
// by argument-dependent lookup that names the fields as compile-time member
// pointers. sv::vector<point> then stores one backend array per field, and the
// library assembles/disassembles `point` values on the backend as it moves them.
// Every field must be listed, each once: a field left out would be lost when
// the struct is stored, so a list that is not complete does not compile
// (detail/fields_complete.hpp says how that is checked).
#pragma once

#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/detail/fields_complete.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <auto Member> struct member_traits;
template <class S, class F, F S::*Member> struct member_traits<Member> {
    using struct_type = S;
    using field_type = F;
};

template <auto A, auto B> struct same_member : std::false_type {};
template <auto A> struct same_member<A, A> : std::true_type {};

/// The ordered list of a described struct's fields.
template <class S, auto... Members> struct field_list {
    using struct_type = S;
    static constexpr std::size_t size = sizeof...(Members);
    /// Position of member pointer M among the fields (size when absent).
    template <auto M> static constexpr std::size_t index_of() {
        constexpr bool hit[] = {same_member<M, Members>::value...};
        for (std::size_t i = 0; i < size; ++i)
            if (hit[i]) return i;
        return size;
    }
    using storage_tuple = std::tuple<typename member_traits<Members>::field_type...>;
    template <std::size_t I> static constexpr auto member = std::get<I>(std::make_tuple(Members...));
};

// Looked up by ADL on the struct's namespace; a declaration only, never defined.
void scanvec_fields_of(...);

template <class T, class = void> struct described : std::false_type {};
template <class T>
struct described<T, std::enable_if_t<!std::is_void_v<decltype(scanvec_fields_of(static_cast<T*>(nullptr)))>>>
    : std::true_type {
    using list = decltype(scanvec_fields_of(static_cast<T*>(nullptr)));
};

}  SCANVEC_NAMESPACE_END  // detail

SCANVEC_NAMESPACE_BEGIN
/// True for structs described with SCANVEC_FIELDS.
template <class T> inline constexpr bool is_described_v = detail::described<T>::value;
/// The field_list of a described struct.
template <class T> using fields_of = typename detail::described<T>::list;
SCANVEC_NAMESPACE_END

// Preprocessor for-each over up to 16 fields: F(T, field), comma-separated.
#define SCANVEC_PP_CAT(a, b) SCANVEC_PP_CAT_(a, b)
#define SCANVEC_PP_CAT_(a, b) a##b
#define SCANVEC_PP_NARGS(...) SCANVEC_PP_NARGS_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define SCANVEC_PP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define SCANVEC_PP_E1(F, T, a) F(T, a)
#define SCANVEC_PP_E2(F, T, a, ...) F(T, a), SCANVEC_PP_E1(F, T, __VA_ARGS__)
#define SCANVEC_PP_E3(F, T, a, ...) F(T, a), SCANVEC_PP_E2(F, T, __VA_ARGS__)
#define SCANVEC_PP_E4(F, T, a, ...) F(T, a), SCANVEC_PP_E3(F, T, __VA_ARGS__)
#define SCANVEC_PP_E5(F, T, a, ...) F(T, a), SCANVEC_PP_E4(F, T, __VA_ARGS__)
#define SCANVEC_PP_E6(F, T, a, ...) F(T, a), SCANVEC_PP_E5(F, T, __VA_ARGS__)
#define SCANVEC_PP_E7(F, T, a, ...) F(T, a), SCANVEC_PP_E6(F, T, __VA_ARGS__)
#define SCANVEC_PP_E8(F, T, a, ...) F(T, a), SCANVEC_PP_E7(F, T, __VA_ARGS__)
#define SCANVEC_PP_E9(F, T, a, ...) F(T, a), SCANVEC_PP_E8(F, T, __VA_ARGS__)
#define SCANVEC_PP_E10(F, T, a, ...) F(T, a), SCANVEC_PP_E9(F, T, __VA_ARGS__)
#define SCANVEC_PP_E11(F, T, a, ...) F(T, a), SCANVEC_PP_E10(F, T, __VA_ARGS__)
#define SCANVEC_PP_E12(F, T, a, ...) F(T, a), SCANVEC_PP_E11(F, T, __VA_ARGS__)
#define SCANVEC_PP_E13(F, T, a, ...) F(T, a), SCANVEC_PP_E12(F, T, __VA_ARGS__)
#define SCANVEC_PP_E14(F, T, a, ...) F(T, a), SCANVEC_PP_E13(F, T, __VA_ARGS__)
#define SCANVEC_PP_E15(F, T, a, ...) F(T, a), SCANVEC_PP_E14(F, T, __VA_ARGS__)
#define SCANVEC_PP_E16(F, T, a, ...) F(T, a), SCANVEC_PP_E15(F, T, __VA_ARGS__)
#define SCANVEC_PP_EACH(F, T, ...) SCANVEC_PP_CAT(SCANVEC_PP_E, SCANVEC_PP_NARGS(__VA_ARGS__))(F, T, __VA_ARGS__)
#define SCANVEC_PP_MEMBER(T, f) &T::f
#define SCANVEC_PP_OFFSET(T, f) offsetof(T, f)

/// Describes struct T's fields for struct-of-arrays storage (at T's namespace
/// scope). Every field of T must be listed, each once, in any order.
// (The offsets are read only for a standard-layout struct with constructors;
// on other structs compilers warn that offsetof is conditionally supported,
// so that warning is off around it.)
#define SCANVEC_FIELDS(T, ...)                                                                              \
    static_assert(::scanvec::detail::listed_once(SCANVEC_PP_FIELD_LIST(T, __VA_ARGS__){}),                  \
                  "SCANVEC_FIELDS(" #T ", " #__VA_ARGS__ "): each field of " #T " must be listed once");    \
    static_assert(::scanvec::detail::declared_in(SCANVEC_PP_FIELD_LIST(T, __VA_ARGS__){}),                  \
                  "SCANVEC_FIELDS(" #T ", " #__VA_ARGS__ "): list only fields that " #T                     \
                  " declares itself (a base class's fields cannot be listed)");                             \
    static_assert(::scanvec::detail::checkable_layout<T>(),                                                 \
                  "SCANVEC_FIELDS(" #T ", " #__VA_ARGS__ "): " #T " is neither an aggregate nor"            \
                  " standard-layout, so its fields cannot be checked to be all listed");                    \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Winvalid-offsetof\"")                 \
    static_assert(::scanvec::detail::lists_every_field(SCANVEC_PP_FIELD_LIST(T, __VA_ARGS__){},             \
                                                       SCANVEC_PP_EACH(SCANVEC_PP_OFFSET, T, __VA_ARGS__)), \
                  "SCANVEC_FIELDS(" #T ", " #__VA_ARGS__ "): every field of " #T                            \
                  " must be listed (a field left out would be lost when " #T " is stored)");                \
    _Pragma("GCC diagnostic pop")                                                                           \
    [[maybe_unused]] inline SCANVEC_PP_FIELD_LIST(T, __VA_ARGS__) scanvec_fields_of(T*) { return {}; }
#define SCANVEC_PP_FIELD_LIST(T, ...)                                                                       \
    ::scanvec::detail::field_list<T, SCANVEC_PP_EACH(SCANVEC_PP_MEMBER, T, __VA_ARGS__)>
