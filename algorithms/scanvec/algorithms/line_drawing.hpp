// scanvec/algorithms/line_drawing.hpp - rasterising many lines at once, by allocation.
//
// Blelloch's line drawing, his example of allocating processors: every line
// needs as many pixels as the longer of its two extents (plus one), a +-scan of
// those counts gives every line its own stretch of the pixel vector, the line's
// endpoints are copied across its stretch with a segmented distribute, and the
// segmented index says which pixel of the line each position is:
//
//   procedure draw-lines(P1, P2)                  one line from P1[k] to P2[k]
//       Length  <- max(|P2.x - P1.x|, |P2.y - P1.y|) + 1      pixels of every line
//       Segs    <- allocate(Length)               +-scan of Length: where each line starts
//       Q1, Q2  <- distribute(P1, Segs), distribute(P2, Segs)
//       I       <- index(Segs)                    pixel number within its line
//       Pixel   <- Q1 + round(I * (Q2 - Q1) / (Length - 1))
//
// The result is a nested vector: segment k holds line k's pixels, from P1[k]
// to P2[k] inclusive. Coordinates are rounded to the nearest integer (halves
// away from zero) in 64-bit integer arithmetic, so every backend draws the same
// pixels (coordinate differences must fit in 30 bits).
#pragma once

#include <scanvec/primitives/nested.hpp>

SCANVEC_NAMESPACE_BEGIN

/// An integer point of the plane: an endpoint of a line or a pixel.
struct pixel {
    int x;
    int y;
    SCANVEC_HD friend bool operator==(const pixel& a, const pixel& b) { return a.x == b.x && a.y == b.y; }
    SCANVEC_HD friend bool operator!=(const pixel& a, const pixel& b) { return !(a == b); }
};
SCANVEC_FIELDS(pixel, x, y)

namespace detail {

SCANVEC_HD inline long long magnitude(long long v) { return v < 0 ? -v : v; }

/// num / den rounded to the nearest integer, halves away from zero (den > 0).
SCANVEC_HD inline long long round_div(long long num, long long den) {
    return num >= 0 ? (2 * num + den) / (2 * den) : -((-2 * num + den) / (2 * den));
}

/// Pixels of the line from p to q: the longer extent plus one.
struct line_length {
    SCANVEC_HD index_t operator()(const pixel& p, const pixel& q) const {
        const long long dx = magnitude((long long)q.x - p.x), dy = magnitude((long long)q.y - p.y);
        return index_t(dx > dy ? dx : dy) + 1;
    }
};

/// Pixel i of the line from p to q: p + round(i * (q - p) / steps).
struct pixel_of_line {
    SCANVEC_HD pixel operator()(const pixel& p, const pixel& q, index_t i) const {
        const long long dx = (long long)q.x - p.x, dy = (long long)q.y - p.y;
        const long long steps = magnitude(dx) > magnitude(dy) ? magnitude(dx) : magnitude(dy);
        if (steps == 0) return p;
        return pixel{int(p.x + round_div(i * dx, steps)), int(p.y + round_div(i * dy, steps))};
    }
};

}  // namespace detail

/// The pixels of every line from from[k] to to[k]: segment k of the result,
/// from from[k] to to[k] inclusive (one pixel for a line of length 0).
template <class P1, class P2> nested<pixel> draw_lines(const P1& from, const P2& to) {
    static_assert(std::is_same_v<value_t<P1>, pixel> && std::is_same_v<value_t<P2>, pixel>,
                  "sv::draw_lines(from, to): endpoints must be sv::pixel");
    return detail::labelled("draw_lines", from.size(), [&] {
        detail::expect_same_length("draw_lines", from.size(), to.size());
        // Length <- max(|dx|, |dy|) + 1                  pixels of every line
        auto length = lazy::map(detail::line_length{}, from, to);
        // Segs <- allocate(Length)                        a +-scan: each line's stretch of pixels
        auto segs = allocate(length);
        // Q1, Q2 <- distribute(P1, Segs), distribute(P2, Segs)   endpoints across the stretch
        auto q1 = distribute(from, segs);
        auto q2 = distribute(to, segs);
        // I <- index(Segs)                                pixel number within its line
        auto i = index(segs);
        // Pixel <- Q1 + round(I * (Q2 - Q1) / (Length - 1))
        return nested<pixel>(map(detail::pixel_of_line{}, q1, q2, i), segs);
    });
}

SCANVEC_NAMESPACE_END
