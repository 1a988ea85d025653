// scanvec/runtime/dist/communicator.hpp - the processes a distributed vector spans.
//
// A dist::communicator owns a duplicate of an MPI communicator (MPI_COMM_WORLD
// by default) with MPI_ERRORS_RETURN set, so that every failed MPI call comes
// back as an sv::backend_error naming the operation. On CUDA builds where NCCL
// was found (SCANVEC_HAVE_NCCL) it also owns an NCCL communicator over the same
// ranks when every rank drives a GPU of its own (NCCL's rule; or, with
// NCCL_MULTI_RANK_GPU_ENABLE=1 on NCCL 2.30+, ranks that share one); otherwise
// ranks that share a GPU, or SCANVEC_DIST_NCCL=0 in the environment, keep the element exchanges
// on MPI, staged through host memory. Copies share one underlying communicator.
// How the layer runs: docs/design/distributed.md.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/error.hpp>

#include <mpi.h>
#if defined(SCANVEC_HAVE_NCCL)
#  include <nccl.h>
#endif

#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

/// n as an MPI count; sv::backend_error past INT_MAX (MPI 3 counts are int).
inline int mpi_count(index_t n, const char* op) {
    if (n < 0 || n > INT_MAX)
        throw backend_error(std::string("scanvec: ") + op + ": " + std::to_string(n) +
                            " elements in one message exceed MPI's int counts (2^31 - 1)");
    return int(n);
}

/// A contiguous MPI type of `bytes` bytes (one element), freed on destruction.
class byte_type {
public:
    byte_type(std::size_t bytes, const char* op) {
        mpi_check(MPI_Type_contiguous(int(bytes), MPI_BYTE, &type_), op);
        mpi_check(MPI_Type_commit(&type_), op);
    }
    byte_type(const byte_type&) = delete;
    byte_type& operator=(const byte_type&) = delete;
    ~byte_type() {
        if (type_ != MPI_DATATYPE_NULL && mpi_running()) MPI_Type_free(&type_);
    }
    MPI_Datatype get() const { return type_; }

private:
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

#if defined(SCANVEC_HAVE_NCCL)
/// Whether this process may share its GPU with other ranks of one NCCL
/// communicator: NCCL_MULTI_RANK_GPU_ENABLE=1 and an NCCL that has the
/// feature (2.30 and later; experimental there).
inline bool nccl_multi_rank_gpu() {
    const char* env = std::getenv("NCCL_MULTI_RANK_GPU_ENABLE");
    int version = 0;
    return env && std::strcmp(env, "1") == 0 && ncclGetVersion(&version) == ncclSuccess && version >= 23000;
}

/// Whether the ranks of comm make an NCCL communicator: every rank wants one
/// (SCANVEC_DIST_NCCL is not 0) and drives a GPU no other rank drives (the
/// PCI bus ids of the current devices, all-gathered), unless every rank may
/// share its GPU (nccl_multi_rank_gpu). Collective; the same answer on every rank.
inline bool nccl_suits(MPI_Comm comm, int size) {
    const char* env = std::getenv("SCANVEC_DIST_NCCL");
    int mine[2] = {(env && std::strcmp(env, "0") == 0) ? 0 : 1, nccl_multi_rank_gpu() ? 1 : 0}, all[2] = {0, 0};
    mpi_check(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, comm), "dist::communicator (MPI_Allreduce)");
    if (!all[0]) return false;
    if (all[1]) return true;
    constexpr int id_len = 32;
    char id[id_len] = {};
    int device = 0;
    backend::check(cudaGetDevice(&device), "dist::communicator (cudaGetDevice)");
    backend::check(cudaDeviceGetPCIBusId(id, id_len, device), "dist::communicator (cudaDeviceGetPCIBusId)");
    std::vector<char> ids(std::size_t(size) * id_len);
    mpi_check(MPI_Allgather(id, id_len, MPI_CHAR, ids.data(), id_len, MPI_CHAR, comm),
              "dist::communicator (MPI_Allgather of the devices)");
    for (int a = 0; a < size; ++a)
        for (int b = a + 1; b < size; ++b)
            if (std::strncmp(&ids[std::size_t(a) * id_len], &ids[std::size_t(b) * id_len], id_len) == 0) return false;
    return true;
}
#endif

}  // namespace detail

