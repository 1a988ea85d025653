// scanvec/primitives/operators.hpp - associative operators that carry their identity.
//
// A scan operator is a callable op(a, b) usable on the backend with a member
// identity(). The provided ones cover the book's +-scan, max-scan, or-scan...;
// sv::monoid(op, identity) makes one from any associative user operator,
// commutative or not, on arithmetic values or described structs.
//
// An operator may declare that it commutes (a static member `commutative`
// equal to true; sv::commutative_monoid(op, identity) does it for a user
// operator). The provided ones do. Reductions may then combine values in any
// order; combining writes (write.hpp) require it. sv::is_commutative_v<Op>
// tells.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <limits>
#include <type_traits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN

template <class T> struct plus {
    static constexpr bool commutative = true;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a + b; }
    SCANVEC_HD T identity() const { return T(0); }
};
template <class T> struct times {
    static constexpr bool commutative = true;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a * b; }
    SCANVEC_HD T identity() const { return T(1); }
};
template <class T> struct max {
    static constexpr bool commutative = true;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a < b ? b : a; }
    SCANVEC_HD T identity() const {
        if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::lowest();
    }
};
template <class T> struct min {
    static constexpr bool commutative = true;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return b < a ? b : a; }
    SCANVEC_HD T identity() const {
        if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::max();
    }
};
struct logical_or {
    static constexpr bool commutative = true;
    SCANVEC_HD bool operator()(bool a, bool b) const { return a || b; }
    SCANVEC_HD bool identity() const { return false; }
};
struct logical_and {
    static constexpr bool commutative = true;
    SCANVEC_HD bool operator()(bool a, bool b) const { return a && b; }
    SCANVEC_HD bool identity() const { return true; }
};
template <class T> struct bit_or {
    static constexpr bool commutative = true;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a | b; }
    SCANVEC_HD T identity() const { return T(0); }
};
template <class T> struct bit_and {
    static constexpr bool commutative = true;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a & b; }
    SCANVEC_HD T identity() const { return T(~T(0)); }
};
template <class T> struct bit_xor {
    static constexpr bool commutative = true;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a ^ b; }
    SCANVEC_HD T identity() const { return T(0); }
};

/// A user operator with its identity. op must be associative; it need not
/// commute (Commutative: the caller promises that it does).
template <class Op, class T, bool Commutative = false> struct monoid_op {
    static constexpr bool commutative = Commutative;
    Op op;
    T id;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return op(a, b); }
    SCANVEC_HD T identity() const { return id; }
};
template <class Op, class T> monoid_op<Op, T> monoid(Op op, T identity) { return {op, identity}; }
/// A user operator that is associative and commutative, with its identity.
template <class Op, class T> monoid_op<Op, T, true> commutative_monoid(Op op, T identity) { return {op, identity}; }

/// Whether Op declares that it commutes (a static member `commutative` equal to true).
template <class Op, class = void> struct is_commutative : std::false_type {};
template <class Op> struct is_commutative<Op, std::enable_if_t<Op::commutative>> : std::true_type {};
template <class Op> inline constexpr bool is_commutative_v = is_commutative<Op>::value;

namespace detail {

template <class Op, class = void> struct has_identity : std::false_type {};
template <class Op> struct has_identity<Op, std::void_t<decltype(std::declval<const Op&>().identity())>> : std::true_type {};

/// Whether a < b compiles for T and gives something usable as bool (sorting needs it).
template <class T, class = void> struct has_less : std::false_type {};
template <class T>
struct has_less<T, std::enable_if_t<std::is_convertible_v<decltype(std::declval<const T&>() < std::declval<const T&>()), bool>>>
    : std::true_type {};
template <class T> inline constexpr bool has_less_v = has_less<T>::value;

/// op's identity as a T, where a scan or reduction needs it. An operator
/// given without one fails here, in one line that says what to pass.
template <class T, class Op> T identity_of(const Op& op) {
    static_assert(has_identity<Op>::value,
                  "scanvec: this scan or reduce needs its operator's identity: pass sv::monoid(op, identity) "
                  "(or sv::plus<T>, sv::max<T>, ...), not a bare callable");
    if constexpr (has_identity<Op>::value) return T(op.identity());
    else return T{};
}

/// op with its arguments swapped: backward scans combine a[i] op a[i+1] op ...
template <class Op> struct flipped {
    static constexpr bool commutative = is_commutative_v<Op>;
    Op op;
    template <class T> SCANVEC_HD T operator()(const T& a, const T& b) const { return op(b, a); }
    SCANVEC_HD auto identity() const { return op.identity(); }
};

/// Keeps the left operand: a scan with it copies the first value forward.
struct keep_left {
    template <class T> SCANVEC_HD T operator()(const T& a, const T&) const { return a; }
};

}  // namespace detail
SCANVEC_NAMESPACE_END
