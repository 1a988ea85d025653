// The fuzzer's multisplit (by digits computed or lazy, by radix digits) and
// histogram steps.
#include "program.hpp"

namespace fuzz {

template <class T> void program::multisplit_step() {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const std::size_t n = ar.size();
    const std::string name = fresh_name();
    if constexpr (std::is_same_v<T, int> || std::is_same_v<T, i64>) {
        if (coin(0.3)) {  // the radix digits of the keys themselves (CUB reads the bits on CUDA)
            const int k = 1 + int(below(8)), lo = int(below(8 * sizeof(T) - k + 1));
            begin_step("multisplit (radix digit)", name + " = multisplit<" + std::string(type_name<T>()) + ">(" + an +
                                                       ", lazy::radix_digit(" + an + ", " + std::to_string(lo) + ", " +
                                                       std::to_string(k) + "), " + std::to_string(1 << k) + ")");
            using U = std::make_unsigned_t<T>;
            auto digit = [&](T x) {
                const U key = U(U(x) ^ (U(1) << (8 * sizeof(T) - 1)));
                return int((key >> lo) & ((U(1) << k) - 1));
            };
            std::vector<T> ref;
            for (int b = 0; b < (1 << k); ++b)
                for (std::size_t i = 0; i < n; ++i)
                    if (digit(ar[i]) == b) ref.push_back(ar[i]);
            return (void)result(name, sv::multisplit(ad, sv::lazy::radix_digit(ad, lo, k), index_t(1) << k), ref);
        }
    }
    const bool small = test::small_sizes_only();
    const long long m = pick(small ? std::vector<long long>{1, 2, 3, 4, 7, 16, 100, 256, 1000, 65537}
                                   : std::vector<long long>{1, 2, 3, 4, 7, 16, 100, 256, 1000, 65536, 65537, 200003});
    auto src_held = operand<int>(n);
    const std::string sn = src_held.first;
    const auto& src = src_held.second;
    const auto sr = src->ref;
    auto sd = src->dev;
    std::vector<int> digits(n);
    for (std::size_t i = 0; i < n; ++i) digits[i] = int(((sr[i] % m) + m) % m);
    const bool lazy = coin();
    const std::string dtext = (lazy ? "lazy " : "") + sn + " mod " + std::to_string(m);
    sv::vector<int> dd = lazy ? sv::vector<int>() : sv::map(fz::digit_of{m}, sd);
    if (coin(0.3)) {
        begin_step("histogram", name + " = histogram(" + dtext + ", " + std::to_string(m) + ")");
        std::vector<i64> ref(std::size_t(m), 0);
        for (int x : digits) ref[std::size_t(x)]++;
        return (void)result(name, lazy ? sv::histogram(sv::lazy::map(fz::digit_of{m}, sd), m) : sv::histogram(dd, m), ref);
    }
    begin_step("multisplit", name + " = multisplit<" + std::string(type_name<T>()) + ">(" + an + ", " + dtext + ", " +
                                 std::to_string(m) + ")");
    std::vector<std::vector<T>> buckets(static_cast<std::size_t>(m));
    for (std::size_t i = 0; i < n; ++i) buckets[std::size_t(digits[i])].push_back(ar[i]);
    std::vector<T> ref;
    for (auto& b : buckets) ref.insert(ref.end(), b.begin(), b.end());
    result(name, lazy ? sv::multisplit(ad, sv::lazy::map(fz::digit_of{m}, sd), m) : sv::multisplit(ad, dd, m), ref);
}

FUZZ_STEP_FOR_EACH_TYPE(multisplit_step)

}  // namespace fuzz
