// tessera_qr_t_blocks: Tw = the block diagonal of the inner blocks' T factors, zeros elsewhere.
//
// Reflectors made in inner blocks of ib (LAPACK's xGEQRT/xTPQRT layout): block j's upper triangular
// T_j sits in rows 0..jb−1 of columns j·ib.. of Tf. launch_qr.cpp starts the T of a super-block of
// wb reflectors from this (wb×wb, ld ldw) and fills in the blocks above the diagonal with GEMMs; the
// zeros let GEMMs read Tw and its diagonal blocks as full matrices.
//
// Launch: one work-item per element of the wb×wb result, in work-groups of 64×4 (enqueue_2d).

__kernel void tessera_qr_t_blocks(const int wb, const int ib, __global const scalar_t* Tf, const ulong offT,
                                  const int ldt, __global scalar_t* Tw, const ulong offW, const int ldw)
{
    const int i = (int)get_global_id(0), c = (int)get_global_id(1);
    if (i >= wb || c >= wb) return;
    const int p = c - c % ib;  // first column of c's inner block
    Tw[offW + i + (long)c * ldw] = (i >= p && i <= c) ? Tf[offT + (i - p) + (long)c * ldt] : S_ZERO;
}
