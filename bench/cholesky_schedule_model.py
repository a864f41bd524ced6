#!/usr/bin/env python3
"""cholesky_schedule_model.py — how far tile Cholesky can scale over the GPUs of one process.

A discrete-event model of the task graph algorithms/cholesky.cpp submits with an OpenCL device
(potrf, trtri per device, trmm, syrk, gemm; Lower), placed as runtime/device_map.hpp places it
(the device owning the written tile of a p×q grid) and ordered on each device by the same
priorities, with one task at a time per GPU and the copies StarPU 1.3 makes: a tile's first read
comes from host memory; a tile written on one GPU and read on another goes GPU → host → GPU (the
OpenCL driver has no device-to-device copy), each GPU having one link each way, served in order
of request. Task times are the means measured by `tessera-tester potrf --profile` (defaults: dpotrf
n = 65536 nb = 4096 on 4× H100, bench/multi_gpu.sh, 2026-11-27); the copy rate that run's probe.

It answers what-if questions the hardware cannot: which grid, which nb, and what a faster tile
potrf or a device-to-device copy would give (bench/gpu_notes.md, "A model of the 4-GPU limit").
The model has no CPU workers and no start-up or host overheads: it bounds from above.

  python3 bench/cholesky_schedule_model.py                       # 1, 2, 4 GPUs, grids 1×q and 2×2
  python3 bench/cholesky_schedule_model.py --potrf-ms 4.5 --hops 1
Prints TFLOP/s (n³/3 flops) and the speed-up over one GPU for each case.
"""
import argparse
import heapq
import itertools


