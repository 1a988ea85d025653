// One program, two translation units: this one built with checks on (the
// default), unchecked.cpp with SCANVEC_CHECKS=0. Both instantiate
// sv::permute<sv::vector<int>, sv::vector<int>>; each must keep its own
// behaviour (see SCANVEC_ABI in runtime/config.hpp).
#include "mixed_checks.hpp"

#include <doctest/doctest.h>

TEST_CASE("mixed checks: the checked translation unit rejects a repeated index") {
    REQUIRE(SCANVEC_CHECKS == 1);
    CHECK_THROWS_AS(mixed_checks::permute_repeated(), sv::index_error);
    CHECK(mixed_checks::permute_identity() == mixed_checks::expected_identity());
}

TEST_CASE("mixed checks: each translation unit keeps its own setting") {
    CHECK(mixed_checks::unchecked_permute_repeated_survives());
    CHECK(mixed_checks::unchecked_permute_identity() == mixed_checks::expected_identity());
}
