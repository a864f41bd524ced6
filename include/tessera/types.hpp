// Tessera public types: operation flags, options, errors and scalar traits.
#pragma once

#include <complex>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tessera {

/// Which triangle of a matrix is referenced (LAPACK's UPLO).
enum class Uplo : char { Lower = 'L', Upper = 'U', General = 'G' };
/// op(A) = A, Aᵀ or Aᴴ (LAPACK's TRANS).
enum class Trans : char { NoTrans = 'N', Trans = 'T', ConjTrans = 'C' };
/// Whether a triangular matrix multiplies from the left or the right (LAPACK's SIDE).
enum class Side : char { Left = 'L', Right = 'R' };
/// Whether a triangular matrix has a unit diagonal (LAPACK's DIAG).
enum class Diag : char { NonUnit = 'N', Unit = 'U' };
/// Which matrix norm (LAPACK's NORM of xLANGE, xLANSY, xLANHE, xLANTR): the largest modulus
/// max |a_ij| ('M'), the one norm max_j Σ_i |a_ij| ('O' or '1'), the infinity norm max_i Σ_j |a_ij|
/// ('I'), the Frobenius norm sqrt(Σ |a_ij|²) ('F' or 'E'). Not a matrix norm for Max, as LAPACK's.
enum class Norm : char { Max = 'M', One = 'O', Inf = 'I', Fro = 'F' };
/// Which vectors an eigen solver computes besides the eigenvalues (LAPACK's JOBZ of xSYEVD, xHEEVD):
/// none ('N') or the eigenvectors ('V').
enum class Job : char { NoVec = 'N', Vec = 'V' };

/// Parse a LAPACK character ('L'/'l', ...). Throw tessera::Error naming `arg` when invalid.
Uplo uplo_from_char(char c, const char* arg = "uplo");
Trans trans_from_char(char c, const char* arg = "trans");
Side side_from_char(char c, const char* arg = "side");
Diag diag_from_char(char c, const char* arg = "diag");
/// 'M', 'O' or '1', 'I', 'F' or 'E' (either case) as LAPACK's xLANGE reads NORM.
Norm norm_from_char(char c, const char* arg = "norm");
/// 'N' or 'V' (either case) as LAPACK's xSYEVD reads JOBZ.
Job job_from_char(char c, const char* arg = "jobz");

/// A P×Q process grid with its 2D block-cyclic owner map: tile (i, j) belongs to MPI rank
/// (i mod P)·Q + (j mod Q) (ScaLAPACK's and Chameleon's convention), so P·Q ranks share the tiles.
/// p = q = 0 means "the running Runtime's grid" (Runtime::grid(); 1×1 in a single process).
struct Distribution {
    int p = 0, q = 0;
    int owner(int64_t i, int64_t j) const { return int((i % p) * q + (j % q)); }
    int ranks() const { return p * q; }
};

/// How the lapack:: forms hand the caller's column-major array to the tile algorithms.
enum class LapackLayout : char {
    Auto,      ///< InPlace when the Runtime drives no OpenCL device and runs in one process, else TileCopy
    InPlace,   ///< the array's nb×nb blocks are the tiles (TileMatrix::view): no copy, no extra memory;
               ///< one process only
    TileCopy,  ///< copied into tile-major storage (contiguous tiles, pinned when the Runtime pins) and
               ///< back: device transfers are then one contiguous DMA per tile, against one strided copy
               ///< per tile column from pageable memory in place
};

/// How geqrf factors A and stores Q (QRFactors, tessera/qr.hpp).
enum class QRForm {
    Auto,         ///< ColumnPanel when the Runtime has an OpenCL device (MPI rank 0's), else TileTree
    TileTree,     ///< flat-tree tile QR (Buttari et al. 2009): a T tile of ib rows per tile of A
    ColumnPanel,  ///< LAPACK xGEQRF's blocking with nb-column panels: one Householder vector per
                  ///< column, one nb×nb T per tile column (the GPU formulation)
};

/// Tuning knobs of the tile algorithms. Named, defaulted fields; no environment variables.
/// nb = 0 and ib = 0 mean the tuned choice for the routine on this machine (tuned_tile in
/// tessera/tuning.hpp: the user's tessera-tune --cpu table, the shipped table, else a rule from the
/// cache sizes); a value given explicitly always wins.
struct Options {
    int64_t nb = 0;  ///< tile size (rows = columns of a full tile); 0: tuned
    int64_t ib = 0;  ///< inner block size of incremental-pivoting LU and tile QR; 0: tuned (clamped to nb)
    LapackLayout layout = LapackLayout::Auto;  ///< lapack:: forms only: in place or copied (LapackLayout)
    QRForm qr_form = QRForm::Auto;             ///< geqrf and gels: how Q is factored and stored (QRForm)
};

/// Error thrown for invalid arguments (LAPACK's xerbla role) and runtime failures.
/// what() names the function and the argument, e.g. "tessera::potrf: argument 'nb' = 0 must be >= 1".
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/// Error thrown by Sequence::wait (and the synchronous algorithms) when a task of the sequence failed
/// on its worker (a kernel launch or device failure, an exception in a user's tile generator, an
/// allocation inside a task): what() is the first failure's message. The sequence's later tasks were
/// skipped, so the matrices it touched hold unspecified values. Distinct from an invalid argument,
/// which is refused before anything is submitted.
class TaskError : public Error {
public:
    explicit TaskError(const std::string& what) : Error(what) {}
};

/// Throw Error("tessera::<func>: argument '<arg>' = <value> <requirement>") unless `ok`.
void check_arg(bool ok, const char* func, const char* arg, long long value, const char* requirement);
/// The same for a character argument (uplo, trans, side, diag), quoted: "argument 'uplo' = 'G' ...".
void check_char_arg(bool ok, const char* func, const char* arg, char value, const char* requirement);
/// check_arg with a char value (exactly char: integers keep the overload above) is check_char_arg.
template <class C, std::enable_if_t<std::is_same_v<C, char>, int> = 0>
void check_arg(bool ok, const char* func, const char* arg, C value, const char* requirement) {
    check_char_arg(ok, func, arg, value, requirement);
}

/// The real type underneath a scalar type (float for std::complex<float>).
template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;
/// Whether T is a complex scalar type (the c and z precisions).
template <class T> inline constexpr bool is_complex_v = !std::is_same_v<T, real_t<T>>;

/// The complex conjugate of x; x itself for real T (std::conj would return a complex).
template <class T> T conjugate(T x) {
    if constexpr (is_complex_v<T>) return std::conj(x);
    else return x;
}

/// LAPACK precision letter of T: 's', 'd', 'c' or 'z'.
template <class T> constexpr char prec_letter() {
    if constexpr (std::is_same_v<T, float>) return 's';
    else if constexpr (std::is_same_v<T, double>) return 'd';
    else if constexpr (std::is_same_v<T, std::complex<float>>) return 'c';
    else return 'z';
}

}  // namespace tessera
