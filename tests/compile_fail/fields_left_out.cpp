// Must not compile: SCANVEC_FIELDS without one of the struct's fields, which
// sv::vector<pt> would then not store (the map would return y = 0 everywhere).
// The test expects the static_assert that names pt and asks for every field.
#include <scanvec/scanvec.hpp>
namespace sv = scanvec;

struct pt {
    int x;
    int y;
};
SCANVEC_FIELDS(pt, x)

int main() {
    sv::vector<pt> p = {{1, 2}, {3, 4}};
    auto q = sv::map(SCANVEC_FN(pt a) { return pt{a.x + 1, a.y * 2}; }, p);
    return q.to_host()[1].y;
}
