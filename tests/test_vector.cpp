// sv::vector: construction, copies, moves, resize, element reads, SoA structs.
#include "support.hpp"
#include <scanvec/runtime/vector.hpp>

#include <thrust/reduce.h>
#include <thrust/sort.h>

namespace vt {
struct point {
    float x;
    float y;
    int id;
};
SCANVEC_FIELDS(point, x, y, id)
SCANVEC_HD inline bool operator==(const point& a, const point& b) { return a.x == b.x && a.y == b.y && a.id == b.id; }
struct undescribed { int a; };

/// Fields apart by padding, listed in another order than declared.
struct padded {
    char c;
    double d;
    std::int16_t s;
};
SCANVEC_FIELDS(padded, d, s, c)
SCANVEC_HD inline bool operator==(const padded& a, const padded& b) { return a.c == b.c && a.d == b.d && a.s == b.s; }
/// Not an aggregate: checked by its layout.
struct built {
    built() = default;
    SCANVEC_HD built(char c_, float f_) : c(c_), f(f_) {}
    char c = 0;
    float f = 0;
};
SCANVEC_FIELDS(built, c, f)
SCANVEC_HD inline bool operator==(const built& a, const built& b) { return a.c == b.c && a.f == b.f; }
/// A nested struct and an array are one field each (sv::vector stores neither).
struct nested {
    float x;
    point p;
    int arr[3];
};
SCANVEC_FIELDS(nested, x, p, arr)
}  // namespace vt
using vt::point;

TEST_CASE("vector constructs from sizes, values, lists and host data") {
    sv::vector<int> empty;
    CHECK(empty.empty());
    CHECK(empty.to_host().empty());

    sv::vector<float> z(1000);
    CHECK(z.size() == 1000);
    for (float v : z.to_host()) REQUIRE(v == 0.0f);

    sv::vector<double> c(33, 2.5);
    for (double v : c.to_host()) REQUIRE(v == 2.5);

    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    CHECK(a.to_host() == std::vector<int>{3, 1, 7, 0, 4, 1, 6, 3});
    CHECK(a[2] == 7);
    CHECK(a.to_host<long>() == std::vector<long>{3, 1, 7, 0, 4, 1, 6, 3});

    auto h = test::random_values<std::int64_t>(65539, 1);
    sv::vector<std::int64_t> b(h);
    CHECK(b.to_host() == h);
}

TEST_CASE("vector of bool round-trips") {
    std::vector<bool> h = {true, false, false, true, true};
    sv::vector<bool> f(h);
    CHECK(f.to_host() == h);
    CHECK(f[3] == true);
    sv::vector<bool> g = {false, true};
    CHECK(g[1]);
}

TEST_CASE("vector copies deeply and moves cheaply") {
    sv::vector<int> a = {1, 2, 3};
    sv::vector<int> b = a;
    b.set(0, 42);
    CHECK(a[0] == 1);
    CHECK(b[0] == 42);
    const int* storage = a.data();
    sv::vector<int> m = std::move(a);
    CHECK(m.data() == storage);
    CHECK(a.empty());
    a = m;
    CHECK(a.to_host() == std::vector<int>{1, 2, 3});
}

TEST_CASE("vector resize keeps the prefix and zero-fills the rest") {
    sv::vector<int> a = {5, 6, 7};
    a.resize(1000);
    auto h = a.to_host();
    CHECK(h[0] == 5);
    CHECK(h[2] == 7);
    CHECK(h[999] == 0);
    a.resize(2);
    CHECK(a.to_host() == std::vector<int>{5, 6});
    a.resize(0);
    CHECK(a.empty());
}

TEST_CASE("vector iterators are Thrust iterators") {
    sv::vector<int> a = {5, 3, 9, 1};
    thrust::sort(a.begin(), a.end());
    CHECK(a.to_host() == std::vector<int>{1, 3, 5, 9});
    CHECK(thrust::reduce(a.begin(), a.end()) == 18);
}

TEST_CASE("element reads past the end throw index_error") {
    sv::vector<int> a = {1, 2, 3};
    CHECK_THROWS_AS(a[3], sv::index_error);
    CHECK_THROWS_WITH(a[7], doctest::Contains("index 7 is out of range for length 3"));
    sv::vector<point> p(2);
    CHECK_THROWS_AS(p[2], sv::index_error);
}

TEST_CASE("structs are stored as one array per field") {
    static_assert(sv::is_described_v<point>);
    static_assert(!sv::is_described_v<vt::undescribed>);
    sv::vector<point> p = {{1, 2, 0}, {3, 4, 1}};
    point q = p[1];
    CHECK(q == point{3, 4, 1});
    sv::vector<float>& xs = p.field<&point::x>();
    CHECK(xs.to_host() == std::vector<float>{1, 3});
    xs.set(0, 10.0f);  // the field array is the storage itself, not a copy
    CHECK(p[0].x == 10.0f);
    CHECK(p.field<&point::id>().to_host() == std::vector<int>{0, 1});

    std::vector<point> h;
    for (int i = 0; i < 1000; ++i) h.push_back({float(i), float(-i), i * 3});
    sv::vector<point> big(h);
    CHECK(big.size() == 1000);
    auto back = big.to_host();
    CHECK(back == h);

    sv::vector<point> copy = big;
    copy.field<&point::y>().set(5, 99.0f);
    CHECK(big[5].y == -5.0f);
    CHECK(copy[5].y == 99.0f);

    sv::vector<point> filled(3, point{1, 1, 7});
    for (auto v : filled.to_host()) CHECK(v == point{1, 1, 7});
    big.resize(1001);
    CHECK(big[1000] == point{0, 0, 0});
}

TEST_CASE("described structs with padding or constructors round-trip") {
    using vt::built;
    using vt::padded;
    static_assert(sv::is_described_v<vt::nested>);
    static_assert(sv::fields_of<vt::nested>::size == 3);

    std::vector<padded> h;
    for (int i = 0; i < 300; ++i) h.push_back({char('a' + i % 26), i * 0.5, std::int16_t(-i)});
    sv::vector<padded> p(h);
    CHECK(p.to_host() == h);
    CHECK(p[7] == padded{'h', 3.5, -7});
    CHECK(p.field<&padded::c>().to_host()[27] == 'b');
    sv::vector<padded> filled(5, padded{'z', -1.25, 9});
    for (auto v : filled.to_host()) CHECK(v == padded{'z', -1.25, 9});

    sv::vector<built> b = {built('x', 1.5f), built('y', -2.0f)};
    CHECK(b[1] == built('y', -2.0f));
    CHECK(b.field<&built::f>().to_host() == std::vector<float>{1.5f, -2.0f});
}

TEST_CASE("a vector knows where it lives") {
    sv::vector<int> a(10);
    sv::vector<int> b = a;
#if defined(SCANVEC_BACKEND_CUDA)
    CHECK(a.where().device >= 0);
#else
    CHECK(a.where().device == -1);
#endif
    CHECK(a.where() == b.where());
    CHECK(std::string(sv::backend_name()) == (SCANVEC_IS_CUDA ? "cuda" : "host"));
}
