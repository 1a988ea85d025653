// The installed scanvec::dist target: built (not run: that needs mpirun) where
// the package has the distributed layer. A scan across the ranks, checked on
// rank 0.
#include <scanvec/dist.hpp>

#include <vector>

namespace sv = scanvec;

int main(int argc, char** argv) {
    sv::dist::environment env(argc, argv);
    std::vector<int> ones;
    if (sv::dist::world().rank() == 0) ones.assign(100, 1);
    auto a = sv::dist::vector<int>::scatter(ones);
    const std::vector<int> s = sv::dist::scan(a).to_host();  // on rank 0; empty elsewhere
    bool ok = true;
    for (std::size_t i = 0; i < s.size(); ++i) ok = ok && s[i] == static_cast<int>(i);
    return ok ? 0 : 1;
}
