// Must not compile: a distributed vector given to the one-device scan. The test
// expects the one static_assert that names sv::dist::scan, and no list of
// sv::scan's overloads.
#include <scanvec/dist.hpp>
namespace sv = scanvec;

int main(int argc, char** argv) {
    sv::dist::environment env(argc, argv);
    auto d = sv::dist::vector<int>::scatter(std::vector<int>{1, 2, 3});
    auto s = sv::scan(d);
    return int(s.size());
}
