// scanvec/scanvec.hpp - everything: the runtime, the primitives, the algorithms.
//
//     #include <scanvec/scanvec.hpp>
//     namespace sv = scanvec;
#pragma once

#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/memory.hpp>
#include <scanvec/runtime/print.hpp>
#include <scanvec/runtime/trace.hpp>
#include <scanvec/runtime/sequence.hpp>
#include <scanvec/runtime/vector.hpp>

#include <scanvec/primitives/derived.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/segmented.hpp>

#include <scanvec/algorithms/split.hpp>
