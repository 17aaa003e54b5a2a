"""Stiffness-proportional Rayleigh damping on the cantilever (conditionally explicit GCD step, KSP on
M + c h C): the decay rate of the first mode matches bK omega_1^2 / 2 (damping ratio bK omega_1 / 2) to 1%;
the energy ledger (kinetic + strain - external work + damping) still balances; sets whose damped
stability analysis finds no stable step are refused."""
import os

import h5py
import numpy as np
from flxtest import CASE, STATIC_TIP, Checker, args_np_out, run

a = args_np_out()
c = Checker()
bK = 1.906e-4  # damping ratio about 1% in the first mode
out = os.path.join(a.out, f"damped_np{a.np}.h5")
_, so, _ = run(a.np, [CASE, "-damping_stiffness", repr(bK), "-ts_max_time", "0.2", "-output_frames", "5", "-output_file", out, "-ts_monitor_interval", "-1"])
c.check("conditionally explicit ksp solve" in so, "the step is conditionally explicit (KSP), iterations reported: " + next((l for l in so.splitlines() if "iterations per step" in l), ""))
f = h5py.File(out, "r")
t = f["probes/tip/time"][:]
u = f["probes/tip/values"][:, 1] + STATIC_TIP
m = t > 0.02  # higher modes are damped out by then
t, y = t[m][::20], u[m][::20]


def resid(s, w):
    M = np.column_stack([np.exp(-s * t) * np.cos(w * t), np.exp(-s * t) * np.sin(w * t)])
    coef, *_ = np.linalg.lstsq(M, y, rcond=None)
    r = M @ coef - y
    return r @ r


grid = [(s, w) for s in np.linspace(0.2, 3, 29) for w in np.linspace(95, 115, 101)]
s, w = min(grid, key=lambda p: resid(*p))
for _ in range(4):
    ss = np.linspace(s * 0.97, s * 1.03, 121)
    s = ss[np.argmin([resid(x, w) for x in ss])]
    ww = np.linspace(w - 0.05, w + 0.05, 101)
    w = ww[np.argmin([resid(s, x) for x in ww])]
expected = bK * w**2 / 2
c.check(abs(s / expected - 1) < 0.01, f"decay rate {s:.6f} 1/s vs bK omega^2/2 = {expected:.6f} 1/s ({100 * (s / expected - 1):+.3f}%, tolerance 1%); damping ratio {s / w:.5f}")
e = f["energy"]
B = e["kinetic"][:] + e["strain"][:] - e["external_work"][:] + e["damping"][:]
err = np.max(np.abs(B - B[0])) / np.max(e["kinetic"][:] + e["strain"][:])
c.check(err < 1e-6 and e["damping"][-1] > 0, f"energy balance with damping: error {err:.2e} of the peak energy, dissipated {e['damping'][-1]:.4f} J")
rc, so, se = run(a.np, [CASE, "-damping_stiffness", repr(bK), "-ts_gcd_preset", "gcd4_a3/4", "-ts_max_time", "0.001", "-output_file", out], check=False)
c.check(rc == 1 and "no stable step" in se, "degree 4 (3/4, 1/3, 1/2) with this damping: refused by the damped stability analysis")
c.done()
