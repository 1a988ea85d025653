// The fuzzer's operands and element-wise steps: the generators of every element
// type (random, index, distribute, uploads), the maps and conversions between
// the types, and the flag steps (enumerate, count, segment indices and lengths).
#include "program.hpp"

namespace fuzz {

template <class T> slot<T>& program::generate(std::size_t len) {
    const std::string name = fresh_name();
    const u64 s = rng_();
    if constexpr (std::is_same_v<T, int> || std::is_same_v<T, i64>) {
        const std::vector<std::pair<T, T>> ranges = {{-3, 3}, {-100, 100}, {0, 1}, {-1000000, 1000000}, {0, 70000}};
        const auto range = pick(ranges);
        const T lo = range.first, hi = range.second;
        switch (below(5)) {
            case 4: {  // every value of T: the top bits of the word
                begin_step("random", name + " = random<" + std::string(type_name<T>()) + ">(" + std::to_string(len) +
                                         ", seed " + std::to_string(s) + ")");
                splitmix g(s);
                std::vector<T> ref(len);
                for (std::size_t i = 0; i < len; ++i)
                    ref[i] = T(std::make_unsigned_t<T>(g.word(i) >> (64 - 8 * sizeof(T))));
                return result(name, sv::random<T>(len, s), ref);
            }
            case 0: {
                begin_step("random", name + " = random<" + type_name<T>() + ">(" + std::to_string(len) + ", seed " +
                                         std::to_string(s) + ", " + show(lo) + ", " + show(hi) + ")");
                splitmix g(s);
                std::vector<T> ref(len);
                for (std::size_t i = 0; i < len; ++i) ref[i] = g.in<T>(i, lo, hi);
                return result(name, sv::random<T>(len, s, lo, hi), ref);
            }
            case 1: {
                begin_step("index", name + " = index<" + std::string(type_name<T>()) + ">(" + std::to_string(len) + ")");
                std::vector<T> ref(len);
                for (std::size_t i = 0; i < len; ++i) ref[i] = T(i);
                if constexpr (std::is_same_v<T, int>) return result(name, sv::index<int>(len), ref);
                else return result(name, sv::index(len), ref);
            }
            case 2: {
                const T v = T(lo + T(below(u64(hi - lo) + 1)));
                begin_step("distribute", name + " = distribute(" + show(v) + ", " + std::to_string(len) + ")");
                return result(name, sv::distribute(v, len), std::vector<T>(len, v));
            }
            default: {
                begin_step("upload", name + " = upload<" + std::string(type_name<T>()) + ">(" + std::to_string(len) +
                                         " values in " + show(lo) + ".." + show(hi) + ", seed " + std::to_string(s) + ")");
                auto ref = test::random_values<T>(len, s, lo, hi);
                return result(name, sv::vector<T>(ref), ref);
            }
        }
    } else if constexpr (std::is_same_v<T, float>) {
        switch (below(3)) {
            case 0: {
                const float scale = pick(std::vector<float>{2, 64, 1000});
                begin_step("random", name + " = map(x * " + show(scale) + " truncated, lazy::random<f32>(" +
                                         std::to_string(len) + ", seed " + std::to_string(s) + "))");
                splitmix g(s);
                std::vector<float> ref(len);
                for (std::size_t i = 0; i < len; ++i) {
                    const float u = float(std::uint32_t(g.word(i) >> 40)) * 0x1p-24f;
                    ref[i] = float(int(u * scale));
                }
                return result(name, sv::map(fz::unit_to_integer{scale}, sv::lazy::random<float>(len, s)), ref);
            }
            case 1: {
                const float v = float(int(below(201)) - 100);
                begin_step("distribute", name + " = distribute(" + show(v) + "f, " + std::to_string(len) + ")");
                return result(name, sv::distribute(v, len), std::vector<float>(len, v));
            }
            default: {
                begin_step("upload", name + " = upload<f32>(" + std::to_string(len) + " integers in -100..100, seed " +
                                         std::to_string(s) + ")");
                auto ints = test::random_values<int>(len, s, -100, 100);
                std::vector<float> ref(ints.begin(), ints.end());
                return result(name, sv::vector<float>(ref), ref);
            }
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        if (coin(0.25)) {
            begin_step("random", name + " = random<bool>(" + std::to_string(len) + ", seed " + std::to_string(s) + ")");
            splitmix g(s);
            std::vector<bool> ref(len);
            for (std::size_t i = 0; i < len; ++i) ref[i] = (g.word(i) >> 63) != 0;
            return result(name, sv::random<bool>(len, s), ref);
        }
        const double density = pick(std::vector<double>{0.0, 0.002, 0.05, 0.5, 0.9, 1.0});
        begin_step("upload", name + " = flags(" + std::to_string(len) + ", density " + show(density) + ", seed " +
                                 std::to_string(s) + ")");
        std::mt19937_64 r(s);
        std::bernoulli_distribution d(density);
        std::vector<bool> ref(len);
        for (std::size_t i = 0; i < len; ++i) ref[i] = d(r);
        return result(name, sv::vector<bool>(ref), ref);
    } else if constexpr (std::is_same_v<T, mat2>) {
        const bool small = coin();
        if (coin(0.2)) {
            const mat2 v{std::uint32_t(below(5)), std::uint32_t(below(5)), std::uint32_t(below(5)), std::uint32_t(below(5))};
            begin_step("distribute", name + " = distribute(" + show(v) + ", " + std::to_string(len) + ")");
            return result(name, sv::distribute(v, len), std::vector<mat2>(len, v));
        }
        begin_step("upload", name + " = upload<mat2>(" + std::to_string(len) + (small ? " entries in 0..3" : " any entries") +
                                 ", seed " + std::to_string(s) + ")");
        auto e = test::random_values<std::uint32_t>(4 * len, s, 0u, small ? 3u : 0xffffffffu);
        std::vector<mat2> ref(len);
        for (std::size_t i = 0; i < len; ++i) ref[i] = {e[4 * i], e[4 * i + 1], e[4 * i + 2], e[4 * i + 3]};
        return result(name, sv::vector<mat2>(ref), ref);
    } else {
        if (coin(0.3)) {
            begin_step("random", name + " = random<u64>(" + std::to_string(len) + ", seed " + std::to_string(s) + ")");
            splitmix g(s);
            std::vector<u64> ref(len);
            for (std::size_t i = 0; i < len; ++i) ref[i] = g.word(i);
            return result(name, sv::random<u64>(len, s), ref);
        }
        begin_step("upload", name + " = upload<u64>(" + std::to_string(len) + " affine maps, seed " + std::to_string(s) + ")");
        auto ref = test::random_values<u64>(len, s, 0, ~u64(0) >> 1);
        return result(name, sv::vector<u64>(ref), ref);
    }
}

void program::map_step() {
    const std::string name = fresh_name();
    switch (below(9)) {
        case 0: return map_unary<int>(name);
        case 1: return map_unary<i64>(name);
        case 2: return map_unary<float>(name);
        case 3: return map_binary(name);
        case 4: return map_convert(name);
        case 5: return map_convert(name);
        case 6: {
            auto a_held = operand_any<bool>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            if (coin()) {
                begin_step("map", name + " = map(not, " + an + ")");
                std::vector<bool> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = !ar[i];
                result(name, sv::map(fz::not1{}, ad), ref);
            } else {
                auto b_held = operand<bool>(ar.size());
                const std::string bn = b_held.first;
                const auto& b = b_held.second;
                const auto& br = b->ref;
                const auto& bd = b->dev;
                const bool use_and = coin();
                begin_step("map", name + " = map(" + (use_and ? "and" : "xor") + std::string(", ") + an + ", " + bn + ")");
                std::vector<bool> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = use_and ? (ar[i] && br[i]) : (ar[i] != br[i]);
                if (use_and) result(name, sv::map(fz::and2{}, ad, bd), ref);
                else result(name, sv::map(fz::xor2{}, ad, bd), ref);
            }
            return;
        }
        case 7: {
            auto a_held = operand_any<mat2>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            if (coin()) {
                begin_step("map", name + " = map(transpose, " + an + ")");
                std::vector<mat2> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = {ar[i].a, ar[i].c, ar[i].b, ar[i].d};
                result(name, sv::map(fz::transpose{}, ad), ref);
            } else {
                auto b_held = operand<mat2>(ar.size());
                const std::string bn = b_held.first;
                const auto& b = b_held.second;
                const auto& br = b->ref;
                const auto& bd = b->dev;
                begin_step("map", name + " = map(matrix product, " + an + ", " + bn + ")");
                std::vector<mat2> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = ref_mat_mul(ar[i], br[i]);
                result(name, sv::map(fz::mat_mul{}, ad, bd), ref);
            }
            return;
        }
        default: {
            auto a_held = operand_any<u64>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            begin_step("map", name + " = map(affine square, " + an + ")");
            std::vector<u64> ref(ar.size());
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = ref_affine(ar[i], ar[i]);
            result(name, sv::map(fz::affine_square{}, ad), ref);
        }
    }
}

template <class T> void program::map_unary(const std::string& name) {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const double mag = magnitude(ar), lim = limit_of<T>();
    std::vector<T> ref(ar.size());
    const u64 which = below(4);
    if (which == 0 && mag + 50 <= lim) {
        const long long c = (long long)below(101) - 50;
        begin_step("map", name + " = map(x + " + std::to_string(c) + ", " + an + ")");
        for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(ar[i] + T(c));
        result(name, sv::map(fz::add_c{c}, ad), ref);
    } else if (which == 1 && mag * 3 <= lim) {
        const int c = pick(std::vector<int>{-3, -2, 2, 3});
        begin_step("map", name + " = map(x * " + std::to_string(c) + ", " + an + ")");
        for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(ar[i] * T(c));
        result(name, sv::map(fz::mul_c{c}, ad), ref);
    } else if (which == 2 && mag < lim) {
        begin_step("map", name + " = map(-x, " + an + ")");
        for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(-ar[i]);
        result(name, sv::map(fz::negate{}, ad), ref);
    } else if (mag <= lim) {
        const int m = pick(std::vector<int>{2, 3, 10, 1000, 65536});
        begin_step("map", name + " = map(x % " + std::to_string(m) + ", " + an + ")");
        for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T((long long)ar[i] % m);
        result(name, sv::map(fz::mod_c{m}, ad), ref);
    } else {  // infinities or the identities of max and min: only comparisons are safe
        begin_step("map", name + " = map(max, " + an + ", " + an + ")");
        result(name, sv::map(fz::max2{}, ad, ad), ar);
    }
}

void program::map_binary(const std::string& name) {
    switch (below(4)) {
        case 0: return map_binary_of<int>(name);
        case 1: return map_binary_of<i64>(name);
        case 2: return map_binary_of<float>(name);
        default: {  // a three-way map: f ? a : b
            auto a_held = operand_any<int>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            auto b_held = operand<int>(ar.size());
            const std::string bn = b_held.first;
            const auto& b = b_held.second;
            const auto& br = b->ref;
            const auto& bd = b->dev;
            auto f_held = operand<bool>(ar.size());
            const std::string fn = f_held.first;
            const auto& f = f_held.second;
            const auto& fr = f->ref;
            const auto& fd = f->dev;
            begin_step("map", name + " = map(f ? a : b, " + fn + ", " + an + ", " + bn + ")");
            std::vector<int> ref(ar.size());
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = fr[i] ? ar[i] : br[i];
            result(name, sv::map(fz::select3{}, fd, ad, bd), ref);
        }
    }
}

template <class T> void program::map_binary_of(const std::string& name) {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    auto b_held = operand<T>(ar.size());
    const std::string bn = b_held.first;
    const auto& b = b_held.second;
    const auto& br = b->ref;
    const auto& bd = b->dev;
    std::vector<T> ref(ar.size());
    if (magnitude(ar) + magnitude(br) <= limit_of<T>() && coin()) {
        begin_step("map", name + " = map(+, " + an + ", " + bn + ")");
        for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(ar[i] + br[i]);
        result(name, sv::map(fz::add2{}, ad, bd), ref);
    } else {
        begin_step("map", name + " = map(max, " + an + ", " + bn + ")");
        for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = std::max(ar[i], br[i]);
        result(name, sv::map(fz::max2{}, ad, bd), ref);
    }
}

void program::map_convert(const std::string& name) {
    switch (below(9)) {
        case 0: {
            auto a_held = operand_any<int>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            begin_step("map", name + " = map(to i64, " + an + ")");
            return (void)result(name, sv::map(fz::to_i64{}, ad), std::vector<i64>(ar.begin(), ar.end()));
        }
        case 1: {
            auto a_held = operand_any<i64>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            begin_step("map", name + " = map(x % 1000003 to i32, " + an + ")");
            std::vector<int> ref(ar.size());
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = int(ar[i] % 1000003);
            return (void)result(name, sv::map(fz::i64_to_i32{}, ad), ref);
        }
        case 2: {
            auto a_held = operand_any<int>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            if (magnitude(ar) > limit_of<float>()) return map_convert(name);
            begin_step("map", name + " = map(to f32, " + an + ")");
            return (void)result(name, sv::map(fz::to_f32{}, ad), std::vector<float>(ar.begin(), ar.end()));
        }
        case 3: {
            auto a_held = operand_any<float>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            if (magnitude(ar) > limit_of<float>()) return map_convert(name);
            begin_step("map", name + " = map(to i32, " + an + ")");
            std::vector<int> ref(ar.size());
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = int(ar[i]);
            return (void)result(name, sv::map(fz::to_i32{}, ad), ref);
        }
        case 4: return to_flags<int>(name);
        case 5: return to_flags<i64>(name);
        case 6: {
            auto a_held = operand_any<bool>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            begin_step("map", name + " = map(f ? 1 : 0, " + an + ")");
            std::vector<int> ref(ar.size());
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = ar[i] ? 1 : 0;
            return (void)result(name, sv::map(fz::bool_to_i32{}, ad), ref);
        }
        case 7: {
            auto a_held = operand_any<int>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            begin_step("map", name + " = map(to mat2, " + an + ")");
            std::vector<mat2> ref(ar.size());
            for (std::size_t i = 0; i < ar.size(); ++i) {
                const std::uint32_t u = std::uint32_t(ar[i]);
                ref[i] = {u, std::uint32_t(u64(u) * 3 + 1), 7u, u ^ 5u};
            }
            return (void)result(name, sv::map(fz::i32_to_mat{}, ad), ref);
        }
        default: {
            auto a_held = operand_any<i64>();
            const std::string an = a_held.first;
            const auto& a = a_held.second;
            const auto& ar = a->ref;
            const auto& ad = a->dev;
            begin_step("map", name + " = map(to affine, " + an + ")");
            std::vector<u64> ref(ar.size());
            for (std::size_t i = 0; i < ar.size(); ++i) {
                const u64 u = u64(ar[i]);
                ref[i] = ((u * 2654435761u) << 32) | std::uint32_t(u * 40503u + 1u);
            }
            return (void)result(name, sv::map(fz::i64_to_affine{}, ad), ref);
        }
    }
}

template <class T> void program::to_flags(const std::string& name) {
    auto a_held = operand_any<T>();
    const std::string an = a_held.first;
    const auto& a = a_held.second;
    const auto& ar = a->ref;
    const auto& ad = a->dev;
    const int m = pick(std::vector<int>{2, 3, 7, 64});
    begin_step("map", name + " = map(x % " + std::to_string(m) + " == 0, " + an + ")");
    std::vector<bool> ref(ar.size());
    for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = (long long)ar[i] % m == 0;
    result(name, sv::map(fz::divisible{m}, ad), ref);
}

void program::flag_step() {
    auto f_held = operand_any<bool>();
    const std::string fn = f_held.first;
    const auto& f = f_held.second;
    const auto& fr = f->ref;
    const auto& fd = f->dev;
    const std::size_t n = fr.size();
    const std::string name = fresh_name();
    auto head = [&](std::size_t i) { return i == 0 || fr[i]; };
    switch (below(6)) {
        case 0: {
            begin_step("enumerate", name + " = enumerate(" + fn + ")");
            std::vector<i64> ref(n);
            i64 c = 0;
            for (std::size_t i = 0; i < n; ++i) { ref[i] = c; c += fr[i]; }
            return (void)result(name, sv::enumerate(fd), ref);
        }
        case 1: {
            begin_step("count", "count(" + fn + ")");
            return checked_scalar<i64>(sv::count(fd), i64(std::count(fr.begin(), fr.end(), true)));
        }
        case 2: {
            begin_step("segmented_index", name + " = segmented_index(" + fn + ")");
            std::vector<i64> ref(n);
            for (std::size_t i = 0; i < n; ++i) ref[i] = head(i) ? 0 : ref[i - 1] + 1;
            return (void)result(name, sv::segmented_index(fd), ref);
        }
        case 3: {
            auto g_held = operand<bool>(n);
            const std::string gn = g_held.first;
            const auto& g = g_held.second;
            const auto& gr = g->ref;
            const auto& gd = g->dev;
            begin_step("segmented_enumerate", name + " = segmented_enumerate(" + gn + ", heads " + fn + ")");
            std::vector<i64> ref(n);
            i64 c = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (head(i)) c = 0;
                ref[i] = c;
                c += gr[i];
            }
            return (void)result(name, sv::segmented_enumerate(gd, fd), ref);
        }
        case 4: {
            begin_step("flags_to_lengths", name + " = flags_to_lengths(" + fn + ")");
            std::vector<i64> ref;
            for (std::size_t i = 0; i < n; ++i) {
                if (head(i)) ref.push_back(0);
                ref.back()++;
            }
            return (void)result(name, sv::flags_to_lengths(fd), ref);
        }
        default: {
            begin_step("segment_ids", name + " = segment_ids(" + fn + ")");
            std::vector<i64> ref(n);
            for (std::size_t i = 0; i < n; ++i) ref[i] = i == 0 ? 0 : ref[i - 1] + (fr[i] ? 1 : 0);
            return (void)result(name, sv::segment_ids(fd), ref);
        }
    }
}

template slot<int>& program::generate<int>(std::size_t);
template slot<i64>& program::generate<i64>(std::size_t);
template slot<float>& program::generate<float>(std::size_t);
template slot<bool>& program::generate<bool>(std::size_t);
template slot<mat2>& program::generate<mat2>(std::size_t);
template slot<u64>& program::generate<u64>(std::size_t);

}  // namespace fuzz
