// scanvec/runtime/fields.hpp - describing a user struct for struct-of-arrays storage.
//
//     struct point { float x; float y; int id; };
//     SCANVEC_FIELDS(point, x, y, id)
//
// The macro, written at the struct's namespace scope, declares a function found
// by argument-dependent lookup that names the fields as compile-time member
// pointers. sv::vector<point> then stores one backend array per field, and the
// library assembles/disassembles `point` values on the backend as it moves them.
#pragma once

#include <scanvec/runtime/config.hpp>

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

// Preprocessor for-each over up to 16 fields, prefixing each with &T::.
#define SCANVEC_PP_CAT(a, b) SCANVEC_PP_CAT_(a, b)
#define SCANVEC_PP_CAT_(a, b) a##b
#define SCANVEC_PP_NARGS(...) SCANVEC_PP_NARGS_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define SCANVEC_PP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define SCANVEC_PP_M1(T, a) &T::a
#define SCANVEC_PP_M2(T, a, ...) &T::a, SCANVEC_PP_M1(T, __VA_ARGS__)
#define SCANVEC_PP_M3(T, a, ...) &T::a, SCANVEC_PP_M2(T, __VA_ARGS__)
#define SCANVEC_PP_M4(T, a, ...) &T::a, SCANVEC_PP_M3(T, __VA_ARGS__)
#define SCANVEC_PP_M5(T, a, ...) &T::a, SCANVEC_PP_M4(T, __VA_ARGS__)
#define SCANVEC_PP_M6(T, a, ...) &T::a, SCANVEC_PP_M5(T, __VA_ARGS__)
#define SCANVEC_PP_M7(T, a, ...) &T::a, SCANVEC_PP_M6(T, __VA_ARGS__)
#define SCANVEC_PP_M8(T, a, ...) &T::a, SCANVEC_PP_M7(T, __VA_ARGS__)
#define SCANVEC_PP_M9(T, a, ...) &T::a, SCANVEC_PP_M8(T, __VA_ARGS__)
#define SCANVEC_PP_M10(T, a, ...) &T::a, SCANVEC_PP_M9(T, __VA_ARGS__)
#define SCANVEC_PP_M11(T, a, ...) &T::a, SCANVEC_PP_M10(T, __VA_ARGS__)
#define SCANVEC_PP_M12(T, a, ...) &T::a, SCANVEC_PP_M11(T, __VA_ARGS__)
#define SCANVEC_PP_M13(T, a, ...) &T::a, SCANVEC_PP_M12(T, __VA_ARGS__)
#define SCANVEC_PP_M14(T, a, ...) &T::a, SCANVEC_PP_M13(T, __VA_ARGS__)
#define SCANVEC_PP_M15(T, a, ...) &T::a, SCANVEC_PP_M14(T, __VA_ARGS__)
#define SCANVEC_PP_M16(T, a, ...) &T::a, SCANVEC_PP_M15(T, __VA_ARGS__)

/// Describes struct T's fields for struct-of-arrays storage (at T's namespace scope).
#define SCANVEC_FIELDS(T, ...)                                                                   \
    [[maybe_unused]] inline ::scanvec::detail::field_list<                                       \
        T, SCANVEC_PP_CAT(SCANVEC_PP_M, SCANVEC_PP_NARGS(__VA_ARGS__))(T, __VA_ARGS__)>          \
    scanvec_fields_of(T*) {                                                                      \
        return {};                                                                               \
    }
