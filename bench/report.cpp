// bench/report.cpp - bench.csv, growth.csv and bench.md.
#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace bench {
namespace {

std::string num(double v, int digits = 3) {
    if (std::isnan(v)) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

/// Fixed-point with two decimals (ratios).
std::string ratio(double v) {
    if (std::isnan(v)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, v < 100 ? "%.2f" : "%.0f", v);
    return buf;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

/// Text for a markdown cell: no '|', at most `max` characters.
std::string cell(const std::string& s, std::size_t max = 60) {
    std::string c = s.substr(0, max);
    std::replace(c.begin(), c.end(), '|', '/');
    std::replace(c.begin(), c.end(), '\n', ' ');
    return c;
}

std::string short_type(const std::string& t) {
    if (t == "int32") return "i32";
    if (t == "float32") return "f32";
    if (t == "uint64") return "u64";
    if (t == "int64") return "i64";
    if (t == "uint32") return "u32";
    return t;
}

/// The scanvec call as the markdown shows it: without "sv::", nested rows with their shape.
std::string short_impl(const row& r) {
    std::string s = r.impl.rfind("sv::", 0) == 0 ? r.impl.substr(4) : r.impl;
    if (r.family == "nested") s = "nested scan, " + r.input;
    if (r.family == "quicksort") s += ", " + r.input;  // the inputs family: one row per input
    return s;
}

std::string rate(const row& r) {
    const double t = r.throughput();
    if (std::isnan(t)) return "";
    return r.keys ? num(t) + " Gk/s" : num(t, 4) + " GB/s";
}

std::ofstream open(const std::string& path) {
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path);
    return f;
}

// ---- targets -------------------------------------------------------------

/// A ratio the project has a goal for (goal 0: reported without one).
struct target {
    const char* label;
    const char* family;
    const char* impl;
    const char* input;   // "" for any
    const char* versus;  // an alternative's short name, "memcpy", or "split" (one split of the same keys)
    std::vector<std::pair<int, double>> goals;  // log2 size -> goal
    const char* type = "int32";                 // the rows' key type (nested rows: any)
};

const std::vector<target>& targets() {
    static const std::vector<target> list = {
        {"scan i32 / cub", "scan", "sv::scan", "", "cub scan", {{20, 1.2}, {24, 1.05}, {28, 1.05}}},
        {"reduce i32 / cub", "reduce", "sv::reduce", "", "cub reduce", {{20, 1.2}, {24, 1.05}, {28, 1.05}}},
        {"segmented_scan / memcpy", "segmented_scan", "sv::segmented_scan", "", "memcpy", {{28, 1.5}}},
        {"segmented_scan / thrust scan_by_key", "segmented_scan", "sv::segmented_scan", "", "thrust scan_by_key", {{28, 0}}},
        {"map / memcpy", "map", "sv::map", "", "memcpy", {{24, 1.1}, {28, 1.1}}},
        {"permute / thrust scatter", "permute", "sv::permute", "", "thrust scatter", {{24, 1.1}, {28, 1.1}}},
        {"permute unchecked / thrust scatter", "permute", "sv::permute unchecked", "", "thrust scatter", {{24, 1.1}, {28, 1.1}}},
        {"back_permute / thrust gather", "back_permute", "sv::back_permute", "", "thrust gather", {{24, 1.1}, {28, 1.1}}},
        {"split / memcpy", "split", "sv::split", "", "memcpy", {{28, 2.0}}},
        {"split / cub partition", "split", "sv::split", "", "cub partition", {{28, 0}}},
        {"split / thrust stable_partition", "split", "sv::split", "", "thrust stable_partition", {{28, 0}}},
        {"split_radix_sort / one split", "sort", "sv::split_radix_sort", "", "split", {{24, 34}, {28, 34}}},
        {"split_radix_sort / cub radix", "sort", "sv::split_radix_sort", "", "cub radix sort", {{24, 0}, {28, 0}}},
        {"radix_sort / cub radix", "sort", "sv::radix_sort", "", "cub radix sort", {{24, 0}, {28, 0}}},
        {"quicksort / cub radix", "sort", "sv::quicksort", "", "cub radix sort", {{20, 5}, {24, 5}, {28, 5}}},
        {"quicksort sorted / cub radix", "quicksort", "sv::quicksort", "sorted", "cub radix sort", {{24, 0}}},
        {"quicksort reversed / cub radix", "quicksort", "sv::quicksort", "reversed", "cub radix sort", {{24, 5}}},
        {"quicksort organ pipe / cub radix", "quicksort", "sv::quicksort", "organ pipe", "cub radix sort", {{24, 5}}},
        {"quicksort all equal / cub radix", "quicksort", "sv::quicksort", "all equal", "cub radix sort", {{24, 0}}},
        {"quicksort 16 distinct / cub radix", "quicksort", "sv::quicksort", "16 distinct", "cub radix sort", {{24, 0}}},
        {"quicksort float normal / cub radix", "quicksort", "sv::quicksort", "normal", "cub radix sort", {{24, 8}}, "float32"},
        {"quicksort u64 / cub radix", "quicksort", "sv::quicksort", "random keys", "cub radix sort", {{24, 8}}, "uint64"},
        {"nested len 1 / flat scan", "nested", "sv::scan(a, segments)", "len 1", "flat sv::scan", {{26, 1.5}}},
        {"nested len 32 / flat scan", "nested", "sv::scan(a, segments)", "len 32", "flat sv::scan", {{26, 1.5}}},
        {"nested len 1000 / flat scan", "nested", "sv::scan(a, segments)", "len 1000", "flat sv::scan", {{26, 1.5}}},
        {"nested one segment / flat scan", "nested", "sv::scan(a, segments)", "one segment", "flat sv::scan", {{26, 1.5}}},
        {"nested power-law / flat scan", "nested", "sv::scan(a, segments)", "power-law", "flat sv::scan", {{26, 1.5}}},
    };
    return list;
}

bool matches(const row& r, const target& t) {
    return r.family == t.family && r.impl == t.impl && (!*t.input || r.input == t.input) &&
           (r.type == t.type || r.family == "nested");
}

/// The ratio a target measures on row r, and a note.
double target_ratio(const std::string& versus, const row& r, const std::vector<row>& rows, std::string& note) {
    if (versus == "memcpy") return r.ratio_memcpy();
    if (versus == "split") {
        for (auto& q : rows)
            if (q.family == "split" && q.impl == "sv::split" && q.type == r.type && q.n == r.n && q.sv.valid() && r.sv.valid())
                return r.sv.median_ms / q.sv.median_ms;
        return NAN;
    }
    if (r.alt_short != versus) return NAN;
    note = r.note;
    return r.ratio_alt();
}

std::size_t log2_of(std::size_t n) {
    std::size_t k = 0;
    while ((std::size_t(1) << (k + 1)) <= n) ++k;
    return k;
}

/// What a target compares with on this backend: on the host the alternatives
/// are a sequential loop and std::sort.
std::string versus_on(const target& t, bool gpu) {
    const std::string v = t.versus;
    if (gpu || v == "memcpy" || v == "split" || v == "flat sv::scan") return v;
    return v.find("radix") != std::string::npos ? "std::sort" : "loop";
}

void write_targets(std::ostream& md, const environment& env, const std::vector<row>& rows) {
    const bool gpu = env.backend == "cuda";
    std::set<std::string> shown;
    md << "### Targets (scanvec time / reference time; goal: at most" << (gpu ? ")" : ", for the GPU: host rows are for information)") << "\n\n";
    md << "| target | n | ratio | goal | |\n|---|---|---|---|---|\n";
    for (const target& t : targets()) {
        // its rows at the target's sizes; when none of those was run, at the largest size run
        const std::string versus = versus_on(t, gpu);
        if (!shown.insert(std::string(t.family) + "|" + t.impl + "|" + t.input + "|" + t.type + "|" + versus).second) continue;
        const bool by_alt = versus != "memcpy" && versus != "split";
        std::vector<std::pair<const row*, double>> hits;
        const row* largest = nullptr;
        std::size_t last_n = 0;
        for (auto& r : rows) {
            if (!matches(r, t) || (by_alt && r.alt_short != versus) || (!by_alt && r.n == last_n)) continue;
            last_n = r.n;  // memcpy and split ratios: one per size, not one per alternative
            for (auto& [k, goal] : t.goals)
                if (r.n == (std::size_t(1) << k)) hits.push_back({&r, goal});
            if (!largest || r.n > largest->n) largest = &r;
        }
        if (hits.empty() && largest) hits.push_back({largest, gpu ? -1.0 : t.goals.back().second});
        if (hits.empty()) {
            md << "| " << t.label << " | | not run | | |\n";
            continue;
        }
        for (auto& [r, goal] : hits) {
            std::string note;
            const double v = target_ratio(versus, *r, rows, note);
            std::string verdict;
            if (r->check != "ok") verdict = "WRONG";
            else if (!gpu || goal < 0) verdict = "-";
            else if (goal > 0) verdict = v <= goal ? "ok" : "MISS";
            std::string label = t.label;
            if (versus != t.versus) label = label.substr(0, label.rfind('/') + 2) + versus;
            md << "| " << label << " | " << size_label(r->n) << " | " << (r->check == "ok" ? ratio(v) : cell(r->check, 40))
               << " | " << (goal > 0 ? num(goal) : "") << " | " << verdict << (note.empty() ? "" : " " + note) << " |\n";
        }
    }
    md << "\n";
}

}  // namespace

std::string size_label(std::size_t n) {
    if (n && (n & (n - 1)) == 0) return "2^" + std::to_string(log2_of(n));
    return std::to_string(n);
}

void write_rows_csv(const std::string& path, const environment& env, const std::vector<row>& rows) {
    auto f = open(path);
    f << "backend,device,driver,cuda,date,family,op,input,type,n,scanvec_ms,alt,alt_ms,ratio_alt,memcpy_bytes,memcpy_ms,"
         "ratio_memcpy,gb_per_s,gkeys_per_s,alt_gb_per_s,alt_gkeys_per_s,scanvec_min_ms,alt_min_ms,memcpy_min_ms,"
         "scanvec_reps,alt_reps,check,note\n";
    for (auto& r : rows) {
        const double tp = r.throughput(), atp = r.alt_throughput();
        f << csv_field(env.backend) << ',' << csv_field(env.device) << ',' << csv_field(env.driver) << ','
          << csv_field(env.runtime) << ',' << env.date << ',' << r.family << ',' << csv_field(r.impl) << ','
          << csv_field(r.input) << ',' << r.type << ',' << r.n << ',' << num(r.sv.median_ms, 6) << ','
          << csv_field(r.alt) << ',' << num(r.alt_t.median_ms, 6) << ',' << num(r.ratio_alt(), 4) << ','
          << r.copy_bytes << ',' << num(r.copy.median_ms, 6) << ',' << num(r.ratio_memcpy(), 4) << ','
          << (r.keys ? "" : num(tp, 5)) << ',' << (r.keys ? num(tp, 5) : "") << ',' << (r.keys ? "" : num(atp, 5)) << ','
          << (r.keys ? num(atp, 5) : "") << ',' << num(r.sv.min_ms, 6) << ',' << num(r.alt_t.min_ms, 6) << ','
          << num(r.copy.min_ms, 6) << ',' << r.sv.reps << ',' << r.alt_t.reps << ',' << csv_field(r.check) << ','
          << csv_field(r.note) << '\n';
    }
}

void write_growth_csv(const std::string& path, const environment& env, const std::vector<measurement>& log) {
    auto f = open(path);
    f << "backend,device,date,family,type,n,impl,role,median_ms,min_ms,reps,ns_per_element\n";
    for (auto& m : log) {
        if (!m.t.valid() || !((m.family == "scan" || m.family == "sort") && m.type == "int32")) continue;
        f << csv_field(env.backend) << ',' << csv_field(env.device) << ',' << env.date << ',' << m.family << ','
          << m.type << ',' << m.n << ',' << csv_field(m.impl) << ',' << m.role << ',' << num(m.t.median_ms, 6) << ','
          << num(m.t.min_ms, 6) << ',' << m.t.reps << ',' << num(m.t.median_ms * 1e6 / double(m.n), 5) << '\n';
    }
}

std::string markdown(const environment& env, const std::vector<row>& rows) {
    std::ostringstream md;
    md << "## scanvec benchmark: " << env.backend << " backend\n\n";
    md << "- device: " << env.device << "\n";
    md << "- driver: " << env.driver << "; " << env.runtime << "; " << env.cccl << "\n";
    md << "- date: " << env.date << "; SCANVEC_CHECKS=" << env.checks << "\n";
    md << "- sizes: " << env.sizes << "\n";
    md << "- timing: " << env.timing << "; memcpy: " << env.memcpy << "\n";
    std::set<std::string> wrong;
    for (auto& r : rows)
        if (r.check != "ok") wrong.insert(r.impl + " " + r.type + " " + size_label(r.n));
    md << "- checks: " << (wrong.empty() ? "every result right" : std::to_string(wrong.size()) + " WRONG or failed") << "\n\n";
    write_targets(md, env, rows);

    md << "### All rows (ms: median; x: scanvec / alternative, scanvec / memcpy)\n\n";
    md << "| op | type | n | ms | vs | alt ms | x alt | x memcpy | rate | check |\n|---|---|---|---|---|---|---|---|---|---|\n";
    const row* prev = nullptr;
    for (auto& r : rows) {
        const bool cont = prev && prev->impl == r.impl && prev->family == r.family && prev->input == r.input &&
                          prev->type == r.type && prev->n == r.n;
        if (cont)
            md << "| | | | | ";
        else
            md << "| " << short_impl(r) << " | " << short_type(r.type) << " | " << size_label(r.n) << " | "
               << (r.sv.valid() ? num(r.sv.median_ms) : "-") << " | ";
        md << r.alt_short << " | " << num(r.alt_t.median_ms) << " | " << ratio(r.ratio_alt()) << " | "
           << (cont ? "" : ratio(r.ratio_memcpy())) << " | " << (cont ? "" : rate(r)) << " | "
           << (cont ? "" : cell(r.check)) << " |\n";
        prev = &r;
    }
    return md.str();
}

}  // namespace bench
