// line_of_sight.hpp - the worked port of docs/porting.md: which points of a
// terrain profile can an observer see?
//
// The observer's eye is at height `eye` above position 0; altitude[i] is the
// ground height at distance i + 1. A point is visible when the angle of
// elevation from the eye to it is larger than the angle to every point nearer
// the eye. In the model that is three steps:
//
//     Angle   <- atan((Altitude - eye) / Distance)     elementwise
//     Before  <- max-scan(Angle)                        exclusive: the largest angle nearer the eye
//     Visible <- Angle > Before                         elementwise
//
// line_of_sight() is that program; line_of_sight_fused() is the same three
// steps written so that the angles are never stored (two passes instead of
// three). Both are compiled and tested by tests/test_exercises.cpp, and the
// code blocks of docs/porting.md are checked against this file.
#pragma once

#include <scanvec/scanvec.hpp>

#include <cmath>

namespace sv = scanvec;

namespace port {

// ---- snippet: port-operator ----
/// The angle of elevation from the eye to the point at distance i + 1.
struct angle_from {
    float eye;
    SCANVEC_HD float operator()(float altitude, sv::index_t i) const {
        return atanf((altitude - eye) / float(i + 1));
    }
};
// ---- end ----

// ---- snippet: port-program ----
/// visible[i]: can the eye see the point at distance i + 1?
inline sv::vector<bool> line_of_sight(const sv::vector<float>& altitude, float eye) {
    // Angle <- atan((Altitude - eye) / Distance)
    sv::vector<float> angle = sv::map(angle_from{eye}, altitude, sv::lazy::index(altitude.size()));
    // Before <- max-scan(Angle)
    sv::vector<float> before = sv::scan(angle, sv::max<float>{});
    // Visible <- Angle > Before
    return sv::map(SCANVEC_FN(float a, float b) { return a > b; }, angle, before);
}
// ---- end ----

// ---- snippet: port-fused ----
/// The same program with the angles computed where they are read: two passes, no angle vector.
inline sv::vector<bool> line_of_sight_fused(const sv::vector<float>& altitude, float eye) {
    auto angle = sv::lazy::map(angle_from{eye}, altitude, sv::lazy::index(altitude.size()));
    sv::vector<float> before = sv::scan(angle, sv::max<float>{});  // pass 1: the map runs inside the scan
    return sv::map(SCANVEC_FN(float a, float b) { return a > b; }, angle, before);  // pass 2
}
// ---- end ----

}  // namespace port
