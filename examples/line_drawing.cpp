// line_drawing - rasterising many lines at once by allocating pixels with a scan.
//
// Blelloch's example of processor allocation. Every line needs max(|dx|, |dy|)
// + 1 pixels; a +-scan of those counts gives each line its stretch of the
// pixel vector (sv::allocate), a segmented distribute copies the line's
// endpoints over the stretch, and the segmented index says which pixel of the
// line each position is. The program prints those steps for four lines, draws
// them on a character grid, checks every pixel against a sequential loop, and
// exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

namespace sv = scanvec;

static long long round_div(long long num, long long den) {  // nearest, halves away from zero
    const long long q = (num < 0 ? -num : num) * 2 + den;
    return (num < 0 ? -1 : 1) * (q / (2 * den));
}

int main() {
    std::cout << "line drawing (" << sv::backend_name() << " backend)\n\n";
    const std::vector<sv::pixel> h_from = {{1, 1}, {2, 9}, {12, 2}, {20, 5}};
    const std::vector<sv::pixel> h_to = {{9, 5}, {14, 9}, {6, 8}, {20, 5}};
    sv::vector<sv::pixel> from(h_from), to(h_to);

    auto lines = sv::draw_lines(from, to);
    const auto& segs = lines.segments();
    auto& px = lines.values();
    std::cout << sv::table().row("Length", sv::length(lines)).row("offsets (+-scan)", segs.offsets()) << "\n"
              << sv::table(40).row("index(Segs)", sv::index(segs))
                              .row("x", px.field<&sv::pixel::x>()).row("y", px.field<&sv::pixel::y>())
              << "\n";

    // The pixels on a grid: line k drawn with the letter 'a' + k.
    std::vector<std::string> grid(11, std::string(22, '.'));
    auto drawn = lines.to_host();
    for (std::size_t k = 0; k < drawn.size(); ++k)
        for (auto p : drawn[k]) grid[p.y][p.x] = char('a' + k);
    for (auto r = grid.rbegin(); r != grid.rend(); ++r) std::cout << "  " << *r << "\n";
    std::cout << "\n";

    bool ok = drawn.size() == h_from.size();
    for (std::size_t k = 0; ok && k < drawn.size(); ++k) {
        const long long dx = h_to[k].x - h_from[k].x, dy = h_to[k].y - h_from[k].y;
        const long long steps = std::max(std::llabs(dx), std::llabs(dy));
        ok = drawn[k].size() == std::size_t(steps + 1);
        for (long long i = 0; ok && i <= steps; ++i) {
            const sv::pixel want = steps ? sv::pixel{int(h_from[k].x + round_div(i * dx, steps)),
                                                     int(h_from[k].y + round_div(i * dy, steps))}
                                         : h_from[k];
            ok = drawn[k][i] == want;
        }
    }
    if (!ok) {
        std::cerr << "line_drawing: wrong result\n";
        return 1;
    }
    std::cout << "line_drawing: all results checked\n";
    return 0;
}
