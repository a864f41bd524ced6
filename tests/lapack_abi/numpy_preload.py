#!/usr/bin/python3
"""Debian's numpy under LD_PRELOAD=libtessera_lapack.so (argv[1]): cholesky (xPOTRF), solve and inv
(xGESV), eigh (xSYEVD / xHEEVD), qr reduced and complete of an 800×600 matrix (xGEQRF + xORGQR /
xUNGQR) in float64 and complex128 at n = 600 with TESSERA_LAPACK_MIN_N=256
(and solve from four threads at once),
compared with plain numpy run in a subprocess without LD_PRELOAD, within LAPACK's residual bounds
(never exact equality); a singular matrix and a non-SPD one still raise LinAlgError. The verbose
lines (TESSERA_LAPACK_VERBOSE=1) must show that each call ran on Tessera. Exit 77 (ctest: skipped)
when numpy is missing."""
import os
import pickle
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed for", sys.executable, "(Debian: apt-get install python3-numpy)")
    sys.exit(77)

N = 600


def matrices(dtype):
    rng = np.random.default_rng(2026)
    def rand(*shape):
        x = rng.standard_normal(shape)
        return x + 1j * rng.standard_normal(shape) if dtype == np.complex128 else x
    a = rand(N, N)
    spd = a @ a.conj().T + N * np.eye(N)
    return a, spd, rand(N, 3), rand(N + 200, N)


