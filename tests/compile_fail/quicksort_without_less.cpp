// Must not compile: quicksort of a struct with no operator<. The test expects
// one static_assert at sv::quicksort and no error from inside the three-way split.
#include <scanvec/scanvec.hpp>
namespace sv = scanvec;

struct point {
    float x;
    float y;
};
SCANVEC_FIELDS(point, x, y)

int main() {
    sv::vector<point> p = {{1, 2}, {0, 1}};
    return int(sv::quicksort(p).to_host()[0].x);
}
