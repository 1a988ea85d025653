// scanvec/runtime/trace.hpp - see what a program did: its steps, its work.
//
//     {
//         sv::trace t(std::cout);      // print every primitive call (tables for short vectors)
//         auto s = sv::split(a, f);
//     }                                // prints the totals when it ends
//
//     sv::trace_options o;             // or draw them: one HTML page, no network needed
//     o.html = "split.html";
//     { sv::trace t(o); auto s = sv::split(a, f); }
//
// In the vector model each primitive is one step (the model's depth measure)
// and costs work proportional to the vectors it touches. A trace counts, on
// the thread that created it, every primitive call: a composite call (split,
// segmented_reduce ...) is shown first, the steps it is made of indented
// beneath it, and only those leaf steps are counted. A call's vectors are
// shown under their roles' names (A, Flags, Index, Heads ...). A call that
// draws itself in the model's terms (a quicksort round: A, Seg-Flags, Pivots,
// F, Index, A', Seg-Flags') shows that picture, the calls beneath it one line
// each (their helper passes folded) unless options.internals. steps() and
// work() give the totals, so a program's O(bits) or O(log n) steps can be
// checked. With no trace alive the cost is one branch per primitive; a trace
// that neither prints nor draws keeps only its counters. How to read a
// trace: docs/trace.md.
//
// While a trace is alive on a thread, its calls show each step the model
// counts, so the shortcuts that fuse steps are off there (same results, the
// model's steps and cost): a radix sort's digits run as one multisplit each
// (no single run over all the bits); quicksort's rounds run from the host,
// and a round a trace pictures reads a copy of the keys and splits stably,
// as the book draws it.
#pragma once

#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/trace_html.hpp>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

/// What a trace shows, and where.
struct trace_options {
    std::ostream* text = nullptr;   ///< print each call here (null: no text)
    std::size_t show_values = 16;   ///< show the vectors of calls on at most this many elements
    bool internals = false;         ///< unfold the helper passes beneath a call that draws itself in the model's terms
    std::string html;               ///< write the HTML page to this file when the trace ends (empty: none)
    std::string title = "scanvec trace";  ///< the HTML page's title
};

class trace : public runtime::observer {
public:
    /// Counts silently.
    trace() : trace(trace_options{}) {}
    /// Prints each call to os; vectors of at most show_values elements as tables.
    explicit trace(std::ostream& os, std::size_t show_values = 16) : trace(text_options(os, show_values)) {}
    /// Prints, draws or both, as the options say.
    explicit trace(trace_options options)
        : opt_(std::move(options)), keep_(opt_.text || !opt_.html.empty()), previous_(runtime::observation().current) {
        runtime::observation().current = this;
    }
    trace(const trace&) = delete;
    trace& operator=(const trace&) = delete;
    ~trace() override {
        runtime::observation().current = previous_;
        if (opt_.text) summary(*opt_.text);
        if (!opt_.html.empty()) {
            std::ofstream f(opt_.html);
            if (f) write_html(f);
        }
    }

    /// Leaf primitive calls: the model's steps.
    std::size_t steps() const { return steps_; }
    /// Elements touched by those steps (the larger of input and output length, summed).
    std::size_t work() const { return work_; }
    /// Steps per primitive name.
    const std::map<std::string, std::size_t>& by_primitive() const { return by_name_; }

    void summary(std::ostream& os) const {
        os << "trace: " << steps_ << " steps, work " << work_ << " (";
        bool first = true;
        for (auto& [name, count] : by_name_) {
            os << (first ? "" : ", ") << name << " " << count;
            first = false;
        }
        os << ")\n";
    }

    /// The calls so far as one self-contained HTML page (a trace that prints
    /// or draws keeps them; a silent one writes its totals alone).
    void write_html(std::ostream& os) const {
        detail::html_writer{os}.page(opt_.title, roots_, steps_, work_, by_name_);
    }

    void enter(const char* name, std::size_t in) override {
        if (!keep_) return;
        auto& siblings = open_.empty() ? roots_ : open_.back()->children;
        siblings.emplace_back();
        siblings.back().name = name;
        siblings.back().in = in;
        open_.push_back(&siblings.back());
    }

