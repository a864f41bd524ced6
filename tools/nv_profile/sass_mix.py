#!/usr/bin/env python3
"""Instruction mix and warp stall reasons of a kernel from Nsight Compute's source page:
    ncu --import X.ncu-rep --page source --csv --print-source sass > X.csv
    python3 tools/nv_profile/sass_mix.py X.csv [TOP]
Prints each SASS opcode's share of the executed instructions (and of the stall samples), then the
stall reasons' shares (tools/nv_profile/profile.sh)."""
import collections
import csv
import sys


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    head = next(i for i, r in enumerate(rows) if "Instructions Executed" in r)
    hdr, data = rows[head], rows[head + 1:]
    executed, source = hdr.index("Instructions Executed"), hdr.index("Source")
    samples = hdr.index("Warp Stall Sampling (All Samples)")
    stalls = [i for i, h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
    by_op, by_op_samples, by_stall = collections.Counter(), collections.Counter(), collections.Counter()
    for r in data:
        words = r[source].split()
        if not words:
            continue
        op = (words[1] if words[0].startswith("@") and len(words) > 1 else words[0]).split(".")[0]
        by_op[op] += int(r[executed] or 0)
        by_op_samples[op] += int(r[samples] or 0)
        for i in stalls:
            by_stall[hdr[i][len("stall_"):]] += int(r[i] or 0)
    total, total_samples = sum(by_op.values()), max(1, sum(by_op_samples.values()))
    print(f"{rows[0][1] if len(rows[0]) > 1 else ''}: {total} warp instructions executed")
    for op, c in by_op.most_common(top):
        print(f"  {op:12s} {c:>13d} {100 * c / total:5.1f} %   stall samples {100 * by_op_samples[op] / total_samples:5.1f} %")
    all_stalls = max(1, sum(by_stall.values()))
    print("  stalls: " + ", ".join(f"{k} {100 * v / all_stalls:.1f} %" for k, v in by_stall.most_common(10)))


if __name__ == "__main__":
    main()
