// solutions.hpp - reference solutions of the exercises in docs/exercises.md.
//
// Each solution is a few whole-vector steps of the model, with the step in a
// comment above each line. Where the library already has the answer as one
// call (sv::flags_to_lengths, sv::segmented_split, sv::reverse), the solution
// builds it from smaller primitives instead, because that is the exercise; the
// one-call form is named in the comment.
//
// Operators are small function objects with a SCANVEC_HD operator() at
// namespace scope, or SCANVEC_FN lambdas inside functions whose return type is
// written out (nvcc rejects extended lambdas in functions returning `auto`).
#pragma once

#include "exercises.hpp"

namespace exercises::reference {

namespace ops {
struct is_odd {
    SCANVEC_HD bool operator()(int x) const { return (x & 1) != 0; }
};
/// The number of pixels of a line: one per step along its longer axis, plus the first.
struct pixel_count {
    SCANVEC_HD sv::index_t operator()(const line& l) const {
        const sv::index_t dx = l.x1 > l.x0 ? l.x1 - l.x0 : l.x0 - l.x1;
        const sv::index_t dy = l.y1 > l.y0 ? l.y1 - l.y0 : l.y0 - l.y1;
        return (dx > dy ? dx : dy) + 1;
    }
};
struct draw_pixel {
    SCANVEC_HD pixel operator()(const line& l, sv::index_t t) const { return pixel_on(l, t); }
};
/// Where an element goes when its segment is split: a true moves right past the
/// falses after it, a false moves left past the trues before it.
struct split_target {
    SCANVEC_HD sv::index_t operator()(bool f, sv::index_t i, sv::index_t trues_before,
                                      sv::index_t falses_after) const {
        return f ? i + falses_after : i - trues_before;
    }
};
struct not_flag_count {
    SCANVEC_HD sv::index_t operator()(bool f) const { return f ? 0 : 1; }
};
/// The position of the left neighbour (0 for position 0).
struct left_neighbour {
    SCANVEC_HD sv::index_t operator()(sv::index_t i) const { return i == 0 ? 0 : i - 1; }
};
/// True where a sorted vector starts a new value.
struct starts_value {
    SCANVEC_HD bool operator()(int x, int left, sv::index_t i) const { return i == 0 || x != left; }
};
}  // namespace ops

/// 1. The largest value of every segment.
inline sv::vector<int> segment_max(const sv::vector<int>& values, const sv::vector<bool>& heads) {
    // max-reduce within each segment
    return sv::segmented_reduce(values, heads, sv::max<int>{});
}

/// 2. The odd elements, in order.
inline sv::vector<int> pack_odd(const sv::vector<int>& a) {
    // Flags <- odd(A), computed inside pack's pass (a lazy map)
    auto odd = sv::lazy::map(ops::is_odd{}, a);
    // pack(A, Flags)
    return sv::pack(a, odd);
}

/// 3. The length of every segment described by head flags (one call: sv::flags_to_lengths).
inline sv::vector<sv::index_t> segment_lengths(const sv::vector<bool>& heads) {
    // Ones <- distribute(1, n), never stored
    auto ones = sv::lazy::distribute(sv::index_t(1), heads.size());
    // +-reduce within each segment
    return sv::segmented_reduce(ones, heads);
}

/// 4. Pixels per line, each line's first pixel in the output, and the total.
inline allocation line_allocation(const sv::vector<line>& lines) {
    // Counts <- max(|dx|, |dy|) + 1, elementwise
    sv::vector<sv::index_t> counts = sv::map(ops::pixel_count{}, lines);
    // Offsets <- +-scan(Counts); the total comes with it
    auto offsets = sv::scan_total(counts);
    return allocation{std::move(counts), std::move(offsets.values), offsets.total};
}

/// 5. Every pixel of every line, line after line, each line from (x0, y0) to (x1, y1).
inline sv::vector<pixel> draw_lines(const sv::vector<line>& lines) {
    // Counts <- pixels per line (exercise 4)
    allocation a = line_allocation(lines);
    // Heads <- one segment per line; no count is 0, so head flags can describe them
    sv::vector<bool> heads = sv::lengths_to_flags(a.counts);
    // Line <- the line of every pixel: its segment number, then a back-permute (a distribute)
    sv::vector<line> mine = sv::back_permute(lines, sv::segment_ids(heads));
    // T <- the position of every pixel along its line
    sv::vector<sv::index_t> t = sv::segmented_index(heads);
    // Pixel <- pixel_on(Line, T), elementwise
    return sv::map(ops::draw_pixel{}, mine, t);
}

/// 6. Every segment split stably on f: its falses first, then its trues
/// (one call: sv::segmented_split(values, f, heads)).
inline sv::vector<int> split_segments(const sv::vector<int>& values, const sv::vector<bool>& f,
                                      const sv::vector<bool>& heads) {
    // TruesBefore <- segmented-enumerate(F)
    sv::vector<sv::index_t> trues_before = sv::segmented_enumerate(f, heads);
    // FalsesAfter <- segmented backward +-scan of not(F)
    sv::vector<sv::index_t> falses_after = sv::segmented_backward_scan(sv::lazy::map(ops::not_flag_count{}, f), heads);
    // Index <- if F then i + FalsesAfter else i - TruesBefore
    auto index = sv::lazy::map(ops::split_target{}, f, sv::lazy::index(values.size()), trues_before, falses_after);
    // permute(Values, Index)
    return sv::permute(values, index);
}

/// 7. The elements in reverse order, by a back-permute (one call: sv::reverse).
inline sv::vector<int> reverse(const sv::vector<int>& a) {
    const sv::index_t last = sv::index_t(a.size()) - 1;
    // Index <- n - 1 - i, computed inside the back-permute
    auto index = sv::lazy::map(SCANVEC_FN(sv::index_t i) { return last - i; }, sv::lazy::index(a.size()));
    // back-permute(A, Index)
    return sv::back_permute(a, index);
}

/// 8. The number of distinct values of a sorted vector.
inline sv::index_t count_distinct(const sv::vector<int>& sorted) {
    const std::size_t n = sorted.size();
    // Left <- back-permute(A, i - 1): every element's left neighbour (read in place, never stored)
    auto left = sv::lazy::back_permute(sorted, sv::lazy::map(ops::left_neighbour{}, sv::lazy::index(n)));
    // New <- i = 0 or A != Left
    auto starts = sv::lazy::map(ops::starts_value{}, sorted, left, sv::lazy::index(n));
    // +-reduce(New)
    return sv::count(starts);
}

}  // namespace exercises::reference
