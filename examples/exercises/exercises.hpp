// exercises.hpp - what the exercises share: the includes, the types, one given helper.
//
// The exercises of docs/exercises.md are small problems from the scan-vector
// model. A student writes them in student.hpp (namespace exercises::student);
// solutions.hpp holds reference solutions (namespace exercises::reference);
// tests/test_exercises.cpp checks both against sequential loops:
//
//     cmake --preset host
//     cmake --build --preset host --target test_exercises && ./build/host/tests/test_exercises
#pragma once

#include <scanvec/scanvec.hpp>

namespace sv = scanvec;

namespace exercises {

/// A line segment between two integer points (exercises 4 and 5).
struct line {
    int x0, y0, x1, y1;
};
SCANVEC_FIELDS(line, x0, y0, x1, y1)  // stored as four int arrays

/// A pixel of a drawn line (exercise 5).
struct pixel {
    int x, y;
};
SCANVEC_FIELDS(pixel, x, y)

/// Exercise 4's answer: pixels per line, where each line's pixels start, and how many in all.
struct allocation {
    sv::vector<sv::index_t> counts;
    sv::vector<sv::index_t> offsets;
    sv::index_t total = 0;
};

namespace detail {
SCANVEC_HD inline long long magnitude(long long v) { return v < 0 ? -v : v; }
/// floor(num / den) for den > 0.
SCANVEC_HD inline long long floor_quotient(long long num, long long den) {
    const long long q = num / den;
    return (num % den != 0 && num < 0) ? q - 1 : q;
}
}  // namespace detail

/// Given (exercise 5): pixel t of line l, for 0 <= t <= max(|x1 - x0|, |y1 - y0|).
/// Pixel 0 is (x0, y0), the last is (x1, y1); in between, x0 + t * dx / steps is
/// rounded half up (so a line drawn backwards covers the same pixels), y likewise.
SCANVEC_HD inline pixel pixel_on(const line& l, sv::index_t t) {
    const long long dx = l.x1 - l.x0, dy = l.y1 - l.y0;
    const long long steps = detail::magnitude(dx) > detail::magnitude(dy) ? detail::magnitude(dx)
                                                                          : detail::magnitude(dy);
    if (steps == 0) return pixel{l.x0, l.y0};
    // round(v) = floor(v + 1/2): floor((2 t d + steps) / (2 steps))
    return pixel{int(l.x0 + detail::floor_quotient(2 * t * dx + steps, 2 * steps)),
                 int(l.y0 + detail::floor_quotient(2 * t * dy + steps, 2 * steps))};
}

}  // namespace exercises
