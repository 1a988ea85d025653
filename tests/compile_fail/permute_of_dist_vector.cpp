// Must not compile: distributed vectors given to the one-device permute. The
// test expects the one static_assert that names sv::dist::permute.
#include <scanvec/dist.hpp>
namespace sv = scanvec;

int main(int argc, char** argv) {
    sv::dist::environment env(argc, argv);
    auto d = sv::dist::vector<int>::scatter(std::vector<int>{1, 2, 3});
    auto i = sv::dist::vector<sv::index_t>::scatter(std::vector<sv::index_t>{2, 0, 1});
    auto p = sv::permute(d, i);
    return int(p.size());
}
