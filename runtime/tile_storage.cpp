// TileStorage: host blocks and StarPU handles of a tile container, released once.
#include "tessera/tile_storage.hpp"

#include <starpu.h>

#include <utility>

#include "runtime/host_memory.hpp"
#include "runtime/runtime_internal.hpp"

namespace tessera::detail {

TileStorage::TileStorage(TileStorage&& o) noexcept
    : blocks_(std::move(o.blocks_)), handles_(std::move(o.handles_)), live_(std::exchange(o.live_, 0)),
      coherent_(o.coherent_), orphaned_(std::exchange(o.orphaned_, false)) {
    o.blocks_.clear();
    o.handles_.clear();
    if (live_ != 0) moved_matrix(live_, this);
}

TileStorage& TileStorage::operator=(TileStorage&& o) noexcept {
    if (this != &o) {
        release();
        blocks_ = std::move(o.blocks_);
        handles_ = std::move(o.handles_);
        o.blocks_.clear();
        o.handles_.clear();
        live_ = std::exchange(o.live_, 0);
        coherent_ = o.coherent_;
        orphaned_ = std::exchange(o.orphaned_, false);
        if (live_ != 0) moved_matrix(live_, this);
    }
    return *this;
}

void* TileStorage::allocate(size_t bytes) {
    blocks_.reserve(blocks_.size() + 1);  // so that the push below cannot throw and leak the block
    void* block = host_memory().allocate(bytes);
    blocks_.emplace_back(block, bytes);
    return block;
}

void TileStorage::track() { live_ = track_matrix(this, &TileStorage::orphan); }

void TileStorage::orphan(void* self) noexcept {
    auto* s = static_cast<TileStorage*>(self);
    s->live_ = 0;  // already out of the list
    s->release();
    s->orphaned_ = true;
}

void TileStorage::release() noexcept {
    if (live_ != 0) untrack_matrix(live_);
    live_ = 0;
    // (A registration cut short by an exception leaves null handles behind.)
    for (TileHandle h : handles_)
        if (h) coherent_ ? starpu_data_unregister(h) : starpu_data_unregister_no_coherency(h);
    handles_.clear();
    // Kept by the pool for the next block of the same size (nothing to free needs no Runtime).
    for (const auto& [block, bytes] : blocks_) host_memory().release(block, bytes);
    blocks_.clear();
}

}  // namespace tessera::detail
