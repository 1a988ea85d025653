// scanvec/scanvec.hpp - everything: the runtime, the primitives, the algorithms.
//
//     #include <scanvec/scanvec.hpp>
//     namespace sv = scanvec;
#pragma once

#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/memory.hpp>
#include <scanvec/runtime/print.hpp>
#include <scanvec/runtime/trace.hpp>
#include <scanvec/runtime/sequence.hpp>
#include <scanvec/runtime/interop.hpp>
#include <scanvec/runtime/bounded.hpp>
#include <scanvec/runtime/deferred_checks.hpp>
#include <scanvec/runtime/loop.hpp>
#include <scanvec/runtime/stream.hpp>
#include <scanvec/runtime/vector.hpp>

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/split.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/write.hpp>
#include <scanvec/primitives/bounded.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/segment_descriptor.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/nested_permute.hpp>
#include <scanvec/primitives/rearrange.hpp>
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/neighbours.hpp>

#include <scanvec/algorithms/split.hpp>
#include <scanvec/algorithms/line_of_sight.hpp>
#include <scanvec/algorithms/line_drawing.hpp>
#include <scanvec/algorithms/halving_merge.hpp>
#include <scanvec/algorithms/quickhull.hpp>
#include <scanvec/algorithms/spmv.hpp>
#include <scanvec/algorithms/list_ranking.hpp>
#include <scanvec/algorithms/euler_tour.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/algorithms/split_radix_sort.hpp>
#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/algorithms/quicksort.hpp>
#include <scanvec/algorithms/remove_duplicates.hpp>
#include <scanvec/algorithms/string_compare.hpp>
#include <scanvec/algorithms/maximal_independent_set.hpp>
#include <scanvec/algorithms/breadth_first_search.hpp>
#include <scanvec/algorithms/connected_components.hpp>
#include <scanvec/algorithms/primes.hpp>
