// scanvec/runtime/dist/communicator.hpp - the processes a distributed vector spans.
//
// A dist::communicator owns a duplicate of an MPI communicator (MPI_COMM_WORLD
// by default) with MPI_ERRORS_RETURN set, so that every failed MPI call comes
// back as an sv::backend_error naming the operation. On CUDA builds where NCCL
// was found (SCANVEC_HAVE_NCCL) it also owns an NCCL communicator over the same
// ranks, one rank per GPU. Copies share one underlying communicator.
// How the layer runs: docs/design/distributed.md.
#pragma once

#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/error.hpp>

#include <mpi.h>
#if defined(SCANVEC_HAVE_NCCL)
#  include <nccl.h>
#endif

#include <memory>
#include <string>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// Throws sv::backend_error naming op and MPI's own text unless rc is MPI_SUCCESS.
inline void mpi_check(int rc, const char* op) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
    throw backend_error(std::string("scanvec: ") + op + " failed: " + std::string(text, std::size_t(len)));
}

#if defined(SCANVEC_HAVE_NCCL)
/// Throws sv::backend_error naming op and NCCL's own text unless r is ncclSuccess.
inline void nccl_check(ncclResult_t r, const char* op) {
    if (r != ncclSuccess) throw backend_error(std::string("scanvec: ") + op + " failed: " + ncclGetErrorString(r));
}
#endif

inline bool mpi_running() {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized;
}

}  // namespace detail

/// The ranks a distributed vector is spread over. Making one is collective
/// (MPI_Comm_dup, and on NCCL builds ncclCommInitRank): every rank of `base`
/// makes it at the same point of the program. MPI must be initialised; on
/// NCCL builds each rank selects its GPU (cudaSetDevice) before.
class communicator {
    struct state {
        MPI_Comm comm = MPI_COMM_NULL;
        int rank = 0, size = 1;
#if defined(SCANVEC_HAVE_NCCL)
        ncclComm_t nccl = nullptr;
#endif
        void release() noexcept {
#if defined(SCANVEC_HAVE_NCCL)
            if (nccl) (void)ncclCommDestroy(nccl);
            nccl = nullptr;
#endif
            if (comm != MPI_COMM_NULL && detail::mpi_running()) MPI_Comm_free(&comm);
            comm = MPI_COMM_NULL;
        }
        ~state() { release(); }
    };

    // world() frees its duplicate inside MPI_Finalize: MPI deletes the
    // attributes of MPI_COMM_SELF first thing there, calling this.
    static int release_at_finalize(MPI_Comm, int, void* attribute, void*) {
        static_cast<state*>(attribute)->release();
        return MPI_SUCCESS;
    }
    void release_with_mpi() const {
        int key = MPI_KEYVAL_INVALID;
        detail::mpi_check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release_at_finalize, &key, nullptr),
                          "dist::world (MPI_Comm_create_keyval)");
        detail::mpi_check(MPI_Comm_set_attr(MPI_COMM_SELF, key, s_.get()), "dist::world (MPI_Comm_set_attr)");
    }
    friend const communicator& world();

public:
    /// Duplicates base (collective over base). Throws sv::error when MPI is not
    /// initialised, sv::backend_error when an MPI or NCCL call fails.
    explicit communicator(MPI_Comm base = MPI_COMM_WORLD) : s_(std::make_shared<state>()) {
        if (!detail::mpi_running())
            throw error("scanvec::dist::communicator: MPI is not initialised (call MPI_Init first)");
        detail::mpi_check(MPI_Comm_dup(base, &s_->comm), "dist::communicator (MPI_Comm_dup)");
        detail::mpi_check(MPI_Comm_set_errhandler(s_->comm, MPI_ERRORS_RETURN),
                          "dist::communicator (MPI_Comm_set_errhandler)");
        detail::mpi_check(MPI_Comm_rank(s_->comm, &s_->rank), "dist::communicator (MPI_Comm_rank)");
        detail::mpi_check(MPI_Comm_size(s_->comm, &s_->size), "dist::communicator (MPI_Comm_size)");
#if defined(SCANVEC_HAVE_NCCL)
        // The standard start: rank 0 makes the id, MPI carries it to the others.
        ncclUniqueId id;
        if (s_->rank == 0) detail::nccl_check(ncclGetUniqueId(&id), "dist::communicator (ncclGetUniqueId)");
        detail::mpi_check(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, s_->comm), "dist::communicator (MPI_Bcast of the NCCL id)");
        detail::nccl_check(ncclCommInitRank(&s_->nccl, s_->size, id, s_->rank), "dist::communicator (ncclCommInitRank)");
#endif
    }

    /// This process's rank, 0..size()-1.
    int rank() const { return s_->rank; }
    /// The number of ranks.
    int size() const { return s_->size; }
    /// The MPI communicator (the duplicate this object owns).
    MPI_Comm mpi() const { return s_->comm; }
#if defined(SCANVEC_HAVE_NCCL)
    /// The NCCL communicator over the same ranks.
    ncclComm_t nccl() const { return s_->nccl; }
#endif

    /// Whether both name the same underlying communicator.
    friend bool operator==(const communicator& a, const communicator& b) { return a.s_ == b.s_; }
    friend bool operator!=(const communicator& a, const communicator& b) { return !(a == b); }

private:
    std::shared_ptr<state> s_;
};

/// The communicator over MPI_COMM_WORLD, made at its first use (collective
/// then) and shared by every vector made without one; MPI_Finalize frees it.
inline const communicator& world() {
    static const communicator w = [] {
        communicator c(MPI_COMM_WORLD);
        c.release_with_mpi();
        return c;
    }();
    return w;
}

/// MPI_Init on construction (unless MPI is running already), MPI_Finalize on
/// destruction (if it initialised MPI): `sv::dist::environment env(argc, argv);`
/// first thing in main. Distributed vectors must be gone before it is.
class environment {
public:
    environment(int& argc, char**& argv) {
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (!initialized) {
            detail::mpi_check(MPI_Init(&argc, &argv), "MPI_Init");
            owns_ = true;
        }
    }
    environment(const environment&) = delete;
    environment& operator=(const environment&) = delete;
    ~environment() {
        if (owns_ && detail::mpi_running()) MPI_Finalize();
    }

private:
    bool owns_ = false;
};

}  SCANVEC_NAMESPACE_END  // dist
