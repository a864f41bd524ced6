// gpu_task_shapes: Tessera's OpenCL tile operations at the shapes the task graphs submit (one nb×nb
// tile per task), on device-resident data, each checked against CBLAS/LAPACKE on the host. Driven by
// bench/gpu_gemm.sh (TASK_SHAPES=...), which times cuBLAS on the same shapes
// (bench/gpu_task_shapes.py) and prints the ratios. StarPU-free; run only on the GPU machine.
//
//   gpu_task_shapes [--prec d,s] [--nb 512,1024,2048] [--reps 5] [--variant OPTS] [--ops OP,OP]
//
// --ops keeps only the named operations (e.g. trsm_llnu,trsm_rltn; default: all).
//
// Operations (who submits them): gemm_nn (gemm, getrf, geqrf's trailing products), gemm_nt
// (potrf's trailing update), trsm_rltn (potrf on CPUs: B = B·L⁻ᵀ), trmm_rltn (potrf on a GPU: B =
// B·Wᵀ with W = L⁻¹), trsm_llnu (getrf: B = L⁻¹·B, unit L), syrk_ln (potrf: C = C − A·Aᵀ, lower),
// gemqrt_lt and tpmqrt_lt at ib 32 and 64 (geqrf's updates: C = Qᵀ·C; [A; B] = Qᵀ·[A; B]), and
// as the tile tree's geqrf submitted them with an OpenCL device before QR moved to column panels
// (QRForm::ColumnPanel, whose updates are gemm_nn/gemm_tn): larft_ge / larft_tp (ib 64) merging a
// tile's inner blocks into one T, once per panel tile, then each update at ib = nb; and geqrt's
// updates: form_q (Qᵀ of the tile, once per panel) and gemqrt_q (a copy and one GEMM).
// Flop counts: gemm 2nb³; trsm, trmm, syrk nb³; gemqrt 2nb³ (LAPACK's dormqr count 2nk(2m − k) at
// m = n = k, also for gemqrt_q); form_q 4nb³/3 (xORGQR's); tpmqrt 4nb³ (4mnk); larft 2nb³/3 (geqrt's
// V) and 4nb³/3 (tpqrt's), xLARFT's count. Times: median seconds per call over --reps batches of
// back-to-back calls (harness::time_batches, as cuBLAS is timed). Error: max |ours − reference|
// over max |reference|, against CBLAS/LAPACKE on the same inputs; "ok" when ≤ 50·nb·eps.
// Output: one line per case, "SHAPE prec op nb ib ms TFLOP/s error ok|FAILED".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "examples/common/tool_main.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "tools/tune/cl_harness.hpp"

using namespace tessera;
using namespace tessera::harness;

namespace {

template <class T>
using Host = std::vector<T>;

/// Runs every operation at one nb for precision T: checks one call against the host reference,
/// then times back-to-back calls. `dk` is the library's whole program for T.
template <class T>
class ShapeRun {
  public:
    /// `ops`: the operations to run (--ops); empty: all.
    ShapeRun(const Env& env, const ocl::DeviceKernels& dk, int nb, int reps, std::vector<std::string> ops)
        : env_(env), dk_(dk), nb_(nb), reps_(reps), elems_(size_t(nb) * nb), A_(env, elems_), B_(env, elems_),
          C_(env, elems_), F_(env, elems_), K_(env, elems_), Q_(env, elems_), ops_(std::move(ops)) {
        std::mt19937_64 rng(11 + nb);
        a_.resize(elems_), b_.resize(elems_), c_.resize(elems_);
        fill_random(a_, rng), fill_random(b_, rng), fill_random(c_, rng);
        // Triangles with a well-conditioned lower part (diagonal 1 + |x|, off-diagonal x / nb), so that
        // repeated solves in the timing keep their magnitudes.
        tri_ = a_;
        for (int j = 0; j < nb; ++j)
            for (int i = 0; i < nb; ++i) {
                T& x = tri_[size_t(j) * nb + i];
                x = i == j ? T(1) + std::abs(x) : i > j ? x / T(nb) : T(0);
            }
    }

