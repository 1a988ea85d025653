// scanvec/algorithms/euler_tour.hpp - tree computations as scans over an Euler tour.
//
// A rooted tree is flattened into the walk that goes down every edge and back
// up again (its Euler tour); then sums over the path from the root (rootfix)
// and over a subtree (leaffix) are +-scans of that walk. The tour is built with
// the model's primitives: a rank (stable sort) groups every vertex's children,
// shifted back-permutes give first children and next siblings, and the order of
// the walk comes from list ranking by pointer jumping (list_ranking.hpp):
//
//   procedure euler-tour(Parent)               Parent[v] = v at a root
//       Up      <- Parent, with the virtual root n as the parent of every root
//       Order   <- the vertices sorted by Up (stable): every vertex's children together
//       First   <- the first child of every vertex (-1 for a leaf)
//       Sibling <- the next child of the same parent (-1 for the last)
//       Next    <- the successor of every arc; arc 2v enters v, arc 2v + 1 leaves it:
//                    after entering v: enter First[v], or leave v at a leaf
//                    after leaving v:  enter Sibling[v], or leave Up[v] (the tour ends after the last root)
//       Position <- 2n - 1 - list-rank(Next)
//       Arcs     <- permute(index(2n), Position)
//
//   procedure rootfix(Tour, X)                 X summed over the path root .. v
//       W <- +X[v] on the arc entering v, -X[v] on the arc leaving v
//       S <- +-scan(W)  (inclusive);   R[v] <- S[Position[2v]]
//
//   procedure leaffix(Tour, X)                 X summed over the subtree of v
//       W <- X[v] on the arc entering v, 0 on the arc leaving v
//       S <- +-scan(W)  (exclusive);   L[v] <- S[Position[2v + 1]] - S[Position[2v]]
//
// Depth is rootfix(1) - 1, subtree size leaffix(1), preorder number the
// exclusive +-scan of the entering arcs. A forest is one tour: the roots are
// the children of a virtual root, visited in order of their numbers, and so
// are the children of every vertex. Parents out of range throw sv::index_error;
// a cycle in Parent leaves arcs off the tour, which the final permute reports
// as sv::index_error (with checks on).
#pragma once

#include <scanvec/algorithms/detail/euler_tour.hpp>
#include <scanvec/algorithms/list_ranking.hpp>
#include <scanvec/primitives/rearrange.hpp>

#include <string>

SCANVEC_NAMESPACE_BEGIN

/// The Euler tour of a forest of n vertices: 2n arcs, arc 2v enters vertex v, arc 2v + 1 leaves it.
struct tour {
    vector<index_t> arcs;      ///< the arcs in the order of the walk
    vector<index_t> position;  ///< position[a]: where arc a is in the walk
    std::size_t vertices() const { return position.size() / 2; }
};

/// The Euler tour of the forest given by parent (parent[v] == v at a root).
template <class Parent> tour euler_tour(const Parent& parent) {
    static_assert(std::is_integral_v<value_t<Parent>>, "sv::euler_tour(parent): parent must hold integers");
    const index_t n = index_t(parent.size());
    return detail::labelled("euler_tour", parent.size(), [&] {
        const index_t bad = count(lazy::map(detail::out_of_range<value_t<Parent>>{n}, parent));
        if (bad) throw index_error("euler_tour: " + std::to_string(bad) + " parents are out of range for " +
                                   std::to_string(n) + " vertices");
        auto all = lazy::index(std::size_t(n));
        // Up <- Parent, with the virtual root n as the parent of every root
        auto up = map(detail::parent_or_virtual{n}, parent, all);
        // Order <- the vertices sorted by Up (stable): every vertex's children together, in order
        auto where = rank(up);
        auto order = permute(all, where, unchecked);
        auto sorted_up = permute(up, where, unchecked);
        // Heads <- where a run of siblings starts in Order
        auto heads = map(detail::starts_run{}, sorted_up,
                         lazy::back_permute(sorted_up, lazy::map(detail::previous_clamped{}, all)), all);
        // First <- the first child of every vertex and of the virtual root (-1 for none)
        auto first = default_permute(pack(order, heads), pack(sorted_up, heads), index_t(-1), std::size_t(n + 1));
        // Sibling <- the next vertex of Order when it has the same parent (-1 for the last child)
        auto after = lazy::map(detail::next_clamped{n - 1}, all);
        auto sibling = permute(map(detail::next_in_run{n - 1}, sorted_up, lazy::back_permute(sorted_up, after),
                                   lazy::back_permute(order, after), all),
                               order, unchecked);
        // Next <- the successor of every arc (2v enters v, 2v + 1 leaves it)
        auto arcs = lazy::index(std::size_t(2 * n));
        auto v = lazy::map(detail::vertex_of_arc{}, arcs);
        auto next = map(detail::tour_successor{n}, arcs, lazy::back_permute(first, v), lazy::back_permute(sibling, v),
                        lazy::back_permute(up, v));
        // Position <- 2n - 1 - list-rank(Next)
        auto position = map(detail::from_end{2 * n - 1}, list_rank(next));
        // Arcs <- permute(index(2n), Position)     (checked: arcs off the tour have no place)
        auto walk = permute(arcs, position);
        return tour{std::move(walk), std::move(position)};
    }, parent);
}

