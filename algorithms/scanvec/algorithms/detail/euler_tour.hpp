// scanvec/algorithms/detail/euler_tour.hpp - the element functions of the
// Euler tour, rootfix and leaffix (arcs, successors, signs).
#pragma once

#include <scanvec/algorithms/list_ranking.hpp>
#include <scanvec/primitives/rearrange.hpp>

#include <string>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class I> struct out_of_range {
    index_t n;
    SCANVEC_HD bool operator()(const I& p) const { return index_t(p) < 0 || index_t(p) >= n; }
};
/// Parent[v], or the virtual root n for a root.
struct parent_or_virtual {
    index_t n;
    template <class I> SCANVEC_HD index_t operator()(const I& p, index_t v) const { return index_t(p) == v ? n : index_t(p); }
};
struct previous_clamped {
    SCANVEC_HD index_t operator()(index_t j) const { return j > 0 ? j - 1 : 0; }
};
struct next_clamped {
    index_t last;
    SCANVEC_HD index_t operator()(index_t j) const { return j < last ? j + 1 : last; }
};
/// Position j of the sorted order starts a run of siblings.
struct starts_run {
    SCANVEC_HD bool operator()(index_t p, index_t p_before, index_t j) const { return j == 0 || p != p_before; }
};
/// The next sibling of the vertex at sorted position j: the next vertex if its parent is the same.
struct next_in_run {
    index_t last;
    SCANVEC_HD index_t operator()(index_t p, index_t p_after, index_t v_after, index_t j) const {
        return j < last && p == p_after ? v_after : index_t(-1);
    }
};
struct vertex_of_arc {
    SCANVEC_HD index_t operator()(index_t a) const { return a / 2; }
};
/// The arc that follows arc a in the walk.
struct tour_successor {
    index_t n;
    SCANVEC_HD index_t operator()(index_t a, index_t first, index_t sibling, index_t up) const {
        if (a % 2 == 0) return first >= 0 ? 2 * first : a + 1;   // entered v: down to its first child, or back up
        if (sibling >= 0) return 2 * sibling;                     // left v: over to its next sibling,
        return up == n ? a : 2 * up + 1;                          // or up out of its parent (the end at the last root)
    }
};
struct from_end {
    index_t last;
    SCANVEC_HD index_t operator()(index_t rank) const { return last - rank; }
};
struct enter_arc {
    SCANVEC_HD index_t operator()(index_t v) const { return 2 * v; }
};
struct leave_arc {
    SCANVEC_HD index_t operator()(index_t v) const { return 2 * v + 1; }
};
/// +x entering, -x leaving (rootfix) ...
template <class T> struct enter_plus_leave_minus {
    SCANVEC_HD T operator()(index_t a, const T& x) const { return a % 2 == 0 ? x : T(-x); }
};
/// ... x entering, 0 leaving (leaffix).
template <class T> struct enter_only {
    SCANVEC_HD T operator()(index_t a, const T& x) const { return a % 2 == 0 ? x : T(0); }
};
template <class T> struct difference_of {
    SCANVEC_HD T operator()(const T& a, const T& b) const { return T(a - b); }
};
struct minus_one {
    SCANVEC_HD index_t operator()(index_t d) const { return d - 1; }
};

}  SCANVEC_NAMESPACE_END  // detail
