// TileStorage: the host blocks and StarPU handles behind a TileMatrix or a QRFactors.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

struct _starpu_data_state;  // StarPU's handle type, kept out of the public headers

namespace tessera {

/// StarPU data handle of one tile (starpu_data_handle_t).
using TileHandle = _starpu_data_state*;

}  // namespace tessera

namespace tessera::detail {

/// What a tile container (TileMatrix, QRFactors) owns: its host blocks, from the Runtime's host
/// memory pool (pinned when the Runtime pins; released blocks are kept there for reuse), and its tiles' StarPU handles, tile (i, j) of an
/// mt-row grid at handles()[j·mt + i]. release() unregisters the handles, waiting for their tasks
/// (`coherent`: bringing each tile's latest copy home, for a view of the caller's array; else
/// dropping device copies), then frees the blocks. It runs at destruction, or when the Runtime
/// stops first if track() entered the storage in the Runtime's list of live containers: then
/// orphaned() tells the container to refuse further use. Move-only: a move hands over blocks,
/// handles and the list entry, and leaves the source empty.
class TileStorage {
public:
    TileStorage() = default;
    ~TileStorage() { release(); }
    TileStorage(TileStorage&& o) noexcept;
    TileStorage& operator=(TileStorage&& o) noexcept;
    TileStorage(const TileStorage&) = delete;
    TileStorage& operator=(const TileStorage&) = delete;

    /// `bytes` (> 0) of host memory, kept until release(). Throws tessera::Error naming the size
    /// when the allocation fails; callers compare their whole request with the memory available
    /// first (require_host_memory in runtime/host_memory.hpp).
    void* allocate(size_t bytes);
    std::vector<TileHandle>& handles() { return handles_; }
    const std::vector<TileHandle>& handles() const { return handles_; }
    /// Whether release() brings tiles home (views) instead of dropping device copies.
    void set_coherent(bool coherent) { coherent_ = coherent; }
    /// Enter the running Runtime's list of live containers (runtime/runtime_internal.hpp).
    void track();
    /// The Runtime stopped before the container: its tiles are gone.
    bool orphaned() const { return orphaned_; }
    /// Unregister every non-null handle, free every block, leave the list; idempotent.
    void release() noexcept;

private:
    static void orphan(void* self) noexcept;
    std::vector<std::pair<void*, size_t>> blocks_;  // host blocks and their sizes
    std::vector<TileHandle> handles_;
    uint64_t live_ = 0;  // id in the Runtime's list; 0 when not in it
    bool coherent_ = false;
    bool orphaned_ = false;
};

}  // namespace tessera::detail