    void primitive(const runtime::call_record& call, const table* values) override {
        if (call.leaf) {
            ++steps_;
            work_ += std::max(call.in, call.out);
            ++by_name_[call.name];
        }
        if (!keep_) return;
        if (open_.empty()) enter(call.name, call.in);  // the call began before this trace
        detail::trace_node& node = *open_.back();
        open_.pop_back();
        node.out = call.out;
        node.leaf = call.leaf;
        if (values) node.rows = values->rows();
        if (node.model_rows.empty() && values && call.draw != runtime::picture::rows) {
            // the picture the primitive declared: arrows from the Index row into its result (the last row)
            if (call.draw == runtime::picture::split) add_split_index(node.rows);
            if (detail::find_row(node.rows, "Index") >= 0) {
                node.wires = call.draw == runtime::picture::gather ? 2 : 1;
                node.wire_row = int(node.rows.size()) - 1;
            }
        }
        if (call.leaf) {
            node.steps = 1;
            node.work = std::max(call.in, call.out);
        } else {
            for (auto& c : node.children) node.steps += c.steps, node.work += c.work;
        }
        // a call of the program itself has ended: print it, the whole first
        if (open_.empty() && opt_.text) print(*opt_.text, roots_.back(), 0, false);
    }

    void unwind() override {
        if (!keep_ || open_.empty()) return;
        detail::trace_node& node = *open_.back();
        open_.pop_back();
        node.failed = true;
        node.leaf = node.children.empty();
        for (auto& c : node.children) node.steps += c.steps, node.work += c.work;
        if (open_.empty() && opt_.text) print(*opt_.text, roots_.back(), 0, false);
    }

    bool wants_values(std::size_t n) const override { return keep_ && n <= opt_.show_values; }

    void model_view(const table& rows, int permute_into) override {
        if (!keep_ || open_.empty()) return;
        open_.back()->model_rows = rows.rows();
        open_.back()->wires = permute_into >= 0 ? 1 : 0;
        open_.back()->wire_row = permute_into;
    }

private:
    static trace_options text_options(std::ostream& os, std::size_t show_values) {
        trace_options o;
        o.text = &os;
        o.show_values = show_values;
        return o;
    }

    /// The book's picture of split: where each element goes (the falses in
    /// order, then the trues), shown as the row Index before the result.
    static void add_split_index(std::vector<table::row_t>& rows) {
        const int f = detail::find_row(rows, "Flags"), r = detail::find_row(rows, "Split");
        if (f < 0 || r < 0 || detail::find_row(rows, "Index") >= 0) return;
        const auto& flags = rows[std::size_t(f)].cells;
        if (std::find(flags.begin(), flags.end(), "...") != flags.end()) return;  // cut: not all shown
        std::size_t falses = std::size_t(std::count(flags.begin(), flags.end(), "F")), down = 0, up = 0;
        table::row_t index{"Index", {}};
        for (auto& c : flags) index.cells.push_back(std::to_string(c == "T" ? falses + up++ : down++));
        rows.insert(rows.begin() + r, std::move(index));
    }

    /// A call, its vectors, then (folded: one line each, nothing beneath) the calls it made.
    void print(std::ostream& os, const detail::trace_node& node, int level, bool folded, int ordinal = 0) const {
        const std::string indent(2 * std::size_t(level), ' ');
        // a call drawn in the model's terms (a round) is numbered among its siblings, its length alone shown
        const std::string name = ordinal ? node.name + " " + std::to_string(ordinal) : node.name;
        os << indent << std::left << std::setw(28) << name << std::right << " n = " << node.in;
        if (node.model_rows.empty()) os << " -> " << node.out;
        if (!node.leaf) {
            os << "   (" << node.steps << (node.steps == 1 ? " step" : " steps") << (folded ? ", folded" : "")
               << ", work " << node.work << ")";
        }
        if (node.failed) os << "   (ended by an error)";
        os << "\n";
        if (folded) return;
        const auto& rows = node.shown();
        if (!rows.empty()) {
            table t(std::size_t(-1));  // the rows were cut when recorded
            for (auto& r : rows) t.row_cells(r.name, r.cells);
            std::string text = t.str(), line;
            for (char c : text) {
                if (c == '\n') { os << indent << "  " << line << "\n"; line.clear(); }
                else line += c;
            }
        }
        const bool fold = !node.model_rows.empty() && !opt_.internals;
        int drawn = 0;
        for (auto& c : node.children) print(os, c, level + 1, fold, c.model_rows.empty() ? 0 : ++drawn);
    }

    trace_options opt_;
    bool keep_;
    runtime::observer* previous_;
    std::size_t steps_ = 0, work_ = 0;
    std::map<std::string, std::size_t> by_name_;
    std::vector<detail::trace_node> roots_;   // the program's calls (kept by a trace that prints or draws)
    std::vector<detail::trace_node*> open_;   // the calls running now, outermost first
};

SCANVEC_NAMESPACE_END
