// scanvec/primitives/detail/common/one_device_only.hpp - a sv::dist::vector given to a one-device primitive.
//
// The one-device primitives take sv::vector and views. Given a
// sv::dist::vector, the compiler would list every overload that does not fit,
// or fail deep inside one that does. Each primitive with a distributed twin
// therefore declares, with SCANVEC_DETAIL_ONE_DEVICE_ONLY(name, result), one
// more overload of its name for a sv::dist::vector first argument whose body
// is only a static_assert naming sv::dist::name: the one error such a call
// gives.
//
// That guard must never be chosen where sv::dist::name fits, since book
// programs call primitives unqualified and rely on argument-dependent lookup
// to find sv::dist::name for distributed vectors:
// - its other parameters are `const R&...`, bound without conversion, so it
//   is never the better match for an argument as long as the dist::
//   overload's parameters take theirs without conversion too (deduced types,
//   dist::vector, tags). Where a dist:: overload takes a fixed type that an
//   argument may convert to (multisplit's class count, extract's position),
//   the guard is written out with that same type;
// - between equal matches, partial ordering prefers the dist:: overload: it is
//   as specialised in the first parameter, at least as specialised in the
//   others (dist::vector<I> or Op against R), and the guard's trailing pack
//   makes the guard the less specialised when all else ties. (sv::dist::map
//   has a trailing pack too: sv::map's guard takes another form, see
//   elementwise.hpp.)
// Against the one-device templates the guard is the more specialised
// (dist::vector<T> against A), so a qualified call sv::name(d) chooses it.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace dist {
template <class T> class vector;
}  // namespace dist
namespace detail {

/// False, for a static_assert that fails only when the guard is called.
template <class T> inline constexpr bool one_device_guard_called = false;

/// Declared only: a guard's static_assert stops the build before it would be
/// called. Named with the guard's own parameter D, so that the call is checked
/// only where the guard is used (R may be incomplete where it is declared).
template <class R, class D> R never_returned();

template <class X> struct is_dist_vector : std::false_type {};
template <class T> struct is_dist_vector<dist::vector<T>> : std::true_type {};
template <class... X> inline constexpr bool any_dist_vector_v = (is_dist_vector<X>::value || ...);

}  // namespace detail
SCANVEC_NAMESPACE_END

/// The message of a guard: sv::name given a sv::dist::vector.
#define SCANVEC_DETAIL_ONE_DEVICE_MESSAGE(name) \
    "sv::" #name " takes one device's vectors: for a sv::dist::vector call sv::dist::" #name

/// Declares sv::name(const dist::vector<T>&, ...), which does not compile and
/// names sv::dist::name; result (which may use T) is what sv::dist::name
/// returns, so that the code after the call still compiles. (A deduced return
/// type: the static_assert is reported at the call, not at the end of the file.)
#define SCANVEC_DETAIL_ONE_DEVICE_ONLY(name, result)                                                      \
    template <class T, class... R> auto name(const dist::vector<T>&, const R&...) {                     \
        static_assert(detail::one_device_guard_called<T>, SCANVEC_DETAIL_ONE_DEVICE_MESSAGE(name));      \
        return detail::never_returned<result, T>();                                                        \
    }
