// Must not compile: a bare callable where an exclusive scan needs the identity.
// The test expects the one static_assert that names sv::monoid(op, identity).
#include <scanvec/scanvec.hpp>
namespace sv = scanvec;

struct concat_digits {
    SCANVEC_HD int operator()(int a, int b) const { return a * 10 + b; }
};

int main() {
    sv::vector<int> a = {1, 2, 3};
    return sv::scan(a, concat_digits{}).to_host()[0] + sv::reduce(a, concat_digits{});
}
