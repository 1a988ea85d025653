// scanvec/runtime/print.hpp - small vectors as Blelloch-style tables.
//
//     sv::table t;
//     t.row("A", a).row("Flags", f).row("Result", r);
//     std::cout << t;
//
//     A      = [5 7 3 1 4 2 7 2]
//     Flags  = [T T T T F F T F]
//
// One row per vector, columns aligned. Rows longer than `max_columns` are cut
// with an ellipsis. For teaching and debugging: each row is a device round trip.
#pragma once

#include <scanvec/runtime/sequence.hpp>

#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

class table {
public:
    explicit table(std::size_t max_columns = 32) : max_columns_(max_columns) {}

    /// Adds a row: any vector or view of arithmetic values or bools.
    template <class X> table& row(const std::string& name, const X& x) {
        static_assert(std::is_arithmetic_v<value_t<X>>, "sv::table rows hold arithmetic values or bools");
        std::vector<std::string> cells;
        const std::size_t n = std::min(x.size(), max_columns_);
        auto host = materialize(view(detail::reader(x), n)).to_host();
        for (std::size_t i = 0; i < n; ++i) cells.push_back(cell<value_t<X>>(host[i]));
        if (x.size() > n) cells.push_back("...");
        rows_.push_back({name, std::move(cells)});
        return *this;
    }

    /// Adds a row of cells already written out (e.g. "<", "=", ">"); cut as row() cuts.
    table& row_cells(const std::string& name, std::vector<std::string> cells) {
        if (cells.size() > max_columns_) { cells.resize(max_columns_); cells.push_back("..."); }
        rows_.push_back({name, std::move(cells)});
        return *this;
    }

    /// One row: its name and its cells as printed (a cut row ends with "...").
    struct row_t {
        std::string name;
        std::vector<std::string> cells;
    };
    const std::vector<row_t>& rows() const { return rows_; }
    bool empty() const { return rows_.empty(); }

    std::string str() const {
        std::size_t name_w = 0, cols = 0;
        for (auto& r : rows_) { name_w = std::max(name_w, r.name.size()); cols = std::max(cols, r.cells.size()); }
        std::vector<std::size_t> w(cols, 1);
        for (auto& r : rows_)
            for (std::size_t i = 0; i < r.cells.size(); ++i) w[i] = std::max(w[i], r.cells[i].size());
        std::ostringstream os;
        for (auto& r : rows_) {
            os << r.name << std::string(name_w - r.name.size(), ' ') << " = [";
            for (std::size_t i = 0; i < r.cells.size(); ++i) {
                if (i) os << ' ';
                os << std::string(w[i] - r.cells[i].size(), ' ') << r.cells[i];
            }
            os << "]\n";
        }
        return os.str();
    }
    friend std::ostream& operator<<(std::ostream& os, const table& t) { return os << t.str(); }

    /// One value as a cell shows it: bools as T and F, bytes as numbers.
    template <class T> static std::string cell(const T& v) {
        if constexpr (std::is_same_v<T, bool>) return v ? "T" : "F";
        else {
            std::ostringstream os;
            if constexpr (sizeof(T) == 1) os << int(v); else os << v;
            return os.str();
        }
    }

private:
    std::size_t max_columns_;
    std::vector<row_t> rows_;
};

SCANVEC_NAMESPACE_END
