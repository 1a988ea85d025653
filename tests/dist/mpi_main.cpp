// The main of the distributed tests: MPI around doctest, every rank running
// every test case in the same order (each case's collectives meet). Rank 0
// reports in full, the others only their failures; the program fails when any
// rank saw a failure. On CUDA builds rank r drives GPU (r mod the GPU count).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <scanvec/runtime/dist/communicator.hpp>

#include <mpi.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    scanvec::dist::select_device();  // one GPU per rank where there are several (CUDA builds)
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int failed = 0;
    {
        doctest::Context context(argc, argv);
        if (rank != 0) context.setOption("minimal", true);
        failed = context.run() != 0 ? 1 : 0;
        if (context.shouldExit()) {  // --help, --list-test-cases, ...
            MPI_Finalize();
            return failed;
        }
    }
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any;
}