def simulate(nt, grid, ms, copy_ms, hops=2, order="column", window=0):
    """Makespan (ms) of the nt×nt-tile Cholesky on a p×q grid of GPUs; ms: task times by kind."""
    p, q = grid
    gpus = p * q
    owner = lambda i, j: (i % p) * q + j % q
    tasks, deps, prio, last = {}, {}, {}, {}

    def add(name, gpu, kind, reads, write, priority):
        d = {last[x] for x in reads if x in last}
        if write in last:
            d.add(last[write])
        tasks[name], deps[name], prio[name] = (gpu, ms[kind], reads, write), d, priority
        last[write] = name

    for k in range(nt):  # the loop of potrf_async, Lower, with an OpenCL device
        pr = lambda dist: 3 * (nt - k) - dist
        add(("potrf", k), owner(k, k), "potrf", [], (k, k), pr(0))
        inverse = {}
        for g in sorted({owner(m, k) for m in range(k + 1, nt)}):  # PanelSolve: one per device
            add(("trtri", k, g), g, "trtri", [(k, k)], ("inv", k, g), pr(0))
            inverse[g] = ("inv", k, g)
        for m in range(k + 1, nt):
            add(("trmm", m, k), owner(m, k), "trmm", [inverse[owner(m, k)]], (m, k), pr(m - k))
        for n in range(k + 1, nt):
            add(("syrk", n, k), owner(n, n), "syrk", [(n, k)], (n, n), pr(n - k + 1))
            for m in range(n + 1, nt):
                add(("gemm", m, n, k), owner(m, n), "gemm", [(m, k), (n, k)], (m, n), pr(m - k + 1))

    children, waiting = {}, {t: len(d) for t, d in deps.items()}
    for t, d in deps.items():
        for parent in d:
            children.setdefault(parent, []).append(t)
    # The prefetch plan (tasks::DevicePrefetch): each GPU's own tiles requested at the start, in
    # `order`; a link serves requests for ready tasks first, the plan when it has nothing else.
    tiles = [(m, k) for k in range(nt) for m in range(k, nt)] if order == "column" else \
            [(m, k) for m in range(nt) for k in range(m + 1)]
    plan = [[x for x in tiles if owner(*x) == g] for g in range(gpus)] if order != "none" else [[] for _ in range(gpus)]
    planned = [set(pl) for pl in plan]
    next_in_plan, plan_clock = [0] * gpus, [0.0] * gpus  # the plan's next copy starts at plan_clock
    to_host = [0.0] * gpus
    arrival, on_host, done, version = {}, {}, {}, {}

    def run_plan(g, until):  # the plan's copies that start before `until`
        while next_in_plan[g] < len(plan[g]) and plan_clock[g] <= until:
            x = plan[g][next_in_plan[g]]
            next_in_plan[g] += 1
            if (x, None, g) in arrival:
                continue
            plan_clock[g] += copy_ms
            arrival[(x, None, g)] = plan_clock[g]

    def copy_to(g, ready, now):  # a requested copy to GPU g of data on the host from `ready` on
        run_plan(g, max(now, ready))
        for _ in range(window):  # the plan's copies already queued on the device go first
            run_plan(g, plan_clock[g])
        start = max(plan_clock[g], ready, now)
        plan_clock[g] = start + copy_ms  # the plan waits behind it
        return plan_clock[g]

    def data_at(x, g, now):  # when tile x's current version can be read on GPU g
        producer = version.get(x)
        if producer is not None and tasks[producer][0] == g:
            return done[producer]
        key = (x, producer, g)
        run_plan(g, now)
        if key not in arrival:
            ready = 0.0
            if producer is not None:  # written on another GPU: home first (both copies if hops=2)
                if (x, producer) not in on_host:
                    src = tasks[producer][0]
                    start = max(to_host[src], done[producer])
                    to_host[src] = on_host[(x, producer)] = start + (copy_ms if hops == 2 else 0.0)
                ready = on_host[(x, producer)]
            arrival[key] = copy_to(g, ready, now)
        return arrival[key]

    queues, events, seq = [[] for _ in range(gpus)], [], itertools.count()
    busy, inputs = [False] * gpus, {}

    def release(t, now):  # a ready task's inputs are requested at once (StarPU's push-time fetch)
        g, _, reads, write = tasks[t]
        inputs[t] = max([now] + [data_at(x, g, now) for x in reads + ([write] if write[0] != "inv" else [])])
        heapq.heappush(queues[g], (-prio[t], next(seq), t))

    def dispatch(now):
        for g in range(gpus):
            if not busy[g] and queues[g]:
                _, _, t = heapq.heappop(queues[g])
                busy[g] = True
                heapq.heappush(events, (max(now, inputs[t]) + tasks[t][1], next(seq), t))

    for t in tasks:
        if waiting[t] == 0:
            release(t, 0.0)
    dispatch(0.0)
    now = 0.0
    while events:
        now, _, t = heapq.heappop(events)
        done[t] = now
        busy[tasks[t][0]] = False
        version[tasks[t][3]] = t
        for c in children.get(t, []):
            waiting[c] -= 1
            if waiting[c] == 0:
                release(c, now)
        dispatch(now)
    return now


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=65536)
    ap.add_argument("--nb", type=int, default=4096)
    ap.add_argument("--grids", default="1x1,1x2,1x4,2x2", help="p×q grids of GPUs, comma separated")
    ap.add_argument("--gemm-ms", type=float, default=2.722)
    ap.add_argument("--trmm-ms", type=float, default=1.952)
    ap.add_argument("--syrk-ms", type=float, default=1.611)
    ap.add_argument("--potrf-ms", type=float, default=10.472)
    ap.add_argument("--trtri-ms", type=float, default=2.684)
    ap.add_argument("--gbps", type=float, default=54.8, help="host↔GPU copy rate, GB/s")
    ap.add_argument("--hops", type=int, choices=(1, 2), default=2,
                    help="copies per GPU-to-GPU move: 2 through host memory (StarPU 1.3 OpenCL), 1 direct")
    ap.add_argument("--prefetch", choices=("column", "row", "none"), default="column",
                    help="order of the prefetch plan: column by column (today), row by row, or none")
    ap.add_argument("--window", type=int, default=1,
                    help="plan copies queued on a device that a requested copy waits behind: 1 for idle prefetches (TESSERA_IDLE_PREFETCH=1), 10 for StarPU's prefetches (=0)")
    a = ap.parse_args()
    ms = {"gemm": a.gemm_ms, "trmm": a.trmm_ms, "syrk": a.syrk_ms, "potrf": a.potrf_ms, "trtri": a.trtri_ms}
    nt = -(-a.n // a.nb)
    copy_ms = a.nb * a.nb * 8 / (a.gbps * 1e6)
    one = None
    print(f"dpotrf n={a.n} nb={a.nb} ({nt}×{nt} tiles), copy {copy_ms:.2f} ms per tile, {a.hops} hop(s) between GPUs, prefetch {a.prefetch}")
    for spec in a.grids.split(","):
        p, q = map(int, spec.lower().split("x"))
        t = simulate(nt, (p, q), ms, copy_ms, a.hops, a.prefetch, a.window)
        one = one or (t if p * q == 1 else None)
        ratio = f"{one / t:.2f}x" if one else "-"
        print(f"  {p * q} GPU(s), grid {p}x{q}: {t:8.1f} ms {a.n ** 3 / 3 / t * 1e-9:8.2f} TFLOP/s  {ratio}")


if __name__ == "__main__":
    main()
