// The fuzzer's segmented steps over head flags: the four segmented scans,
// segmented_reduce, segmented_distribute and segmented_split.
#include "program.hpp"

namespace fuzz {

template <class T> std::vector<T> program::ref_segmented(const std::vector<T>& a, const std::vector<bool>& f,
                                                           const ref_op<T>& ro, bool inclusive, bool backward) {
    const std::size_t n = a.size();
    std::vector<T> r(n);
    auto head = [&](std::size_t i) { return i == 0 || f[i]; };
    T acc = ro.id;
    if (!backward) {
        for (std::size_t i = 0; i < n; ++i) {
            if (head(i)) acc = ro.id;
            if (inclusive) { acc = ro.f(acc, a[i]); r[i] = acc; }
            else { r[i] = acc; acc = ro.f(acc, a[i]); }
        }
    } else {
        for (std::size_t i = n; i-- > 0;) {
            if (i + 1 == n || head(i + 1)) acc = ro.id;
            if (inclusive) { acc = ro.f(a[i], acc); r[i] = acc; }
            else { r[i] = acc; acc = ro.f(a[i], acc); }
        }
    }
    return r;
}

template <class T> void program::segmented_step() {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const std::size_t n = ar.size();
    auto f_held = operand<bool>(n);
    const std::string fn = f_held.first;
    const auto& f = f_held.second;
    const auto& fr = f->ref;
    const auto& fd = f->dev;
    const std::string name = fresh_name();
    const u64 which = below(8);
    if (which == 6) {  // segmented_distribute: each segment's first element across it
        begin_step("segmented_distribute", name + " = segmented_distribute<" + std::string(type_name<T>()) + ">(" + an +
                                               ", " + fn + ")");
        std::vector<T> ref(n);
        for (std::size_t i = 0; i < n; ++i) ref[i] = (i == 0 || fr[i]) ? ar[i] : ref[i - 1];
        return (void)result(name, sv::segmented_distribute(ad, fd), ref);
    }
    if (which == 7) {  // segmented_split on a second set of flags
        auto g_held = operand<bool>(n);
        const std::string gn = g_held.first;
        const auto& g = g_held.second;
        const auto& gr = g->ref;
        const auto& gd = g->dev;
        begin_step("segmented_split", name + " = segmented_split<" + std::string(type_name<T>()) + ">(" + an + ", " + gn +
                                          ", heads " + fn + ")");
        std::vector<T> ref;
        for (std::size_t s = 0, i = 1; i <= n; ++i)
            if (i == n || fr[i]) {
                for (int pass = 0; pass < 2; ++pass)
                    for (std::size_t k = s; k < i; ++k)
                        if (gr[k] == bool(pass)) ref.push_back(ar[k]);
                s = i;
            }
        return (void)result(name, sv::segmented_split(ad, gd, fd), ref);
    }
    with_op<T>(magnitude(ar), double(n), [&](auto op, const ref_op<T>& ro) {
        const std::string tail = "<" + std::string(type_name<T>()) + ">(" + an + ", heads " + fn + ", " + ro.name + ")";
        switch (which) {
            case 0:
                begin_step("segmented_scan", name + " = segmented_scan" + tail);
                return (void)result(name, sv::segmented_scan(ad, fd, op), ref_segmented(ar, fr, ro, false, false));
            case 1:
                begin_step("segmented_inclusive_scan", name + " = segmented_inclusive_scan" + tail);
                return (void)result(name, sv::segmented_inclusive_scan(ad, fd, op), ref_segmented(ar, fr, ro, true, false));
            case 2:
                begin_step("segmented_backward_scan", name + " = segmented_backward_scan" + tail);
                return (void)result(name, sv::segmented_backward_scan(ad, fd, op), ref_segmented(ar, fr, ro, false, true));
            case 3:
                begin_step("segmented_backward_inclusive_scan", name + " = segmented_backward_inclusive_scan" + tail);
                return (void)result(name, sv::segmented_backward_inclusive_scan(ad, fd, op),
                                    ref_segmented(ar, fr, ro, true, true));
            default: {
                begin_step("segmented_reduce", name + " = segmented_reduce" + tail);
                std::vector<T> ref;
                T acc = ro.id;
                for (std::size_t i = 0; i < n; ++i) {
                    if (i == 0 || fr[i]) acc = ro.id;
                    acc = ro.f(acc, ar[i]);
                    if (i + 1 == n || fr[i + 1]) ref.push_back(acc);
                }
                return (void)result(name, sv::segmented_reduce(ad, fd, op), ref);
            }
        }
    });
}

FUZZ_STEP_FOR_EACH_TYPE(segmented_step)

}  // namespace fuzz
