// scanvec/runtime/trace_html.hpp - a trace as one self-contained HTML page.
//
// sv::trace keeps the calls of a program as a tree (trace_node) when it prints
// or draws them; html_writer turns that tree into a page that needs no
// network, script or font: each call a block, its vectors rows of cells,
// segments shaded, permutes drawn as lines (inline SVG) from each source
// position to its target, composite calls collapsible (<details>), the steps
// and the work totalled. How to read it: docs/trace.md.
#pragma once

#include <scanvec/runtime/print.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <ostream>
#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// One traced call and the calls it made.
struct trace_node {
    std::string name;
    std::size_t in = 0, out = 0;
    bool leaf = true;
    bool failed = false;  ///< ended by an exception
    std::size_t steps = 0, work = 0;  ///< of the call and everything beneath it
    std::vector<table::row_t> rows;   ///< its vectors by role, when shown
    /// The program's picture of the call in the model's terms (model_view):
    /// shown instead of rows, the calls beneath it folded as the model's steps.
    std::vector<table::row_t> model_rows;
    /// Permute lines: 0 none; 1 scatter (position i of the first row goes to
    /// Index[i] of row wire_row); 2 gather (position j of row wire_row comes
    /// from Index[j] of the first row).
    int wires = 0;
    int wire_row = -1;
    std::vector<trace_node> children;

    const std::vector<table::row_t>& shown() const { return model_rows.empty() ? rows : model_rows; }
};

inline std::string html_escape(const std::string& s) {
    std::string r;
    for (char c : s) {
        switch (c) {
        case '<': r += "&lt;"; break;
        case '>': r += "&gt;"; break;
        case '&': r += "&amp;"; break;
        case '"': r += "&quot;"; break;
        default: r += c;
        }
    }
    return r;
}

/// The row named name among rows, or -1.
inline int find_row(const std::vector<table::row_t>& rows, const std::string& name) {
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].name == name) return int(i);
    return -1;
}

/// Whether a row holds head flags: its name begins with Heads or Seg-Flags.
inline bool is_heads_row(const std::string& name) {
    return name.rfind("Heads", 0) == 0 || name.rfind("Seg-Flags", 0) == 0;
}

/// For each row, the segment number of each of its cells (-1: no segments):
/// a row is segmented by a heads row of its length, one primed (A') by a
/// primed one (Seg-Flags'), others by an unprimed one.
inline std::vector<std::vector<int>> segment_numbers(const std::vector<table::row_t>& rows) {
    std::vector<std::vector<int>> seg(rows.size());
    auto primed = [](const std::string& s) { return !s.empty() && s.back() == '\''; };
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t h = 0; h < rows.size(); ++h) {
            if (!is_heads_row(rows[h].name) || primed(rows[h].name) != primed(rows[r].name)) continue;
            if (rows[h].cells.size() != rows[r].cells.size()) continue;
            int s = -1;
            for (const auto& c : rows[h].cells) {
                if (c == "T" || c == "1" || s < 0) ++s;
                seg[r].push_back(s);
            }
            break;
        }
    }
    return seg;
}

struct html_writer {
    std::ostream& os;

    static std::size_t cell_width(const std::vector<table::row_t>& rows) {
        std::size_t w = 2;
        for (auto& r : rows)
            for (auto& c : r.cells) w = std::max(w, c.size());
        return 10 + 8 * w;  // px: monospace digits of 8px and a margin
    }

    void wires(const trace_node& node, const std::vector<table::row_t>& rows, std::size_t w) {
        const int idx = find_row(rows, "Index");
        if (idx < 0 || rows.empty()) return;
        const std::size_t n = rows[std::size_t(idx)].cells.size();
        std::size_t cols = 0;
        for (auto& r : rows) cols = std::max(cols, r.cells.size());
        // the row the Index positions point into: the target when scattering, the source when gathering
        const std::size_t into = node.wires == 1 && node.wire_row >= 0 && std::size_t(node.wire_row) < rows.size()
                                     ? rows[std::size_t(node.wire_row)].cells.size()
                                     : rows[0].cells.size();
        const int height = 40;
        os << "<tr class=\"wires\"><th></th><td colspan=\"" << cols << "\"><svg width=\"" << cols * w << "\" height=\""
           << height << "\">";
        for (std::size_t i = 0; i < n; ++i) {
            const std::string& c = rows[std::size_t(idx)].cells[i];
            char* end = nullptr;
            const long long j = std::strtoll(c.c_str(), &end, 10);
            if (end == c.c_str() || j < 0 || std::size_t(j) >= into) continue;  // "..." or out of the shown cells
            const std::size_t from = node.wires == 1 ? i : std::size_t(j), to = node.wires == 1 ? std::size_t(j) : i;
            os << "<line x1=\"" << from * w + w / 2 << "\" y1=\"2\" x2=\"" << to * w + w / 2 << "\" y2=\""
               << height - 2 << "\"/>";
        }
        os << "</svg></td></tr>";
    }

