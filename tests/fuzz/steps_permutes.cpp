// The fuzzer's data movement: pack and split, permute and back_permute, write
// (distinct and colliding targets) and combining_write.
#include "program.hpp"

namespace fuzz {

template <class T> void program::pack_split_step() {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const std::size_t n = ar.size();
    const std::string name = fresh_name();
    if constexpr (std::is_same_v<T, int>) {
        if (coin(0.3)) {  // flags computed inside the split (a lazy map), as the sorts do
            const int m = pick(std::vector<int>{2, 3, 5});
            begin_step("split", name + " = split<i32>(" + an + ", lazy x % " + std::to_string(m) + " == 0)");
            std::vector<int> ref;
            for (int pass = 0; pass < 2; ++pass)
                for (std::size_t i = 0; i < n; ++i)
                    if ((ar[i] % m == 0) == bool(pass)) ref.push_back(ar[i]);
            return (void)result(name, sv::split(ad, sv::lazy::map(fz::divisible{m}, ad)), ref);
        }
    }
    auto f_held = operand<bool>(n);
    const std::string fn = f_held.first;
    const auto& f = f_held.second;
    const auto& fr = f->ref;
    const auto& fd = f->dev;
    std::vector<T> ref;
    if (coin()) {
        begin_step("pack", name + " = pack<" + std::string(type_name<T>()) + ">(" + an + ", " + fn + ")");
        for (std::size_t i = 0; i < n; ++i)
            if (fr[i]) ref.push_back(ar[i]);
        result(name, sv::pack(ad, fd), ref);
    } else {
        begin_step("split", name + " = split<" + std::string(type_name<T>()) + ">(" + an + ", " + fn + ")");
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t i = 0; i < n; ++i)
                if (fr[i] == bool(pass)) ref.push_back(ar[i]);
        result(name, sv::split(ad, fd), ref);
    }
}

template <class T> void program::permute_step() {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const std::size_t n = ar.size();
    const std::string name = fresh_name();
    const u64 s = rng_();
    if (coin(0.55)) {
        std::vector<i64> perm(n);
        for (std::size_t i = 0; i < n; ++i) perm[i] = i64(i);
        const char* how = "random";
        switch (below(4)) {
            case 0: std::reverse(perm.begin(), perm.end()); how = "reversal"; break;
            case 1: if (n) std::rotate(perm.begin(), perm.begin() + std::ptrdiff_t(below(n)), perm.end()); how = "rotation"; break;
            default: std::shuffle(perm.begin(), perm.end(), std::mt19937_64(s));
        }
        const bool unchecked = coin(0.25);
        begin_step("permute", name + " = permute<" + std::string(type_name<T>()) + ">(" + an + ", " + how +
                                  " permutation, seed " + std::to_string(s) + (unchecked ? ", unchecked)" : ")"));
        std::vector<T> ref(n);
        for (std::size_t i = 0; i < n; ++i) ref[std::size_t(perm[i])] = ar[i];
        sv::vector<i64> idx(perm);
        return (void)result(name, unchecked ? sv::permute(ad, idx, sv::unchecked) : sv::permute(ad, idx), ref);
    }
    if (n == 0) return;  // no index is in range
    const std::size_t m = draw_count(n);
    std::mt19937_64 r(s);
    std::vector<i64> idx(m);
    for (auto& j : idx) j = i64(r() % n);
    begin_step("back_permute", name + " = back_permute<" + std::string(type_name<T>()) + ">(" + an + ", " +
                                   std::to_string(m) + " random indices, seed " + std::to_string(s) + ")");
    std::vector<T> ref(m);
    for (std::size_t i = 0; i < m; ++i) ref[i] = ar[std::size_t(idx[i])];
    result(name, sv::back_permute(ad, sv::vector<i64>(idx)), ref);
}