def compute(dtype):
    """Every result, in this process (under LD_PRELOAD or not)."""
    a, spd, b, tall = matrices(dtype)
    out = {"cholesky": np.linalg.cholesky(spd), "solve": np.linalg.solve(a, b), "inv": np.linalg.inv(a)}
    out["eigh_w"], out["eigh_v"] = np.linalg.eigh(spd)
    out["eigvalsh"] = np.linalg.eigvalsh(spd)
    out["qr_q"], out["qr_r"] = np.linalg.qr(tall)  # reduced: xGEQRF, then xORGQR (800×600, k = 600)
    out["qrc_q"], out["qrc_r"] = np.linalg.qr(tall, mode="complete")  # xORGQR 800×800, k = 600
    # four threads at once (numpy releases the GIL in its LAPACK calls): they take turns on Tessera
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(4) as pool:
        out["threads"] = list(pool.map(lambda k: np.linalg.solve(a + k * np.eye(N), b), range(4)))
    singular = a.copy()
    singular[:, N // 2] = 0
    bad = spd.copy()
    bad[N - 5, N - 5] = -1
    for name, f in (("singular_solve", lambda: np.linalg.solve(singular, b)),
                    ("singular_inv", lambda: np.linalg.inv(singular)),
                    ("nonspd_cholesky", lambda: np.linalg.cholesky(bad))):
        try:
            f()
            out[name] = "no error"
        except np.linalg.LinAlgError as e:
            out[name] = "LinAlgError: " + str(e)
    return out


def check(dtype, ours, plain):
    a, spd, b, tall = matrices(dtype)
    eps = np.finfo(np.float64).eps
    nrm = lambda x: np.linalg.norm(x, 1)
    ratios = {  # LAPACK's test ratios (xPOT01, xGET02, xGET03, xSYT21/xHET21), threshold 30
        "cholesky": nrm(ours["cholesky"] @ ours["cholesky"].conj().T - spd) / (N * nrm(spd) * eps),
        "solve": nrm(b - a @ ours["solve"]) / (nrm(a) * nrm(ours["solve"]) * N * eps),
        "inv": nrm(np.eye(N) - ours["inv"] @ a) / (nrm(a) * nrm(ours["inv"]) * N * eps),
        "eigh": nrm(spd @ ours["eigh_v"] - ours["eigh_v"] * ours["eigh_w"]) / (N * nrm(spd) * eps),
        "eigh_orth": nrm(np.eye(N) - ours["eigh_v"].conj().T @ ours["eigh_v"]) / (N * eps),
    }
    for mode in ("qr", "qrc"):  # LAPACK's xQRT01 ratios: ‖A − QR‖/(n‖A‖eps), ‖I − QᴴQ‖/(m eps)
        q, r = ours[mode + "_q"], ours[mode + "_r"]
        ratios[mode] = nrm(tall - q @ r) / (N * nrm(tall) * eps)
        ratios[mode + "_orth"] = nrm(np.eye(q.shape[1]) - q.conj().T @ q) / (tall.shape[0] * eps)
    # agreement with plain numpy within the perturbation bounds: κ·eps for solve and inv, the
    # eigenvalues within n·‖A‖·eps (Weyl), the Cholesky factor (unique) within κ(A)·eps
    kappa = np.linalg.cond(a, 1)
    kappa_spd = np.linalg.cond(spd, 1)
    kappa_tall = np.linalg.cond(tall)  # 2-norm (SVD): tall is not square
    rel = lambda x, y: nrm(x - y) / nrm(y)
    agree = {
        "cholesky": rel(ours["cholesky"], plain["cholesky"]) / (N * kappa_spd * eps),
        "solve": rel(ours["solve"], plain["solve"]) / (N * kappa * eps),
        "inv": rel(ours["inv"], plain["inv"]) / (N * kappa * eps),
        "eigh_w": np.abs(ours["eigh_w"] - plain["eigh_w"]).max() / (N * nrm(spd) * eps),
        "eigvalsh": np.abs(ours["eigvalsh"] - plain["eigh_w"]).max() / (N * nrm(spd) * eps),
        # the same reflectors (xLARFG's signs): R within κ(A)·eps of plain numpy's, Q's first N columns too
        "qr_r": rel(ours["qr_r"], plain["qr_r"]) / (N * kappa_tall * eps),
        "qrc_q": rel(ours["qrc_q"][:, :N], plain["qrc_q"][:, :N]) / (N * kappa_tall * eps),
    }
    for k in range(4):
        ak = a + k * np.eye(N)
        ratios[f"threads_solve{k}"] = nrm(b - ak @ ours["threads"][k]) / (nrm(ak) * nrm(ours["threads"][k]) * N * eps)
    failed = []
    for k, r in list(ratios.items()) + [("agree_" + k, r) for k, r in agree.items()]:
        ok = np.isfinite(r) and r < 30
        print(f"  {np.dtype(dtype).name:10} {k:18} {r:10.3g}  {'ok' if ok else 'FAIL'}")
        if not ok:
            failed.append(k)
    for k in ("singular_solve", "singular_inv", "nonspd_cholesky"):
        ok = ours[k].startswith("LinAlgError") and plain[k].startswith("LinAlgError")
        print(f"  {np.dtype(dtype).name:10} {k:18} {ours[k]!r} (plain numpy: {plain[k]!r})  {'ok' if ok else 'FAIL'}")
        if not ok:
            failed.append(k)
    return failed


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--compute":  # child: write every result to argv[2]
        with open(sys.argv[2], "wb") as f:
            pickle.dump({t.__name__: compute(t) for t in (np.float64, np.complex128)}, f)
        return 0
    lib = os.path.abspath(sys.argv[1])
    env = dict(os.environ, TESSERA_LAPACK_MIN_N=os.environ.get("TESSERA_LAPACK_MIN_N", "256"),
               TESSERA_LAPACK_VERBOSE="1")
    env.pop("LD_PRELOAD", None)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        env.setdefault("STARPU_HOME", tmp)
        for mode in ("plain", "preload"):
            e = dict(env, LD_PRELOAD=lib) if mode == "preload" else env
            path = os.path.join(tmp, mode + ".pickle")
            p = subprocess.run([sys.executable, __file__, "--compute", path], env=e, capture_output=True, text=True,
                               timeout=280)
            sys.stderr.write(p.stderr)
            if p.returncode != 0:
                print(f"FAIL: the {mode} run exited with {p.returncode}")
                return 1
            with open(path, "rb") as f:
                results[mode] = (pickle.load(f), p.stderr)
    failed = []
    # The interposition worked: every LAPACK routine numpy calls for these ran on Tessera.
    log = results["preload"][1]
    for routine in ("dpotrf", "dgesv", "dsyevd", "zpotrf", "zgesv", "zheevd", "dgeqrf", "dorgqr", "zgeqrf", "zungqr"):
        line = f"tessera_lapack: {routine} n={N} tessera"
        ok = line in log
        print(f"  verbose shows '{line}': {'ok' if ok else 'FAIL'}")
        if not ok:
            failed.append(routine + " not on Tessera")
    if "tessera_lapack:" in results["plain"][1]:
        failed.append("the plain run was intercepted")
    for t in ("float64", "complex128"):
        failed += check(np.dtype(t).type, results["preload"][0][t], results["plain"][0][t])
    print("FAILED: " + ", ".join(failed) if failed else "all passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
