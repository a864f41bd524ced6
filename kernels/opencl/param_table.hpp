// The one table of the OpenCL kernels' TESSERA_* parameters: each macro's name, its built-in
// default, the values a parameter table may give it, and the field of `Params` it fills when the
// host reads it too. Everything else is derived from kParamTable:
// - param_specs() (params.hpp, the table itself): what parameter tables and tessera-tune may set,
//   and default_params();
// - the defaults of `Params` (its constructor);
// - DeviceKernels' reading of a built program's -D options into its Params (device.cpp).
// The .cl files keep their `#ifndef NAME / #define NAME default` so that a kernel file compiles on
// its own (offline analysis, tools); tests/test_kernel_params.cpp checks that every such default
// equals the table's. Nothing here knows OpenCL or StarPU.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <string_view>

namespace tessera::ocl {

/// Columns of Y tessera_trsm_chain solves at most (trsm.cl's TRSM_CHAIN_NC): launch.cpp takes it for
/// trsm of no more columns, params.cpp counts its local memory.
inline constexpr int kTrsmChainColumns = 8;

/// Sizes of the kernels of one built program that the launchers need, read back from its build
/// options (the TESSERA_* macros of kParamTable). A default-constructed Params holds the table's
/// defaults: the sizes of a program built without any parameter macro.
struct Params {
    int gemm_mb, gemm_nb;  ///< gemm.cl: rows and columns of C per work-group
    int gemm_kb;           ///< gemm.cl: k slice staged in local memory
    int gemm_tm, gemm_tn;  ///< gemm.cl: register tile (rows, columns) of one work-item
    int trsm_bs;      ///< rows of the diagonal blocks tessera_trtri_blocks inverts
    int trsm_nv;      ///< columns of B per work-item of tessera_trsm_leaf
    int trsm_ng;      ///< groups of trsm_nv columns per work-group of tessera_trsm_leaf (trsm_bs·trsm_ng work-items)
    int trsm_leaf;    ///< rows of M solved by one launch of tessera_trsm_leaf (launch.cpp)
    int trsm_chain;   ///< trsm with few columns in one launch (tessera_trsm_chain): 0 never, 1 on NVIDIA GPUs, 2 anywhere
    int potrf_wg;     ///< work-items of tessera_potrf
    int potrf_bs;     ///< columns of the leaves of the recursive potrf (tessera_potrf's maximum n)
    int getrf_leaf;   ///< columns of the leaves of the recursive LU panel (launch_getrf.cpp)
    int getrf_step_rows;  ///< rows per work-group of a tall LU leaf's steps (tessera_getrf_leaf_step)
    int getrf_grid;       ///< tall LU leaves in one launch with a grid barrier: 0 never, 1 on NVIDIA GPUs, 2 anywhere
    int nv_splitk;    ///< most ways a GEMM of gemm_nv.cl splits k (1: never; gemm_select.cpp)
    int nvt_nn_rows;  ///< tensor-core NN products of at least this many rows run as NT on Bᵀ (0: never; gemm_select.cpp)
    int qr_sb;        ///< reflectors per super-block of the GEMM-based gemqrt/tpmqrt (launch_qr.cpp)
    int qr_leaf;      ///< columns of the leaves of the recursive QR column panel (launch_qr_panel.cpp)
    int qr_grid;      ///< tall QR leaves in one launch with a grid barrier: 0 never, 1 on NVIDIA GPUs, 2 anywhere
    int nvd_mbar_tri; ///< 1: tessera_nvgemm_*_mbar honour xSYRK's triangle, and gemm_select.cpp takes them for it
    int nvd_mbar_few; ///< 1: gemm_select.cpp takes tessera_nvgemm_*_mbar for fewer blocks than compute units too
    int gemm_narrow;  ///< gemm() runs products of at most this many columns by gemm_narrow.cl (0: never)
    int norm_lines;   ///< norms.cl: columns or rows of a tile reduced by one work-group
    int norm_wg;      ///< norms.cl: work-items per work-group of tessera_norm_tile

    /// Every field at its kParamTable default.
    constexpr Params();
};

/// The values a parameter may take: one of a short list (`count` > 0), else any in [lo, hi].
struct ParamValues {
    std::array<int, 6> list{};
    int count = 0;
    int lo = 0, hi = 0;

