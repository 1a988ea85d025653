// scanvec/algorithms/breadth_first_search.hpp - breadth-first search from one vertex, level by level.
//
// The frontier version of breadth-first search on a graph in compressed rows
// (sv::nested: segment v lists the targets of v's edges, so the descriptor's
// offsets and the flat values are CSR's offsets and targets). Each level
// allocates a slot for every edge out of the frontier, fetches the edges'
// targets, keeps those into unvisited vertices, and lets one edge win each
// newly reached vertex with a write where several edges may collide:
//
//   procedure BFS(Offsets, Targets, s)
//       Parent <- -1; Distance <- -1; Parent[s] <- s; Distance[s] <- 0
//       F <- [s]; d <- 0
//       while #F > 0
//           d   <- d + 1
//           S   <- allocate(Offsets[F + 1] - Offsets[F])     a segment of slots per frontier vertex
//           K   <- segment-ids(S)                             the frontier position of every slot
//           Dst <- Targets[Offsets[F[K]] + index(S)]          every edge out of the frontier
//           if #S is at most one block                        a small level: one pack
//               Via <- Via <- {(Dst[j], j)}                   one edge wins each target (collisions allowed)
//               (K', F') <- pack((K, Dst), Parent[Dst] = -1 and Via[Dst] = index(#Dst))
//           else                                              a large level: the visited dropped first
//               (K, Dst) <- pack((K, Dst), Parent[Dst] = -1)     edges into unvisited vertices
//               Via <- Via <- {(Dst[j], j)}                       one edge wins each vertex
//               (K', F') <- pack((K, Dst), Via[Dst] = index(#Dst))   each newly reached vertex once
//           Parent   <- Parent <- {(F'[i], F[K'[i]])}         its winning edge's source
//           Distance <- Distance <- {(F'[i], d)}
//           F   <- F'
//       (Parent, Distance)
//
// Small levels (a frontier and its edges within one block: a search along a
// path, the first and last levels of any) would pay the host a wait each.
// Once one comes, the device repeats them by itself (sv::repeat_while) while
// the next stays small: the same small level on a bounded frontier (its length
// on the device, runtime/bounded.hpp), Distance[F'] <- Distance[F[K']] + 1
// written with Parent in one write (the two are the fields of one vector of
// visits), and the test whether the next frontier's edges fit. The host then takes the
// frontier back and goes on.
//
// The writes are sv::write on vectors moved in (unchecked: every target was
// checked once on entry), so a level's work is
// proportional to the frontier and its edges, never to the number of
// vertices: the whole search does O(n + m) work (n vertices, m edges) in one
// constant-depth round of steps per level, O(diameter) rounds. Via is scratch
// that is read only where the same level wrote it. Both forms of a level give
// the same tree; a small level has fewer steps (K and Dst are computed inside
// its one pack), a large one moves less (most of its edges end at visited
// vertices, and the first pack drops them before the write and second pack).
// docs/design/small-calls.md has the measurements.
//
// Contract: source must be a vertex (sv::index_error otherwise), and every
// target must lie in 0..adj.count()-1 (checked once, sv::index_error). Edges
// are directed; self-loops and repeated edges are allowed. Which of several
// shortest-path parents a vertex gets is unspecified (it may differ between
// runs and backends); the distances are exact.
#pragma once

#include <scanvec/algorithms/detail/breadth_first_search.hpp>
#include <scanvec/primitives/bounded.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/write.hpp>
#include <scanvec/runtime/loop.hpp>

#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN

/// The result of a breadth-first search over n vertices.
struct bfs_tree {
    /// parent[v]: the vertex before v on a shortest path from the source
    /// (the source itself for the source, -1 for a vertex not reached).
    vector<index_t> parent;
    /// distance[v]: the number of edges on a shortest path from the source (-1 if not reached).
    vector<index_t> distance;
};

