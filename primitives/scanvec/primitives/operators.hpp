// scanvec/primitives/operators.hpp - associative operators that carry their identity.
//
// A scan operator is a callable op(a, b) usable on the backend with a member
// identity(). The provided ones cover the book's +-scan, max-scan, or-scan...;
// sv::monoid(op, identity) makes one from any associative user operator,
// commutative or not, on arithmetic values or described structs.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <limits>
#include <type_traits>

namespace scanvec {

template <class T> struct plus {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a + b; }
    SCANVEC_HD T identity() const { return T(0); }
};
template <class T> struct times {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a * b; }
    SCANVEC_HD T identity() const { return T(1); }
};
template <class T> struct max {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a < b ? b : a; }
    SCANVEC_HD T identity() const {
        if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::lowest();
    }
};
template <class T> struct min {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return b < a ? b : a; }
    SCANVEC_HD T identity() const {
        if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::max();
    }
};
struct logical_or {
    SCANVEC_HD bool operator()(bool a, bool b) const { return a || b; }
    SCANVEC_HD bool identity() const { return false; }
};
struct logical_and {
    SCANVEC_HD bool operator()(bool a, bool b) const { return a && b; }
    SCANVEC_HD bool identity() const { return true; }
};
template <class T> struct bit_or {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a | b; }
    SCANVEC_HD T identity() const { return T(0); }
};
template <class T> struct bit_and {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a & b; }
    SCANVEC_HD T identity() const { return T(~T(0)); }
};
template <class T> struct bit_xor {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return a ^ b; }
    SCANVEC_HD T identity() const { return T(0); }
};

/// A user operator with its identity. op must be associative; it need not commute.
template <class Op, class T> struct monoid_op {
    Op op;
    T id;
    SCANVEC_HD T operator()(const T& a, const T& b) const { return op(a, b); }
    SCANVEC_HD T identity() const { return id; }
};
template <class Op, class T> monoid_op<Op, T> monoid(Op op, T identity) { return {op, identity}; }

namespace detail {

/// op with its arguments swapped: backward scans combine a[i] op a[i+1] op ...
template <class Op> struct flipped {
    Op op;
    template <class T> SCANVEC_HD T operator()(const T& a, const T& b) const { return op(b, a); }
    SCANVEC_HD auto identity() const { return op.identity(); }
};

/// Keeps the left operand: a scan with it copies the first value forward.
struct keep_left {
    template <class T> SCANVEC_HD T operator()(const T& a, const T&) const { return a; }
};

}  // namespace detail
}  // namespace scanvec
