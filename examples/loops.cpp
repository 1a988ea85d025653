// loops - a loop that goes on while a value on the device says so.
//
// Connected components by minimum-label propagation: every vertex starts with
// its own number as label and takes, round after round, the least label among
// its own and its neighbours', while some label changes. The loop is
// sv::repeat_while: its body is the round as the model writes it and returns
// its test (did any label change?) as an sv::device_value; on CUDA the device
// repeats the body by itself (one graph: the host waits once, at the end), on
// the host backend it is a plain loop. The combining write in the body is
// checked; inside a loop on the device its check waits for nothing, and a bad
// vertex number would be reported when the loop ends. The program prints the
// rounds of a small graph, labels a path of 2001 vertices (2001 rounds),
// checks both against a sequential loop, and exits with 1 on a wrong answer.
#include <scanvec/scanvec.hpp>

#include <algorithm>
#include <iostream>
#include <numeric>
#include <vector>

namespace sv = scanvec;

namespace {

struct differ {
    SCANVEC_HD bool operator()(int a, int b) const { return a != b; }
};

/// Labels by minimum propagation over the directed edges (from[e], to[e]); returns the rounds.
std::size_t propagate(sv::vector<int>& label, const sv::vector<int>& from, const sv::vector<int>& to) {
    // repeat
    return sv::repeat_while(label, [&] {
        //     Label' <- Label <- min-send {(to, Label[from])}
        auto next = sv::combining_write(label, to, sv::lazy::back_permute(label, from), sv::min<int>{});
        //     Changed <- or-reduce(Label' != Label)
        auto changed = sv::reduce_to_device(sv::lazy::map(differ{}, next, label), sv::logical_or{});
        label = std::move(next);
        // while Changed
        return changed;
    });
}

/// The same rounds, one after the other on the host.
std::pair<std::size_t, std::vector<int>> propagate_sequentially(std::size_t n, const std::vector<int>& from,
                                                                const std::vector<int>& to) {
    std::vector<int> label(n);
    std::iota(label.begin(), label.end(), 0);
    for (std::size_t rounds = 1;; ++rounds) {
        std::vector<int> next = label;
        for (std::size_t e = 0; e < from.size(); ++e) next[to[e]] = std::min(next[to[e]], label[from[e]]);
        if (next == label) return {rounds, label};
        label = next;
    }
}

/// Both directions of every undirected edge.
void both_ways(std::vector<int>& from, std::vector<int>& to) {
    const std::size_t m = from.size();
    for (std::size_t e = 0; e < m; ++e) {
        from.push_back(to[e]);
        to.push_back(from[e]);
    }
}

}  // namespace

int main() {
    std::cout << "loops on the device (" << sv::backend_name() << " backend)\n\n";
    // two components: 0 - 4 - 2 - 6 and 1 - 5 - 3
    std::vector<int> from{0, 4, 2, 1, 5}, to{4, 2, 6, 5, 3};
    both_ways(from, to);
    const std::size_t n = 7;
    sv::vector<int> label = sv::map(SCANVEC_FN(sv::index_t v) { return int(v); }, sv::lazy::index(n));
    const std::size_t rounds = propagate(label, sv::vector<int>(from), sv::vector<int>(to));
    sv::table t;
    std::cout << t.row("From", sv::vector<int>(from)).row("To", sv::vector<int>(to)).row("Label", label)
              << "\n" << rounds << " rounds\n";
    const auto [want_rounds, want] = propagate_sequentially(n, from, to);
    bool ok = rounds == want_rounds && label.to_host() == want;

    // A path of 2001 vertices: the label 0 walks one vertex a round.
    const std::size_t path = 2001;
    std::vector<int> pf(path - 1), pt(path - 1);
    std::iota(pf.begin(), pf.end(), 0);
    std::iota(pt.begin(), pt.end(), 1);
    both_ways(pf, pt);
    sv::vector<int> path_label = sv::map(SCANVEC_FN(sv::index_t v) { return int(v); }, sv::lazy::index(path));
    const std::size_t path_rounds = propagate(path_label, sv::vector<int>(pf), sv::vector<int>(pt));
    ok = ok && path_rounds == path && path_label.to_host() == std::vector<int>(path, 0);
    std::cout << "a path of " << path << " vertices labelled in " << path_rounds << " rounds\n";
    if (!ok) {
        std::cerr << "loops: wrong result\n";
        return 1;
    }
    std::cout << "loops: all results checked\n";
    return 0;
}
