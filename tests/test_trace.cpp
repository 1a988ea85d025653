// sv::trace: steps (leaf primitive calls), work, and the printed tables.
#include "support.hpp"
#include <scanvec/algorithms/quicksort.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>
#include <scanvec/runtime/trace.hpp>

#include <map>
#include <sstream>

namespace {

/// The rows "Name = [c c c]" of the first block of rows after text[from]: name -> cells.
std::map<std::string, std::vector<std::string>> rows_after(const std::string& text, std::size_t from) {
    std::map<std::string, std::vector<std::string>> rows;
    std::istringstream in(text.substr(from));
    std::string line;
    std::getline(in, line);  // the call's own line
    while (std::getline(in, line)) {
        const auto eq = line.find(" = [");
        if (eq == std::string::npos) break;
        std::istringstream name(line.substr(0, eq)), cells(line.substr(eq + 4, line.rfind(']') - eq - 4));
        std::string key, c;
        name >> key;
        while (cells >> c) rows[key].push_back(c);
    }
    return rows;
}

std::size_t line_start(const std::string& text, const std::string& name) {  // a line that begins with name
    if (text.rfind(name, 0) == 0) return 0;
    auto p = text.find("\n" + name);
    return p == std::string::npos ? p : p + 1;
}

}  // namespace

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
    // the vectors under their roles' names: the values, the head flags, the scan
    CHECK(out.find("A     = [1 2 3 4 5 6  7  8  9 10]") != std::string::npos);
    CHECK(out.find("Heads = [T F F F T F  F  F  F  T]") != std::string::npos);
    CHECK(out.find("Scan  = [0 1 3 6 0 5 11 18 26  0]") != std::string::npos);
    CHECK(out.find("trace: 1 steps, work 10") != std::string::npos);
}

TEST_CASE("no trace, no observation") {
    CHECK(sv::runtime::observation().current == nullptr);
    sv::vector<int> a = {1, 2};
    CHECK(sv::reduce(a) == 3);
}

TEST_CASE("a composite call prints first, its steps indented beneath it") {
    std::ostringstream os;
    {
        sv::vector<int> a = {5, 7, 3, 1, 4, 2, 7, 2};
        sv::vector<bool> odd = {1, 1, 1, 1, 0, 0, 1, 0};
        sv::trace t(os);
        (void)sv::split(a, odd);
    }
    const std::string out = os.str();
    const auto split = line_start(out, "split");
    REQUIRE(split != std::string::npos);
    CHECK(out.find("(2 steps, work 16)") != std::string::npos);
    // its vectors by role, then its steps one level deeper, after it
    auto rows = rows_after(out, split);
    CHECK(rows["A"] == std::vector<std::string>{"5", "7", "3", "1", "4", "2", "7", "2"});
    CHECK(rows["Flags"] == std::vector<std::string>{"T", "T", "T", "T", "F", "F", "T", "F"});
    CHECK(rows["Index"] == std::vector<std::string>{"3", "4", "5", "6", "0", "1", "7", "2"});  // falses, then trues
    CHECK(rows["Split"] == std::vector<std::string>{"4", "2", "2", "5", "7", "3", "1", "7"});
    const auto reduce = out.find("\n  reduce");
    const auto permute = out.find("\n  permute");
    CHECK(reduce != std::string::npos);
    CHECK(permute != std::string::npos);
    CHECK(split < reduce);
    CHECK(split < permute);
    CHECK(line_start(out, "reduce") == std::string::npos);  // never at the top level
}

TEST_CASE("the caller names the vectors of its next call") {
    std::ostringstream os;
    {
        sv::vector<int> keys = {3, 1, 2};
        sv::vector<int> where = {2, 0, 1};
        sv::trace t(os);
        {
            sv::trace_roles r({"Keys", "Where"}, "Moved");
            (void)sv::permute(keys, where);
        }
        (void)sv::permute(keys, where);  // the primitive's own names again
    }
    const std::string out = os.str();
    CHECK(out.find("Keys  = [3 1 2]") != std::string::npos);
    CHECK(out.find("Where = [2 0 1]") != std::string::npos);
    CHECK(out.find("Moved = [1 2 3]") != std::string::npos);
    CHECK(out.find("Index    = [2 0 1]") != std::string::npos);
    CHECK(out.find("Permuted = [1 2 3]") != std::string::npos);
}

