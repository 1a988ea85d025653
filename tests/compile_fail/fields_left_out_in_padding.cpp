// Must not compile: a field left out that fits in the padding the listed ones
// leave (key and flag take 8 bytes with or without spare), so sizes and
// offsets alone do not show it. The test expects the static_assert that names
// rec and asks for every field.
#include <scanvec/scanvec.hpp>
namespace sv = scanvec;

struct rec {
    int key;
    char flag;
    char spare;
};
SCANVEC_FIELDS(rec, key, flag)

int main() {
    sv::vector<rec> r = {{1, 'a', 'b'}};
    return r.to_host()[0].spare;
}
