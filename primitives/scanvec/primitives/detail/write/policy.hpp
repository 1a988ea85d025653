// scanvec/primitives/detail/write/policy.hpp - the tuning of the writes.
//
// Every constant that decides how sv::write and sv::combining_write run
// (write.hpp), with the reason for it. What they measured:
// docs/design/writes.md.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstddef>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct write_policy {
    /// CUDA: a write of structs elects one writer per target, then the elected
    /// write their whole elements: two passes. Up to this many writes both
    /// passes run in one block, one launch, with a barrier between them (a
    /// launch costs the host more than the block's two dependent memory trips
    /// a thread); each of elected_block_threads threads takes at most two
    /// writes a pass.
    static constexpr std::size_t elected_one_block_max = 1024;
    static constexpr int elected_block_threads = 512;
};

}  SCANVEC_NAMESPACE_END  // detail
