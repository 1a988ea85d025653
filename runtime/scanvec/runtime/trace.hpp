// scanvec/runtime/trace.hpp - see what a program did: its steps, its work.
//
//     {
//         sv::trace t(std::cout);      // print every primitive call (tables for short vectors)
//         auto s = sv::split(a, f);
//     }                                // prints the totals when it ends
//
// In the vector model each primitive is one step (the model's depth measure)
// and costs work proportional to the vectors it touches. A trace counts, on
// the thread that created it, every primitive call: composite calls (split,
// segmented_reduce ...) are shown with the steps they are made of indented
// below them, and only those leaf steps are counted. steps() and work() give
// the totals, so a program's O(bits) or O(log n) steps can be checked.
// With no trace alive the cost is one branch per primitive.
#pragma once

#include <scanvec/runtime/label.hpp>

#include <iomanip>
#include <iostream>
#include <map>
#include <ostream>
#include <string>

SCANVEC_NAMESPACE_BEGIN

class trace : public runtime::observer {
public:
    /// Counts silently.
    trace() : trace(nullptr, 0) {}
    /// Prints each call to os; vectors of at most show_values elements as tables.
    explicit trace(std::ostream& os, std::size_t show_values = 16) : trace(&os, show_values) {}
    trace(const trace&) = delete;
    trace& operator=(const trace&) = delete;
    ~trace() override {
        runtime::observation().current = previous_;
        if (os_) summary(*os_);
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

    void primitive(const runtime::call_record& call, const table* values) override {
        if (call.leaf) {
            ++steps_;
            work_ += std::max(call.in, call.out);
            ++by_name_[call.name];
        }
        if (!os_) return;
        const std::string indent(2 * std::size_t(call.level), ' ');
        *os_ << indent << std::left << std::setw(28) << call.name << std::right << " n = " << call.in
             << " -> " << call.out << (call.leaf ? "" : "   (composite; its steps above)") << "\n";
        if (values) {
            std::string rows = values->str(), line;
            for (char c : rows) {
                if (c == '\n') { *os_ << indent << "  " << line << "\n"; line.clear(); }
                else line += c;
            }
        }
    }
    bool wants_values(std::size_t n) const override { return os_ && n <= show_values_; }

private:
    trace(std::ostream* os, std::size_t show_values)
        : os_(os), show_values_(show_values), previous_(runtime::observation().current) {
        runtime::observation().current = this;
    }

    std::ostream* os_;
    std::size_t show_values_;
    runtime::observer* previous_;
    std::size_t steps_ = 0, work_ = 0;
    std::map<std::string, std::size_t> by_name_;
};

SCANVEC_NAMESPACE_END
