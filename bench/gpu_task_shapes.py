#!/usr/bin/env python3
"""cuBLAS at the task graphs' tile shapes, and the table of ours against it (bench/gpu_gemm.sh).

  gpu_task_shapes.py cublas NB,... REPS PRECS   time cuBLAS (the library torch loaded, called through
                                                ctypes with our column-major shapes), print CUSHAPE lines
  gpu_task_shapes.py table OURS.txt CUBLAS.txt  join gpu_task_shapes' SHAPE lines with them

The operations and flop counts are gpu_task_shapes.cpp's: gemm_nn, gemm_nt (2nb^3), trsm_rltn,
trmm_rltn, trsm_llnu, syrk_ln (nb^3). cuBLAS has no gemqrt/tpmqrt: those rows (and gemqrt_q, geqrf's
gemqrt update as a copy and one GEMM with the tile's Q formed) are compared with our own gemm_nn at
the same nb (the issue's goal: >= 0.8 of it); the others with cuBLAS (goal >= 0.85). larft (ib 64)
and form_q, once per panel tile before the updates, are shown against our gemm_nn too.
cuBLAS is timed as ours is (median of REPS batches of back-to-back calls between CUDA events) and
checked against float64 on the GPU: max |result - reference| / max |reference| <= 50 nb eps.
"""
import ctypes
import sys


def find_cublas():
    for line in open("/proc/self/maps"):
        path = line.split()[-1]
        if "libcublas.so" in path and "Lt" not in path:
            return ctypes.CDLL(path)
    raise RuntimeError("libcublas is not loaded by torch")


