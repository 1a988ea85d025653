// scanvec/primitives/detail/three_way_place.hpp - where the three-way split sends an element.
#pragma once

namespace scanvec::detail {

/// An element's place after the split, its new segment's start, and that
/// segment's length (the tile split writes it only where the segment's first
/// element lands, else 0).
template <class Off> struct tw_place {
    Off dest, start, length;
};

}  // namespace scanvec::detail
