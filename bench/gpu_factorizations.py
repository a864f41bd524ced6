#!/usr/bin/env python3
"""Tessera's tile factorizations on one GPU next to cuSOLVER/cuBLAS (through torch), in one run.

For each case (op, precision, n, nb) it runs tessera-tester end to end (tiles in host memory before
and after: transfers included) and device-resident (--resident), with --profile, and times the peer
on the same size device-resident and with the host<->device copies (pinned host tensors) included.
Checks on every timed run: ours by tessera-tester --check-random (CHECK=random, the default: the O(n^2)
randomized residuals of examples/common/checks_random.hpp), --check (CHECK=full: the O(n^3) residuals of
docs/architecture.md#numerical-checks) or none (CHECK=none: reported 'unchecked', never 'pass'); the peer
by the same randomized residual computed with torch (||A x - L (L^T x)|| / (n ||A|| ||x|| eps) and the
like). Figures are medians of REPS timed runs after one untimed warm-up run (which also calibrates
StarPU's perfmodels).

Environment: CASES (space-separated op:prec:n:nb, default below), REPS (3, keep it odd), WARMUP (1;
2 on a machine whose perfmodels are not calibrated yet: .gpu-models, see gpu_env.sh), CHECK (random),
TESTER (.gpu-build/tessera-tester), MODES ("e2e resident"), EXTRA (more tester arguments),
OUTDIR ($OUT or /tmp/gpu_factorizations). Flop counts: gemm 2n^3, potrf n^3/3, getrf 2n^3/3,
geqrf 4n^3/3, potri 2n^3/3, trtri n^3/3, four times these in the complex precisions c and z
(torch.complex64/128 for the peer, with random real and imaginary parts; potrf's matrix Hermitian).
The solvers posv, gesv and the mixed-precision posv_mixed, gesv_mixed, posv_mixed_gmres and
gesv_mixed_gmres (one right-hand side; CHECK=full, O(n^2) for a solve: the backward error) have
cuSOLVER's dposv (torch.linalg.cholesky + cholesky_solve) or dgesv (torch.linalg.solve) in the
working precision as their peer, checked by ||A x - b|| / ((||A|| ||x|| + ||b||) n eps). A mixed solver's op may end in
+tf32 (posv_mixed+tf32:d:32768:4096) or +fp16 (Cholesky only): tessera-tester's --factor tf32 / fp16, the
float factorization's GEMMs on tensor cores with TF32 or FP16 operands (tessera/mixed.hpp,
LowFactorization::Tf32, Fp16); its peer stays cuSOLVER's double solver.
potri and trtri are not in the default cases; run them with CHECK=full (the tester has no randomized
check of an inverse). Ours: potri after an untimed potrf, trtri of the tester's well-conditioned
triangular matrix. The peer of both is cuSOLVER's potri from the Cholesky factor L computed untimed
(torch.cholesky_inverse(L)), as issue 46 asks, so trtri's peer figures are n^3/3 over the peer's
time and its ratio is the peer's time over ours.
"""
import os
import statistics
import subprocess
import sys
import time

DEFAULT_CASES = ("gemm:d:8192:2048 gemm:d:16384:4096 potrf:d:16384:2048 potrf:d:32768:4096 "
                 "potrf:s:32768:2048 getrf:d:16384:2048 getrf:d:32768:4096 getrf:s:32768:4096 "
                 "getrf:z:32768:4096 geqrf:d:16384:2048 geqrf:d:32768:2048")
REAL_FLOPS = {"gemm": lambda n: 2.0 * n ** 3, "potrf": lambda n: n ** 3 / 3.0,
              "getrf": lambda n: 2.0 * n ** 3 / 3.0, "geqrf": lambda n: 4.0 * n ** 3 / 3.0,
              "potri": lambda n: 2.0 * n ** 3 / 3.0, "trtri": lambda n: n ** 3 / 3.0,
              "posv": lambda n: n ** 3 / 3.0, "gesv": lambda n: 2.0 * n ** 3 / 3.0}
# The mixed-precision solvers count their double solver's nominal flops (ratios compare times).
for _v in ("posv", "gesv"):
    for _m in ("_mixed", "_mixed_gmres"):
        REAL_FLOPS[_v + _m] = REAL_FLOPS[_v]
SOLVES = ("posv", "gesv", "posv_mixed", "gesv_mixed", "posv_mixed_gmres", "gesv_mixed_gmres")


def flops(op, prec, n):
    """Real flops of the operation: a complex multiply-add counts 4."""
    return REAL_FLOPS[op](n) * (4 if prec in "cz" else 1)

outdir = os.environ.get("OUTDIR") or os.environ.get("OUT") or "/tmp/gpu_factorizations"
os.makedirs(outdir, exist_ok=True)
tester = os.environ.get("TESTER", ".gpu-build/tessera-tester")
reps = int(os.environ.get("REPS", "3"))
check = os.environ.get("CHECK", "random")
modes = os.environ.get("MODES", "e2e resident").split()
extra = os.environ.get("EXTRA", "").split()
cases = [c.split(":") for c in os.environ.get("CASES", DEFAULT_CASES).split()]
log = open(os.path.join(outdir, "profiles.txt"), "a")


