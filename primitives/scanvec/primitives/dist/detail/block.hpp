// scanvec/primitives/dist/detail/block.hpp - the one-device internals that the
// distributed layer composes on each rank's block, named in one place.
//
// The rule: the distributed layer (primitives/dist/, algorithms/dist/,
// scanvec/dist.hpp) reaches the one-device library's internals
// (scanvec::detail) only through this header, as block::name
// (dist::detail::block). Its public calls (sv::scan, sv::split, sv::pack,
// sv::multisplit, sv::radix_sort, ... of a block) it calls by their public
// names, as any program does. So this list is the whole of what dist relies
// on beyond the public contract: a one-device change that keeps these names
// and their meanings keeps dist whole, and one that touches them shows here.
//
// The one place dist opens scanvec::detail itself is the specialisation of
// program_traits for dist::vector in scanvec/dist.hpp: a specialisation is
// declared in its template's namespace, so it cannot be made through a name
// declared here.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/common/radix_digit_view.hpp>
#include <scanvec/primitives/detail/segments/functors.hpp>
#include <scanvec/primitives/detail/sort/sorted_runs.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/write.hpp>
#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/policy.hpp>
#include <scanvec/runtime/sequence.hpp>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail::block {

// Reading and writing a block (runtime/sequence.hpp, runtime/policy.hpp).

/// An iterator over a block's elements (a vector, a view, a lazy map): dist's own kernels read blocks through it.
using ::scanvec::detail::reader;
/// An iterator that writes whole elements into a block: dist's own kernels and copies write results through it.
using ::scanvec::detail::writer;
/// One element of a block read back to the host: the values at block edges that carries and extract need.
using ::scanvec::detail::element_at;
/// The Thrust execution policy for a stream: every Thrust call dist makes on a block runs under it.
using ::scanvec::detail::policy;

// Argument checks, so that dist refuses what the one-device call refuses, with the same error.

/// Throws length_error when two lengths differ: global sizes checked the one-device way on every rank alike.
using ::scanvec::detail::expect_same_length;
/// Throws when a class count is outside 1..2^31: dist::multisplit checks m before any communication.
using ::scanvec::detail::expect_classes;
/// Fails the build for an operator that does not commute: dist::combining_write states sv::combining_write's rule.
using ::scanvec::detail::expect_commutative;
/// Fails the build for a key type the radix sort cannot sort: dist::radix_sort states sv::radix_sort's rule.
using ::scanvec::detail::expect_radix_key;

// Scans and reductions (scan.hpp, operators.hpp).

/// op's identity as a T: the start of every carry, and what an empty block contributes.
using ::scanvec::detail::identity_of;
/// The one-device scan of a sequence from a given start: a block's exclusive scan, its carry as the start.
using ::scanvec::detail::scan_pass;
/// A reduction of n elements into device memory (queued): a block's total, for the totals gathered across ranks.
using ::scanvec::detail::reduce_into;
/// 1 for a true flag, else 0: enumerate and count read flags through it, as the one-device ones do.
using ::scanvec::detail::flag_to_count;

// Multisplits (multisplit.hpp): grouping a block's elements by the rank they go to.

/// The stable m-way split of a sequence by its digits: dist::multisplit's local step, and grouping by owner before an exchange.
using ::scanvec::detail::multisplit_into;
/// Records stably grouped by 32-bit keys, returning where each key's run starts: the permute's records by (owner, window).
using ::scanvec::detail::multisplit_records;
/// The number of bits that hold 0..m-1: the widths of a record's owner and window fields, and the window's shift.
using ::scanvec::detail::bits_for;

// Permutes (permute.hpp): the one-device scatter's choices, kept by the distributed permute.

/// How many window bits a scatter into so many bytes takes: dist groups records by the same windows.
using ::scanvec::detail::scatter_window_bits;
/// The one-device permute's tuning (grouped_max_bits): the bound on the bits one grouping pass sorts by.
using ::scanvec::detail::permute_policy;
/// The fingerprint of a sequence of indices: the check that a block's received places form a permutation.
using ::scanvec::detail::fingerprint_of;

// Segments (detail/segments/functors.hpp).

/// The segment holding a position, by binary search of offsets: the rank owning a global position.
using ::scanvec::detail::segment_of_position;

// Sorting (detail/common/radix_digit_view.hpp, detail/sort/sorted_runs.hpp): the distributed sort's local steps.

/// A key's bits in radix order: dist::radix_sort finds its exact cuts a digit of these bits at a time.
using ::scanvec::detail::radix_key_bits;
/// Radix order as a comparison: dist::radix_sort merges received runs in the order the local sort left them.
using ::scanvec::detail::radix_less;
/// A run [begin, end) of a vector: the runs received from each rank.
using ::scanvec::detail::run_range;
/// Sorted runs merged into one sorted vector: the last step of dist::radix_sort.
using ::scanvec::detail::merge_sorted_runs;
/// How many elements of a sorted block lie at or below each of a few values: the cut search of dist::radix_sort.
using ::scanvec::detail::count_through_radix;

// Programs (detail/common/one_device_only.hpp).

/// Whether a type is a dist::vector: the book programs' lazy views find their first distributed argument by it.
using ::scanvec::detail::is_dist_vector;

}  SCANVEC_NAMESPACE_END  // dist::detail::block