    void run_all(char prec) {
        const double n3 = double(nb_) * nb_ * nb_;
        prec_ = prec;
        ocl::Mat a = mat(A_), b = mat(B_), c = mat(C_);
        {  // C = C + A·B and C = C − A·Bᵀ
            Host<T> ref = c_;
            cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, nb_, nb_, nb_, T(1), a_.data(), nb_, b_.data(), nb_, T(1),
                         ref.data(), nb_);
            put(A_, a_), put(B_, b_), put(C_, c_);
            auto op = [&] { ocl::gemm<T>(dk_, env_.queue, Trans::NoTrans, Trans::NoTrans, nb_, nb_, nb_, T(1), a, b, T(1), c); };
            report("gemm_nn", 0, 2 * n3, op, ref, C_);
            ref = c_;
            cpu::gemm<T>(Trans::NoTrans, Trans::Trans, nb_, nb_, nb_, T(-1), a_.data(), nb_, b_.data(), nb_, T(1),
                         ref.data(), nb_);
            put(C_, c_);
            auto nt = [&] { ocl::gemm<T>(dk_, env_.queue, Trans::NoTrans, Trans::Trans, nb_, nb_, nb_, T(-1), a, b, T(1), c); };
            report("gemm_nt", 0, 2 * n3, nt, ref, C_);
        }
        {  // B = B·L⁻ᵀ (potrf on CPUs), B = B·Lᵀ (trmm with the inverse, potrf on a GPU), B = L⁻¹·B (getrf)
            Host<T> ref = b_;
            cpu::trsm<T>(Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, nb_, nb_, T(1), tri_.data(), nb_,
                         ref.data(), nb_);
            put(A_, tri_), put(B_, b_);
            auto rltn = [&] {
                ocl::trsm<T>(dk_, env_.queue, Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, nb_, nb_, T(1), a, b);
            };
            report("trsm_rltn", 0, n3, rltn, ref, B_);
            ref = b_;
            cpu::trmm<T>(Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, nb_, nb_, T(1), tri_.data(), nb_,
                         ref.data(), nb_);
            put(B_, b_);
            auto trmm = [&] {
                ocl::trmm<T>(dk_, env_.queue, Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, nb_, nb_, T(1), a, b);
            };
            report("trmm_rltn", 0, n3, trmm, ref, B_);
            ref = b_;
            cpu::trsm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, nb_, nb_, T(1), tri_.data(), nb_,
                         ref.data(), nb_);
            put(B_, b_);
            auto llnu = [&] {
                ocl::trsm<T>(dk_, env_.queue, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, nb_, nb_, T(1), a, b);
            };
            report("trsm_llnu", 0, n3, llnu, ref, B_);
        }
        {  // C = C − A·Aᵀ, lower triangle
            Host<T> ref = c_;
            cpu::syrk<T>(Uplo::Lower, Trans::NoTrans, nb_, nb_, T(-1), a_.data(), nb_, T(1), ref.data(), nb_);
            put(A_, a_), put(C_, c_);
            auto op = [&] { ocl::syrk<T>(dk_, env_.queue, Uplo::Lower, Trans::NoTrans, nb_, nb_, T(-1), a, T(1), c); };
            report("syrk_ln", 0, n3, op, ref, C_, true);
        }
        for (int ib : {32, 64}) qr_updates(ib, ib == 64, n3);
    }

  private:
    /// geqrf's two updates with Q from an nb×nb tile's reflectors in inner blocks of ib: geqrt's
    /// (C = Qᵀ·C, gemqrt) and tpqrt's of [R; B] ([A; B] = Qᵀ·[A; B], tpmqrt with l = 0). Each update
    /// is timed applying the inner blocks (ib rows) and, when `merged`, as geqrf submits it with an
    /// OpenCL device: after larft merged them into one T (larft_ge / larft_tp rows), all nb
    /// reflectors in one block (ib = nb rows). Every update is checked against LAPACKE's with the
    /// inner blocks; larft against cpu::larft.
    void qr_updates(int ib, bool merged, double n3) {
        for (bool tp : {false, true}) {
            const char* update = tp ? "tpmqrt_lt" : "gemqrt_lt";
            const bool explicit_q = !tp && merged && (wanted("form_q") || wanted("gemqrt_q"));
            if (!wanted(update) && !wanted(tp ? "larft_tp" : "larft_ge") && !explicit_q) continue;
            Host<T> v = a_, tq(size_t(ib) * nb_), tk(elems_);
            if (tp) {  // R: an upper triangle; V: the pentagonal (here square) B part
                Host<T> r = tri_;
                for (int j = 0; j < nb_; ++j)
                    for (int i = 0; i < nb_; ++i) r[size_t(j) * nb_ + i] = i <= j ? tri_[size_t(i) * nb_ + j] : T(0);
                if (cpu::tpqrt<T>(nb_, nb_, ib, r.data(), nb_, v.data(), nb_, tq.data(), ib) != 0)
                    throw Error("LAPACKE tpqrt failed");
            } else if (cpu::geqrt<T>(nb_, nb_, ib, v.data(), nb_, tq.data(), ib) != 0) {
                throw Error("LAPACKE geqrt failed");
            }
            Host<T> rc = c_, rb = b_;  // the reference updates, with the inner blocks
            const int info = tp ? cpu::tpmqrt<T>(Side::Left, Trans::Trans, nb_, nb_, nb_, ib, v.data(), nb_, tq.data(),
                                                 ib, rc.data(), nb_, rb.data(), nb_)
                                : cpu::gemqrt<T>(Side::Left, Trans::Trans, nb_, nb_, nb_, ib, v.data(), nb_, tq.data(),
                                                 ib, rc.data(), nb_);
            if (info != 0) throw Error("LAPACKE gemqrt/tpmqrt failed");
            put(A_, v), put(F_, tq);
            const ocl::Mat vm = mat(A_), f{F_.mem, 0, ib}, km = mat(K_), cm = mat(C_), bm = mat(B_);
            if (merged) {
                cpu::larft<T>(tp, nb_, nb_, ib, v.data(), nb_, tq.data(), ib, tk.data(), nb_);
                // xLARFT's flop count: nb³·2/3 for geqrt's triangle, nb³·4/3 for tpqrt's square V.
                auto larft = [&] { ocl::larft<T>(dk_, env_.queue, tp, nb_, nb_, ib, vm, f, km); };
                report(tp ? "larft_tp" : "larft_ge", ib, (tp ? 4 : 2) * n3 / 3, larft, tk, K_);
                put(K_, tk);
            }
            if (explicit_q) explicit_q_update(vm, km, rc, n3);
            if (!wanted(update)) continue;
            for (bool one_block : {false, true}) {
                if (one_block && !merged) break;
                const int use_ib = one_block ? nb_ : ib;
                const ocl::Mat t = one_block ? km : f;
                put(C_, c_), put(B_, b_);
                auto op = [&] {
                    if (tp) ocl::tpmqrt<T>(dk_, env_.queue, Side::Left, Trans::Trans, nb_, nb_, nb_, use_ib, vm, t, cm, bm);
                    else ocl::gemqrt<T>(dk_, env_.queue, Side::Left, Trans::Trans, nb_, nb_, nb_, use_ib, vm, t, cm);
                };
                check_once(op);
                const double err = tp ? std::max(error_of(C_, rc), error_of(B_, rb)) : error_of(C_, rc);
                print(update, use_ib, (tp ? 4 : 2) * n3, time_batches(env_, op, reps_, per_batch()), err);
            }
        }
    }

    /// the tile tree's gemqrt updates as it submitted them with an OpenCL device: form_q makes the tile's Qᵀ
    /// once per panel (xORGQR's count, 4nb³/3), then each update copies C (B_ holds the copy) and
    /// multiplies, C = Qᵀ·copy (gemqrt_q, counted as gemqrt: 2nb³). Both rows carry the error of
    /// one formed Q's update against the reference update `rc`. Needs larft's merged T in K_.
    void explicit_q_update(const ocl::Mat& vm, const ocl::Mat& km, const Host<T>& rc, double n3) {
        const ocl::Mat qm = mat(Q_), cm = mat(C_), wm = mat(B_);
        auto form = [&] { ocl::form_q<T>(dk_, env_.queue, Trans::Trans, nb_, nb_, nb_, vm, km, qm); };
        auto update = [&] {
            ocl::lacpy<T>(dk_, env_.queue, Uplo::General, nb_, nb_, cm, wm);
            ocl::gemm<T>(dk_, env_.queue, Trans::NoTrans, Trans::NoTrans, nb_, nb_, nb_, T(1), qm, wm, T(0), cm);
        };
        check_once(form);
        put(C_, c_);
        check_once(update);
        const double err = error_of(C_, rc);
        if (wanted("form_q")) print("form_q", nb_, 4 * n3 / 3, time_batches(env_, form, reps_, per_batch()), err);
        if (wanted("gemqrt_q")) print("gemqrt_q", nb_, 2 * n3, time_batches(env_, update, reps_, per_batch()), err);
    }

    ocl::Mat mat(const Buffer<T>& buf) const { return ocl::Mat{buf.mem, 0, nb_}; }
    void put(Buffer<T>& buf, const Host<T>& h) { buf.write(env_, h); }
    int per_batch() const { return nb_ <= 512 ? 40 : nb_ <= 1024 ? 10 : 3; }
    void check_once(const std::function<void()>& op) {
        op();
        check(clFinish(env_.queue), "clFinish");
    }
    double error_of(const Buffer<T>& buf, const Host<T>& ref, bool lower_only = false) {
        Host<T> got(elems_);
        buf.read(env_, got);
        return rel_error(got, ref, nb_, lower_only ? 'L' : 'G');
    }
    void report(const char* what, int ib, double flop, const std::function<void()>& op, const Host<T>& ref,
                const Buffer<T>& out, bool lower_only = false) {
        if (!wanted(what)) return;
        check_once(op);
        const double err = error_of(out, ref, lower_only);
        print(what, ib, flop, time_batches(env_, op, reps_, per_batch()), err);
    }
    bool wanted(const std::string& what) const {
        return ops_.empty() || std::find(ops_.begin(), ops_.end(), what) != ops_.end();
    }
    void print(const char* what, int ib, double flop, double seconds, double err) const {
        const double tol = 50.0 * nb_ * std::numeric_limits<T>::epsilon();
        std::printf("SHAPE %c %-10s %5d %4d %9.4f ms %7.2f TFLOP/s error %.2e %s\n", prec_, what, nb_, ib,
                    seconds * 1e3, flop / seconds * 1e-12, err, err <= tol ? "ok" : "FAILED");
        std::fflush(stdout);
    }

    const Env& env_;
    const ocl::DeviceKernels& dk_;
    int nb_, reps_;
    size_t elems_;
    Buffer<T> A_, B_, C_, F_, K_, Q_;
    Host<T> a_, b_, c_, tri_;
    std::vector<std::string> ops_;
    char prec_ = 'd';
};