    void values(const trace_node& node) {
        const auto& rows = node.shown();
        if (rows.empty()) return;
        const std::size_t w = cell_width(rows);
        const auto seg = segment_numbers(rows);
        os << "<table class=\"v\" style=\"--w:" << w << "px\">";
        for (std::size_t r = 0; r < rows.size(); ++r) {
            if (node.wires && int(r) == node.wire_row) wires(node, rows, w);
            os << "<tr class=\"row\"><th>" << html_escape(rows[r].name) << "</th>";
            for (std::size_t i = 0; i < rows[r].cells.size(); ++i) {
                const bool odd = !seg[r].empty() && seg[r][i] % 2 == 1;
                const bool head = !seg[r].empty() && (i == 0 || seg[r][i] != seg[r][i - 1]);
                os << "<td" << (odd || head ? " class=\"" : "") << (odd ? "s1" : "") << (odd && head ? " " : "")
                   << (head ? "h" : "") << (odd || head ? "\"" : "") << ">" << html_escape(rows[r].cells[i]) << "</td>";
            }
            os << "</tr>";
        }
        os << "</table>\n";
    }

    void header(const trace_node& node, int ordinal) {
        os << "<span class=\"name\">" << html_escape(node.name);
        if (ordinal) os << " " << ordinal;  // a call drawn in the model's terms, numbered among its siblings
        os << "</span> <span class=\"len\">n = " << node.in;
        if (node.model_rows.empty()) os << " &#8594; " << node.out;
        os << "</span>";
        if (node.failed) os << " <span class=\"failed\">(ended by an error)</span>";
        else if (node.leaf) os << " <span class=\"cost\">1 step, work " << node.work << "</span>";
        else os << " <span class=\"cost\">" << node.steps << (node.steps == 1 ? " step" : " steps") << ", work "
                << node.work << "</span>";
    }

    void call(const trace_node& node, bool open, int ordinal = 0) {
        if (node.leaf) {
            os << "<div class=\"call leaf\"><div class=\"head\">";
            header(node, ordinal);
            os << "</div>\n";
            values(node);
            os << "</div>\n";
            return;
        }
        os << "<details class=\"call" << (node.model_rows.empty() ? "" : " model") << "\"" << (open ? " open" : "")
           << "><summary>";
        header(node, ordinal);
        os << "</summary>\n";
        values(node);
        if (node.model_rows.empty()) {
            int drawn = 0;
            for (auto& c : node.children) call(c, open, c.model_rows.empty() ? 0 : ++drawn);
        } else {  // drawn in the model's terms: its steps folded away, one click to see
            os << "<details class=\"impl\"><summary>its steps (" << node.children.size() << " calls)</summary>\n";
            for (auto& c : node.children) call(c, false);
            os << "</details>\n";
        }
        os << "</details>\n";
    }

    void page(const std::string& title, const std::vector<trace_node>& roots, std::size_t steps, std::size_t work,
              const std::map<std::string, std::size_t>& by_name) {
        os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html_escape(title)
           << "</title>\n<style>\n"
              "body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}\n"
              "h1{font-size:1.3em}\n"
              ".call{margin:.3em 0 .3em 1.2em;padding:.2em .5em;border-left:3px solid #9ab}\n"
              ".call.leaf{border-left-color:#5a5}\n"
              ".call.model{border-left-color:#c83;background:#fffaf2}\n"
              "details.impl{margin-left:1.2em;font-family:monospace;font-size:13px;color:#555}\n"
              "summary,.head{cursor:default;font-family:monospace;font-size:14px}\n"
              ".name{font-weight:bold}.cost{color:#666}.failed{color:#b00}\n"
              "table.v{border-collapse:collapse;border-spacing:0;margin:.3em 0;font-family:monospace;"
              "font-size:13px;table-layout:fixed}\n"
              "table.v th{text-align:right;padding:0 .6em 0 0;font-weight:normal;color:#335;white-space:nowrap}\n"
              "table.v td{width:var(--w);min-width:var(--w);max-width:var(--w);box-sizing:border-box;padding:1px 0;"
              "text-align:center;background:#eef3f8}\n"
              "table.v td.s1{background:#d6e4f0}\n"
              "table.v td.h{box-shadow:inset 2px 0 0 #37a}\n"
              "tr.wires td{padding:0;background:none}\n"
              "tr.wires line{stroke:#c55;stroke-width:1.3}\n"
              "table.totals td,table.totals th{padding:0 .8em;text-align:left;font-family:monospace}\n"
              "</style></head>\n<body>\n<h1>"
           << html_escape(title) << "</h1>\n<p class=\"totals\">" << steps << " steps, work " << work << "</p>\n";
        for (auto& r : roots) call(r, true);
        os << "<h2>Totals</h2>\n<table class=\"totals\"><tr><th>primitive</th><th>steps</th></tr>\n";
        for (auto& [name, count] : by_name)
            os << "<tr><td>" << html_escape(name) << "</td><td>" << count << "</td></tr>\n";
        os << "<tr><th>all</th><th>" << steps << " steps, work " << work << "</th></tr></table>\n</body></html>\n";
    }
};

}  SCANVEC_NAMESPACE_END  // detail
