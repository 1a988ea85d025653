// scanvec/algorithms/detail/quickhull.hpp - the element functions of quickhull
// (each point's side of and distance to its segment's line).
#pragma once

#include <scanvec/algorithms/point2d.hpp>
#include <scanvec/primitives/rearrange.hpp>
#include <scanvec/primitives/nested_permute.hpp>

#include <limits>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The best candidate of a segment so far: its distance, its extent along the edge, its position.
struct hull_candidate {
    double distance;
    double along;
    index_t i;
};
SCANVEC_FIELDS(hull_candidate, distance, along, i)

/// Twice the area of the triangle (a, b, p): positive when p lies right of the line a -> b.
SCANVEC_HD inline double right_of(const point2d& a, const point2d& b, const point2d& p) {
    return (p.x - a.x) * (b.y - a.y) - (p.y - a.y) * (b.x - a.x);
}

struct lower_point {  // smaller in (x, y) order
    SCANVEC_HD point2d operator()(const point2d& a, const point2d& b) const {
        return (b.x < a.x || (b.x == a.x && b.y < a.y)) ? b : a;
    }
};
struct higher_point {  // larger in (x, y) order
    SCANVEC_HD point2d operator()(const point2d& a, const point2d& b) const {
        return (a.x < b.x || (a.x == b.x && a.y < b.y)) ? b : a;
    }
};

/// Which side of the first two edges L -> R and R -> L a point is outside: 0, 1, or 2 for neither.
struct initial_side {
    point2d l, r;
    SCANVEC_HD int operator()(const point2d& p) const {
        return right_of(l, r, p) > 0 ? 0 : right_of(r, l, p) > 0 ? 1 : 2;
    }
};

/// Point i of a segment as a candidate for the farthest point from its edge p1 -> p2.
struct candidate_key {
    SCANVEC_HD hull_candidate operator()(const point2d& p, const point2d& p1, const point2d& p2, index_t i) const {
        const double along = (p.x - p1.x) * (p2.x - p1.x) + (p.y - p1.y) * (p2.y - p1.y);
        return hull_candidate{right_of(p1, p2, p), along, i};
    }
};
/// The farther candidate: by distance, then extent along the edge, then position (associative, commutative).
struct farther {
    SCANVEC_HD hull_candidate operator()(const hull_candidate& a, const hull_candidate& b) const {
        if (a.distance != b.distance) return a.distance < b.distance ? b : a;
        if (a.along != b.along) return a.along < b.along ? b : a;
        return b.i < a.i ? b : a;
    }
};
/// The position of the farthest point (0 for an edge without points: read and ignored).
struct farthest_position {
    SCANVEC_HD index_t operator()(const hull_candidate& c) const { return c.i < 0 ? 0 : c.i; }
};

/// Which new edge a point is outside: 0 for P1 -> PM, 1 for PM -> P2, 2 for neither.
struct new_side {
    SCANVEC_HD int operator()(const point2d& p, const point2d& p1, const point2d& pm, const point2d& p2) const {
        return right_of(p1, pm, p) > 0 ? 0 : right_of(pm, p2, p) > 0 ? 1 : 2;
    }
};
template <int S> struct is_side {
    SCANVEC_HD bool operator()(int side) const { return side == S; }
};
struct is_outside {
    SCANVEC_HD bool operator()(int side) const { return side != 2; }
};

/// An edge with points becomes two edges; one without stays.
struct edges_after {
    SCANVEC_HD index_t operator()(index_t points) const { return points > 0 ? 2 : 1; }
};
/// New edge j of an edge: j = 0 starts at P1 with C1 points, j = 1 at PM with C2 points.
struct new_edge_start {
    SCANVEC_HD point2d operator()(const point2d& p1, const point2d& pm, index_t j) const { return j == 0 ? p1 : pm; }
};
struct new_edge_points {
    SCANVEC_HD index_t operator()(index_t c1, index_t c2, index_t j) const { return j == 0 ? c1 : c2; }
};

}  SCANVEC_NAMESPACE_END  // detail