/// r[v] = the sum of x over v and its ancestors (the path from the root to v).
template <class X> vector<value_t<X>> rootfix(const tour& t, const X& x) {
    using T = value_t<X>;
    static_assert(std::is_arithmetic_v<T>, "sv::rootfix(tour, x): x must hold numbers");
    return detail::labelled("rootfix", x.size(), [&] {
        detail::expect_same_length("rootfix (tour vertices and x)", t.vertices(), x.size());
        // W <- +X[v] on the arc entering v, -X[v] on the arc leaving v
        auto w = lazy::map(detail::enter_plus_leave_minus<T>{}, t.arcs,
                           lazy::back_permute(x, lazy::map(detail::vertex_of_arc{}, t.arcs)));
        // S <- +-scan(W), inclusive
        auto s = inclusive_scan(w);
        // R[v] <- S[Position[2v]]
        auto enter = lazy::back_permute(t.position, lazy::map(detail::enter_arc{}, lazy::index(x.size())));
        return back_permute(s, enter);
    }, x);
}

/// r[v] = the sum of x over the subtree of v (v and its descendants).
template <class X> vector<value_t<X>> leaffix(const tour& t, const X& x) {
    using T = value_t<X>;
    static_assert(std::is_arithmetic_v<T>, "sv::leaffix(tour, x): x must hold numbers");
    return detail::labelled("leaffix", x.size(), [&] {
        detail::expect_same_length("leaffix (tour vertices and x)", t.vertices(), x.size());
        // W <- X[v] on the arc entering v, 0 on the arc leaving v
        auto w = lazy::map(detail::enter_only<T>{}, t.arcs,
                           lazy::back_permute(x, lazy::map(detail::vertex_of_arc{}, t.arcs)));
        // S <- +-scan(W), exclusive
        auto s = scan(w);
        // L[v] <- S[Position[2v + 1]] - S[Position[2v]]
        auto all = lazy::index(x.size());
        auto enter = lazy::back_permute(t.position, lazy::map(detail::enter_arc{}, all));
        auto leave = lazy::back_permute(t.position, lazy::map(detail::leave_arc{}, all));
        return map(detail::difference_of<T>{}, lazy::back_permute(s, leave), lazy::back_permute(s, enter));
    }, x);
}

// The three below are templates only so that their kernels are compiled
// where a program calls them, not in every file that includes this header.

/// The depth of every vertex (0 at a root): rootfix(1) - 1.
template <class Tour, std::enable_if_t<std::is_same_v<Tour, tour>, int> = 0> vector<index_t> tree_depth(const Tour& t) {
    return map(detail::minus_one{}, rootfix(t, lazy::distribute(index_t(1), t.vertices())));
}

/// The number of vertices in the subtree of every vertex: leaffix(1).
template <class Tour, std::enable_if_t<std::is_same_v<Tour, tour>, int> = 0>
vector<index_t> subtree_size(const Tour& t) { return leaffix(t, lazy::distribute(index_t(1), t.vertices())); }

/// The preorder number of every vertex (roots in order, children in order of their numbers).
template <class Tour, std::enable_if_t<std::is_same_v<Tour, tour>, int> = 0>
vector<index_t> preorder_number(const Tour& t) {
    const std::size_t n = t.vertices();
    // S <- +-scan of 1 on every entering arc, exclusive;  Pre[v] <- S[Position[2v]]
    auto s = scan(lazy::map(detail::enter_only<index_t>{}, t.arcs, lazy::distribute(index_t(1), 2 * n)));
    return back_permute(s, lazy::back_permute(t.position, lazy::map(detail::enter_arc{}, lazy::index(n))));
}

SCANVEC_NAMESPACE_END