TEST_CASE("a call ended by an error is marked, and the trace goes on") {
    std::ostringstream os;
    {
        sv::vector<int> a = {1, 2, 3};
        sv::vector<bool> heads = {true, false};
        sv::trace t(os);
        CHECK_THROWS_AS((void)sv::segmented_scan(a, heads), sv::length_error);
        (void)sv::scan(a);
        CHECK(t.steps() == 1);
    }
    const std::string out = os.str();
    CHECK(out.find("(ended by an error)") != std::string::npos);
    CHECK(line_start(out, "scan") != std::string::npos);  // the next call at the top level again
}

TEST_CASE("a quicksort round reads as the book's round") {
    std::ostringstream os;
    const std::vector<int> keys = {9, 4, 12, 1, 7, 4, 15, 3, 8, 11, 0, 6, 4, 14, 2, 10};
    int rounds = 0;
    {
        sv::vector<int> a(keys);
        sv::trace t(os);
        rounds = sv::quicksort_rounds(a, [](int, const auto&, const auto&) {}).rounds;
    }
    const std::string out = os.str();
    REQUIRE(rounds >= 3);
    const auto qs = line_start(out, "quicksort");
    const auto first = out.find("\n  round");
    REQUIRE(qs != std::string::npos);
    REQUIRE(first != std::string::npos);
    CHECK(qs < first);

    // the first round: one segment, one pivot over all of it, the three-way
    // flags, where each key goes, and the keys and segments after the split
    auto r = rows_after(out, first + 1);
    REQUIRE(r["A"].size() == keys.size());
    for (auto& name : {"Seg-Flags", "Pivots", "F", "Index", "A'", "Seg-Flags'"}) REQUIRE(r[name].size() == keys.size());
    CHECK(r["Seg-Flags"][0] == "T");
    CHECK(std::count(r["Seg-Flags"].begin(), r["Seg-Flags"].end(), "T") == 1);
    CHECK(std::count(r["Pivots"].begin(), r["Pivots"].end(), r["Pivots"][0]) == std::ptrdiff_t(keys.size()));
    const int pivot = std::stoi(r["Pivots"][0]);
    std::vector<bool> hit(keys.size(), false);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        CHECK(std::stoi(r["A"][i]) == keys[i]);
        const int k = keys[i];
        CHECK(r["F"][i] == (k < pivot ? "<" : k == pivot ? "=" : ">"));
        const std::size_t to = std::stoul(r["Index"][i]);
        REQUIRE(to < keys.size());
        CHECK(!hit[to]);
        hit[to] = true;
        CHECK(r["A'"][to] == r["A"][i]);  // the split put each key where Index says
    }
    CHECK(std::count(r["Seg-Flags'"].begin(), r["Seg-Flags'"].end(), "T") >= 2);

    // the round's steps beneath it, their helper passes folded
    CHECK(out.find("\n    choose_pivots") != std::string::npos);
    CHECK(out.find("\n    split_three_ways") != std::string::npos);
    // The three-way split's passes are its own (CUDA's tile kernels, the
    // host's passes over blocks), not primitives: nothing is folded.
    CHECK(out.find("folded") == std::string::npos);
    CHECK(out.find("\n      ") == std::string::npos);  // nothing deeper than the round's steps
}

TEST_CASE("asked for, the internals of a round unfold") {
    std::ostringstream folded, unfolded;
    sv::vector<int> a = {5, 3, 8, 1, 9, 2};
    std::size_t steps_folded = 0, steps_unfolded = 0;
    for (bool internals : {false, true}) {
        sv::trace_options o;
        o.text = internals ? &unfolded : &folded;
        o.internals = internals;
        sv::trace t(o);
        (void)sv::quicksort_rounds(a, [](int, const auto&, const auto&) {});
        (internals ? steps_unfolded : steps_folded) = t.steps();
    }
    CHECK(steps_folded == steps_unfolded);  // folding changes what is shown, not what is counted
    CHECK(unfolded.str().size() > folded.str().size());
    CHECK(unfolded.str().find("folded") == std::string::npos);
}

TEST_CASE("a scalar result is shown as a row of one cell") {
    std::ostringstream os;
    {
        sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
        sv::trace t(os);
        CHECK(sv::reduce(a) == 25);
    }
    CHECK(os.str().find("Reduce = [25]") != std::string::npos);
}
