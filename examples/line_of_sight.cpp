// line_of_sight - which points of a terrain profile can an observer see?
//
// Blelloch's first max-scan example. An observer stands at point 0 of a
// profile of altitudes sampled at equal steps along a ray. The slope from the
// eye to every point is an elementwise map; an exclusive max-scan gives the
// steepest slope before each point; a point is visible when its own slope is
// steeper still. sv::line_of_sight does all three steps in one pass (the map
// and the comparison run inside the scan). The program prints the steps on a
// small profile, checks them against a sequential walk, and exits with 1 on a
// wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>
#include <limits>

namespace sv = scanvec;

static std::vector<bool> sequential(const std::vector<double>& alt, double eye_height) {
    std::vector<bool> vis(alt.size());
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < alt.size(); ++i) {
        const double slope = i ? (alt[i] - (alt[0] + eye_height)) / double(i) : best;
        vis[i] = i == 0 || slope > best;
        if (i) best = std::max(best, slope);
    }
    return vis;
}

int main() {
    std::cout << "line of sight (" << sv::backend_name() << " backend)\n\n";
    const double eye_height = 2;
    sv::vector<double> altitude = {10, 11, 15, 13, 17, 20, 12, 19, 26, 24, 22, 35};
    const std::size_t n = altitude.size();

    // The steps, spelled out for the table: the library call fuses them.
    const double eye = altitude[0] + eye_height;
    const double none = -std::numeric_limits<double>::infinity();  // point 0 has no slope
    auto slope = sv::map(SCANVEC_FN(double a, sv::index_t i) { return i ? (a - eye) / double(i) : none; },
                         altitude, sv::lazy::index(n));
    auto before = sv::scan(slope, sv::max<double>{});
    auto visible = sv::line_of_sight(altitude, eye_height);
    std::cout << "eye at altitude " << eye << " above point 0\n"
              << sv::table().row("Altitude", altitude).row("Slope", slope).row("max-scan(Slope)", before)
                            .row("Visible", visible)
              << "\n";

    bool ok = visible.to_host() == sequential(altitude.to_host(), eye_height);
    // A larger profile: a random walk on a valley floor that rises ever more steeply.
    std::vector<double> walk(100000);
    unsigned s = 7;
    double h = 0;
    for (std::size_t i = 0; i < walk.size(); ++i) {
        s = s * 1103515245u + 12345u;
        h += double(int(s >> 16) % 21 - 10);
        walk[i] = h + 0.001 * double(i) * double(i);
    }
    auto far = sv::line_of_sight(sv::vector<double>(walk), eye_height);
    ok = ok && far.to_host() == sequential(walk, eye_height);
    std::cout << "a rising valley of " << walk.size() << " points: " << sv::count(far) << " visible\n";
    if (!ok) {
        std::cerr << "line_of_sight: wrong result\n";
        return 1;
    }
    std::cout << "line_of_sight: all results checked\n";
    return 0;
}
