// scanvec/primitives/detail/permute/placement.hpp - where the model's permutes put elements.
//
// A placement says, for element i of the input (in segment k), whether it
// moves and where: to base + idx[i], where idx[i] must lie in 0..bound-1. For a
// flat result base is 0 and bound the result's length; for a nested result they
// are the start and the length of segment k of the result's descriptor. Every
// flat and segmented permute of the model (permute, back_permute,
// default_permute, flag_permute) is one placement and one or two passes:
//
//   find_placement_fault   the first element out of range, the first result
//                          position written twice (one pass, checks only)
//   placement_scatter      out[base + idx[i]] = in[i]
//   placement_gather       out[i] = in[base + idx[i]]
//
// The passes are functors f(i, k): flat callers run them with for_each_flat
// (k = 0), segmented callers with for_each_in_segments (segment_descriptor.hpp).
#pragma once

#include <scanvec/primitives/permute.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Flags of a placement that moves every element.
struct every_element {
    SCANVEC_HD bool operator[](index_t) const { return true; }
};

/// Element i (in segment k) goes to base + idx[i], with 0 <= idx[i] < bound.
template <class IdxIt, class FlagIt = every_element> struct placement {
    IdxIt idx;
    FlagIt flag;
    const index_t* off;  // offsets of the result (count + 1), or null for a flat result
    index_t n;           // length of a flat result
    SCANVEC_HD bool operator()(index_t i, index_t k, index_t& target, index_t& rel, index_t& bound) const {
        if (!flag[i]) return false;
        rel = static_cast<index_t>(idx[i]);
        const index_t base = off ? off[k] : 0;
        bound = off ? off[k + 1] - base : n;
        target = base + rel;
        return true;
    }
};

/// Records the first element whose index is out of range and the first result
/// position written twice (both deterministic: minima over fixed sets).
template <class Place> struct placement_checker {
    Place p;
    unsigned* taken;                // one bit per result position; null when repeats are allowed
    unsigned long long* first_bad;  // [0] element out of range, [1] result position written twice
    SCANVEC_HD void operator()(index_t i, index_t k) const {
        index_t t = 0, rel = 0, bound = 0;
        if (!p(i, k, t, rel, bound)) return;
        if (rel < 0 || rel >= bound) {
            atomic_min(&first_bad[0], (unsigned long long)i);
        } else if (taken) {
            const unsigned bit = 1u << (t & 31);
            if (atomic_fetch_or(&taken[t >> 5], bit) & bit) atomic_min(&first_bad[1], (unsigned long long)t);
        }
    }
};

/// out[base + idx[i]] = in[i] for the elements the placement moves.
template <class T, class Place, class In, class Out> struct placement_scatter {
    Place p;
    In in;
    Out out;
    SCANVEC_HD void operator()(index_t i, index_t k) const {
        index_t t = 0, rel = 0, bound = 0;
        if (p(i, k, t, rel, bound)) out[t] = T(in[i]);
    }
};

/// out[i] = in[base + idx[i]].
template <class T, class Place, class In, class Out> struct placement_gather {
    Place p;
    In in;
    Out out;
    SCANVEC_HD void operator()(index_t i, index_t k) const {
        index_t t = 0, rel = 0, bound = 0;
        if (p(i, k, t, rel, bound)) out[i] = T(in[t]);
    }
};

/// Calls f(i, 0): a segment functor run over a flat vector.
template <class F> struct flat_call {
    F f;
    SCANVEC_HD void operator()(index_t i) const { f(i, index_t(0)); }
};

template <class F> void for_each_flat(std::size_t n, F f, stream_t s) {
    if (n == 0) return;
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), n, flat_call<F>{f});
    backend::check_launch("for_each");
}

/// What find_placement_fault found: -1 where nothing is wrong.
struct placement_fault {
    index_t element = -1;  // first element whose index is out of range
    index_t target = -1;   // first result position written twice
    explicit operator bool() const { return element >= 0 || target >= 0; }
};

/// Runs the checker with run(functor) over the elements (one pass).
template <class Place, class Run>
placement_fault find_placement_fault(Place p, std::size_t n_out, bool unique, stream_t s, Run&& run) {
    const std::size_t words = unique ? (n_out + 31) / 32 : 0;
    runtime::scratch state(2 * sizeof(unsigned long long) + words * sizeof(unsigned));
    auto* first_bad = state.as<unsigned long long>();
    unsigned* taken = words ? reinterpret_cast<unsigned*>(first_bad + 2) : nullptr;
    const unsigned long long none[2] = {~0ull, ~0ull};
    backend::copy_to_device(first_bad, none, sizeof(none), "placement check (init)");
    if (words) backend::fill_zero(taken, words * sizeof(unsigned), s, "placement check (init)");
    run(placement_checker<Place>{p, taken, first_bad});
    unsigned long long bad[2];
    backend::copy_to_host(bad, first_bad, sizeof(bad), "placement check (result)");
    placement_fault f;
    if (bad[0] != ~0ull) f.element = index_t(bad[0]);
    if (bad[1] != ~0ull) f.target = index_t(bad[1]);
    return f;
}

}  SCANVEC_NAMESPACE_END  // detail
