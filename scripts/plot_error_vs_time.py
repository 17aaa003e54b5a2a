#!/usr/bin/python3
"""Error against wall time on the FE cantilever (examples/cantilever, step tip load) for classic central
differences and the GCD degrees 3, 4 and 5: each method at about 0.9, 0.45, 0.225 and 0.1125 of its own critical
step (adjusted to land on t = 20 ms) to t = 20 ms; error = max over the nodes of |u - u_ref| at t = 20 ms, with the reference from gcd5 at
1/64 of its critical step. Writes a PNG.
usage: plot_error_vs_time.py [-o error_vs_time.png] [--np 1]"""
import argparse
import os
import re
import subprocess
import tempfile

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE = os.path.join(ROOT, "examples", "cantilever", "case.yaml")
T = 0.02


def run(np_, preset, extra, out):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    p = subprocess.run(["mpirun", "-np", str(np_), os.path.join(ROOT, "build", "bin", "flexure"), CASE, "-ts_gcd_preset", preset,
                        "-ts_max_time", repr(T), "-output_interval", "100000000", "-output_file", out, "-ts_monitor_interval", "-1"] + extra,
                       cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    wall = float(re.search(r"in (\S+) s of wall time", p.stdout).group(1))
    f = h5py.File(out, "r")
    return f["fields/displacement"][-1], wall, float(f.attrs["critical_step"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default="error_vs_time.png")
    ap.add_argument("--np", type=int, default=1)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    _, _, h5c = run(a.np, "gcd5", ["-ts_max_steps", "1"], os.path.join(tmp, "probe.h5"))
    uref, _, _ = run(a.np, "gcd5", ["-ts_dt", repr(T / np.ceil(T / (h5c / 64)))], os.path.join(tmp, "ref.h5"))
    fig, ax = plt.subplots(figsize=(7, 5))
    for preset in ("cd_classic", "gcd3", "gcd4_a3/4", "gcd5"):
        _, _, hc = run(a.np, preset, ["-ts_max_steps", "1"], os.path.join(tmp, "probe.h5"))
        pts = []
        for k in (1, 2, 4, 8):
            dt = T / np.ceil(T / (0.9 * hc / k))  # land exactly on T
            u, wall, _ = run(a.np, preset, ["-ts_dt", repr(dt)], os.path.join(tmp, "run.h5"))
            pts.append((wall, np.max(np.abs(u[:, :3] - uref[:, :3]))))
            print(f"{preset:>12} dt = {dt:.4e} s: wall {wall:.3f} s, error {pts[-1][1]:.3e} m")
        pts = np.array(pts)
        ax.loglog(pts[:, 0], pts[:, 1], "o-", label=preset)
    ax.set_xlabel("wall time of the run (s)")
    ax.set_ylabel(f"max |u - u_ref| at t = {T * 1e3:g} ms (m)")
    ax.set_title("FE cantilever: error against cost")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()
