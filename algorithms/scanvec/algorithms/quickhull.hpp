// scanvec/algorithms/quickhull.hpp - the convex hull of points in the plane.
//
// Blelloch's quickhull, where every subproblem lives in one segment and all
// subproblems advance together. The hull is kept as a list of edges; segment k
// holds the points still outside edge k. One round finds in every segment the
// point farthest outside its edge (a segmented max), which is a hull vertex;
// it splits the edge in two, and the points outside either new edge are kept
// (a pack and a segmented split), the others lie inside the hull and drop out:
//
//   procedure quickhull(Points)
//       L, R   <- min and max of Points in (x, y) order       two hull vertices
//       Hull   <- [L, R]                                      edge k: Hull[k] to Hull[k+1], cyclically
//       Cand   <- the points below L-R, then those above it   one segment per edge
//       while Cand is not empty
//           P1, P2 <- the ends of each edge, distributed over its segment
//           D      <- distance of every point from the line P1-P2
//           Far    <- segmented max(D)                        the farthest point: a hull vertex
//           PM     <- distribute(Far)
//           Side   <- outside P1-PM, outside PM-P2, or neither (inside the triangle)
//           Cand   <- split(pack(Cand, Side != neither), Side) per segment
//           Hull   <- each edge with points replaced by P1-PM, PM-P2 (allocate 2, else 1)
//       Hull
//
// The result runs counter-clockwise from the point with the smallest x (then
// smallest y), and holds only corners: points on an edge of the hull are left
// out. Ties in the segmented max go to the point farthest along the edge, which
// is a corner. Distances are twice the triangle areas in double arithmetic:
// exact for integer coordinates up to about 2^25 in magnitude; otherwise nearly
// collinear points may be classified differently on different backends.
#pragma once

#include <scanvec/algorithms/detail/quickhull.hpp>
#include <scanvec/algorithms/point2d.hpp>
#include <scanvec/primitives/rearrange.hpp>
#include <scanvec/primitives/nested_permute.hpp>

#include <limits>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

/// The corners of the convex hull of the points, counter-clockwise from the
/// lowest point in (x, y) order. One point for a single (or repeated) point,
/// two for collinear points, none for none.
template <class Points> vector<point2d> quickhull(const Points& points) {
    static_assert(std::is_same_v<value_t<Points>, point2d>, "sv::quickhull(points): points must be sv::point2d");
    const double inf = std::numeric_limits<double>::infinity();
    if (points.empty()) return vector<point2d>();
    return detail::labelled("quickhull", points.size(), [&] {
        // L, R <- the lowest and the highest point in (x, y) order: two corners of the hull
        const point2d l = reduce(points, monoid(detail::lower_point{}, point2d{inf, inf}));
        const point2d r = reduce(points, monoid(detail::higher_point{}, point2d{-inf, -inf}));
        if (l == r) return vector<point2d>(1, l);
        // Hull <- [L, R]: counter-clockwise, edge k runs from Hull[k] to Hull[k + 1] (cyclically)
        vector<point2d> hull = {l, r};
        // Side <- below L -> R (edge 0), above it (edge 1), or on the line (dropped)
        auto side = map(detail::initial_side{l, r}, points);
        auto outside = lazy::map(detail::is_outside{}, side);
        // Cand <- the points outside each edge, one segment per edge
        auto kept = pack(points, outside);
        auto kept_side = pack(side, outside);
        const std::vector<index_t> per_edge = {count(lazy::map(detail::is_side<0>{}, side)),
                                               count(lazy::map(detail::is_side<1>{}, side))};
        nested<point2d> cand(split(kept, lazy::map(detail::is_side<1>{}, kept_side)),
                             segments::from_lengths(per_edge));
        while (cand.total() > 0) {
            const segments& segs = cand.segments();
            const std::size_t t = cand.total();
            // P1, P2 <- the ends of every edge, distributed over its points
            auto p1 = distribute(hull, segs);
            auto p2 = distribute(rotate(hull, -1), segs);
            // Far <- segmented max of the distance from the edge's line (ties: farthest along the edge)
            auto far = reduce(lazy::map(detail::candidate_key{}, cand.values(), p1, p2, lazy::index(t)), segs,
                              monoid(detail::farther{}, detail::hull_candidate{-inf, -inf, -1}));
            // PM <- the farthest point of every edge, distributed over its points
            auto pm = back_permute(cand.values(), lazy::map(detail::farthest_position{}, far));
            auto q = distribute(pm, segs);
            // Side <- outside P1 -> PM (0), outside PM -> P2 (1), or inside the triangle (2)
            auto point_side = map(detail::new_side{}, cand.values(), p1, q, p2);
            auto keep = lazy::map(detail::is_outside{}, point_side);
            // C1, C2 <- the points outside each new edge
            auto c1 = count(lazy::map(detail::is_side<0>{}, point_side), segs);
            auto c2 = count(lazy::map(detail::is_side<1>{}, point_side), segs);
            // Cand <- pack the points outside a new edge, and split every segment by side
            auto packed_side = pack(point_side, keep);
            auto next = split(pack(cand, keep), lazy::map(detail::is_side<1>{}, packed_side));
            // Edges <- allocate(2 for an edge with points, else 1)
            auto edges = allocate(lazy::map(detail::edges_after{}, length(segs)));
            auto j = index(edges);
            // Hull <- P1 starts new edge 0, PM new edge 1; their segments hold C1 and C2 points
            auto lengths = map(detail::new_edge_points{}, distribute(c1, edges), distribute(c2, edges), j);
            hull = map(detail::new_edge_start{}, distribute(hull, edges), distribute(pm, edges), j);
            cand = nested<point2d>(std::move(next.values()), segments::from_lengths(lengths));
        }
        return hull;
    }, points);
}

SCANVEC_NAMESPACE_END