/// "a,b,c" -> {a, b, c}.
std::vector<std::string> split_commas(const std::string& v) {
    std::vector<std::string> out;
    for (size_t p = 0; p < v.size();) {
        const size_t q = std::min(v.find(',', p), v.size());
        out.push_back(v.substr(p, q - p));
        p = q + 1;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("gpu_task_shapes", [&] {
        std::vector<char> precs = {'d', 's'};
        std::vector<int> nbs = {512, 1024, 2048};
        int reps = 5;
        std::string variant;
        std::vector<std::string> ops;
        for (int i = 1; i < argc; i += 2) {
            const std::string s = argv[i], v = i + 1 < argc ? argv[i + 1] : "";
            if (v.empty())
                throw Error("usage: gpu_task_shapes [--prec d,s] [--nb 512,1024,2048] [--reps 5] [--variant OPTS] "
                            "[--ops OP,OP]");
            if (s == "--prec") precs = parse_prec_list(v, "ds");
            else if (s == "--nb") {
                nbs.clear();
                for (const std::string& x : split_commas(v)) nbs.push_back(parse_int_option("--nb", x, 64));
            } else if (s == "--reps") reps = parse_int_option("--reps", v, 1);
            else if (s == "--variant") variant = v;
            else if (s == "--ops") ops = split_commas(v);
            else throw Error("gpu_task_shapes: unknown option " + s);
        }
        Env env;
        std::printf("device: %s\n", env.describe().c_str());
        for (char p : precs) {
            auto dk = build_kernels(env, p, variant, env.info, {});  // the library's whole program
            for (int nb : nbs) {
                if (p == 'd') ShapeRun<double>(env, *dk, nb, reps, ops).run_all(p);
                else ShapeRun<float>(env, *dk, nb, reps, ops).run_all(p);
            }
        }
        return 0;
    });
}
