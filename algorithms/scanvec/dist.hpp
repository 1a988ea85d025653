// scanvec/dist.hpp - distributed vectors over MPI (and, on CUDA builds with NCCL, NCCL).
//
//     #include <scanvec/dist.hpp>
//     namespace sv = scanvec;
//     sv::dist::environment env(argc, argv);                 // MPI_Init ... MPI_Finalize
//     auto a = sv::dist::vector<int>::scatter(host_data);   // from rank 0, in even blocks
//     auto s = sv::dist::scan(a);                            // the same meaning as sv::scan
//     std::vector<int> h = s.to_host();                      // on rank 0
//
// Needs MPI (link MPI::MPI_CXX, or the scanvec::dist target); <scanvec/scanvec.hpp> does not.
// Every dist:: call is collective over the vectors' communicator unless its
// contract says it is local. The design: docs/design/distributed.md.
#pragma once

#include <scanvec/scanvec.hpp>

#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/transport.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <scanvec/primitives/dist/elementwise.hpp>
#include <scanvec/primitives/dist/pack_split.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/primitives/dist/segmented.hpp>
