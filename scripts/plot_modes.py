#!/usr/bin/python3
"""Mode shapes of a `flexure modes` results file (/modes/shape, /modes/frequency, /mesh): one 3D panel per mode,
the undeformed mesh in grey and the mode shape (translations, scaled so that its largest nodal translation is a
fraction of the model's size) in colour, with the frequency in the title. Beams are drawn as lines, shells as
their element edges. Writes a PNG.
usage: plot_modes.py MODES.h5 [--modes 1,2,3] [--scale 0.1] [-o modes.png]"""
import argparse
import math
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Line3DCollection  # noqa: E402


def edges(f):
    """Unique element edges (pairs of node indices) of every cell block of /mesh."""
    e = set()
    for name, g in f["/mesh"].items():
        if not isinstance(g, h5py.Group) or "connectivity" not in g:
            continue
        conn = g["connectivity"][:]
        k = conn.shape[1]
        for j in range(k if k > 2 else 1):
            a, b = conn[:, j], conn[:, (j + 1) % k]
            e.update(zip(np.minimum(a, b).tolist(), np.maximum(a, b).tolist()))
    return np.array(sorted(e), dtype=int).reshape(-1, 2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--modes", default=None, help="comma-separated mode numbers from 1 (default: the first six)")
    ap.add_argument("--scale", type=float, default=0.1, help="largest translation as a fraction of the model's size")
    ap.add_argument("-o", "--output", default="modes.png")
    a = ap.parse_args()
    with h5py.File(a.results, "r") as f:
        if "/modes/shape" not in f:
            print(f"plot_modes.py: {a.results} has no /modes (write it with flexure modes)", file=sys.stderr)
            sys.exit(2)
        X = f["/mesh/coordinates"][:]
        freq = f["/modes/frequency"][:]
        shape = f["/modes/shape"]
        n = len(freq)
        try:
            sel = [int(s) for s in a.modes.split(",")] if a.modes else list(range(1, min(n, 6) + 1))
        except ValueError:
            print(f"plot_modes.py: --modes {a.modes}: give mode numbers such as 1,2,3", file=sys.stderr)
            sys.exit(2)
        bad = [k for k in sel if not 1 <= k <= n]
        if bad:
            print(f"plot_modes.py: mode {bad[0]} is not in the file (1..{n})", file=sys.stderr)
            sys.exit(2)
        U = [shape[k - 1, :, :3] for k in sel]
        E = edges(f)
    size = max(np.ptp(X, axis=0).max(), 1e-30)
    cols = min(3, len(sel))
    rows = math.ceil(len(sel) / cols)
    fig = plt.figure(figsize=(4.2 * cols, 3.8 * rows))
    for i, (k, u) in enumerate(zip(sel, U)):
        ax = fig.add_subplot(rows, cols, i + 1, projection="3d")
        umax = np.max(np.linalg.norm(u, axis=1))
        Y = X + (a.scale * size / umax) * u if umax > 0 else X
        ax.add_collection3d(Line3DCollection(X[E], colors="0.75", linewidths=0.6))
        ax.add_collection3d(Line3DCollection(Y[E], colors="tab:blue", linewidths=1.2))
        lo, hi = np.minimum(X.min(0), Y.min(0)), np.maximum(X.max(0), Y.max(0))
        c, r = (lo + hi) / 2, max((hi - lo).max() / 2, 1e-30)
        ax.set_xlim(c[0] - r, c[0] + r)
        ax.set_ylim(c[1] - r, c[1] + r)
        ax.set_zlim(c[2] - r, c[2] + r)
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_zlabel("z")
        ax.set_title(f"mode {k}: {freq[k - 1]:.6g} Hz", fontsize=10)
    fig.suptitle(f"{a.results}: mode shapes (translations; largest = {a.scale:g} x model size)", fontsize=9)
    fig.tight_layout()
    fig.savefig(a.output, dpi=110)
    print(f"plot_modes.py: wrote {a.output} ({len(sel)} modes)")


if __name__ == "__main__":
    main()