template <class T> void program::write_step() {
    auto d_held = operand_any<T>();
    const std::string dn = d_held.first;
    const auto& d = d_held.second;
    const auto& dr = d->ref;
    const auto& dd = d->dev;
    const std::size_t n = dr.size();
    if (n == 0) return;
    const std::size_t m = draw_count(n);
    auto v_held = operand<T>(m);
    const std::string vn = v_held.first;
    const auto& v = v_held.second;
    const auto& vr = v->ref;
    const auto& vd = v->dev;
    const std::string name = fresh_name();
    const u64 s = rng_();
    std::mt19937_64 r(s);
    const u64 kind = below(3);
    if (kind == 0) {  // distinct targets: the result is determined
        std::vector<int> all(n);
        for (std::size_t i = 0; i < n; ++i) all[i] = int(i);
        std::shuffle(all.begin(), all.end(), r);
        const std::size_t k = std::min(m, n);
        std::vector<int> idx(all.begin(), all.begin() + std::ptrdiff_t(k));
        begin_step("write", name + " = write<" + std::string(type_name<T>()) + ">(" + dn + ", " + std::to_string(k) +
                                " distinct targets, seed " + std::to_string(s) + ", " + vn + "[0.." + std::to_string(k) + "))");
        std::vector<T> ref = dr;
        for (std::size_t i = 0; i < k; ++i) ref[std::size_t(idx[i])] = vr[i];
        sv::vector<T> firsts = sv::back_permute(vd, sv::index<int>(k));
        return (void)result(name, sv::write(sv::vector<T>(dd), sv::vector<int>(idx), firsts), ref);
    }
    // colliding targets: m writes over about m/3 + 1 positions
    const std::size_t hot = std::max<std::size_t>(1, std::min(n, m / 3 + 1));
    std::vector<int> idx(m);
    for (auto& j : idx) j = int(r() % hot) * int(n / hot);
    if (kind == 1) {
        begin_step("write (colliding)", "write<" + std::string(type_name<T>()) + ">(" + dn + ", " + std::to_string(m) +
                                            " targets among " + std::to_string(hot) + ", seed " + std::to_string(s) +
                                            ", " + vn + ")");
        const auto got = sv::write(dd, sv::vector<int>(idx), vd).to_host();
        if (got.size() != n) throw mismatch("result length " + std::to_string(got.size()) + ", want " + std::to_string(n));
        std::vector<std::vector<std::size_t>> sent(n);
        for (std::size_t k = 0; k < m; ++k) sent[std::size_t(idx[k])].push_back(k);
        hasher h;
        h.word(n);
        for (std::size_t j = 0; j < n; ++j) {
            const T g = got[j];
            if (sent[j].empty()) {
                if (!same<T>(g, dr[j]))
                    throw mismatch("unwritten position " + std::to_string(j) + " changed: got " + show<T>(g) +
                                   ", want " + show<T>(dr[j]));
                h.value(g);
            } else {
                bool found = false;
                for (std::size_t k : sent[j]) found = found || same<T>(g, vr[k]);
                if (!found)
                    throw mismatch("written position " + std::to_string(j) + " holds " + show<T>(g) + ", not one of the " +
                                   std::to_string(sent[j].size()) + " values sent there");
                h.word(0x5752495454454eull);  // "written", its value checked
            }
        }
        return digest(h);
    }
    // combining writes: a commutative operator folds every value sent to a position
    auto run = [&](auto op, const char* opname, auto ref_f) {
        begin_step("combining_write", name + " = combining_write<" + std::string(type_name<T>()) + ">(" + dn + ", " +
                                          std::to_string(m) + " targets among " + std::to_string(hot) + ", seed " +
                                          std::to_string(s) + ", " + vn + ", " + opname + ")");
        std::vector<T> ref = dr;
        for (std::size_t k = 0; k < m; ++k) ref[std::size_t(idx[k])] = ref_f(ref[std::size_t(idx[k])], vr[k]);
        result(name, sv::combining_write(dd, sv::vector<int>(idx), vd, op), ref);
    };
    const bool sum_ok = magnitude(dr) + double(m) * magnitude(vr) <= limit_of<T>();
    if constexpr (std::is_same_v<T, int> || std::is_same_v<T, i64>) {
        switch (below(4)) {
            case 0: if (sum_ok) return run(sv::plus<T>{}, "plus", [](T x, T y) { return T(x + y); }); [[fallthrough]];
            case 1: return run(sv::max<T>{}, "max", [](T x, T y) { return std::max(x, y); });
            case 2: return run(sv::min<T>{}, "min", [](T x, T y) { return std::min(x, y); });
            default: return run(sv::bit_xor<T>{}, "xor", [](T x, T y) { return T(x ^ y); });
        }
    } else if constexpr (std::is_same_v<T, float>) {
        if (sum_ok && coin()) return run(sv::plus<float>{}, "plus", [](float x, float y) { return x + y; });
        return run(sv::max<float>{}, "max", [](float x, float y) { return x < y ? y : x; });
    } else if constexpr (std::is_same_v<T, bool>) {
        return run(sv::logical_or{}, "or", [](bool x, bool y) { return x || y; });
    } else if constexpr (std::is_same_v<T, mat2>) {
        return run(sv::commutative_monoid(fz::mat_add{}, mat2{0, 0, 0, 0}), "matrix sum (commutative monoid)", ref_mat_add);
    } else {
        return run(sv::bit_xor<u64>{}, "xor", [](u64 x, u64 y) { return x ^ y; });
    }
}

FUZZ_STEP_FOR_EACH_TYPE(pack_split_step)
FUZZ_STEP_FOR_EACH_TYPE(permute_step)
FUZZ_STEP_FOR_EACH_TYPE(write_step)

}  // namespace fuzz
