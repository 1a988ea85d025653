// scanvec/algorithms/line_of_sight.hpp - which points of a terrain profile an observer sees.
//
// Blelloch's line-of-sight, the first example of a max-scan in the book: an
// observer stands at point 0 of a profile of altitudes sampled at equal steps
// along a ray. A point is visible when the line from the eye to it climbs more
// steeply than the line to every point before it, i.e. when its angle beats the
// largest angle seen so far:
//
//   procedure line-of-sight(Altitude)
//       Angle[i]           <- arctan((Altitude[i] - Altitude[0]) / i)   for i > 0
//       Max-previous-angle <- max-scan(Angle)                            exclusive
//       Visible[i]         <- Angle[i] > Max-previous-angle[i]
//
// The program compares slopes (Altitude[i] - eye) / i instead of their
// arctangents: arctan is increasing, so the comparisons are the same, and a
// double division is exact to the last bit on every backend. The angle is a
// lazy map and the max-scan a lazy scan: the comparison runs as the scan writes
// its output, so the whole program is one pass over the altitudes.
#pragma once

#include <scanvec/algorithms/program_traits.hpp>
#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/rearrange.hpp>

#include <limits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// The slope from the eye (above point 0) to point i; -infinity at point 0 itself.
struct slope_from_eye {
    double eye;
    template <class A> SCANVEC_HD double operator()(const A& altitude, index_t i) const {
        return i == 0 ? -std::numeric_limits<double>::infinity() : (double(altitude) - eye) / double(i);
    }
};

/// Point i is visible when its slope beats every slope before it (point 0 always is).
struct rises_above {
    SCANVEC_HD bool operator()(double angle, double max_previous, index_t i) const {
        return i == 0 || angle > max_previous;
    }
};

}  // namespace detail

/// visible[i]: whether an observer at point 0, eye_height above altitude[0],
/// sees point i of the profile (points are one step apart; point 0 is visible).
/// The same text runs on sv::dist::vector (<scanvec/dist.hpp>).
template <class A> detail::program_vector_t<A, bool> line_of_sight(const A& altitude, double eye_height = 0) {
    static_assert(std::is_arithmetic_v<detail::program_value_t<A>>, "sv::line_of_sight(altitude): altitudes must be numbers");
    using lazy = detail::lazy_views_t<A>;
    const std::size_t n = altitude.size();
    if (n == 0) return detail::program_traits<A>::template empty<bool>(altitude);
    const double eye = double(extract(altitude, 0)) + eye_height;
    return detail::labelled("line_of_sight", n, [&] {
        // Angle[i] <- (Altitude[i] - eye) / i         (the slope orders points as the angle does)
        auto angle = lazy::map(detail::slope_from_eye{eye}, altitude, lazy::index(n));
        // Max-previous-angle <- max-scan(Angle)
        auto max_previous = lazy::scan(angle, max<double>{});
        // Visible[i] <- Angle[i] > Max-previous-angle[i]   (applied as the scan writes: one pass)
        return lazy::map(detail::rises_above{}, angle, max_previous, lazy::index(n)).to_vector();
    }, altitude);
}

SCANVEC_NAMESPACE_END
