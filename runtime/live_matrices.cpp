// The live TileMatrix objects of the running Runtime, released when it stops before them.
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "runtime/runtime_internal.hpp"

namespace tessera::detail {

namespace {

struct Entry {
    void* self;
    OrphanFn orphan;
};
std::mutex g_lock;
std::map<uint64_t, Entry> g_live;  // by id: creation order
uint64_t g_next = 1;

}  // namespace

uint64_t track_matrix(void* self, OrphanFn orphan) {
    std::lock_guard<std::mutex> guard(g_lock);
    const uint64_t id = g_next++;
    g_live.emplace(id, Entry{self, orphan});
    return id;
}

void moved_matrix(uint64_t id, void* self) noexcept {
    std::lock_guard<std::mutex> guard(g_lock);
    if (auto it = g_live.find(id); it != g_live.end()) it->second.self = self;
}

void untrack_matrix(uint64_t id) noexcept {
    std::lock_guard<std::mutex> guard(g_lock);
    g_live.erase(id);
}

void orphan_matrices() noexcept {
    std::map<uint64_t, Entry> live;
    {
        std::lock_guard<std::mutex> guard(g_lock);
        live.swap(g_live);
    }
    for (auto& [id, e] : live) e.orphan(e.self);
}

}  // namespace tessera::detail
