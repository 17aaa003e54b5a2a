#!/usr/bin/env python3
"""Benchmark of the constrained GCD step (issue 16, must-show 7): flexure-chain with N point masses (2N unknowns,
N rigid rods: N constraints) against the same chain with stiff springs instead of rods (an unconstrained system
with the same unknowns: the explicit GCD step). Reports the wall time per step (median of FLX_BENCH_REPS runs,
default 5), the share of the saddle-point solves (the assembly of S = H M^-1 G^T, its factorization and the
solves) and the saddle-point solves per step, for Newton (the default) and -ts_dae_chord, and the implicit index-3
Newmark and generalized-alpha-SOI2 (Newton iterations per step) with the whole Newton matrix factored (-ts_dae_tangent
full: MUMPS LU of the saddle-point matrix) or its diagonal (-ts_dae_tangent diagonal: the Schur route), each also
with -ts_dae_chord (the step's first matrix kept), at 1 and 2 ranks.
Usage: scripts/bench_dae.py [N (default 50000)] [extra options for every run]"""
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXE = os.path.join(ROOT, "build", "bin", "flexure-chain")
N = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
extra = sys.argv[2:]
reps = int(os.environ.get("FLX_BENCH_REPS", "5"))
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")


def run(np_, args):
    cmd = ["mpirun", "-np", str(np_), EXE, "-chain_n", str(N), "-ts_max_time", "1", "-chain_measure", "0"] + args + extra
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode:
        return None, (p.stderr.strip().splitlines() or ["failed"])[0]
    step = float(re.search(r"([0-9.]+) ms per step$", p.stdout, re.M).group(1))
    m = re.search(r"([0-9.]+)% of (?:it|the steps' time) in the saddle-point solves", p.stdout)
    s = re.search(r"constrained GCD: ([0-9.]+) saddle-point solves per step", p.stdout) or re.search(r"([0-9.]+) Newton iterations per try", p.stdout)
    return step, float(m.group(1)) if m else 0.0, float(s.group(1)) if s else 0.0


print(f"chain of {N} masses: {2 * N} unknowns, {N} constraints; median of {reps} runs")
for np_ in (1, 2):
    res = {}
    for label, args in [("unconstrained (springs, explicit gcd3)", ["-chain_springs", "-ts_dt", "1e-6", "-ts_max_steps", "200"]),
                        ("constrained gcd3, Newton", ["-ts_dt", "1e-5", "-ts_max_steps", "20"]),
                        ("constrained gcd3, chord", ["-ts_dt", "1e-5", "-ts_max_steps", "20", "-ts_dae_chord"]),
                        ("constrained gcd5 (1,0.8,0.7,0.5), Newton", ["-ts_dt", "1e-5", "-ts_max_steps", "20", "-ts_gcd_preset", "gcd5"]),
                        ("index-3 newmark, full (MUMPS LU)", ["-ts_type", "newmark", "-ts_dt", "1e-5", "-ts_max_steps", "3", "-ts_dae_tangent", "full"]),
                        ("index-3 newmark, full + chord", ["-ts_type", "newmark", "-ts_dt", "1e-5", "-ts_max_steps", "5", "-ts_dae_tangent", "full", "-ts_dae_chord"]),
                        ("index-3 newmark, diagonal (Schur)", ["-ts_type", "newmark", "-ts_dt", "1e-5", "-ts_max_steps", "20", "-ts_dae_tangent", "diagonal"]),
                        ("index-3 newmark, diagonal + chord", ["-ts_type", "newmark", "-ts_dt", "1e-5", "-ts_max_steps", "20", "-ts_dae_tangent", "diagonal", "-ts_dae_chord"]),
                        ("genalpha SOI2, full (MUMPS LU)", ["-ts_type", "genalpha", "-ts_dae_soi2", "-ts_dt", "1e-5", "-ts_max_steps", "3", "-ts_dae_tangent", "full"]),
                        ("genalpha SOI2, diagonal (Schur)", ["-ts_type", "genalpha", "-ts_dae_soi2", "-ts_dt", "1e-5", "-ts_max_steps", "20", "-ts_dae_tangent", "diagonal"]),
                        ("genalpha SOI2, diagonal + chord", ["-ts_type", "genalpha", "-ts_dae_soi2", "-ts_dt", "1e-5", "-ts_max_steps", "20", "-ts_dae_tangent", "diagonal", "-ts_dae_chord"])]:
        runs = [run(np_, args) for _ in range(reps)]
        if runs[0][0] is None:
            print(f"{np_} rank(s)  {label:42s} failed: {runs[0][1]}")
            continue
        step = statistics.median(r[0] for r in runs)
        share = statistics.median(r[1] for r in runs)
        res[label] = step
        base = res["unconstrained (springs, explicit gcd3)"]
        print(f"{np_} rank(s)  {label:42s} {step:9.3f} ms per step ({step / base:6.1f} x the unconstrained step)" + (f", saddle-point share {share:.1f}%, {runs[0][2]:.2f} solves per step" if runs[0][2] else ""))
