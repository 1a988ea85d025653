// scanvec/algorithms/point2d.hpp - a point of the plane, described field by
// field (SCANVEC_FIELDS: an array each for x and y on the device), for the
// geometric programs (quickhull).
#pragma once

#include <scanvec/runtime/fields.hpp>

SCANVEC_NAMESPACE_BEGIN

/// A point of the plane.
struct point2d {
    double x;
    double y;
    SCANVEC_HD friend bool operator==(const point2d& a, const point2d& b) { return a.x == b.x && a.y == b.y; }
    SCANVEC_HD friend bool operator!=(const point2d& a, const point2d& b) { return !(a == b); }
};
SCANVEC_FIELDS(point2d, x, y)

SCANVEC_NAMESPACE_END
