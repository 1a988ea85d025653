// scanvec/primitives/detail/three_way/picture.hpp - the book's picture of
// one round of a segmented quicksort, drawn for a trace that shows values
// (sv::trace): nothing is read back unless it is shown.
#pragma once

#include <scanvec/primitives/three_way_split.hpp>
#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/print.hpp>

#include <string>
#include <type_traits>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The book's picture of one round, for a trace that shows its vectors
/// (sv::trace): the keys and segments as the pivots are chosen, then the
/// keys and segments the split made. Read back to the host only when shown.
template <class T, class Pos> struct round_picture {
    bool shown = false;
    std::vector<T> keys, pivot;
    std::vector<Pos> start;

    explicit round_picture(std::size_t n) {
        auto& obs = runtime::observation();
        if constexpr (std::is_arithmetic_v<T>) shown = obs.current && obs.current->wants_values(n);
        (void)obs;
    }
    void before(const pivoted_segments<T, Pos>& segs) {
        if constexpr (std::is_arithmetic_v<T>) {
            if (!shown) return;
            keys = segs.keys.to_host();
            pivot = segs.pivot.to_host();
            start = segs.start.to_host();
        } else {
            (void)segs;
        }
    }
    /// Rows A, Seg-Flags, Pivots (each segment's pivot over all of it; a
    /// segment of one is its own), F (<, = or > than the pivot), Index (where
    /// the three-way split sends each key), then A' and Seg-Flags' as split.
    void after(const pivoted_segments<T, Pos>& segs) {
        if constexpr (std::is_arithmetic_v<T>) draw(segs); else (void)segs;
    }
    void draw(const pivoted_segments<T, Pos>& segs) {
        if (!shown) return;
        const std::size_t n = keys.size();
        std::vector<std::size_t> end(n);  // one past each key's segment
        for (std::size_t i = n; i-- > 0;) end[i] = (i + 1 == n || std::size_t(start[i + 1]) == i + 1) ? i + 1 : end[i + 1];
        std::vector<std::string> heads(n), pivots(n), flags(n), index(n), new_heads(n);
        std::vector<int> cls(n);  // 0 less, 1 equal, 2 greater
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t s = std::size_t(start[i]);
            const T p = end[i] - s >= 2 ? pivot[s] : keys[i];
            cls[i] = keys[i] < p ? 0 : (p < keys[i] ? 2 : 1);
            heads[i] = s == i ? "T" : "F";
            pivots[i] = table::cell(p);
            flags[i] = cls[i] == 0 ? "<" : (cls[i] == 1 ? "=" : ">");
        }
        for (std::size_t s = 0; s < n; s = end[s]) {  // stable: less, then equal, then greater
            std::size_t at = s;
            for (int c = 0; c < 3; ++c)
                for (std::size_t i = s; i < end[s]; ++i)
                    if (cls[i] == c) index[i] = std::to_string(at++);
        }
        const auto keys_after = segs.keys.to_host();
        const auto start_after = segs.start.to_host();
        std::vector<std::string> a(n), a_after(n);
        for (std::size_t i = 0; i < n; ++i) {
            a[i] = table::cell(keys[i]);
            a_after[i] = table::cell(keys_after[i]);
            new_heads[i] = std::size_t(start_after[i]) == i ? "T" : "F";
        }
        table t;
        t.row_cells("A", a).row_cells("Seg-Flags", heads).row_cells("Pivots", pivots).row_cells("F", flags);
        t.row_cells("Index", index).row_cells("A'", a_after).row_cells("Seg-Flags'", new_heads);
        if (auto* obs = runtime::observation().current) obs->model_view(t, 5);
    }
};

}  SCANVEC_NAMESPACE_END  // detail
