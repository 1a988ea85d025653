// The fuzzer's nested steps (segment descriptors from lengths, empty segments
// included): the nested scans, reduce and rank.
#include "program.hpp"

namespace fuzz {

std::vector<index_t> program::draw_lengths(std::size_t n) {
    std::vector<index_t> len;
    const std::size_t typical = 1 + below(pick(std::vector<u64>{2, 16, 300, 5000, 100000}));
    const double empty = pick(std::vector<double>{0.0, 0.1, 0.5});
    std::size_t left = n;
    if (coin(0.2)) len.push_back(0);
    while (left) {
        if (coin(empty)) { len.push_back(0); continue; }
        const std::size_t l = std::min<std::size_t>(left, 1 + below(2 * typical));
        len.push_back(index_t(l));
        left -= l;
    }
    if (coin(0.3)) len.push_back(0);
    return len;
}

template <class T> void program::nested_step() {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const std::size_t n = ar.size();
    const auto len = draw_lengths(n);
    std::vector<std::size_t> start(len.size() + 1, 0);
    for (std::size_t k = 0; k < len.size(); ++k) start[k + 1] = start[k] + std::size_t(len[k]);
    std::string shape = std::to_string(len.size()) + " segments:";
    for (std::size_t k = 0; k < len.size() && k < 12; ++k) shape += " " + std::to_string(len[k]);
    if (len.size() > 12) shape += " ...";
    sv::nested<T> x(ad, sv::segments::from_lengths(sv::vector<index_t>(len)));
    const std::string name = fresh_name();
    if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, u64>) {
        if (coin(0.2)) {  // rank: the position in a stable sort of the segment
            begin_step("rank (nested)", name + " = rank(nested<" + std::string(type_name<T>()) + ">(" + an + ", " + shape + "))");
            std::vector<index_t> ref(n);
            for (std::size_t k = 0; k < len.size(); ++k) {
                std::vector<std::size_t> order;
                for (std::size_t i = start[k]; i < start[k + 1]; ++i) order.push_back(i);
                std::stable_sort(order.begin(), order.end(), [&](std::size_t p, std::size_t q) { return ar[p] < ar[q]; });
                for (std::size_t j = 0; j < order.size(); ++j) ref[order[j]] = index_t(j);
            }
            auto r = sv::rank(x);
            compare(r.lengths().to_host(), len, "the result's segment lengths");
            return (void)result(name, std::move(r.values()), ref);
        }
    }
    with_op<T>(magnitude(ar), double(n), [&](auto op, const ref_op<T>& ro) {
        const std::string tail = "(nested<" + std::string(type_name<T>()) + ">(" + an + ", " + shape + "), " + ro.name + ")";
        const u64 which = below(5);
        if (which == 4) {
            begin_step("reduce (nested)", name + " = reduce" + tail);
            std::vector<T> ref(len.size(), ro.id);
            for (std::size_t k = 0; k < len.size(); ++k)
                for (std::size_t i = start[k]; i < start[k + 1]; ++i) ref[k] = ro.f(ref[k], ar[i]);
            return (void)result(name, sv::reduce(x, op), ref);
        }
        const bool inclusive = which & 1, backward = which & 2;
        const char* names[] = {"scan", "inclusive_scan", "backward_scan", "backward_inclusive_scan"};
        begin_step(std::string(names[which]) + " (nested)", name + " = " + names[which] + tail);
        std::vector<T> ref(n);
        for (std::size_t k = 0; k < len.size(); ++k) {
            T acc = ro.id;
            if (!backward) {
                for (std::size_t i = start[k]; i < start[k + 1]; ++i) {
                    if (inclusive) { acc = ro.f(acc, ar[i]); ref[i] = acc; }
                    else { ref[i] = acc; acc = ro.f(acc, ar[i]); }
                }
            } else {
                for (std::size_t i = start[k + 1]; i-- > start[k];) {
                    if (inclusive) { acc = ro.f(ar[i], acc); ref[i] = acc; }
                    else { ref[i] = acc; acc = ro.f(ar[i], acc); }
                }
            }
        }
        sv::nested<T> r;
        switch (which) {
            case 0: r = sv::scan(x, op); break;
            case 1: r = sv::inclusive_scan(x, op); break;
            case 2: r = sv::backward_scan(x, op); break;
            default: r = sv::backward_inclusive_scan(x, op); break;
        }
        compare(r.lengths().to_host(), len, "the result's segment lengths");
        result(name, std::move(r.values()), ref);
    });
}

FUZZ_STEP_FOR_EACH_TYPE(nested_step)

}  // namespace fuzz