/// Breadth-first search from source over the directed graph whose vertex v has
/// edges to the values of adj's segment v: every vertex's distance from the
/// source and a parent on a shortest path (both -1 where not reached).
template <class I> bfs_tree breadth_first_search(const nested<I>& adj, index_t source) {
    static_assert(std::is_integral_v<I>, "sv::breadth_first_search(adj, source): adj must hold vertex numbers");
    namespace b = detail::bfs;
    const std::size_t n = adj.count();
    return detail::labelled("breadth_first_search", adj.total(), [&] {
        if (source < 0 || std::size_t(source) >= n)
            throw index_error("breadth_first_search: source " + std::to_string(source) + " is not a vertex (" +
                              std::to_string(n) + " vertices)");
        detail::expect_targets_in_range("breadth_first_search", adj.values(), n);
        const vector<index_t>& offsets = adj.segments().offsets();
        auto degree = adj.segments().lazy_lengths();
        // Parent <- -1; Distance <- -1; Parent[s] <- s; Distance[s] <- 0 (a field each, one write for both)
        vector<b::visit> tree(n, b::visit{-1, -1});
        vector<index_t>& parent = tree.field<&b::visit::parent>();
        vector<index_t>& distance = tree.field<&b::visit::distance>();
        parent.set(std::size_t(source), source);
        distance.set(std::size_t(source), 0);
        vector<index_t> via(n, no_init);
        // F <- [s]
        vector<index_t> frontier(1, source);
        for (index_t d = 1; !frontier.empty(); ++d) {
            // S <- allocate(Offsets[F + 1] - Offsets[F])
            segments s = allocate(lazy::back_permute(degree, frontier));
            if (b::small_level(frontier.size(), s.total())) {  // the small levels, on the device while they stay small
                bounded<index_t> f(frontier, b::small_level_max);
                d += index_t(repeat_while(std::tie(tree, via, f), [&] {
                    // S <- allocate(Offsets[F + 1] - Offsets[F]); K <- segment-ids(S); Dst, as above
                    bounded_segments s = allocate(lazy::back_permute(degree, f), b::small_level_max);
                    auto k = s.lazy_ids();
                    auto dst = lazy::map(detail::to_position{}, lazy::back_permute(adj.values(),
                        lazy::map(b::edge_of{}, lazy::back_permute(lazy::back_permute(offsets, f), k), s.lazy_index(),
                                  lazy::back_permute(s.starts(), k))));
                    // Via <- Via <- {(Dst[j], j)}
                    via = write(std::move(via), dst, s.lazy_index(), unchecked);
                    // (K', F') <- pack((K, Dst), Parent[Dst] = -1 and Via[Dst] = index(#Dst))
                    bounded<b::edge> e = pack(lazy::map(b::make_edge{}, k, dst),
                                              lazy::map(b::won_unvisited{}, lazy::back_permute(parent, dst),
                                                        lazy::back_permute(via, dst), s.lazy_index()),
                                              length_on_device);
                    // Parent <- Parent <- {(F', F[K'])}; Distance <- Distance <- {(F', Distance[F[K']] + 1)}
                    auto from = lazy::back_permute(f, e.field<&b::edge::k>());
                    tree = write(std::move(tree), e.field<&b::edge::dst>(),
                                 lazy::map(b::visit_from{}, from, lazy::back_permute(distance, from)), unchecked);
                    // F <- F', while F' and its edges fit the small levels
                    f = std::move(e).take_field<&b::edge::dst>();
                    return b::next_level_small(f, degree);
                })) - 1;
                frontier = f.to_vector();
                continue;
            }
            // Dst <- Targets[Offsets[F[K]] + index(S)]: slot j of segment K reads edge Offsets[F[K]] + j - S.starts[K]
            const auto edge_at = [&](const auto& k) {
                return lazy::map(b::edge_of{}, lazy::back_permute(lazy::back_permute(offsets, frontier), k),
                                 lazy::index(s.total()), lazy::back_permute(s.starts(), k));
            };
            vector<b::edge> e;
            if (s.total() <= b::one_pack_max) {
                // K <- segment-ids(S), Dst: both lazy, computed where they are read
                auto k = s.lazy_ids();
                auto dst = lazy::map(detail::to_position{}, lazy::back_permute(adj.values(), edge_at(k)));
                // Via <- Via <- {(Dst[j], j)}: one edge wins each target
                via = write(std::move(via), dst, lazy::index(s.total()), unchecked);
                // (K', F') <- pack((K, Dst), Parent[Dst] = -1 and Via[Dst] = index(#Dst))
                e = pack(lazy::map(b::make_edge{}, k, dst),
                         lazy::map(b::won_unvisited{}, lazy::back_permute(parent, dst), lazy::back_permute(via, dst),
                                   lazy::index(s.total())));
            } else {
                // K <- segment-ids(S); Dst
                auto& k = e.field<&b::edge::k>();
                k = s.ids();
                e.field<&b::edge::dst>() = map(detail::to_position{}, lazy::back_permute(adj.values(), edge_at(k)));
                // (K, Dst) <- pack((K, Dst), Parent[Dst] = -1)
                e = pack(e, lazy::map(b::unvisited{}, lazy::back_permute(parent, e.field<&b::edge::dst>())));
                // Via <- Via <- {(Dst[j], j)}: one edge wins each newly reached vertex
                const auto& to = e.field<&b::edge::dst>();
                via = write(std::move(via), to, lazy::index(to.size()), unchecked);
                // (K', F') <- pack((K, Dst), Via[Dst] = index(#Dst))
                e = pack(e, lazy::map(b::same{}, lazy::back_permute(via, to), lazy::index(to.size())));
            }
            vector<index_t> reached = std::move(e.field<&b::edge::dst>());
            // Parent <- Parent <- {(F', F[K'])}; Distance <- Distance <- {(F', d)}
            parent = write(std::move(parent), reached, lazy::back_permute(frontier, e.field<&b::edge::k>()), unchecked);
            distance = write(std::move(distance), reached, lazy::distribute(d, reached.size()), unchecked);
            // F <- F'
            frontier = std::move(reached);
        }
        return bfs_tree{std::move(parent), std::move(distance)};
    });
}

SCANVEC_NAMESPACE_END
