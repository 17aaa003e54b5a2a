#!/usr/bin/python3
"""Search a GCD degree's parameter space for sets that are stable up to a large Omega_max and keep the
pendulum energy error small (time-integration.md 1; seed paper 000 section 9 leaves it open).

Stability comes from `flexure stability -stability_search_degree D` (the amplification matrix of the
stepper's own kernel); accuracy from `flexure-pendulum` at the given steps. Prints the best sets.
usage: search_gcd_params.py [--degree 5] [--range 0,2,0.1] [--min-omega 1] [--steps 1e-2,1e-3] [--top 15]
"""
import argparse
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("FLX_BIN", os.path.join(ROOT, "build", "bin"))


def pendulum_error(degree, params, h):
    out = subprocess.run([os.path.join(BIN, "flexure-pendulum"), "-ts_gcd_degree", str(degree), "-ts_gcd_params", params,
                          "-ts_dt", repr(h), "-ts_allow_unstable"], capture_output=True, text=True)
    m = re.search(r"max_energy_error = (\S+)", out.stdout)
    return float(m.group(1)) if m and out.returncode == 0 else float("inf")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--degree", type=int, default=5)
    ap.add_argument("--range", default="0,2,0.1", help="lo,hi,step of every parameter")
    ap.add_argument("--min-omega", type=float, default=1.0)
    ap.add_argument("--steps", default="1e-2,1e-3")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--pendulum-runs", type=int, default=200, help="candidates (most accurate at Omega = 0.1) run on the pendulum")
    a = ap.parse_args()
    out = subprocess.run([os.path.join(BIN, "flexure"), "stability", "-stability_search_degree", str(a.degree),
                          "-stability_search_range", a.range, "-stability_search_min", repr(a.min_omega)],
                         capture_output=True, text=True, check=True).stdout
    cands = re.findall(r"params=(\S+) Omega_max=(\S+) error\(0.1\)=(\S+)", out)
    print(out.strip().splitlines()[-1])
    # rank by the one-step error of the linear oscillator at Omega = 0.1, keep the best for the pendulum
    cands = sorted(cands, key=lambda c: float(c[2]))[: a.pendulum_runs]
    steps = [float(s) for s in a.steps.split(",")]
    rows = []
    for params, om, _ in cands:
        errs = [pendulum_error(a.degree, params, h) for h in steps]
        rows.append((errs[0], float(om), params, errs))
    rows.sort()
    print(f"{'params':>34} {'Omega_max':>12} " + " ".join(f"{'err h=' + str(h):>14}" for h in steps))
    for e0, om, params, errs in rows[: a.top]:
        print(f"{params:>34} {om:12.6f} " + " ".join(f"{e:14.4e}" for e in errs))


if __name__ == "__main__":
    main()
