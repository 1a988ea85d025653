// string_compare - comparing many pairs of strings at once.
//
// Segment k of one nested vector of characters is compared with segment k of
// another. Every pair gets one position per character of its shorter string
// (sv::allocate: a +-scan of the common lengths), the characters are gathered
// side by side with back-permutes, compared one pair per position, and a
// segmented reduce with "the first nonzero" - associative but not commutative -
// finds the first difference of every pair; equal common parts are ordered by
// length. The program prints the steps for a few words, checks a larger case
// against std::string::compare, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

namespace sv = scanvec;

static sv::nested<char> strings(const std::vector<std::string>& words) {
    std::vector<std::vector<char>> h;
    for (auto& w : words) h.emplace_back(w.begin(), w.end());
    return sv::nested<char>(h);
}
static int sign(int c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

int main() {
    std::cout << "string comparison (" << sv::backend_name() << " backend)\n\n";
    const std::vector<std::string> hx = {"scan", "vector", "model", "", "blelloch", "pack"};
    const std::vector<std::string> hy = {"scat", "vectors", "model", "a", "blelloc", "pack"};
    auto x = strings(hx), y = strings(hy);
    auto common = sv::map(SCANVEC_FN(sv::index_t a, sv::index_t b) { return a < b ? a : b; }, sv::length(x), sv::length(y));
    auto r = sv::compare_strings(x, y);
    std::cout << sv::table().row("length(X)", sv::length(x)).row("length(Y)", sv::length(y))
                            .row("L = min", common).row("offsets (+-scan L)", sv::allocate(common).offsets())
                            .row("compare(X, Y)", r)
              << "\n";
    bool ok = true;
    auto got = r.to_host();
    for (std::size_t k = 0; k < hx.size(); ++k) {
        std::cout << "  \"" << hx[k] << "\" vs \"" << hy[k] << "\": " << got[k] << "\n";
        ok = ok && got[k] == sign(hx[k].compare(hy[k]));
    }

    // 10^5 random pairs over a small alphabet (long common prefixes happen).
    std::mt19937 rng(6);
    std::vector<std::string> bx(100000), by(100000);
    for (std::size_t k = 0; k < bx.size(); ++k) {
        for (int c = int(rng() % 12); c > 0; --c) bx[k] += char('a' + rng() % 3);
        by[k] = bx[k].substr(0, rng() % (bx[k].size() + 1));
        for (int c = int(rng() % 4); c > 0; --c) by[k] += char('a' + rng() % 3);
    }
    auto big = sv::compare_strings(strings(bx), strings(by)).to_host();
    for (std::size_t k = 0; ok && k < bx.size(); ++k) ok = big[k] == sign(bx[k].compare(by[k]));
    std::cout << "\n" << bx.size() << " random pairs compared\n";
    if (!ok) {
        std::cerr << "string_compare: wrong result\n";
        return 1;
    }
    std::cout << "string_compare: all results checked\n";
    return 0;
}
