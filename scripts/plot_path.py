#!/usr/bin/python3
"""Load-deflection path of a nonlinear `flexure static` run (/static/path/load_factor and /static/path/displacement):
the load factor against one displacement component of one node (natural node number; default: the node that moves
the most at the end of the path), one curve per component given. Writes a PNG.
usage: plot_path.py RESULTS.h5 [--node N] [--dofs uy[,ux,...]] [-o path.png]"""
import argparse
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

DOFS = ["ux", "uy", "uz", "rx", "ry", "rz"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--node", type=int, default=None, help="natural node number (default: the largest final translation)")
    ap.add_argument("--dofs", default=None, help="comma-separated components among ux,uy,uz,rx,ry,rz (default: the largest translation)")
    ap.add_argument("-o", "--output", default="path.png")
    a = ap.parse_args()
    with h5py.File(a.results, "r") as f:
        if "/static/path/load_factor" not in f:
            sys.exit(f"plot_path.py: {a.results} has no /static/path (run flexure static on a model with a geometry nonlinear section)")
        lam = f["/static/path/load_factor"][:]
        d = f["/static/path/displacement"][:]
    node = a.node if a.node is not None else int(np.argmax(np.linalg.norm(d[-1, :, :3], axis=1)))
    if not 0 <= node < d.shape[1]:
        sys.exit(f"plot_path.py: node {node} is not in the mesh (0..{d.shape[1] - 1})")
    dofs = a.dofs.split(",") if a.dofs else [DOFS[int(np.argmax(np.abs(d[-1, node, :3])))]]
    for k in dofs:
        if k not in DOFS:
            sys.exit(f"plot_path.py: unknown component '{k}': use {','.join(DOFS)}")
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for k in dofs:
        ax.plot(np.concatenate([[0], d[:, node, DOFS.index(k)]]), np.concatenate([[0], lam]), "o-", ms=3, label=f"node {node} {k}")
    ax.set_xlabel("displacement (m) or rotation vector component (rad)")
    ax.set_ylabel("load factor")
    ax.grid(True, alpha=0.3)
    ax.legend()
    ax.set_title(f"load-deflection path ({len(lam)} converged steps)")
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"plot_path.py: wrote {a.output}")


if __name__ == "__main__":
    main()
