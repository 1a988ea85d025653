// scanvec/primitives/detail/split/host.hpp - the flat split on the host: a count and a placement per block.
//
// The model's two steps (a reduce counting the falses, then the scan fused
// with the permute) run as two passes over blocks of the elements, on every
// OpenMP thread: each block counts its false flags; the counts, scanned in
// order on one thread (a few hundred), give each block where its falses and
// its trues begin; each block then places its elements in order from there.
// The flags are read twice and the elements once, with no atomics and no
// shared cache lines. split/dispatch.hpp chooses this path on the host;
// docs/design/split.md says what it measured.
#pragma once

#if !defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/split/policy.hpp>

#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The stable split of a by flags (the same length, checked by the caller).
template <class A, class Flags> vector<value_t<A>> split_by_blocks(const A& a, const Flags& flags) {
    using T = value_t<A>;
    const index_t n = index_t(a.size());
    const index_t block = split_policy::host_block;
    const index_t blocks = (n + block - 1) / block;
    auto f = reader(flags);
    // falses[b]: the false flags of block b; then, scanned, those before it (falses[blocks]: all)
    std::vector<index_t> falses(std::size_t(blocks) + 1, 0);
    // F <- the number of falses (per block)
    labelled_scalar({"reduce", {"A"}, "Reduce"}, std::size_t(n), [&] {
#pragma omp parallel for schedule(static)
        for (index_t b = 0; b < blocks; ++b) {
            const index_t lo = b * block, hi = lo + block < n ? lo + block : n;
            index_t c = 0;
            for (index_t i = lo; i < hi; ++i) c += f[i] ? 0 : 1;
            falses[std::size_t(b)] = c;
        }
        index_t sum = 0;
        for (auto& c : falses) {
            const index_t here = c;
            c = sum;
            sum += here;
        }
        return falses.back();
    }, lazy::map(flag_not_to_count{}, flags));
    // permute(A, if Flags then F + i - I-down else I-down), I-down = enumerate(not(Flags))
    return labelled({"permute", {"A", "Index"}, "Permuted", runtime::picture::scatter}, std::size_t(n), [&] {
        vector<T> r(std::size_t(n), no_init);
        auto in = reader(a);
        auto out = writer(r);
        const index_t all = falses.back();
#pragma omp parallel for schedule(static)
        for (index_t b = 0; b < blocks; ++b) {
            const index_t lo = b * block, hi = lo + block < n ? lo + block : n;
            index_t down = falses[std::size_t(b)], up = all + lo - down;
            for (index_t i = lo; i < hi; ++i) {
                if (f[i]) out[up++] = T(in[i]);
                else out[down++] = T(in[i]);
            }
        }
        return r;
    }, a);
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
