// The translation unit built with checks off (see checked.cpp).
#undef SCANVEC_CHECKS
#define SCANVEC_CHECKS 0
#include "mixed_checks.hpp"

namespace mixed_checks {
bool unchecked_permute_repeated_survives() {
    static_assert(SCANVEC_CHECKS == 0, "this file is the unchecked one");
    // A repeated index (in range): undefined which element lands where, but
    // no exception and no access out of bounds, since nothing checks it.
    const auto r = permute_repeated();
    return r.size() == 4;
}
std::vector<int> unchecked_permute_identity() { return permute_identity(); }
}  // namespace mixed_checks
