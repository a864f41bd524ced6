#!/usr/bin/env python3
"""Projection of distributed dpotrf (lower) time on many nodes, for docs/distributed.md.

Time on R nodes of a P x Q grid (the most square, P <= Q) is projected from two measured inputs:
  - the rate of one node at the tile size used (--rate, TFLOP/s, n^3/3 flops), e.g. one H100 with
    tessera's OpenCL dpotrf end to end (bench/gpu_factorizations.sh);
  - the bytes each rank sends, from the communication model of examples/tester/comm_model.cpp
    (right-looking tile Cholesky with StarPU-MPI's cache: the diagonal tile goes to the other owners
    of its panel, panel tile (m, k) to the other owners of row m and column m of the trailing
    matrix), which tessera-tester --comm measures exactly on loopback (bench/mpi_scaling.sh);
and assumed figures: the network bandwidth a node sends at (--bandwidth, GB/s) and its host memory
(--memory, GB; "fits" says whether the node's tiles do).
Compute: n^3/3 / (R * rate), i.e. the nodes share the flops evenly (2D block-cyclic) and each runs
at the one-node rate. Communication: the busiest rank's bytes / bandwidth. StarPU-MPI overlaps the
two, so the projection is max(compute, communication) (the sum is printed as a bound), plus the
critical path of the panels (nt steps of a diagonal tile and its transfer), which is small here.
  python3 bench/mpi_projection.py [--rate 29.07] [--bandwidth 25] [--nb 4096]
"""
import argparse
import math


def grid(ranks):
    p = max(d for d in range(1, int(math.isqrt(ranks)) + 1) if ranks % d == 0)
    return p, ranks // p


def potrf_bytes_per_rank(n, nb, p, q, elem=8):
    """Bytes each rank sends in tile Cholesky (lower) on a p x q grid (comm_model.cpp's rule)."""
    nt = -(-n // nb)
    owner = lambda i, j: (i % p) * q + (j % q)
    size = lambda i, j: min(nb, n - i * nb) * min(nb, n - j * nb) * elem
    sent = [0] * (p * q)
    for k in range(nt):
        to = {owner(m, k) for m in range(k + 1, min(nt, k + 1 + p))} - {owner(k, k)}
        sent[owner(k, k)] += len(to) * size(k, k)
        for m in range(k + 1, nt):
            dest = {owner(m, j) for j in range(k + 1, min(m, k + q) + 1)}  # row m of the trailing matrix
            dest |= {owner(i, m) for i in range(m + 1, min(nt, m + 1 + p))}  # column m below the diagonal
            dest.discard(owner(m, k))
            sent[owner(m, k)] += len(dest) * size(m, k)
    return sent


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rate", type=float, default=29.07, help="one node's dpotrf rate, TFLOP/s")
    ap.add_argument("--bandwidth", type=float, default=25.0, help="bytes a node sends per second, GB/s")
    ap.add_argument("--nb", type=int, default=4096, help="tile size")
    ap.add_argument("--memory", type=float, default=512.0, help="host memory of a node, GB (the local tiles live there)")
    ap.add_argument("--sizes", default="131072,262144,524288")
    ap.add_argument("--nodes", default="4,8,16,32,64")
    a = ap.parse_args()
    # Self-check against the measured loopback run quoted in docs/distributed.md.
    print(f"model check: n=4000 nb=250 grid 2x2 sends {sum(potrf_bytes_per_rank(4000, 250, 2, 2)) / 1e6:.2f} MB "
          f"(measured with tessera-tester --comm: 120.00 MB)")
    print(f"one node {a.rate} TFLOP/s, {a.bandwidth} GB/s sent per node, nb {a.nb}\n")
    print(f"{'n':>7} {'nodes':>5} {'grid':>5} {'GB/node':>8} {'matrix GB/node':>14} {'total TB':>8} "
          f"{'compute_s':>9} {'comm_s':>7} {'panel_s':>7} {'time_s':>7} {'sum_s':>7} {'TFLOP/s':>8} {'eff':>5}  fits")
    for n in map(int, a.sizes.split(",")):
        flops = n ** 3 / 3
        for r in map(int, a.nodes.split(",")):
            p, q = grid(r)
            sent = potrf_bytes_per_rank(n, a.nb, p, q)
            compute = flops / (r * a.rate * 1e12)
            comm = max(sent) / (a.bandwidth * 1e9)
            nt = -(-n // a.nb)
            # Critical path: per step, the diagonal tile's potrf (at a tenth of the node rate, a
            # single-tile kernel) and two tile transfers (to the panel, then the panel to the update).
            panel = nt * (a.nb ** 3 / 3 / (a.rate * 1e11) + 2 * a.nb * a.nb * 8 / (a.bandwidth * 1e9))
            t = max(compute, comm) + panel
            print(f"{n:7d} {r:5d} {p}x{q:<3d} {max(sent) / 1e9:8.1f} {n * n * 8 / r / 1e9:14.1f} {sum(sent) / 1e12:8.2f} "
                  f"{compute:9.1f} {comm:7.1f} {panel:7.1f} {t:7.1f} {compute + comm + panel:7.1f} "
                  f"{flops / t / 1e12:8.1f} {compute / t:5.2f}  {'yes' if n * n * 8 / r / 1e9 <= a.memory else 'no'}")


if __name__ == "__main__":
    main()
