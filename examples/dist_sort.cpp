// dist_sort: the same programs on one device and across MPI processes.
//
//     mpirun -np 4 ./dist_sort [n]
//
// Rank 0 makes n random keys and scatters them in even blocks. Blelloch's
// split radix sort and the line-of-sight program run on the distributed
// vector from the very source that runs them on one device (sv::split_radix_sort,
// sv::line_of_sight: their primitives are found for sv::dist::vector by
// argument-dependent lookup); sv::dist::radix_sort sorts with one all-to-all
// (the one-device radix sort on each rank, the sorted blocks cut exactly
// where the result's blocks begin, the runs exchanged and merged), and
// sv::dist::quicksort by processor teams (the communicator splits with the
// vector down to one rank each, which runs the one-device quicksort). Every
// result is gathered on rank 0 and checked against the one-device programs
// and std::sort; the program fails on every rank if any check fails.
#include <scanvec/dist.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace sv = scanvec;

int main(int argc, char** argv) {
    sv::dist::environment env(argc, argv);
    const auto& world = sv::dist::world();
    const std::size_t n = argc > 1 ? std::size_t(std::atoll(argv[1])) : 100003;
    int failures = 0;
    {
        std::vector<int> keys;
        std::vector<double> terrain;
        if (world.rank() == 0) {
            std::mt19937_64 rng(2026);
            std::uniform_int_distribution<int> d(-1000000, 1000000);
            std::uniform_real_distribution<double> h(0, 500);
            for (std::size_t i = 0; i < n; ++i) {
                keys.push_back(d(rng));
                terrain.push_back(100 * std::sin(double(i) / 2000) + 0.01 * double(i) + 0.02 * h(rng));  // hills
            }
        }
        auto a = sv::dist::vector<int>::scatter(keys);                // even blocks from rank 0
        auto by_splits = sv::split_radix_sort(a);                      // Blelloch's program, unchanged: 32 splits
        auto sorted = sv::dist::radix_sort(a);                         // the one-device sort, one all-to-all, a merge
        auto by_teams = sv::dist::quicksort(a);                        // teams split off the communicator
        auto seen = sv::line_of_sight(sv::dist::vector<double>::scatter(terrain), 10.0);
        const auto s1 = by_splits.to_host(), s2 = sorted.to_host(), s3 = by_teams.to_host();
        const auto v = seen.to_host();
        if (world.rank() == 0) {
            auto want = keys;
            std::sort(want.begin(), want.end());
            const auto one_device = sv::line_of_sight(sv::vector<double>(terrain), 10.0).to_host();
            failures += s1 != want;
            failures += s2 != want;
            failures += s3 != want;
            failures += v != one_device;
            std::printf("%zu keys on %d ranks: split_radix_sort %s, dist::radix_sort %s, dist::quicksort %s; "
                        "%zu of %zu points visible %s\n",
                        n, world.size(), s1 == want ? "sorted" : "WRONG", s2 == want ? "sorted" : "WRONG",
                        s3 == want ? "sorted" : "WRONG",
                        std::size_t(std::count(v.begin(), v.end(), true)), v.size(),
                        v == one_device ? "(as on one device)" : "(WRONG)");
        }
    }
    failures = int(sv::dist::detail::broadcast(world, failures, 0, "dist_sort (MPI_Bcast)"));
    return failures ? 1 : 0;
}
