// scanvec/primitives/detail/three_way/dispatch.hpp - the one place the three-way split family picks its form.
//
// three_way_impl<T, Pos> is the form every call of three_way_split.hpp runs:
// the CUDA tile passes (three_way/cuda/tiles.hpp) for arithmetic keys with 32-bit
// positions and the generic form (three_way/generic.hpp) for everything else
// on CUDA; on the host the host form (three_way/host.hpp), passes over blocks of
// positions on every thread. All three offer the same static members: begin, short_limit,
// short_tile, choose_pivots, count, sort_short, split, split_any_order, count_split_any_order
// (and counts_in_split: whether that split counts for itself). The tile form hands a
// state of 2^31 elements or more to the generic one itself.
#pragma once

#include <scanvec/primitives/detail/three_way/generic.hpp>

#include <cstdint>
#include <type_traits>

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/tiles.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {
/// Whether the CUDA tile passes serve keys of type T with positions of type Pos.
template <class T, class Pos>
constexpr bool three_way_by_tiles = std::is_arithmetic_v<T> && std::is_same_v<Pos, std::uint32_t>;

template <class T, class Pos>
using three_way_impl = std::conditional_t<three_way_by_tiles<T, Pos>, three_way_tiles<T>, three_way_generic<T, Pos>>;
}  SCANVEC_NAMESPACE_END  // detail

#else

#include <scanvec/primitives/detail/three_way/host.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {
template <class T, class Pos> using three_way_impl = three_way_host<T, Pos>;
}  SCANVEC_NAMESPACE_END  // detail

#endif