def run_ours(op, prec, n, nb, mode):
    """Median TFLOP/s of our runs, the check status and the profile of the median run."""
    op, _, factor = op.partition("+")  # posv_mixed+tf32: tessera-tester posv_mixed --factor tf32
    args = [tester, op, "--prec", prec, "--n", str(n), "--nb", str(nb), "--warmup", os.environ.get("WARMUP", "1"), "--repeat", str(reps),
            "--csv", "--profile"] + extra
    if factor:
        args += ["--factor", factor]
    if mode == "resident":
        args.append("--resident")
    checked = check in ("random", "full")
    if checked:
        args.append("--check-random" if check == "random" else "--check")
    t0 = time.time()
    p = subprocess.run(args, capture_output=True, text=True)
    log.write(f"==== {' '.join(args)}  ({time.time() - t0:.0f} s, rc {p.returncode})\n{p.stdout}{p.stderr}\n")
    log.flush()
    rows = [line.split(",") for line in p.stdout.splitlines()[1:] if line.count(",") >= 9]
    if not rows:
        return None, "FAILED (rc %d)" % p.returncode, ""
    times = [float(r[6]) for r in rows]
    status = "pass" if all(r[9].startswith("pass") for r in rows) and checked else (
        "unchecked" if all(r[9].startswith("pass") for r in rows) else "FAILED")
    profiles = p.stderr.split("profile   ")[1:]
    med = sorted(range(len(times)), key=lambda i: times[i])[len(times) // 2]
    prof = "profile   " + profiles[med] if med < len(profiles) else ""
    return flops(op, prec, n) / statistics.median(times) * 1e-12, status, prof


def profile_summary(prof):
    """GPU busy % from kernel time, the data wait of the GPU worker, and the bytes moved."""
    busy = wait = 0.0
    h2d = d2h = 0.0
    for line in prof.splitlines():
        f = line.split()
        if line.strip().startswith("OpenCL") and len(f) > 6 and "(" in line:
            busy, wait = float(f[-2]), float(f[-1])
        if "transfer" in line and "GB in" in line:
            gb = float(f[f.index("GB") - 1])
            if f[f.index("->") + 1].startswith("OpenCL"):
                h2d += gb
            else:
                d2h += gb
    return busy, wait, h2d, d2h


def peer(op, prec, n, torch):
    """Median TFLOP/s of the peer device-resident and with copies from/to pinned host memory; check."""
    dt = {"s": torch.float32, "d": torch.float64, "c": torch.complex64, "z": torch.complex128}[prec]
    wide = torch.complex128 if prec in "cz" else torch.float64  # the check's precision
    dev = "cuda"
    g = torch.Generator(device=dev).manual_seed(1)
    # Entries with real (and imaginary) parts in [-1, 1).
    rand = lambda: torch.rand(n, n, dtype=dt, device=dev, generator=g) * 2 - (1 + 1j if prec in "cz" else 1)
    a = rand()
    b = None
    solve = op in SOLVES
    rhs_b = rand()[:, :1].contiguous() if solve else None
    if op in ("potrf", "potri", "trtri") or op.startswith("posv"):
        a = (a + a.mH) / 2
        a.diagonal().add_(n)
    spd = None
    if op in ("potri", "trtri"):  # the peer starts from the Cholesky factor, as ours
        spd, a = a, torch.linalg.cholesky(a)
    if op == "gemm":
        b = rand()

    def compute(x):
        if op == "gemm":
            return x @ b
        if op == "potrf":
            return torch.linalg.cholesky(x)
        if op == "getrf":
            return torch.linalg.lu_factor(x)
        if op in ("potri", "trtri"):
            return torch.cholesky_inverse(x)
        if op.startswith("posv"):
            return torch.cholesky_solve(rhs_b, torch.linalg.cholesky(x))
        if op.startswith("gesv"):
            return torch.linalg.solve(x, rhs_b)
        return torch.geqrf(x)

    def timed(fn):
        ts, out = [], None
        for _ in range(reps + 1):
            out = None  # the previous result freed first: a complex n = 32768 one is 16 GiB
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            out = fn()
            torch.cuda.synchronize()
            ts.append(time.perf_counter() - t0)
        return statistics.median(ts[1:]), out

    resident, out = timed(lambda: compute(a))
    # Randomized residual: ||A x - F(x)|| / (n ||A|| ||x|| eps), F applying the factors, infinity norms
    # (examples/common/checks_random.hpp).
    ninf = lambda m: m.abs().sum(1).max()
    x = (torch.rand(n, 4, dtype=torch.float64, device=dev, generator=g) + 0.5).to(wide)
    A = a.to(wide)
    eps = torch.finfo(dt).eps / 2
    if op == "gemm":
        lhs, rhs, scale = out.to(wide) @ x, A @ (b.to(wide) @ x), ninf(A) * ninf(b) * n
    elif solve:  # the backward error of the solution (x unused)
        X, B = out.to(wide), rhs_b.to(wide)
        lhs, rhs, scale = A @ X, B, (ninf(A) * ninf(X) + ninf(B)) * n
        x = torch.ones(1, 1, dtype=wide, device=dev)
        del X, B
    elif op in ("potri", "trtri"):  # X = inv(L L^H): X (S x) = x, S the SPD matrix
        X, S = out.to(wide), spd.to(wide)
        lhs, rhs, scale = X @ (S @ x), x, ninf(S) * ninf(X) * n
        del X, S
    elif op == "potrf":
        L = out.to(wide)
        lhs, rhs, scale = A @ x, L @ (L.mH @ x), ninf(A) * n
    elif op == "getrf":
        # A = P·L·U: row i of L·U is row perm[i] of A, perm the interchanges applied in order
        # (no n×n permutation matrix: a complex n = 32768 one would take 16 GiB).
        lu, piv = out
        perm = list(range(n))
        for i, j in enumerate((piv.cpu() - 1).tolist()):
            perm[i], perm[j] = perm[j], perm[i]
        lu = lu.to(wide)
        y = torch.triu(lu) @ x
        y = torch.tril(lu, -1) @ y + y
        lhs, rhs, scale = (A @ x)[torch.tensor(perm, device=dev)], y, ninf(A) * n
        del lu, piv
    else:  # A^H A x = R^H R x, since A = Q R with Q unitary
        R = torch.triu(out[0]).to(wide)
        out = None  # the factors' memory: a complex n = 32768 matrix is 16 GiB
        absA = A.abs()
        norm = max(absA.sum(1).max(), absA.sum(0).max())  # ||A||_inf, ||A^H||_inf
        del absA
        lhs, rhs, scale = A.mH @ (A @ x), R.mH @ (R @ x), norm ** 2 * n
        del R
    res = (ninf(lhs - rhs) / (scale * ninf(x) * eps)).item()
    del out, lhs, rhs, A, spd
    torch.cuda.empty_cache()
    host = torch.empty(n, n, dtype=dt, pin_memory=True)
    host.copy_(a)
    back = torch.empty(n, 1 if solve else n, dtype=dt, pin_memory=True)

    def with_copies():
        r = compute(host.to(dev, non_blocking=True))
        back.copy_(r if isinstance(r, torch.Tensor) else r[0], non_blocking=True)
        return r

    e2e, _ = timed(with_copies)
    del a, b, host, back
    torch.cuda.empty_cache()
    return flops(op, prec, n) / resident * 1e-12, flops(op, prec, n) / e2e * 1e-12, res


def main():
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    print("device:", torch.cuda.get_device_name(0), "| torch", torch.__version__, flush=True)
    rows = []
    for op, prec, n, nb in cases:
        n, nb = int(n), int(nb)
        pr, pe, pres = peer(op.partition("+")[0], prec, n, torch)
        print(f"{prec}{op} n={n}: peer {pr:.2f} TFLOP/s resident, {pe:.2f} with copies (check {pres:.3g})", flush=True)
        res = {m: run_ours(op, prec, n, nb, m) for m in modes}
        rows.append((op, prec, n, nb, pr, pe, pres, res))
        e2e = res.get("e2e", (None,))[0]
        print(f"{prec}{op} n={n} nb={nb}: " + "; ".join(f"ours {m} {v[0] if v[0] is None else round(v[0], 2)} {v[1]}" for m, v in res.items()),
              flush=True)
        del e2e
    print()
    hdr = (f"{'op':7} {'n':>6} {'nb':>5} {'peer':>7} {'peer+cp':>7} {'ours':>7} {'ratio':>6} "
           f"{'res.':>7} {'ratio':>6} {'gpu%':>5} {'wait_s':>7} {'in_GB':>6} {'out_GB':>6}  check")
    print("TFLOP/s; peer = cuSOLVER/cuBLAS device-resident, peer+cp = with pinned host copies; ours = "
          "end to end (host tiles before and after); res. = ours device-resident; ratio = ours / peer "
          "device-resident; gpu%, wait_s, GB from the profile of the median end-to-end run")
    print(hdr)
    with open(os.path.join(outdir, "table.txt"), "w") as f:
        f.write(hdr + "\n")
        for op, prec, n, nb, pr, pe, pres, res in rows:
            e, r = res.get("e2e", (None, "-", "")), res.get("resident", (None, "-", ""))
            busy, wait, h2d, d2h = profile_summary(e[2])
            fmt = lambda v: f"{v:7.2f}" if v else "      -"
            rat = lambda v: f"{v / pr:6.2f}" if v else "     -"
            line = (f"{prec + op:7} {n:6d} {nb:5d} {pr:7.2f} {pe:7.2f} {fmt(e[0])} {rat(e[0])} {fmt(r[0])} "
                    f"{rat(r[0])} {busy:5.1f} {wait:7.3f} {h2d:6.2f} {d2h:6.2f}  ours {e[1]}/{r[1]}, "
                    f"peer {'pass' if pres <= 60 else 'FAILED'} ({pres:.2g})")
            print(line)
            f.write(line + "\n")


if __name__ == "__main__":
    sys.exit(main())
