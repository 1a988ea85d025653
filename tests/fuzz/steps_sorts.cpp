// The fuzzer's sorts: split_radix_sort and radix_sort (of integers and of a
// described struct by one field) and quicksort.
#include "program.hpp"

namespace fuzz {

void program::sort_step() {
    const std::string name = fresh_name();
    switch (below(9)) {
        case 0: return radix_sorts<int>(name, true);
        case 1: return radix_sorts<i64>(name, true);
        case 2: return radix_sorts<int>(name, false);
        case 3: return radix_sorts<i64>(name, false);
        case 4: case 5: return quicksort_of<int>(name);
        case 6: return quicksort_of<float>(name);
        case 7: return quicksort_of<mat2>(name);
        default: {  // described structs, stably by one field
            auto a_held = operand_to_sort<mat2>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            std::vector<mat2> ref = ar;
            if (coin()) {
                begin_step("split_radix_sort (by field)", name + " = split_radix_sort(" + an + ", &mat2::a)");
                std::stable_sort(ref.begin(), ref.end(), [](const mat2& x, const mat2& y) { return x.a < y.a; });
                return (void)result(name, sv::split_radix_sort(ad, &mat2::a), ref);
            }
            const int k = 1 + int(below(16));
            begin_step("radix_sort (by field)", name + " = radix_sort(" + an + ", &mat2::c, " + std::to_string(k) + ")");
            std::stable_sort(ref.begin(), ref.end(), [](const mat2& x, const mat2& y) { return x.c < y.c; });
            return (void)result(name, sv::radix_sort(ad, &mat2::c, k), ref);
        }
    }
}

template <class T> void program::radix_sorts(const std::string& name, bool one_bit) {
    auto a_held = operand_to_sort<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    auto ref = a->ref;  // sorted below
    const auto& ad = a->dev;
    std::sort(ref.begin(), ref.end());
    if (one_bit) {
        begin_step("split_radix_sort", name + " = split_radix_sort<" + std::string(type_name<T>()) + ">(" + an + ")");
        return (void)result(name, sv::split_radix_sort(ad), ref);
    }
    const int k = 1 + int(below(16));
    begin_step("radix_sort", name + " = radix_sort<" + std::string(type_name<T>()) + ">(" + an + ", " + std::to_string(k) + ")");
    result(name, sv::radix_sort(ad, k), ref);
}

template <class T> void program::quicksort_of(const std::string& name) {
    auto a_held = operand_to_sort<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    auto ref = a->ref;  // sorted below
    const auto& ad = a->dev;
    std::sort(ref.begin(), ref.end());
    begin_step("quicksort", name + " = quicksort<" + std::string(type_name<T>()) + ">(" + an + ")");
    result(name, sv::quicksort(ad), ref);
}

}  // namespace fuzz
