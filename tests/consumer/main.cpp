// A consumer program: builds against scanvec::scanvec and checks one scan.
#include <scanvec/scanvec.hpp>
#include <cstdio>
namespace sv = scanvec;
int main() {
    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    auto s = sv::scan(a).to_host();
    const std::vector<int> expect = {0, 3, 4, 11, 11, 15, 16, 22};
    std::printf("consumer (%s backend): scan %s\n", sv::backend_name(), s == expect ? "ok" : "WRONG");
    return s == expect ? 0 : 1;
}