    constexpr bool allows(int v) const {
        for (int i = 0; i < count; ++i)
            if (list[size_t(i)] == v) return true;
        return count == 0 && v >= lo && v <= hi;
    }
};
/// Values limited to `values` (at most 6 of them).
constexpr ParamValues one_of(std::initializer_list<int> values) {
    ParamValues r;
    for (int v : values) r.list[size_t(r.count++)] = v;
    return r;
}
/// Any value in [lo, hi].
constexpr ParamValues in_range(int lo, int hi) {
    ParamValues r;
    r.lo = lo, r.hi = hi;
    return r;
}

/// One TESSERA_* parameter. `help` begins with the file that uses it: a .cl file defines the
/// same default under #ifndef; a .cpp file means only the host reads it (launch sizes).
struct ParamDef {
    std::string_view name;
    int def;
    ParamValues values;
    int Params::*field;  ///< the Params field it fills, or nullptr when only the kernels read it
    std::string_view help;
};

inline constexpr ParamDef kParamTable[] = {
    {"TESSERA_GEMM_MB", 64, one_of({16, 32, 64, 128}), &Params::gemm_mb, "gemm.cl: rows of C per work-group"},
    {"TESSERA_GEMM_NB", 64, one_of({16, 32, 64, 128}), &Params::gemm_nb, "gemm.cl: columns of C per work-group"},
    {"TESSERA_GEMM_KB", 16, one_of({4, 8, 16, 32}), &Params::gemm_kb, "gemm.cl: k-slice staged in local memory"},
    {"TESSERA_GEMM_TM", 4, one_of({1, 2, 4, 8}), &Params::gemm_tm, "gemm.cl: register-tile rows per work-item"},
    {"TESSERA_GEMM_TN", 4, one_of({1, 2, 4, 8}), &Params::gemm_tn, "gemm.cl: register-tile columns per work-item"},
    {"TESSERA_TRSM_BS", 64, one_of({16, 32, 64}), &Params::trsm_bs, "trsm.cl: rows of the diagonal blocks trsm inverts"},
    {"TESSERA_TRSM_NV", 2, one_of({2, 4, 8, 16}), &Params::trsm_nv, "trsm.cl: columns of B per work-item of a trsm leaf"},
    {"TESSERA_TRSM_NG", 4, one_of({1, 2, 4, 8}), &Params::trsm_ng,
     "trsm.cl: groups of TRSM_NV columns per work-group of a trsm leaf"},
    {"TESSERA_TRSM_LEAF", 256, in_range(1, 4096), &Params::trsm_leaf,
     "launch.cpp: rows of a trsm leaf, solved in one launch (rounded down to TRSM_BS)"},
    {"TESSERA_TRSM_CHAIN", 1, one_of({0, 1, 2}), &Params::trsm_chain,
     "launch.cpp: trsm of at most 8 columns in one launch whose work-groups wait on each other: 0 never, 1 on "
     "NVIDIA GPUs, 2 on any device"},
    {"TESSERA_POTRF_BS", 32, in_range(1, 256), &Params::potrf_bs,
     "potrf.cl: columns of a leaf of the recursive potrf, factored and inverted in registers"},
    {"TESSERA_POTRF_WG", 256, one_of({32, 64, 128, 256, 512, 1024}), &Params::potrf_wg,
     "potrf.cl: work-items factoring one leaf"},
    {"TESSERA_POTRF_COLS", 2, one_of({1, 2, 4}), nullptr,
     "potrf.cl: columns of a leaf factored (rows inverted) per barrier step"},
    {"TESSERA_GETRF_LEAF", 32, in_range(1, 64), &Params::getrf_leaf,
     "getrf.cl: columns of a leaf of the recursive LU panel (launch_getrf.cpp), at most 64; the one-launch leaf's registers"},
    {"TESSERA_GETRF_STEP_ROWS", 256, one_of({64, 128, 256, 512, 1024}), &Params::getrf_step_rows,
     "launch_getrf.cpp: rows per work-group of a tall LU leaf, factored one launch per column"},
    {"TESSERA_GETRF_GRID", 1, one_of({0, 1, 2}), &Params::getrf_grid,
     "launch_getrf.cpp: tall LU leaves in one launch with a grid barrier: 0 never, 1 on NVIDIA GPUs, 2 on any device"},
    {"TESSERA_NV_GROUP", 8, in_range(1, 64), nullptr, "gemm_nv.cl: block rows per rasterization group"},
    {"TESSERA_NVD_MMA", 1688, one_of({884, 1688}), nullptr, "gemm_nv_d.cl: FP64 mma.sync shape (m8n8k4, m16n8k8)"},
    {"TESSERA_NVD_STAGES", 4, in_range(2, 4), nullptr, "gemm_nv_d.cl: k slabs in flight (cp.async)"},
    {"TESSERA_NVD_WM", 1, one_of({1, 2, 4}), nullptr, "gemm_nv_d.cl: warps along m (64 rows each)"},
    {"TESSERA_NVD_WN", 4, one_of({1, 2, 4}), nullptr, "gemm_nv_d.cl: warps along n (32 columns each)"},
    {"TESSERA_NVD_STAGGER", 1, one_of({0, 1}), nullptr,
     "gemm_nv_d.cl: half of the warps copy the next slab before their fragment loads"},
    {"TESSERA_QR_SB", 512, in_range(1, 4096), &Params::qr_sb,
     "launch_qr.cpp: reflectors per super-block of gemqrt/tpmqrt (its T merged, then GEMMs)"},
    {"TESSERA_QR_LEAF", 32, one_of({4, 8, 16, 32}), &Params::qr_leaf,
     "qr_grid.cl: columns of a leaf of the recursive QR column panel (launch_qr_panel.cpp; at most 16 for complex)"},
    {"TESSERA_QR_GRID", 1, one_of({0, 1, 2}), &Params::qr_grid,
     "launch_qr_panel.cpp: tall QR leaves in one launch with a grid barrier: 0 never, 1 on NVIDIA GPUs, 2 on any device"},
    {"TESSERA_NV_SPLITK", 16, in_range(1, 64), &Params::nv_splitk,
     "gemm_select.cpp: most ways a GEMM of gemm_nv.cl with too few blocks splits k (1: never)"},
    {"TESSERA_NVT_F16_STAGES", 3, one_of({2, 3, 4}), nullptr,
     "gemm_nv_tf32.cl: slab buffers of the FP16 kernels whose B is not staged (STAGES - 1 slabs in flight)"},
    {"TESSERA_NVT_NN_ROWS", 1024, in_range(0, 1 << 20), &Params::nvt_nn_rows,
     "gemm_select.cpp: tensor-core NN products of at least this many rows run as NT ones on a transposed copy of B "
     "(0: never)"},
    {"TESSERA_NVS_BK", 16, one_of({8, 16}), nullptr, "gemm_nv_s.cl: float k slab"},
    {"TESSERA_NVS_WARP", 1, one_of({0, 1}), nullptr, "gemm_nv_s.cl: float warp shape (0 = 16x2, 1 = 8x4 work-items)"},
    {"TESSERA_NVD_MBAR_TRI", 0, one_of({0, 1}), &Params::nvd_mbar_tri,
     "gemm_nv_d_mbar.cl: 1: the _mbar kernels honour xSYRK's triangle, and gemm_select.cpp takes them for it"},
    {"TESSERA_NVD_MBAR_FEW", 0, one_of({0, 1}), &Params::nvd_mbar_few,
     "gemm_select.cpp: 1: the _mbar kernels are taken for fewer blocks than compute units too (split k)"},
    {"TESSERA_GEMM_NARROW", 8, in_range(0, 8), &Params::gemm_narrow,
     "launch_narrow.cpp: gemm() runs products of at most this many columns (n) by gemm_narrow.cl (0: never)"},
    {"TESSERA_NORM_LINES", 32, one_of({8, 16, 32, 64}), &Params::norm_lines,
     "norms.cl: columns or rows of a tile reduced by one work-group of the norm partials"},
    {"TESSERA_NORM_CHUNK", 64, one_of({32, 64, 128, 256}), nullptr,
     "norms.cl: entries of each line staged in local memory per step (LINES * (CHUNK + 1) at most 3072)"},
    {"TESSERA_NORM_WG", 256, one_of({64, 128, 256, 512}), &Params::norm_wg,
     "norms.cl: work-items per work-group of the norm partials (at least LINES; LINES * CHUNK a multiple of it)"},
};

constexpr Params::Params()
    : gemm_mb(), gemm_nb(), gemm_kb(), gemm_tm(), gemm_tn(), trsm_bs(), trsm_nv(), trsm_ng(), trsm_leaf(), trsm_chain(),
      potrf_wg(), potrf_bs(), getrf_leaf(), getrf_step_rows(), getrf_grid(), nv_splitk(), nvt_nn_rows(), qr_sb(), qr_leaf(), qr_grid(), nvd_mbar_tri(), nvd_mbar_few(),
      gemm_narrow(), norm_lines(), norm_wg() {
    for (const ParamDef& d : kParamTable)
        if (d.field) this->*d.field = d.def;
}

namespace param_checks {
/// Every default allowed by its own values, no name twice, no Params field twice.
constexpr bool param_table_consistent() {
    for (size_t i = 0; i < std::size(kParamTable); ++i) {
        if (!kParamTable[i].values.allows(kParamTable[i].def)) return false;
        for (size_t j = 0; j < i; ++j)
            if (kParamTable[j].name == kParamTable[i].name ||
                (kParamTable[i].field && kParamTable[j].field == kParamTable[i].field))
                return false;
    }
    return true;
}
/// How many table entries fill a Params field (with no field twice: every field, when this
/// times sizeof(int) is sizeof(Params)).
constexpr size_t param_fields() {
    size_t n = 0;
    for (const ParamDef& d : kParamTable) n += d.field != nullptr;
    return n;
}
}  // namespace param_checks
static_assert(param_checks::param_table_consistent(), "kParamTable: a default outside its values, or a name or field twice");
static_assert(param_checks::param_fields() * sizeof(int) == sizeof(Params), "kParamTable: a Params field without an entry");

}  // namespace tessera::ocl
