// spmv - sparse matrix times vector: a gather, a product, a segmented sum.
//
// Blelloch's sparse matrix-vector multiply on a segment descriptor: the matrix
// is stored by rows, one segment per row holding its nonzero values and their
// column numbers. Every nonzero fetches the x of its column (a back-permute),
// multiplies, and each row adds its products (a segmented +-reduce; an empty
// row sums to 0). The program prints the steps for a 5 x 5 matrix, checks a
// larger random matrix against sequential row sums, and exits with 1 on a
// wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>
#include <random>

namespace sv = scanvec;

int main() {
    std::cout << "sparse matrix-vector multiply (" << sv::backend_name() << " backend)\n\n";
    //     [ 2 0 0 1 0 ]        [1]
    //     [ 0 0 0 0 0 ]        [2]
    // A = [ 0 3 0 0 4 ]    x = [3]
    //     [ 5 0 6 0 0 ]        [4]
    //     [ 0 0 0 0 7 ]        [5]
    sv::vector<double> values = {2, 1, 3, 4, 5, 6, 7};
    sv::vector<int> columns = {0, 3, 1, 4, 0, 2, 4};
    auto rows = sv::segments::from_lengths({2, 0, 2, 2, 1});
    sv::vector<double> x = {1, 2, 3, 4, 5};

    auto y = sv::spmv(values, columns, rows, x);
    auto xs = sv::back_permute(x, columns);
    std::cout << sv::table().row("Values", values).row("Columns", columns).row("Rows (heads)", rows.flags())
                            .row("back-permute(X, Columns)", xs)
                            .row("Values * Xs", sv::map(SCANVEC_FN(double v, double w) { return v * w; }, values, xs))
              << "\n" << sv::table().row("Row lengths", rows.lengths()).row("Y = +-reduce per row", y) << "\n";
    bool ok = y.to_host() == std::vector<double>{6, 0, 26, 23, 35};

    // A larger matrix: 10^5 rows of 0 to 9 nonzeros with small integer values (exact sums).
    std::mt19937 rng(11);
    const std::size_t n = 100000;
    std::vector<sv::index_t> lengths(n), cols;
    std::vector<double> vals, hx(n);
    for (auto& v : hx) v = double(int(rng() % 21) - 10);
    for (auto& l : lengths) {
        l = rng() % 10;
        for (sv::index_t j = 0; j < l; ++j) {
            cols.push_back(sv::index_t(rng() % n));
            vals.push_back(double(int(rng() % 19) - 9));
        }
    }
    std::vector<double> want(n);
    for (std::size_t r = 0, j = 0; r < n; ++r)
        for (sv::index_t e = 0; e < lengths[r]; ++e, ++j) want[r] += vals[j] * hx[cols[j]];
    auto big = sv::spmv(sv::vector<double>(vals), sv::vector<sv::index_t>(cols), sv::vector<sv::index_t>(lengths),
                        sv::vector<double>(hx));
    ok = ok && big.to_host() == want;
    std::cout << "random matrix: " << n << " rows, " << vals.size() << " nonzeros\n";
    if (!ok) {
        std::cerr << "spmv: wrong result\n";
        return 1;
    }
    std::cout << "spmv: all results checked\n";
    return 0;
}
