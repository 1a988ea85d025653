// scanvec/primitives/detail/common/atomics.hpp - the atomic steps the primitives use, on both backends.
//
// Under nvcc's device pass CUDA's atomic intrinsics; on the host (and in the
// host pass of a CUDA build, never executed on data) GCC's __atomic builtins
// with relaxed ordering: the passes that use them only need each update to be
// indivisible, and the end of the pass orders them before whatever reads.
#pragma once

#include <scanvec/primitives/operators.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

SCANVEC_HD inline unsigned atomic_fetch_or(unsigned* p, unsigned v) {
#if defined(__CUDA_ARCH__)
    return atomicOr(p, v);
#else
    return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
#endif
}
SCANVEC_HD inline void atomic_flip(unsigned* p, unsigned bits) {
#if defined(__CUDA_ARCH__)
    atomicXor(p, bits);  // result unused: a reduction the thread does not wait for
#else
    __atomic_fetch_xor(p, bits, __ATOMIC_RELAXED);
#endif
}
SCANVEC_HD inline void atomic_min(unsigned long long* p, unsigned long long v) {
#if defined(__CUDA_ARCH__)
    atomicMin(p, v);
#else
    unsigned long long cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
#endif
}

/// *p = v as one indivisible store (a word that concurrent writers race to set; one stands).
template <class K> SCANVEC_HD void store_relaxed(K* p, K v) {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<volatile K*>(p) = v;
#else
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
#endif
}

/// Element types a combining write can update in place, one atomic step each.
template <class T>
inline constexpr bool has_atomic_combine_v =
    std::is_arithmetic_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);

/// The unsigned integer of n bytes.
template <std::size_t N> struct word_of;
template <> struct word_of<1> { using type = std::uint8_t; };
template <> struct word_of<2> { using type = std::uint16_t; };
template <> struct word_of<4> { using type = unsigned; };
template <> struct word_of<8> { using type = unsigned long long; };

template <class To, class From> SCANVEC_HD To bits_as(const From& x) {
    static_assert(sizeof(To) == sizeof(From));
    To y;
    std::memcpy(&y, &x, sizeof(To));
    return y;
}

/// *p = *p op v in one indivisible step: a compare-and-swap loop on p's word
/// (on CUDA, for 1- and 2-byte elements, on the aligned 32-bit word around it:
/// memory from the runtime's cache comes in 256-byte blocks).
template <class T, class Op> SCANVEC_HD void atomic_combine_by_cas(T* p, T v, Op op) {
    using W = typename word_of<sizeof(T)>::type;
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) >= 4) {
        W* w = reinterpret_cast<W*>(p);
        W seen = *reinterpret_cast<volatile W*>(w);
        for (;;) {
            const W next = bits_as<W>(T(op(bits_as<T>(seen), v)));
            if (next == seen) return;  // nothing to change
            const W old = atomicCAS(w, seen, next);
            if (old == seen) return;
            seen = old;
        }
    } else {
        const auto addr = reinterpret_cast<std::uintptr_t>(p);
        unsigned* w = reinterpret_cast<unsigned*>(addr & ~std::uintptr_t(3));
        const unsigned shift = unsigned(addr & 3) * 8;
        const unsigned mask = unsigned(W(~W(0))) << shift;
        unsigned seen = *reinterpret_cast<volatile unsigned*>(w);
        for (;;) {
            const T cur = bits_as<T>(W((seen & mask) >> shift));
            const unsigned next = (seen & ~mask) | (unsigned(bits_as<W>(T(op(cur, v)))) << shift);
            if (next == seen) return;
            const unsigned old = atomicCAS(w, seen, next);
            if (old == seen) return;
            seen = old;
        }
    }
#else
    W* w = reinterpret_cast<W*>(p);
    W seen = __atomic_load_n(w, __ATOMIC_RELAXED);
    for (;;) {
        const W next = bits_as<W>(T(op(bits_as<T>(seen), v)));
        if (next == seen || __atomic_compare_exchange_n(w, &seen, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
#endif
}

/// The integer type CUDA's atomic intrinsics take for an integral T of 4 or 8 bytes.
template <class T>
using cuda_atomic_int_t =
    std::conditional_t<sizeof(T) == 4, std::conditional_t<std::is_signed_v<T>, int, unsigned>,
                       std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>;

/// *p = *p op v in one indivisible step, for T with has_atomic_combine_v and a commutative op:
/// the hardware's own atomic where one matches the operator, else atomic_combine_by_cas.
template <class T, class Op> SCANVEC_HD void atomic_combine(T* p, T v, Op op) {
    [[maybe_unused]] constexpr bool int_word = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                               (sizeof(T) == 4 || sizeof(T) == 8);
#if defined(__CUDA_ARCH__)
    using I = cuda_atomic_int_t<std::conditional_t<int_word, T, int>>;
    using U = std::make_unsigned_t<I>;
    if constexpr (std::is_same_v<Op, plus<T>> && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
        atomicAdd(p, v);
    } else if constexpr (int_word && std::is_same_v<Op, plus<T>>) {
        atomicAdd(reinterpret_cast<U*>(p), U(v));  // two's complement: the same bits signed or not
    } else if constexpr (int_word && std::is_same_v<Op, max<T>>) {
        atomicMax(reinterpret_cast<I*>(p), I(v));
    } else if constexpr (int_word && std::is_same_v<Op, min<T>>) {
        atomicMin(reinterpret_cast<I*>(p), I(v));
    } else if constexpr (int_word && std::is_same_v<Op, bit_or<T>>) {
        atomicOr(reinterpret_cast<U*>(p), U(v));
    } else if constexpr (int_word && std::is_same_v<Op, bit_and<T>>) {
        atomicAnd(reinterpret_cast<U*>(p), U(v));
    } else if constexpr (int_word && std::is_same_v<Op, bit_xor<T>>) {
        atomicXor(reinterpret_cast<U*>(p), U(v));
    } else {
        atomic_combine_by_cas(p, v, op);
    }
#else
    if constexpr (int_word && std::is_same_v<Op, plus<T>>) __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    else if constexpr (int_word && std::is_same_v<Op, bit_or<T>>) __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
    else if constexpr (int_word && std::is_same_v<Op, bit_and<T>>) __atomic_fetch_and(p, v, __ATOMIC_RELAXED);
    else if constexpr (int_word && std::is_same_v<Op, bit_xor<T>>) __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);
    else atomic_combine_by_cas(p, v, op);
#endif
}

}  SCANVEC_NAMESPACE_END  // detail
