// primes - NESL's sieve of Eratosthenes: every multiple struck out in one write.
//
// The primes up to sqrt(n) (found the same way) are the ones that strike; each
// gets a slot for every multiple from its square on (sv::allocate), the
// multiples are computed from the slots' positions, and one sv::write of false
// strikes them all, however many primes strike the same number. The program
// spells out the sieve up to 30, prints the primes up to 100, checks
// sv::primes up to a million against a sequential sieve, and exits with 1 on
// a wrong answer.
#include <scanvec/scanvec.hpp>

#include <cstdlib>
#include <iostream>

namespace sv = scanvec;

/// The sequential sieve: the primes p <= n.
static std::vector<int> sequential_primes(int n) {
    std::vector<bool> composite(std::size_t(n < 0 ? 0 : n) + 1);
    std::vector<int> out;
    for (int i = 2; i <= n; ++i) {
        if (composite[i]) continue;
        out.push_back(i);
        for (long long m = (long long)i * i; m <= n; m += i) composite[std::size_t(m)] = true;
    }
    return out;
}

int main() {
    std::cout << "sieve of Eratosthenes (" << sv::backend_name() << " backend)\n\n";
    // Up to 30, spelled out: the sieving primes are those up to 5
    const int n = 30;
    sv::vector<int> s = sv::primes(5);                                                       // S <- primes(sqrt(n))
    sv::vector<sv::index_t> count = sv::map(SCANVEC_FN(int p) { return sv::index_t(n / p - p + 1); }, s);
    sv::segments c = sv::allocate(count);                                                    // C <- allocate(n/S - S + 1)
    sv::vector<int> p = sv::distribute(s, c);
    sv::vector<int> m = sv::map(SCANVEC_FN(int q, sv::index_t j) { return q * (q + int(j)); }, p, sv::index(c));
    sv::vector<bool> prime = sv::write(sv::vector<bool>(n + 1, true), m, sv::lazy::distribute(false, m.size()));
    std::cout << sv::table().row("S", s).row("multiples", count) << sv::table().row("distribute(S, C)", p).row("M", m)
              << sv::table().row("i", sv::lazy::index(n + 1)).row("not struck", prime)
              << "\n" << sv::table(40).row("primes(100)", sv::primes(100)) << "\n";
    bool ok = sv::primes(n).to_host() == sequential_primes(n) && sv::primes(100).to_host() == sequential_primes(100);

    // Up to a million.
    const int big = 1000000;
    sv::vector<int> all = sv::primes(big);
    ok = ok && all.to_host() == sequential_primes(big);
    std::cout << all.size() << " primes up to " << big << ", the largest " << all[all.size() - 1] << "\n";
    if (!ok) {
        std::cerr << "primes: wrong result\n";
        return 1;
    }
    std::cout << "primes: all results checked\n";
    return 0;
}
