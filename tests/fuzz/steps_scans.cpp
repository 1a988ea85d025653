// The fuzzer's scans and reductions: forward and backward, exclusive and
// inclusive, scan_total and reduce, over every element type and its operators.
#include "program.hpp"

namespace fuzz {

template <class T> void program::scan_step() {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const std::size_t n = ar.size();
    const std::string name = fresh_name();
    with_op<T>(magnitude(ar), double(n), [&](auto op, const ref_op<T>& ro) {
        const std::string tail = "<" + std::string(type_name<T>()) + ">(" + an + ", " + ro.name + ")";
        std::vector<T> ref(n);
        T acc = ro.id;
        switch (below(6)) {
            case 0:
                begin_step("scan", name + " = scan" + tail);
                for (std::size_t i = 0; i < n; ++i) { ref[i] = acc; acc = ro.f(acc, ar[i]); }
                return (void)result(name, sv::scan(ad, op), ref);
            case 1:
                begin_step("inclusive_scan", name + " = inclusive_scan" + tail);
                for (std::size_t i = 0; i < n; ++i) { acc = ro.f(acc, ar[i]); ref[i] = acc; }
                return (void)result(name, sv::inclusive_scan(ad, op), ref);
            case 2:
                begin_step("backward_scan", name + " = backward_scan" + tail);
                for (std::size_t i = n; i-- > 0;) { ref[i] = acc; acc = ro.f(ar[i], acc); }
                return (void)result(name, sv::backward_scan(ad, op), ref);
            case 3:
                begin_step("backward_inclusive_scan", name + " = backward_inclusive_scan" + tail);
                for (std::size_t i = n; i-- > 0;) { acc = ro.f(ar[i], acc); ref[i] = acc; }
                return (void)result(name, sv::backward_inclusive_scan(ad, op), ref);
            case 4: {
                begin_step("scan_total", name + " = scan_total" + tail);
                for (std::size_t i = 0; i < n; ++i) { ref[i] = acc; acc = ro.f(acc, ar[i]); }
                auto got = sv::scan_total(ad, op);
                compare_scalar<T>(got.total, acc, "total");
                return (void)result(name, std::move(got.values), ref);
            }
            default: {
                begin_step("reduce", "reduce" + tail);
                for (std::size_t i = 0; i < n; ++i) acc = ro.f(acc, ar[i]);
                return checked_scalar<T>(sv::reduce(ad, op), acc);
            }
        }
    });
}

FUZZ_STEP_FOR_EACH_TYPE(scan_step)

}  // namespace fuzz
