#!/usr/bin/python3
"""Plot a probe history and the energy ledger of a flexure results file to PNG.

usage: plot_history.py RESULTS.h5 [--probe NAME] [--dof uy] [-o history.png]
"""
import argparse

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--probe", default=None, help="probe name (default: the first)")
    ap.add_argument("--dof", default=None, help="DOF to plot, e.g. uy (default: the first of the probe)")
    ap.add_argument("-o", "--output", default="history.png")
    a = ap.parse_args()
    f = h5py.File(a.results, "r")
    fig, (ax1, ax2, ax3) = plt.subplots(3, 1, figsize=(9, 9), sharex=True, gridspec_kw={"height_ratios": [3, 3, 1.5]})
    probes = list(f["probes"].keys()) if "probes" in f else []
    if probes:
        name = a.probe or probes[0]
        p = f["probes"][name]
        dofs = p.attrs["dofs"]
        dofs = (dofs.decode() if isinstance(dofs, bytes) else str(dofs)).split(",")
        dof = a.dof or dofs[0]
        k = dofs.index(dof)
        ax1.plot(p["time"][:], p["values"][:, k] * 1e3, lw=1)
        ax1.set_ylabel(f"probe {name}: {dof} (mm or mrad)")
        ax1.set_title(f"{a.results}: {f.attrs.get('stepper_parameters', b'').decode() if isinstance(f.attrs.get('stepper_parameters', b''), bytes) else f.attrs.get('stepper_parameters', '')}")
        ax1.grid(True, alpha=0.3)
    e = f["energy"]
    t = e["time"][:]
    T, U, W, D = (e[k][:] for k in ("kinetic", "strain", "external_work", "damping"))
    ax2.plot(t, T, label="kinetic")
    ax2.plot(t, U, label="strain")
    ax2.plot(t, W, label="external work")
    if np.any(D):
        ax2.plot(t, D, label="damping")
    bal = T + U - W + D
    peak = max(np.max(T + U), 1e-300)
    ax3.plot(t, (bal - bal[0]) / peak, color="k", lw=0.5)
    ax3.set_ylabel("balance error\n/ peak energy", fontsize=8)
    ax3.grid(True, alpha=0.3)
    ax3.set_xlabel("time (s)")
    ax2.set_ylabel("energy (J)")
    ax2.legend(loc="upper right", fontsize=8)
    ax2.grid(True, alpha=0.3)
    ax3.text(0.01, 0.05, f"max |kinetic + strain - external work + damping - E0| / peak energy = {np.max(np.abs(bal - bal[0])) / peak:.2e}",
             transform=ax3.transAxes, fontsize=8)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()
