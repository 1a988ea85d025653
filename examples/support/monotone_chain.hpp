// examples/support/monotone_chain.hpp - the sequential hull that quickhull is checked against
// (the quickhull example and tests/test_book.cpp).
#pragma once

#include <scanvec/algorithms/quickhull.hpp>

#include <algorithm>
#include <vector>

namespace reference {

/// Andrew's monotone chain, exact on integer coordinates below 2^31: corners
/// only, counter-clockwise from the lowest point in (x, y) order.
inline std::vector<scanvec::point2d> monotone_chain(std::vector<scanvec::point2d> p) {
    using scanvec::point2d;
    auto less = [](const point2d& a, const point2d& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); };
    std::sort(p.begin(), p.end(), less);
    p.erase(std::unique(p.begin(), p.end()), p.end());
    if (p.size() < 2) return p;
    auto cross = [](const point2d& o, const point2d& a, const point2d& b) {
        return (long long)(a.x - o.x) * (long long)(b.y - o.y) - (long long)(a.y - o.y) * (long long)(b.x - o.x);
    };
    std::vector<point2d> h(2 * p.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    for (std::size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    h.resize(k - 1);
    return h;
}

}  // namespace reference
