// The reflectors V of a diagonal tile A(k, k) after geqrt (V below the diagonal) or gelqt (V right of
// it), as step k's updates of the tile QR and LQ read them. The panel chain (tpqrt down the column,
// tplqt along the row) rewrites the tile's other triangle (R or L) while those updates run: they read a
// copy of V's triangle instead (Chameleon's D workspace), made at the first use when the chain goes on,
// so that the chain need not wait for them.
#pragma once

#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

template <class T>
class DiagonalReflectors {
public:
    /// V of A(k, k) in its `triangle` (Lower for QR, Upper for LQ); `chain_follows`: a panel chain
    /// rewrites the tile after these updates (there are tiles below it for QR, right of it for LQ).
    DiagonalReflectors(const TileMatrix<T>& A, int64_t k, Uplo triangle, bool chain_follows, int prio)
        : A_(A), k_(k), triangle_(triangle), chain_follows_(chain_follows), prio_(prio) {}
    ~DiagonalReflectors() {
        if (copied_) tasks::release_temp_tile(v_);
    }
    DiagonalReflectors(const DiagonalReflectors&) = delete;
    DiagonalReflectors& operator=(const DiagonalReflectors&) = delete;

    /// The tile to read V from: A(k, k), or its copy (submitted at the first call) when a chain follows.
    TileHandle handle() {
        if (!v_) {
            v_ = A_.handle(k_, k_);
            if (chain_follows_) {
                v_ = tasks::temp_tile<T>(A_.tile_rows(k_), A_.tile_cols(k_), A_.owner(k_, k_));
                tasks::lacpy<T>(triangle_, A_.handle(k_, k_), v_, prio_);
                copied_ = true;
            }
        }
        return v_;
    }

private:
    const TileMatrix<T>& A_;
    const int64_t k_;
    const Uplo triangle_;
    const bool chain_follows_;
    const int prio_;
    TileHandle v_ = nullptr;
    bool copied_ = false;
};

}  // namespace tessera::detail
