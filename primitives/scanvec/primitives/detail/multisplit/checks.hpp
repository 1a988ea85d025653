// scanvec/primitives/detail/multisplit/checks.hpp - what histogram and
// multisplit check: the number of classes, and every digit in 0..m-1.
#pragma once

#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/scan.hpp>

#include <string>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct digit_outside {
    index_t m;
    template <class D> SCANVEC_HD index_t operator()(const D& d) const {
        return (index_t(d) < 0 || index_t(d) >= m) ? 1 : 0;
    }
};

template <class D> void check_digits(const char* op, const D& digits, index_t m) {
#if SCANVEC_CHECKS
    const index_t bad = reduce(lazy::map(digit_outside{m}, digits));
    if (bad)
        throw index_error(std::string(op) + ": " + std::to_string(bad) + " digits are outside 0.." +
                          std::to_string(m - 1));
#else
    (void)op; (void)digits; (void)m;
#endif
}

inline void expect_classes(const char* op, index_t m) {
    if (m < 1 || m > (index_t(1) << 31))
        throw error(std::string(op) + ": the number of classes must be in 1..2^31 (got " + std::to_string(m) + ")");
}

} SCANVEC_NAMESPACE_END
