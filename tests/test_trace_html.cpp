// sv::trace drawn as one HTML page: rows of cells, segments, permute lines, totals.
#include "support.hpp"
#include <scanvec/algorithms/quicksort.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>
#include <scanvec/runtime/trace.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t k = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++k;
    return k;
}

/// split, a segmented scan and a permute on 8 elements, drawn.
std::string small_program_page(sv::trace_options o, std::size_t* steps = nullptr) {
    std::ostringstream page;
    sv::vector<int> a = {5, 7, 3, 1, 4, 2, 7, 2};
    sv::vector<bool> odd = {1, 1, 1, 1, 0, 0, 1, 0};
    sv::vector<bool> heads = {1, 0, 0, 1, 0, 1, 0, 0};
    sv::vector<int> idx = {2, 5, 4, 3, 1, 6, 0, 7};
    sv::trace t(o);
    auto s = sv::split(a, odd);
    auto seg = sv::segmented_scan(a, heads);
    auto p = sv::permute(a, idx);
    CHECK(s.to_host() == std::vector<int>{4, 2, 2, 5, 7, 3, 1, 7});
    CHECK(seg.to_host() == std::vector<int>{0, 5, 12, 0, 1, 0, 2, 9});
    CHECK(p.to_host() == std::vector<int>{7, 4, 5, 1, 3, 7, 2, 2});
    t.write_html(page);
    if (steps) *steps = t.steps();
    return page.str();
}

}  // namespace

TEST_CASE("the HTML page shows each step as rows of cells, with the totals") {
    std::size_t steps = 0;
    // a trace that neither prints nor draws keeps no calls: its page has the totals only
    const std::string silent = small_program_page(sv::trace_options{}, &steps);
    CHECK(count(silent, "class=\"call") == 0);
    CHECK(silent.find(std::to_string(steps) + " steps") != std::string::npos);

    std::ostringstream text;
    sv::trace_options o;
    o.text = &text;
    const std::string page = small_program_page(o, &steps);
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    // split (a composite, collapsible), its two steps, the segmented scan, the permute
    CHECK(count(page, "<details class=\"call\" open>") == 1);
    CHECK(steps == 4);  // split's 2, the scan, the permute
    CHECK(count(page, "<div class=\"call leaf\">") == steps);
    // each vector a row: split's A, Flags, Split; the scan's A, Heads, Scan; the permute's A, Index, Permuted
    CHECK(count(page, "<tr class=\"row\">") >= 3 + 3 + 3);
    CHECK(page.find("<th>Flags</th><td>T</td><td>T</td><td>T</td><td>T</td><td>F</td>") != std::string::npos);
    CHECK(page.find("<th>Split</th><td>4</td><td>2</td><td>2</td><td>5</td><td>7</td><td>3</td><td>1</td><td>7</td>") !=
          std::string::npos);
    CHECK(page.find("<th>Permuted</th><td>7</td><td>4</td><td>5</td><td>1</td>") != std::string::npos);
    // the segmented scan's cells shaded by segment: 3 segments, the middle one (3 cells) in each of its 3 rows
    CHECK(count(page, "class=\"s1") == 3 * 2);
    CHECK(count(page, " h\"") + count(page, "class=\"h\"") == 3 * 3);
    // split's places (the falses, then the trues) and the permute drawn: one line per element, from i to Index[i]
    CHECK(page.find("<th>Index</th><td>3</td><td>4</td><td>5</td><td>6</td><td>0</td><td>1</td><td>7</td><td>2</td>") !=
          std::string::npos);
    CHECK(count(page, "<svg") == 2);
    CHECK(count(page, "<line ") == 16);
    // permute's element 0 goes to 2: cells of this page are 26 px wide, so from x 13 to x 65
    CHECK(page.find("<line x1=\"13\" y1=\"2\" x2=\"65\" y2=\"38\"/>") != std::string::npos);
    CHECK(page.find("<line x1=\"" ) != std::string::npos);
    // the totals
    CHECK(page.find("4 steps, work") != std::string::npos);
    CHECK(page.find("<td>permute</td><td>2</td>") != std::string::npos);
}

TEST_CASE("the HTML page needs nothing from outside and its tags balance") {
    std::ostringstream text;
    sv::trace_options o;
    o.text = &text;
    const std::string page = small_program_page(o);
    CHECK(page.find("http://") == std::string::npos);
    CHECK(page.find("https://") == std::string::npos);
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("<link") == std::string::npos);
    CHECK(page.find("@import") == std::string::npos);
    for (const char* tag : {"html", "head", "body", "style", "details", "summary", "table", "tr", "td", "th", "div",
                            "span", "svg", "h1", "h2", "p", "title"}) {
        const std::string name = tag;
        CAPTURE(name);
        const std::size_t open = count(page, "<" + name + ">") + count(page, "<" + name + " ");
        CHECK(open >= 1);
        CHECK(open == count(page, "</" + name + ">"));
    }
    CHECK(count(page, "<line ") == count(page, "/>"));
    // values are escaped: no stray < inside cells
    CHECK(page.find("<td><</td>") == std::string::npos);
}

TEST_CASE("the trace writes its page to a file when it ends, quicksort's rounds drawn as the book's") {
    const std::string path = "test_trace_html_quicksort.html";
    std::remove(path.c_str());
    {
        sv::trace_options o;
        o.html = path;
        o.title = "quicksort, 16 keys";
        sv::vector<int> a = {9, 4, 12, 1, 7, 4, 15, 3, 8, 11, 0, 6, 4, 14, 2, 10};
        sv::trace t(o);
        (void)sv::quicksort_rounds(a, [](int, const auto&, const auto&) {});
    }
    std::ifstream in(path);
    REQUIRE(in.good());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string page = ss.str();
    CHECK(page.find("<title>quicksort, 16 keys</title>") != std::string::npos);
    const std::size_t rounds = count(page, "<details class=\"call model\"");
    CHECK(rounds >= 3);
    // each round: the book's rows, the three-way flags escaped, and a line per key from A to A'
    CHECK(count(page, "<th>Pivots</th>") == rounds);
    CHECK(count(page, "<th>Seg-Flags'</th>") == rounds);
    CHECK(page.find("<td>&lt;</td>") != std::string::npos);
    // a line per key from A to A' in every round (and more in the folded steps, where they permute)
    CHECK(count(page, "<line ") >= 16 * rounds);
    CHECK(count(page, "<details class=\"impl\">") == rounds);
    CHECK(page.find("http") == std::string::npos);
    std::remove(path.c_str());
}