/// One GPU per rank on a node: makes GPU (local rank mod the node's GPU count)
/// current, where the local rank numbers the ranks sharing this node
/// (MPI_Comm_split_type). Returns the device chosen; -1 on the host backend,
/// where it does nothing. Collective over MPI_COMM_WORLD; call it before the
/// first communicator (sv::dist::environment does).
inline int select_device() {
    if (!::scanvec::detail::on_cuda) return -1;
    MPI_Comm node = MPI_COMM_NULL;
    detail::mpi_check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
                      "dist::select_device (MPI_Comm_split_type)");
    int local = 0;
    const int rc = MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    detail::mpi_check(rc, "dist::select_device (MPI_Comm_rank)");
    const int count = backend::device_count("dist::select_device (cudaGetDeviceCount)");
    const int device = count > 0 ? local % count : 0;
    backend::set_device(device, "dist::select_device (cudaSetDevice)");
    return device;
}

/// The ranks a distributed vector is spread over. Making one is collective
/// (MPI_Comm_dup, and on NCCL builds an all-gather of the devices and
/// ncclCommInitRank): every rank of `base` makes it at the same point of the
/// program. MPI must be initialised; on CUDA builds each rank selects its GPU
/// before (select_device, or sv::dist::environment).
class communicator {
    struct state {
        MPI_Comm comm = MPI_COMM_NULL;
        int rank = 0, size = 1;
#if defined(SCANVEC_HAVE_NCCL)
        ncclComm_t nccl = nullptr;
#endif
        /// team(): the teams made so far, by key (null: this rank is in none).
        std::vector<std::pair<int, std::shared_ptr<communicator>>> teams;
        void release() noexcept {
            teams.clear();  // before the MPI communicator they were split from
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
        if (!detail::nccl_suits(s_->comm, s_->size)) return;
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
    /// Rank r's number in MPI_COMM_WORLD (errors name ranks so, whatever
    /// communicator a call ran on: a team split off the world, say).
    int world_rank(int r) const {
        MPI_Group mine = MPI_GROUP_NULL, all = MPI_GROUP_NULL;
        int w = r;
        if (MPI_Comm_group(s_->comm, &mine) == MPI_SUCCESS && MPI_Comm_group(MPI_COMM_WORLD, &all) == MPI_SUCCESS)
            MPI_Group_translate_ranks(mine, 1, &r, all, &w);
        if (mine != MPI_GROUP_NULL) MPI_Group_free(&mine);
        if (all != MPI_GROUP_NULL) MPI_Group_free(&all);
        return w == MPI_UNDEFINED ? r : w;
    }
    /// The MPI communicator (the duplicate this object owns).
    MPI_Comm mpi() const { return s_->comm; }
    /// Whether element exchanges go through NCCL (device to device), not MPI.
    bool uses_nccl() const {
#if defined(SCANVEC_HAVE_NCCL)
        return s_->nccl != nullptr;
#else
        return false;
#endif
    }
#if defined(SCANVEC_HAVE_NCCL)
    /// The NCCL communicator over the same ranks; null unless uses_nccl().
    ncclComm_t nccl() const { return s_->nccl; }
#endif

    /// The ranks whose color equals mine, as a communicator of their own
    /// (MPI_Comm_split, ranks in order); null for a negative color. Kept in
    /// this communicator under `key` and given again for the same key, since
    /// making one (on NCCL builds ncclCommInitRank) costs far more than a
    /// round of work (docs/design/distributed.md). Every rank passes the same
    /// key for the same partition; collective the first time a key is met.
    /// The team lives as long as this communicator.
    const communicator* team(int key, int color) const {
        for (const auto& t : s_->teams)
            if (t.first == key) return t.second.get();
        MPI_Comm c = MPI_COMM_NULL;
        detail::mpi_check(MPI_Comm_split(s_->comm, color < 0 ? MPI_UNDEFINED : color, s_->rank, &c),
                          "dist::communicator::team (MPI_Comm_split)");
        std::shared_ptr<communicator> made;
        if (c != MPI_COMM_NULL) {
            try {
                made = std::make_shared<communicator>(c);
            } catch (...) {
                MPI_Comm_free(&c);
                throw;
            }
            MPI_Comm_free(&c);
        }
        s_->teams.emplace_back(key, std::move(made));
        return s_->teams.back().second.get();
    }

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

/// MPI_Init on construction (unless MPI is running already) and, on CUDA
/// builds, select_device(); MPI_Finalize on destruction (if it initialised
/// MPI): `sv::dist::environment env(argc, argv);` first thing in main.
/// Distributed vectors must be gone before it is.
class environment {
public:
    environment(int& argc, char**& argv) {
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (!initialized) {
            detail::mpi_check(MPI_Init(&argc, &argv), "MPI_Init");
            owns_ = true;
        }
        select_device();
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
