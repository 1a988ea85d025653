// scanvec/algorithms/detail/halving_merge.hpp - the element functions of the halving merge.
#pragma once

#include <scanvec/primitives/rearrange.hpp>
#include <scanvec/primitives/nested.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct is_odd_position {
    SCANVEC_HD bool operator()(index_t i) const { return (i & 1) != 0; }
};
struct is_false {
    SCANVEC_HD bool operator()(bool f) const { return !f; }
};
/// Every position but r takes from B (A's single element sits at r).
struct all_but {
    index_t r;
    SCANVEC_HD bool operator()(index_t k) const { return k != r; }
};
template <class T> struct is_less_than {
    T v;
    SCANVEC_HD bool operator()(const T& x) const { return x < v; }
};
struct before_gap {  // the neighbour before gap g (clamped: unused at g = 0)
    SCANVEC_HD index_t operator()(index_t g) const { return g > 0 ? g - 1 : 0; }
};
struct after_gap {  // the neighbour after gap g (clamped: unused at g = m)
    index_t last;
    SCANVEC_HD index_t operator()(index_t g) const { return g < last ? g : last; }
};
struct even_candidate {  // position 2c of a vector (clamped: unused when 2c is past the end)
    index_t last;
    SCANVEC_HD index_t operator()(index_t c) const { return 2 * c < last ? 2 * c : last; }
};
struct minus_index {
    SCANVEC_HD index_t operator()(index_t a, index_t b) const { return a - b; }
};

/// The slots of gap g (0..m) between the merged odd elements M'[g-1] and M'[g]:
/// the even elements of A and of B that fall into it, in order, then M'[g].
/// Encoded as bit j = "slot j takes from B", bits 4 and up = the number of slots.
template <class T> struct gap_slots {
    index_t m, na, nb;
    SCANVEC_HD int operator()(index_t g, index_t ca, const T& ea, const T& eb, const T& left, bool left_b,
                              const T& right, bool right_b) const {
        const index_t cb = g - ca;
        const bool has_left = g > 0, has_right = g < m;
        // a[2 CA] is in the gap when it follows the left neighbour and precedes the right one
        // (an A element precedes an equal B element; a neighbour from A is its own predecessor or successor)
        const bool in_a = 2 * ca < na && (!has_left || !left_b || left < ea) && (!has_right || !right_b || !(right < ea));
        const bool in_b = 2 * cb < nb && (!has_left || left_b || !(eb < left)) && (!has_right || right_b || eb < right);
        int code = 0, k = 0;
        if (in_a && in_b) { code = (eb < ea) ? 1 : 2; k = 2; }
        else if (in_a) { k = 1; }
        else if (in_b) { code = 1; k = 1; }
        if (has_right) { code |= (right_b ? 1 : 0) << k; ++k; }
        return code | (k << 4);
    }
};
struct slot_count {
    SCANVEC_HD index_t operator()(int code) const { return index_t(code >> 4); }
};
struct slot_from_b {
    SCANVEC_HD bool operator()(int code, index_t j) const { return ((code >> j) & 1) != 0; }
};

}  SCANVEC_NAMESPACE_END  // detail
