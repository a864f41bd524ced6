#!/usr/bin/env python3
"""Vendor side of the OpenCL-vs-CUDA benchmark: torch copy (Tensor.copy_) and cuBLAS DGEMM
(torch.matmul on float64, TF32 off) on the same matrices as ocl_bench.cpp and cuda_bench.cu.

Writes one JSON line per kernel and size in bench_common.hpp's Record format (impl "torch" for the
copy, "cublas" for the GEMM). Times are CUDA events around each call, one warm-up, best and median
of reps, in seconds; rates in GB/s (bytes read + written) and TFLOP/s (2n^3).

Layout: a column-major n x n matrix X is held as the row-major tensor T with T[j, i] = X(i, j), so
C = A·B is computed as T_C = T_B @ T_A.

Exit status: 0 all ran and checked, 1 a failed check, 2 no CUDA device / bad arguments.
"""
import argparse
import json
import sys
import time

SEED_A, SEED_B, SEED_COPY = 0x9E3779B9, 0x85EBCA6B, 0x01234567


def gen(ii, jj, seed):
    """bench_common.hpp's gen_value on int64 tensors of indices (broadcast), as float64."""
    h = ((ii * 2654435761) & 0xFFFFFFFF) ^ ((jj * 2246822519) & 0xFFFFFFFF) ^ seed
    h = h ^ (h >> 15)
    return (((h >> 7) & 15) - 7).double() * 0.125


def gen_matrix(torch, n, seed, device):
    """T with T[j, i] = X(i, j) for the column-major matrix X of `seed`."""
    idx = torch.arange(n, device=device, dtype=torch.int64)
    return gen(idx[None, :], idx[:, None], seed)


def sample_positions(n):
    """Same list as bench_common.hpp: 64 pseudo-random (i, j) plus the four corners."""
    pos = [((s * 7919 + 13) % n, (s * 104729 + 71) % n) for s in range(64)]
    return pos + [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)]


def time_op(torch, fn, reps, cuda):
    """Seconds per call of fn: one warm-up, then reps calls each between two CUDA events (wall
    clock when not on CUDA, a test mode). Returns (best, median)."""
    fn()
    if cuda:
        torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        if cuda:
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop) * 1e-3)
        else:
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    times.sort()
    return times[0], times[len(times) // 2]


def summarize(torch, T, n, rec):
    """Checksums from column sums of X (rows of T) and the sampled entries X(i, j) = T[j, i]."""
    colsum = T.sum(dim=1)
    weights = (torch.arange(n, device=T.device) % 13 + 1).double()
    rec["sum"] = colsum.sum().item()
    rec["wsum"] = (weights * colsum).sum().item()
    pos = sample_positions(n)
    jj = torch.tensor([j for _, j in pos], device=T.device)
    ii = torch.tensor([i for i, _ in pos], device=T.device)
    rec["samples"] = T[jj, ii].tolist()


def gemm_sample_error(torch, n, samples):
    """bench_common.hpp's gemm_sample_error: componentwise scaled error against a CPU reference."""
    eps = 2.0 ** -53
    ll = torch.arange(n, dtype=torch.int64)
    worst = 0.0
    for (i, j), v in zip(sample_positions(n), samples):
        p = gen(torch.tensor(i), ll, SEED_A) * gen(ll, torch.tensor(j), SEED_B)
        ref, mag = p.sum().item(), p.abs().sum().item()
        worst = max(worst, abs(v - ref) / (max(mag, 1e-300) * n * eps))
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--copy-sizes", default="8192,16384")
    ap.add_argument("--gemm-sizes", default="4096,8192")
    ap.add_argument("--reps-copy", type=int, default=20)
    ap.add_argument("--reps-gemm", type=int, default=5)
    ap.add_argument("--output", default="")
    ap.add_argument("--device", default="cuda", help="cuda (default), or cpu to test this script without a GPU")
    args = ap.parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_bench: cannot import torch: {e}", file=sys.stderr)
        return 2
    cuda = args.device == "cuda"
    if cuda and not torch.cuda.is_available():
        print("torch_bench: torch sees no CUDA device", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device(args.device)
    name = torch.cuda.get_device_name(dev) if cuda else args.device
    out = open(args.output, "a") if args.output else sys.stdout
    ok = True

    def emit(rec):
        nonlocal ok
        out.write(json.dumps(rec) + "\n")
        out.flush()
        unit = "GB/s" if rec["kernel"] == "copy" else "TFLOP/s"
        print(f"{rec['impl']:6s} {rec['kernel']:4s} n={rec['n']:<6d} best {rec['best_s'] * 1e3:9.3f} ms  "
              f"{rec['rate']:9.4g} {unit:7s} check {'ok' if rec['check_ok'] else 'FAILED'} ({rec['check_detail']})",
              file=sys.stderr)
        ok = ok and rec["check_ok"]

    for n in [int(s) for s in args.copy_sizes.split(",") if s]:
        A = gen_matrix(torch, n, SEED_COPY, dev)
        B = torch.zeros_like(A)
        best, median = time_op(torch, lambda: B.copy_(A), args.reps_copy, cuda)
        bad = int((B != A).sum().item())
        rec = dict(impl="torch", device=name, kernel="copy", n=n, reps=args.reps_copy, tile=[0] * 5,
                   best_s=best, median_s=median, rate=2.0 * n * n * 8 / best * 1e-9, check_ok=bad == 0,
                   check_detail=f"{bad} entries differ from the source (all compared)")
        summarize(torch, B, n, rec)
        del A, B
        emit(rec)
        if cuda:
            torch.cuda.empty_cache()

    for n in [int(s) for s in args.gemm_sizes.split(",") if s]:
        TA, TB = gen_matrix(torch, n, SEED_A, dev), gen_matrix(torch, n, SEED_B, dev)
        TC = torch.empty_like(TA)
        best, median = time_op(torch, lambda: torch.matmul(TB, TA, out=TC), args.reps_gemm, cuda)
        rec = dict(impl="cublas", device=name, kernel="gemm", n=n, reps=args.reps_gemm, tile=[0] * 5,
                   best_s=best, median_s=median, rate=2.0 * n ** 3 / best * 1e-12)
        summarize(torch, TC, n, rec)
        err = gemm_sample_error(torch, n, rec["samples"])
        rec["check_ok"] = err <= 60
        rec["check_detail"] = f"max scaled error {err:.3g} on {len(rec['samples'])} sampled entries vs CPU"
        del TA, TB, TC
        emit(rec)
        if cuda:
            torch.cuda.empty_cache()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
