// Included by a checked and an unchecked translation unit. The helpers are
// each TU's own (an unnamed namespace), so the only functions the two TUs
// share are scanvec's: each TU must reach its own setting's sv::permute.
#pragma once

#include <scanvec/primitives/permute.hpp>

#include <vector>

namespace sv = scanvec;

namespace mixed_checks {
namespace {

// Called through a pointer the optimiser cannot see through, so each TU calls
// the out-of-line sv::permute the linker kept, as a program of many files
// would: without the setting in the symbol's name the linker keeps one body
// for both TUs, and one of the two test cases fails.
using permute_fn = sv::vector<int> (*)(const sv::vector<int>&, const sv::vector<int>&);
inline sv::vector<int> call_permute(const sv::vector<int>& a, const sv::vector<int>& idx) {
    static permute_fn volatile fn = &sv::permute<sv::vector<int>, sv::vector<int>>;
    return fn(a, idx);
}

inline sv::vector<int> permute_repeated() {
    const sv::vector<int> a = {1, 2, 3, 4};
    const sv::vector<int> idx = {0, 0, 1, 2};  // 0 twice, 3 never
    return call_permute(a, idx);
}
inline std::vector<int> permute_identity() {
    const sv::vector<int> a = {5, 6, 7, 8};
    const sv::vector<int> idx = {3, 2, 1, 0};
    return call_permute(a, idx).to_host();
}
inline std::vector<int> expected_identity() { return {8, 7, 6, 5}; }

}  // namespace

// Defined in unchecked.cpp.
bool unchecked_permute_repeated_survives();
std::vector<int> unchecked_permute_identity();
}  // namespace mixed_checks
