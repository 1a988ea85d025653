// student.hpp - YOUR solutions to the exercises of docs/exercises.md.
//
// Every function below starts out forwarding to the reference solution, so the
// harness passes before you begin. Replace a body with your own whole-vector
// program (map, scan, permute, pack, the segmented primitives ...), then run
//
//     cmake --build --preset host --target test_exercises && ./build/host/tests/test_exercises
//
// (once, before: cmake --preset host). The harness runs your function and the
// reference on random inputs of sizes 0, 1, 2, 33, 1000 and 65539 and names
// the exercise, the size and the first wrong position when they disagree.
//
// Rules of thumb (docs/porting.md says more):
//  * operators: SCANVEC_FN (int x) { return ... } inside these functions, or a
//    struct with a SCANVEC_HD operator() at namespace scope;
//  * keep the written-out return types: nvcc rejects SCANVEC_FN lambdas in a
//    function whose return type is `auto`, and inside another SCANVEC_FN lambda;
//  * no loops over elements, no to_host() in a solution: whole-vector steps only.
#pragma once

#include "exercises.hpp"
#include "solutions.hpp"

namespace exercises::student {

/// 1. The largest value of every segment (one value per segment, in order).
inline sv::vector<int> segment_max(const sv::vector<int>& values, const sv::vector<bool>& heads) {
    return reference::segment_max(values, heads);  // replace this with your own solution
}

/// 2. The odd elements of a, in their order.
inline sv::vector<int> pack_odd(const sv::vector<int>& a) {
    return reference::pack_odd(a);  // replace this with your own solution
}

/// 3. The length of every segment described by head flags (position 0 always starts one).
inline sv::vector<sv::index_t> segment_lengths(const sv::vector<bool>& heads) {
    return reference::segment_lengths(heads);  // replace this with your own solution
}

/// 4. For every line: its pixel count max(|x1 - x0|, |y1 - y0|) + 1, the offset of its
/// first pixel in the output (lines laid out one after another), and the total.
inline allocation line_allocation(const sv::vector<line>& lines) {
    return reference::line_allocation(lines);  // replace this with your own solution
}

/// 5. Every pixel of every line: line 0's pixels pixel_on(line, 0), pixel_on(line, 1), ...,
/// then line 1's, and so on.
inline sv::vector<pixel> draw_lines(const sv::vector<line>& lines) {
    return reference::draw_lines(lines);  // replace this with your own solution
}

/// 6. Every segment split stably on f: within each segment, the elements whose f is
/// false first, then those whose f is true, each group in its original order.
inline sv::vector<int> split_segments(const sv::vector<int>& values, const sv::vector<bool>& f,
                                      const sv::vector<bool>& heads) {
    return reference::split_segments(values, f, heads);  // replace this with your own solution
}

/// 7. The elements of a in reverse order, using a back-permute.
inline sv::vector<int> reverse(const sv::vector<int>& a) {
    return reference::reverse(a);  // replace this with your own solution
}

/// 8. The number of distinct values in a sorted (ascending) vector.
inline sv::index_t count_distinct(const sv::vector<int>& sorted) {
    return reference::count_distinct(sorted);  // replace this with your own solution
}

}  // namespace exercises::student
