"""The Newton path of the implicit steppers (src/steppers/alphanewton.c: Lie-group generalized-alpha with equilibrium
at t_{n+1}) against the linear path (alpha.c: Chung-Hulbert weighting of forces, K_eff solved once per step) on
linear systems, where the two are the same method: -ts_newton_linear makes a linear model iterate with Newton.
The linear path solves directly (-ts_ksp_type preonly -ts_pc_type cholesky) so that both are exact to round-off;
what is left is round-off amplified by the conditioning of the step matrix (5e-12 .. 1e-9 measured, tolerance 1e-8; the
accelerations the largest). Cases on the example cantilever (step load):
- newmark (trapezoidal), hht (alpha -0.1), genalpha (rho_inf 0.8): probes (x, v, a), fields, ledger, reactions;
- genalpha with mass-proportional damping, variable steps (-ts_alpha_dt_ratios 1,2: eq. 14 of seed 002 on a*) and a
  moving support (sine motion of the root in uy): the prescribed-motion, damping and variable-step code of both;
- the same cantilever with -model_geometry nonlinear (co-rotational beams, finite rotations) at this small load
  (tip rotation 0.024 rad): its histories approach the linear ones to O(rotation^2)."""
import os

import h5py
import numpy as np
from flxtest import CASE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "implicit_newton")
os.makedirs(d, exist_ok=True)
BASE = [CASE, "-ts_dt", "1e-4", "-ts_max_time", "0.02", "-output_frames", "4", "-ts_monitor_interval", "-1"]
DIRECT = ["-ts_ksp_type", "preonly", "-ts_pc_type", "cholesky"]
MOTION = ["-bc_names", "clamp,shake", "-bc_clamp_dofs", "ux,uz,rx,ry,rz", "-bc_shake_group", "root", "-bc_shake_dofs", "uy",
          "-bc_shake_value", "1e-3", "-bc_shake_function", "sine", "-bc_shake_frequency", "40", "-damping_mass", "5",
          "-ts_alpha_dt_ratios", "1,2"]
KEYS = ["probes/tip/values", "probes/tip/velocity", "probes/tip/acceleration", "fields/displacement", "fields/velocity",
        "energy/kinetic", "energy/strain", "energy/external_work", "history/reactions/clamp"]


def read(h5):
    with h5py.File(h5, "r") as f:
        return {k: f[k][:] for k in KEYS if k in f}


def rel(x, y):
    return np.abs(x - y).max() / max(np.abs(x).max(), 1e-300)


cases = [("newmark", ["-ts_type", "newmark"], 1e-8), ("hht", ["-ts_type", "hht"], 1e-8), ("genalpha", ["-ts_type", "genalpha"], 1e-8),
         ("genalpha, damping, variable steps, moving support", ["-ts_type", "genalpha"] + MOTION, 1e-8)]
for name, opts, tol in cases:
    tag = name.split(",")[0] + ("_motion" if "," in name else "")
    lin, new = os.path.join(d, f"{tag}_linear.h5"), os.path.join(d, f"{tag}_newton.h5")
    run(1, ["run"] + BASE + opts + DIRECT + ["-output_file", lin])
    _, so, _ = run(1, ["run"] + BASE + opts + ["-ts_newton_linear", "-output_file", new])
    c.check("Newton at every step" in so, f"{name}: -ts_newton_linear takes the Newton path")
    A, B = read(lin), read(new)
    errs = {k.split("/", 1)[1]: rel(A[k], B[k]) for k in A}
    worst = max(errs.values())
    c.check(worst <= tol, f"{name}: Newton path vs linear path, largest relative difference {worst:.1e} (<= {tol:.0e}): "
            + ", ".join(f"{k} {v:.1e}" for k, v in errs.items()))

# the nonlinear model at a small load: the linear results to O(theta^2)
lin, nl = os.path.join(d, "genalpha_linear.h5"), os.path.join(d, "genalpha_corotational.h5")
run(1, ["run"] + BASE + ["-ts_type", "genalpha", "-model_geometry", "nonlinear", "-output_file", nl])
with h5py.File(lin, "r") as f, h5py.File(nl, "r") as g:
    x, y = f["probes/tip/values"][:], g["probes/tip/values"][:]
theta = np.abs(x[:, 3]).max()
e = rel(x[:, 1], y[:, 1])
c.check(e <= 2 * theta**2, f"co-rotational cantilever at tip rotation {theta:.3f} rad: tip uy vs the linear model {e:.1e} (<= 2 theta^2 = {2 * theta**2:.1e})")
c.done()
