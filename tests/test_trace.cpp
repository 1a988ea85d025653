// sv::trace: steps (leaf primitive calls), work, and the printed tables.
#include "support.hpp"
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>
#include <scanvec/runtime/trace.hpp>

#include <sstream>

TEST_CASE("a trace counts one step per primitive and its work") {
    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    sv::trace t;
    auto s = sv::scan(a);
    auto m = sv::map(SCANVEC_FN(int x) { return x + 1; }, s);
    (void)sv::reduce(m);
    CHECK(t.steps() == 3);
    CHECK(t.work() == 8 + 8 + 8);
    CHECK(t.by_primitive().at("scan") == 1);
    CHECK(t.by_primitive().at("reduce") == 1);
}

TEST_CASE("the step count of split is constant and counts only its leaf steps") {
    std::size_t steps_small = 0, steps_large = 0;
    for (std::size_t n : {std::size_t(16), std::size_t(100000)}) {
        sv::vector<int> a(test::random_values<int>(n, 5));
        auto f = sv::map(SCANVEC_FN(int x) { return (x & 1) == 1; }, a);
        sv::trace t;
        auto s = sv::split(a, f);
        (n == 16 ? steps_small : steps_large) = t.steps();
        CHECK(t.work() >= n);
        CHECK(t.by_primitive().count("split") == 0);  // a composite, not a step of its own
    }
    CHECK(steps_small == steps_large);
    CHECK(steps_small == 2);  // reduce (count the falses) and the fused scan-permute
}

TEST_CASE("traces nest: the inner trace sees its calls, the outer one resumes") {
    sv::vector<int> a = {1, 2, 3};
    sv::trace outer;
    (void)sv::scan(a);
    {
        sv::trace inner;
        (void)sv::scan(a);
        (void)sv::scan(a);
        CHECK(inner.steps() == 2);
    }
    (void)sv::reduce(a);
    CHECK(outer.steps() == 2);
}

TEST_CASE("a printing trace shows small vectors as a table and the totals") {
    std::ostringstream os;
    {
        sv::vector<int> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        sv::vector<bool> f = {true, false, false, false, true, false, false, false, false, true};
        sv::trace t(os, 16);
        (void)sv::segmented_scan(a, f);
    }
    const std::string out = os.str();
    CHECK(out.find("segmented_scan") != std::string::npos);
    CHECK(out.find("a      = [1 2 3 4 5 6  7  8  9 10]") != std::string::npos);
    CHECK(out.find("result = [0 1 3 6 0 5 11 18 26  0]") != std::string::npos);
    CHECK(out.find("trace: 1 steps, work 10") != std::string::npos);
}

TEST_CASE("no trace, no observation") {
    CHECK(sv::runtime::observation().current == nullptr);
    sv::vector<int> a = {1, 2};
    CHECK(sv::reduce(a) == 3);
}
