#!/usr/bin/env python3
"""Merge the JSON lines of ocl_bench.cpp, cuda_bench.cu and torch_bench.py into ONE table.

usage: report.py [--allow-missing] RESULTS.jsonl [...]

Per (kernel, n): time (ms, best of reps) and rate (copy: GB/s counting bytes read + written;
gemm: TFLOP/s = 2n^3 / time) of OpenCL, CUDA and the vendor path (torch copy / cuBLAS DGEMM),
and the speed ratios OpenCL/CUDA and OpenCL/vendor (> 1: OpenCL faster).

Checks: each implementation's own check (copy: every entry compared with the source on the device;
gemm: 68 sampled entries against a CPU reference, componentwise scaled error <= 60), and agreement of
all implementations with each other: column-sum checksums and the sampled entries must be equal
(the inputs are chosen so that every result is exact, so any difference is a bug). The OpenCL and
CUDA GEMM must have been built with the same tile parameters.

Exit status: 0 every row complete and every check passed; 1 otherwise (a missing implementation
counts as a failure unless --allow-missing).
"""
import json
import sys

IMPLS = ("opencl", "cuda", "vendor")
VENDOR = {"copy": "torch", "gemm": "cublas"}
UNIT = {"copy": "GB/s", "gemm": "TFLOP/s"}


def load(paths):
    recs, problems = [], []
    for path in paths:
        try:
            with open(path) as f:
                for line_no, line in enumerate(f, 1):
                    if line.strip():
                        try:
                            recs.append(json.loads(line))
                        except ValueError as e:
                            problems.append(f"{path}:{line_no}: not JSON ({e})")
        except OSError as e:
            problems.append(f"{path}: {e.strerror}")
    return recs, problems


def same(a, b):
    """Equal up to 1e-12 relative (the results are exact; this only forgives printing)."""
    if a is None or b is None:
        return False
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1.0)


def cross_check(row):
    """Problems found comparing the implementations of one (kernel, n) row."""
    problems = []
    present = {k: r for k, r in row.items() if r is not None}
    for impl, r in present.items():
        if not r.get("check_ok"):
            problems.append(f"{impl} check failed: {r.get('check_detail')}")
    if "opencl" in present and "cuda" in present and present["opencl"]["kernel"] == "gemm":
        if present["opencl"]["tile"] != present["cuda"]["tile"]:
            problems.append(f"tile differs: opencl {present['opencl']['tile']} vs cuda {present['cuda']['tile']}")
    names = list(present)
    for other in names[1:]:
        a, b = present[names[0]], present[other]
        if not (same(a.get("sum"), b.get("sum")) and same(a.get("wsum"), b.get("wsum"))):
            problems.append(f"checksums differ: {names[0]} {a.get('sum')}/{a.get('wsum')} vs "
                            f"{other} {b.get('sum')}/{b.get('wsum')}")
        sa, sb = a.get("samples") or [], b.get("samples") or []
        bad = sum(1 for x, y in zip(sa, sb) if not same(x, y)) + abs(len(sa) - len(sb))
        if bad:
            problems.append(f"{bad} sampled entries differ between {names[0]} and {other}")
    return problems


def fmt(r, what):
    if r is None:
        return "-"
    if what == "ms":
        return f"{r['best_s'] * 1e3:.3f}"
    v = r["rate"]
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def ratio(a, b):
    return f"{a['rate'] / b['rate']:.2f}" if a and b and b["rate"] > 0 else "-"


def build(recs, allow_missing):
    rows = {}
    for r in recs:
        impl = "vendor" if r["impl"] in ("torch", "cublas") else r["impl"]
        rows.setdefault((r["kernel"], r["n"]), {k: None for k in IMPLS})[impl] = r
    header = ["kernel", "n", "OpenCL ms", "OpenCL rate", "CUDA ms", "CUDA rate", "vendor", "vendor ms",
              "vendor rate", "OCL/CUDA", "OCL/vendor", "check"]
    table, notes, ok = [header], [], True
    for (kernel, n) in sorted(rows, key=lambda k: (k[0] != "copy", k[1])):
        row = rows[(kernel, n)]
        problems = cross_check(row)
        missing = [k for k in IMPLS if row[k] is None]
        if missing and not allow_missing:
            problems.append("missing: " + ", ".join(missing))
        ok = ok and not problems
        check = "ok" if not problems else f"FAIL ({len(notes) + 1})"
        if problems:
            notes.append(f"({len(notes) + 1}) {kernel} n={n}: " + "; ".join(problems))
        o, c, v = row["opencl"], row["cuda"], row["vendor"]
        table.append([kernel, str(n), fmt(o, "ms"), fmt(o, "rate"), fmt(c, "ms"), fmt(c, "rate"),
                      VENDOR[kernel], fmt(v, "ms"), fmt(v, "rate"), ratio(o, c), ratio(o, v), check])
    return table, notes, ok, rows


def render(table):
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = []
    for k, r in enumerate(table):
        lines.append("| " + " | ".join(c.rjust(w) if i > 0 else c.ljust(w) for i, (c, w) in
                                        enumerate(zip(r, widths))) + " |")
        if k == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv):
    allow_missing = "--allow-missing" in argv
    paths = [a for a in argv if a != "--allow-missing"]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    recs, problems = load(paths)
    table, notes, ok, rows = build(recs, allow_missing)
    devices = sorted({f"{r['impl']}: {r['device']}" for r in recs})
    tiles = sorted({tuple(r["tile"]) for r in recs if r["kernel"] == "gemm" and r["impl"] in ("opencl", "cuda")})
    print("OpenCL vs CUDA on the same GPU (double precision, column-major n x n, data on the device)")
    print("devices: " + ("; ".join(devices) if devices else "none"))
    if tiles:
        print("gemm tile (MB, NB, KB, TM, TN): " + ", ".join(str(list(t)) for t in tiles))
    print("rate: copy GB/s (bytes read + written), gemm TFLOP/s (2n^3); time: best of reps, ms; "
          "ratios: OpenCL speed / other speed")
    print(render(table))
    for line in problems + notes:
        print(line)
    if not rows:
        print("no results")
        ok = False
    print("all checks passed" if ok and not problems else "SOME CHECKS FAILED OR RESULTS ARE MISSING")
    return 0 if ok and not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
