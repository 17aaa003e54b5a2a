#!/usr/bin/env python3
"""Summary of scripts/bench's explicit part: for each model, the 2-rank speed-up of every timed item (median ns per
DOF at 1 rank over that at 2 ranks) against the triad's own 2-rank speed-up, measured in the same processes; then
the same for the triad, the element loop and the first preset's step measured in the 2-rank process alone
(flexure-bench -bench_scaling: 1 rank and 2 interleaved, repetition by repetition: the figure to quote).
Usage: bench_summary.py DIR (files MODEL.1 and MODEL.2: the output of flexure-bench at 1 and 2 ranks)."""
import glob
import os
import re
import sys


def medians(path):
    """The triad's bandwidth and every item's median ns per DOF in one flexure-bench output."""
    vals = {}
    for line in open(path):
        t = re.match(r"bench: triad ([0-9.]+) GB/s", line)
        if t:
            vals["triad"] = float(t.group(1))
        s = re.match(r"bench: (.+?)\s+([0-9.]+) ns/DOF \(", line)
        if s:
            vals[s.group(1).strip()] = float(s.group(2))
    return vals


def main():
    d = sys.argv[1]
    models = sorted({os.path.basename(f).rsplit(".", 1)[0] for f in glob.glob(os.path.join(d, "*.[12]"))})
    for m in models:
        one, two = os.path.join(d, m + ".1"), os.path.join(d, m + ".2")
        if not (os.path.exists(one) and os.path.exists(two)):
            continue
        r1, r2 = medians(one), medians(two)
        if "triad" not in r1 or "triad" not in r2:
            continue
        tri = r2["triad"] / r1["triad"]
        print(f"{m}: triad {r1['triad']:.1f} -> {r2['triad']:.1f} GB/s, speed-up {tri:.2f}")
        for k, v in r1.items():
            if k == "triad" or k not in r2:
                continue
            sp = v / r2[k]
            print(f"  {k:28s} speed-up {sp:.2f} = {sp / tri:.2f} x the triad's")
        for line in open(two):
            if line.startswith("bench: scaling"):
                print("  in the 2-rank process: " + line[len("bench: scaling") :].lstrip(", ").rstrip())


if __name__ == "__main__":
    main()
