// scanvec/primitives/detail/common/radix_digit_view.hpp - sv::radix_digit_view, what sv::lazy::radix_digit returns.
//
// A lazy view of the k-bit digits at bit lo of integer or floating-point keys,
// in key order (radix_key_bits: negative keys come first). It is a view
// like any other (an sv::view of std::uint32_t digits, read by every primitive)
// that also says what it reads: keys(), lo() and bits(). A primitive that can
// read the bits from the keys themselves (multisplit on CUDA: CUB's radix sort)
// asks the view for them.
#pragma once

#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// The number of bits that hold the values 0..m-1.
inline int bits_for(index_t m) {
    int b = 0;
    while (b < 63 && (index_t(1) << b) < m) ++b;
    return b;
}

/// The unsigned integer whose order is the key order ("radix order"):
/// unsigned keys as they are; signed ones with the sign bit flipped; floating
/// point ones in the order of < (-inf, ..., +inf; -0.0 and +0.0 one key,
/// NaNs at the ends by their sign): every bit flipped when the sign is set,
/// else the sign bit flipped, -0.0 read as +0.0. CUB's radix sort orders keys
/// by the same bits.
template <class K> SCANVEC_HD auto radix_key_bits(K x) {
    if constexpr (std::is_floating_point_v<K>) {
        using U = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
        if (x == K(0)) x = K(0);  // -0.0 is +0.0
        U u;
        memcpy(&u, &x, sizeof(K));
        constexpr U sign = U(U(1) << (8 * sizeof(K) - 1));
        return U(u ^ ((u & sign) ? ~U(0) : sign));
    } else {
        using U = std::make_unsigned_t<K>;
        constexpr U sign = std::is_signed_v<K> ? U(U(1) << (8 * sizeof(K) - 1)) : U(0);
        return U(U(x) ^ sign);
    }
}

/// The k-bit digit at bit lo of a key in radix order (radix_key_bits).
template <class K> struct radix_digit_of {
    int lo;
    int bits;
    SCANVEC_HD std::uint32_t operator()(const K& x) const {
        const auto key = radix_key_bits(x);
        using U = decltype(key);
        return std::uint32_t(U(key >> lo) & U((std::uint64_t(1) << bits) - 1));
    }
};

template <class K> void expect_radix_key() {
    static_assert((std::is_integral_v<K> && !std::is_same_v<K, bool>) || std::is_same_v<K, float> ||
                      std::is_same_v<K, double>,
                  "radix digits and radix sorts need integer keys (8 to 64 bits, signed or unsigned), float or double");
}

template <class KeyIt> using radix_digit_iterator =
    thrust::transform_iterator<radix_digit_of<typename std::iterator_traits<KeyIt>::value_type>, KeyIt>;

}  // namespace detail

/// The digits of bits lo..lo+bits-1 of n keys read through KeyIt, in key order:
/// r[i] = that digit of keys[i], a std::uint32_t in 0..2^bits - 1.
template <class KeyIt> class radix_digit_view : public view<detail::radix_digit_iterator<KeyIt>> {
public:
    using key_type = typename std::iterator_traits<KeyIt>::value_type;

    radix_digit_view(KeyIt keys, std::size_t n, int lo, int bits)
        : view<detail::radix_digit_iterator<KeyIt>>(
              detail::radix_digit_iterator<KeyIt>(keys, detail::radix_digit_of<key_type>{lo, bits}), n),
          keys_(keys), lo_(lo), bits_(bits) {}

    /// The keys the digits are read from (an iterator over size() keys).
    KeyIt keys() const { return keys_; }
    /// The digit's lowest bit in the key.
    int lo() const { return lo_; }
    /// The digit's width: its values lie in 0..2^bits() - 1.
    int bits() const { return bits_; }

private:
    KeyIt keys_;
    int lo_;
    int bits_;
};

namespace detail {

/// A radix_digit_view is a sequence of its digits, as its view is.
template <class KeyIt>
struct sequence_traits<radix_digit_view<KeyIt>> : sequence_traits<view<radix_digit_iterator<KeyIt>>> {};

template <class D> struct is_radix_digit_view : std::false_type {};
template <class KeyIt> struct is_radix_digit_view<radix_digit_view<KeyIt>> : std::true_type {};

/// Whether digits are radix digits of exactly log2(m) bits: in 0..m-1 by
/// construction (nothing to check) and readable from the keys themselves.
template <class D> bool radix_digits_fill(const D& digits, index_t m) {
    if constexpr (is_radix_digit_view<D>::value) return m == (index_t(1) << digits.bits());
    else return (void)digits, (void)m, false;
}

}  // namespace detail

namespace lazy {

/// r[i] = the k-bit digit at bit lo of keys[i] in key order (integers, float or
/// double: see radix_key_bits), computed when consumed: an sv::radix_digit_view, which
/// says its keys and bit range (keys(), lo(), bits()). 1 <= k <= 16.
template <class X> auto radix_digit(const X& keys, int lo, int k) {
    detail::expect_radix_key<value_t<X>>();
    if (k < 1 || k > 16 || lo < 0 || lo >= int(8 * sizeof(value_t<X>)))
        throw error("radix_digit: need 1 <= k <= 16 and lo inside the key (lo = " + std::to_string(lo) +
                    ", k = " + std::to_string(k) + ")");
    using KeyIt = decltype(detail::reader(keys));
    return radix_digit_view<KeyIt>(detail::reader(keys), keys.size(), lo, k);
}

}  // namespace lazy
SCANVEC_NAMESPACE_END
