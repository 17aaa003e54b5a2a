#!/usr/bin/python3
"""Plot the histories of a flexure results file to PNG: a probe, the energy ledger and the reaction totals.

usage: plot_history.py RESULTS.h5 [--probe NAME] [--dof uy] [--reaction BC] [-o history.png]

Works on the results of a transient run (`flexure CASE.yaml`). A static file (`flexure static`) or a modes file
(`flexure modes`) has no time history: the script says so and exits with status 2; so does a run stopped before
its first history rows were written.
"""
import argparse
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def refuse(msg):
    print(f"plot_history.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--probe", default=None, help="probe name (default: the first)")
    ap.add_argument("--dof", default=None, help="DOF to plot, e.g. uy (default: the first of the probe)")
    ap.add_argument("--reaction", default=None, help="boundary condition whose reaction totals are plotted (default: all)")
    ap.add_argument("-o", "--output", default="history.png")
    a = ap.parse_args()
    try:
        f = h5py.File(a.results, "r")
    except OSError as e:
        refuse(f"cannot open {a.results} as an HDF5 file ({e})")
    if "modes" in f:
        refuse(f"{a.results} is a modes file (flexure modes): it has frequencies and mode shapes (/modes), no time history")
    if "static" in f:
        refuse(f"{a.results} is a static results file (flexure static): it has one solution (/static), no time history")
    if "energy" not in f or f["energy/time"].shape[0] == 0:
        refuse(f"{a.results} has no history rows (/energy/time is missing or empty): the run stopped before its first rows were written")
    probes = list(f["probes"].keys()) if "probes" in f else []
    reactions = list(f["history/reactions"].keys()) if "history/reactions" in f else []
    if a.probe and a.probe not in probes:
        refuse(f"no probe '{a.probe}' in {a.results}; its probes: {', '.join(probes) or 'none'}")
    if a.reaction and a.reaction not in reactions:
        refuse(f"no reaction totals of '{a.reaction}' in {a.results}; boundary conditions: {', '.join(reactions) or 'none'}")
    panels = (["probe"] if probes else []) + (["reaction"] if reactions else []) + ["energy", "balance"]
    ratios = {"probe": 3, "reaction": 3, "energy": 3, "balance": 1.5}
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 2.4 * len(panels) + 1.5), sharex=True, gridspec_kw={"height_ratios": [ratios[p] for p in panels]})
    ax = dict(zip(panels, np.atleast_1d(axes)))
    title = f"{a.results}: {text(f.attrs.get('stepper_parameters', ''))}"
    if probes:
        name = a.probe or probes[0]
        p = f["probes"][name]
        dofs = text(p.attrs["dofs"]).split(",")
        dof = a.dof or dofs[0]
        if dof not in dofs:
            refuse(f"probe '{name}' records {', '.join(dofs)}, not '{dof}'")
        k = dofs.index(dof)
        node = f" (node {int(p.attrs['node'])})" if "node" in p.attrs else ""
        ax["probe"].plot(p["time"][:], p["values"][:, k] * 1e3, lw=1)
        ax["probe"].set_ylabel(f"probe {name}{node}: {dof}\n(mm or mrad)")
        ax["probe"].grid(True, alpha=0.3)
    if reactions:
        t = f["history/time"][:]
        for bc in [a.reaction] if a.reaction else reactions:
            r = f["history/reactions"][bc][:]
            cols = text(f["history/reactions"][bc].attrs.get("columns", "fx,fy,fz,mx,my,mz")).split(",")
            for j in range(3):
                if np.any(r[:, j]):
                    ax["reaction"].plot(t, r[:, j], lw=1, label=f"{bc} {cols[j]}")
        ax["reaction"].set_ylabel("reaction totals (N)")
        ax["reaction"].legend(loc="upper right", fontsize=8)
        ax["reaction"].grid(True, alpha=0.3)
    axes_list = list(ax.values())
    axes_list[0].set_title(title, fontsize=9)
    e = f["energy"]
    t = e["time"][:]
    T, U, W, D = (e[k][:] for k in ("kinetic", "strain", "external_work", "damping"))
    ax["energy"].plot(t, T, label="kinetic")
    ax["energy"].plot(t, U, label="strain")
    ax["energy"].plot(t, W, label="external work")
    if np.any(D):
        ax["energy"].plot(t, D, label="damping")
    N = e["numerical_dissipation"][:] if "numerical_dissipation" in e else 0 * T
    bal = T + U - W + D + N  # implicit methods: what the method dissipated closes the balance
    peak = max(np.max(T + U), 1e-300)
    ax["balance"].plot(t, (bal - bal[0]) / peak, color="k", lw=0.5)
    ax["balance"].set_ylabel("balance error\n/ peak energy", fontsize=8)
    ax["balance"].grid(True, alpha=0.3)
    ax["balance"].set_xlabel("time (s)")
    ax["energy"].set_ylabel("energy (J)")
    ax["energy"].legend(loc="upper right", fontsize=8)
    ax["energy"].grid(True, alpha=0.3)
    ax["balance"].text(0.01, 0.05, f"max |kinetic + strain - external work + damping + numerical dissipation - E0| / peak energy = {np.max(np.abs(bal - bal[0])) / peak:.2e}",
                       transform=ax["balance"].transAxes, fontsize=8)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()
