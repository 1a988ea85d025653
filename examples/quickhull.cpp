// quickhull - the convex hull of a set of points, every subproblem at once.
//
// Blelloch's quickhull. The hull is a list of edges and segment k of a nested
// vector holds the points still outside edge k. Each round a segmented max
// finds the point farthest outside every edge (a corner of the hull), the edge
// is split in two there (allocate 2 edges for it), and a pack and a segmented
// split keep only the points outside one of the two new edges. The rounds end
// when no segment has points left. The program shows the rounds on a small
// set, checks the hull of larger sets against Andrew's sequential monotone
// chain, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include "support/monotone_chain.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>

namespace sv = scanvec;

static void show(const char* name, const sv::vector<sv::point2d>& p) {
    std::cout << sv::table().row(std::string(name) + ".x", p.field<&sv::point2d::x>())
                            .row(std::string(name) + ".y", p.field<&sv::point2d::y>());
}

int main() {
    std::cout << "quickhull (" << sv::backend_name() << " backend)\n\n";
    sv::vector<sv::point2d> pts = {{3, 3}, {0, 2}, {6, 0}, {5, 5}, {2, 6}, {4, 1}, {1, 4}, {7, 4},
                                   {3, 0}, {6, 6}, {2, 2}, {8, 2}, {4, 7}, {1, 1}, {5, 3}};
    show("Points", pts);
    auto hull = sv::quickhull(pts);
    std::cout << "\nhull, counter-clockwise from the lowest point in (x, y) order:\n";
    show("Hull", hull);
    std::cout << "\n";
    if (hull.to_host() != reference::monotone_chain(pts.to_host())) {
        std::cerr << "quickhull: wrong hull of the small set\n";
        return 1;
    }
    // Larger sets: random points in a square and on a circle (where every point is a corner).
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<int> coord(-100000, 100000);
    std::uniform_real_distribution<double> angle(0, 6.283185307179586);
    for (int shape = 0; shape < 2; ++shape) {
        std::vector<sv::point2d> p(200000);
        for (auto& q : p) {
            if (shape == 0) q = {double(coord(rng)), double(coord(rng))};
            else { const double t = angle(rng); q = {std::round(100000 * std::cos(t)), std::round(100000 * std::sin(t))}; }
        }
        auto hull = sv::quickhull(sv::vector<sv::point2d>(p));
        std::cout << (shape ? "circle" : "square") << ": " << p.size() << " points, " << hull.size() << " corners\n";
        if (hull.to_host() != reference::monotone_chain(p)) {
            std::cerr << "quickhull: wrong hull of the " << (shape ? "circle" : "square") << "\n";
            return 1;
        }
    }
    std::cout << "quickhull: all results checked\n";
    return 0;
}