def cublas_shapes(nbs, reps, precs):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.ones(8, 8, device="cuda")
    torch.matmul(a, a)  # loads cuBLAS
    lib = find_cublas()
    handle = ctypes.c_void_p()
    if lib.cublasCreate_v2(ctypes.byref(handle)) != 0:
        raise RuntimeError("cublasCreate failed")
    print("torch", torch.__version__, torch.cuda.get_device_name(0))
    LEFT, RIGHT, LOWER, N, T, NONUNIT, UNIT = 0, 1, 0, 0, 1, 0, 1
    g = torch.Generator(device="cuda").manual_seed(0)
    for p, dt, ct in (("d", torch.float64, ctypes.c_double), ("s", torch.float32, ctypes.c_float)):
        if p not in precs:
            continue
        fn = {op: getattr(lib, f"cublas{p.upper()}{op}_v2") for op in ("gemm", "trsm", "trmm", "syrk")}
        one, minus = ctypes.byref(ct(1)), ctypes.byref(ct(-1))
        for nb in nbs:
            def rand():  # column-major nb x nb: a torch tensor whose transpose is the matrix
                return (torch.rand(nb, nb, dtype=dt, device="cuda", generator=g) * 2 - 1)
            A, B, C = rand(), rand(), rand()
            L = torch.tril(A) / nb  # well-conditioned lower triangle: diagonal 1 + |x|, the rest x / nb
            L.diagonal().copy_(1 + A.diagonal().abs())
            Lt = L.t().contiguous()  # column-major storage of L
            ptr = lambda t: ctypes.c_void_p(t.data_ptr())
            # Column-major X is stored as torch's X.t(); each op returns (call, output, reference in float64).
            Ad, Bd, Cd, Ld = (x.t().double() for x in (A, B, C, Lt))  # the column-major matrices
            cases = {
                "gemm_nn": (2, lambda o: fn["gemm"](handle, N, N, nb, nb, nb, one, ptr(A), nb, ptr(B), nb, one, ptr(o), nb),
                            C, Cd + Ad @ Bd, False),
                "gemm_nt": (2, lambda o: fn["gemm"](handle, N, T, nb, nb, nb, minus, ptr(A), nb, ptr(B), nb, one, ptr(o), nb),
                            C, Cd - Ad @ Bd.t(), False),
                "trsm_rltn": (1, lambda o: fn["trsm"](handle, RIGHT, LOWER, T, NONUNIT, nb, nb, one, ptr(Lt), nb, ptr(o), nb),
                              B, torch.linalg.solve_triangular(Ld.t(), Bd, upper=True, left=False), False),
                "trmm_rltn": (1, lambda o: fn["trmm"](handle, RIGHT, LOWER, T, NONUNIT, nb, nb, one, ptr(Lt), nb, ptr(o), nb,
                                                      ptr(o), nb),
                              B, Bd @ Ld.t(), False),
                "trsm_llnu": (1, lambda o: fn["trsm"](handle, LEFT, LOWER, N, UNIT, nb, nb, one, ptr(Lt), nb, ptr(o), nb),
                              B, torch.linalg.solve_triangular(Ld, Bd, upper=False, unitriangular=True), False),
                "syrk_ln": (1, lambda o: fn["syrk"](handle, LOWER, N, nb, nb, minus, ptr(A), nb, one, ptr(o), nb),
                            C, Cd - Ad @ Ad.t(), True),
            }
            per = 40 if nb <= 512 else 10 if nb <= 1024 else 3
            eps = torch.finfo(dt).eps
            for op, (scale, call, init, ref, lower) in cases.items():
                out = init.clone()
                if call(out) != 0:
                    print(f"CUSHAPE {p} {op} {nb} call failed")
                    continue
                torch.cuda.synchronize()
                got = out.t().double()
                if lower:
                    got, ref = torch.tril(got), torch.tril(ref)
                err = ((got - ref).abs().max() / ref.abs().max()).item()
                ts = []
                for r in range(reps + 1):  # the first batch warms up
                    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    s.record()
                    for _ in range(per):
                        call(out)
                    e.record()
                    e.synchronize()
                    if r:
                        ts.append(s.elapsed_time(e) / 1e3 / per)
                t = sorted(ts)[len(ts) // 2]
                ok = "ok" if err <= 50 * nb * eps else "FAILED"
                print(f"CUSHAPE {p} {op} {nb} {t * 1e3:.4f} ms {scale * nb ** 3 / t * 1e-12:.2f} TFLOP/s error {err:.2e} {ok}")
                sys.stdout.flush()
    lib.cublasDestroy_v2(handle)


def read_rates(path, tag, nkey, bad):
    """{key: TFLOP/s} of the checked `tag` lines of path; key = (prec, op, nb[, ib]) (nkey fields
    after the tag); the rate is the field before "TFLOP/s". Lines that failed their check go to bad."""
    rates = {}
    for line in open(path):
        f = line.split()
        if f[:1] == [tag] and "TFLOP/s" in f:
            if f[-1] != "ok":
                bad.append(line.strip())
                continue
            key = tuple(int(x) if x.isdigit() else x for x in f[1:1 + nkey])
            rates[key] = float(f[f.index("TFLOP/s") - 1])
    return rates


def table(ours_path, cublas_path):
    bad = []
    ours = read_rates(ours_path, "SHAPE", 4, bad)
    cub = read_rates(cublas_path, "CUSHAPE", 3, bad)
    print(f"\n{'':3} {'operation':<10} {'nb':>5} {'ib':>4} {'ours':>8} {'peer':>8} {'ratio':>6}  {'peer is':<12} goal")
    updates, once_per_panel = ["gemqrt_lt", "gemqrt_q", "tpmqrt_lt"], ["larft_ge", "larft_tp", "form_q"]
    order = ["gemm_nn", "gemm_nt", "trsm_rltn", "trmm_rltn", "trsm_llnu", "syrk_ln"] + updates + once_per_panel
    rank = lambda key: (key[0], key[2], order.index(key[1]) if key[1] in order else len(order), key[3])
    for (p, op, nb, ib), v in sorted(ours.items(), key=lambda kv: rank(kv[0])):
        if op in updates or op in once_per_panel:  # once per panel tile: no goal
            peer, what = ours.get((p, "gemm_nn", nb, 0), float("nan")), "our gemm_nn"
            goal = 0.8 if op in updates else "-"
        else:
            peer, what, goal = cub.get((p, op, nb), float("nan")), "cuBLAS", 0.85
        ratio = v / peer
        mark = "" if ratio != ratio or goal == "-" else ("met" if ratio >= goal else "below")
        print(f"{p:3} {op:<10} {nb:5d} {ib if ib else '':>4} {v:8.2f} {peer:8.2f} {ratio:6.2f}  {what:<12} {goal} {mark}")
    print("TFLOP/s on device-resident tiles (m = n = k = nb), medians of batches; every entry checked.")
    for b in bad:
        print("NOT OK:", b)


if __name__ == "__main__":
    if sys.argv[1] == "cublas":
        cublas_shapes([int(x) for x in sys.argv[2].split(",")], int(sys.argv[3]), sys.argv[4].split(","))
    elif sys.argv[1] == "table":
        table(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
