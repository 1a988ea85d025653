// scanvec/algorithms/detail/breadth_first_search.hpp - the element functions,
// the level-size bounds and the small levels' test of breadth-first search.
#pragma once

#include <scanvec/primitives/bounded.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/write.hpp>

#include <thrust/iterator/transform_output_iterator.h>

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

/// A vertex's entry in the search tree: Parent and Distance as one vector (a
/// field per array), so that a small level writes both in one step.
struct visit {
    index_t parent;
    index_t distance;
};
SCANVEC_FIELDS(visit, parent, distance)
/// Reached from `from`, at `from`'s distance: (from, Distance[from] + 1).
struct visit_from {
    SCANVEC_HD visit operator()(index_t from, index_t distance) const { return {from, distance + 1}; }
};

/// The small levels run on the device (sv::repeat_while) with their frontier
/// and slots in bounded vectors of this capacity: every step of theirs is one
/// block, one launch (the narrowest, the allocation's scan of index_t, takes
/// the capacity and the total after it).
inline constexpr std::size_t small_level_max = std::size_t(one_block_scan_shape<index_t>::size) - 1;

/// Whether a level of n frontier vertices and `slots` edges is one for the device.
inline bool small_level(std::size_t n, std::size_t slots) {
    return n <= small_level_max && slots > 0 && slots <= small_level_max;
}

/// a + b, or cap + 1 once past cap (so that no sum overflows).
struct capped_plus {
    index_t cap;
    SCANVEC_HD index_t operator()(index_t a, index_t b) const { return a + b > cap ? cap + 1 : a + b; }
    SCANVEC_HD index_t identity() const { return 0; }
    static constexpr bool commutative = true;
};
struct within {
    index_t cap;
    SCANVEC_HD int operator()(index_t slots) const { return slots > 0 && slots <= cap ? 1 : 0; }
};

/// Whether the next level is small too (its frontier f, its slots the sum of
/// their degrees), left on the device: the test of the loop of small levels.
template <class Degree> device_value<int> next_level_small(const bounded<index_t>& f, const Degree& degree) {
    const stream_t s = current_stream();
    device_value<int> r(s);
    const capped_plus op{index_t(small_level_max)};
    auto slots = lazy::back_permute(degree, f);
    reduce_into(masked(slots.begin(), f.length_ptr(), index_t(0)), f.capacity(), op, index_t(0),
                thrust::make_transform_output_iterator(r.ptr(), within{op.cap}), s);
    return r;
}

}  SCANVEC_NAMESPACE_END  // detail::bfs
