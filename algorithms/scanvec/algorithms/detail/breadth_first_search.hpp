// scanvec/algorithms/detail/breadth_first_search.hpp - the element functions
// and the level-size bound of breadth-first search.
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/write.hpp>

#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail::bfs {

/// Slot j of a segment that starts at start: edge first + j - start of its vertex.
struct edge_of {
    SCANVEC_HD index_t operator()(index_t first, index_t j, index_t start) const { return first + j - start; }
};
struct unvisited {
    SCANVEC_HD bool operator()(index_t parent) const { return parent < 0; }
};
struct same {
    SCANVEC_HD bool operator()(index_t a, index_t b) const { return a == b; }
};
/// Parent[Dst] = -1 and Via[Dst] = j: edge j is into an unvisited vertex and won it.
struct won_unvisited {
    SCANVEC_HD bool operator()(index_t parent, index_t via, index_t j) const { return parent < 0 && via == j; }
};

/// A level of at most this many edges takes the one-pack form: its pack is
/// one block, one launch (one_block_scan_shape), and K and Dst, read lazily
/// there, cost a binary search and a few gathers per edge, against two
/// launches of their own. Past it every edge would pay the second gather and
/// the write of Via that the two-pack form spares the edges into visited
/// vertices.
inline constexpr std::size_t one_pack_max = one_block_scan_shape<int>::size;

/// An edge out of the frontier: the frontier position of its source, its target.
/// (K, Dst) as one vector (a field per array), so one pack moves both.
struct edge {
    index_t k;
    index_t dst;
};
SCANVEC_FIELDS(edge, k, dst)
struct make_edge {
    SCANVEC_HD edge operator()(index_t k, index_t dst) const { return {k, dst}; }
};

}  SCANVEC_NAMESPACE_END  // detail::bfs
