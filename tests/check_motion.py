"""Prescribed motion (issue 12, must-show 5 and its bad input):
- an axial bar clamped at one end, with a Heaviside imposed displacement U at the other, follows d'Alembert's
  travelling wave u = U H(c t - (L - x)) away from the front, explicit (gcd3, automatic step) and implicit
  (generalized-alpha rho_inf 0, whose dissipation removes the dispersive tail of the discrete front); the moving
  end holds U exactly and the energy ledger balances (the work of the support included);
- initial conditions from a mode of 'flexure modes': the free vibration keeps the mode's frequency;
- bad input: a DOF both clamped and prescribed, a time function without a value, a mode number beyond the
  modes file, an acceleration table that is unsorted, empty or not numbers, '-ts_dt auto' with an implicit method."""
import os

import h5py
import numpy as np
from flxtest import CASE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"motion_np{a.np}")
os.makedirs(d, exist_ok=True)
E, RHO, L, U, NEL = 210e9, 7850.0, 1.0, 1e-3, 1000
CWAVE = np.sqrt(E / RHO)
bar = ["-mesh_generate", "beam", "-mesh_beam_elements", str(NEL), "-mesh_beam_length", str(L),
       "-material_names", "steel", "-material_steel_E", str(E), "-material_steel_nu", "0.3", "-material_steel_rho", str(RHO),
       "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "steel", "-section_bar_A", "1e-4",
       "-section_bar_Iy", "1e-9", "-section_bar_Iz", "1e-9", "-section_bar_J", "2e-9",
       "-bc_names", "root,tip", "-bc_root_group", "root", "-bc_tip_group", "tip", "-bc_tip_dofs", "ux",
       "-bc_tip_value", repr(U), "-bc_tip_function", "step", "-ts_max_time", "1.2e-4", "-ts_monitor_interval", "-1"]


def wave_error(path, away):
    """Largest |u/U - H| over the nodes farther than `away` from the front at the last frame, the tip value and
    the energy balance error relative to the peak energy."""
    f = h5py.File(path, "r")
    t = f["time"][-1]
    x = f["mesh/coordinates"][:, 0]
    u = f["fields/displacement"][-1, :, 0] / U
    front = L - CWAVE * t
    exact = np.where(x > front, 1.0, 0.0)
    far = np.abs(x - front) > away
    e = f["energy"]
    bal = e["kinetic"][:] + e["strain"][:] - e["external_work"][:] + e["damping"][:]
    peak = np.max(e["kinetic"][:] + e["strain"][:])
    return np.max(np.abs(u - exact)[far]), u[np.argmax(x)], np.max(np.abs(bal - bal[0])) / peak, front


out = os.path.join(d, "bar_explicit.h5")
run(a.np, bar + ["-output_file", out, "-output_frames", "2"])
err, tip, bal, front = wave_error(out, 0.2 * L)
c.check(err < 0.01, f"explicit gcd3: u = U H(c t - (L - x)) within {err:.4f} of U (1%) farther than 0.2 L from the front (at x = {front:.3f})")
c.check(tip == 1.0, f"explicit: the moving end holds U exactly ({tip!r})")
c.check(bal < 1e-10, f"explicit: energy balance with the support's work {bal:.2e} of the peak (1e-10)")

out = os.path.join(d, "bar_implicit.h5")
# a direct solve at 1 and 2 ranks; at 4 ranks on 2 cores its 632 parallel triangular solves take 20 s, the default
# CG + GAMG (8 iterations per step) 6 s
run(a.np, bar + ["-output_file", out, "-output_frames", "2", "-ts_type", "genalpha", "-ts_genalpha_radius", "0",
                 "-ts_dt", "1.9e-7"] + (["-ts_ksp_type", "preonly", "-ts_pc_type", "cholesky"] if a.np <= 2 else []))
err, tip, bal, front = wave_error(out, 0.1 * L)
c.check(err < 0.01, f"implicit generalized-alpha (rho_inf 0): within {err:.4f} of U (1%) farther than 0.1 L from the front")
c.check(abs(tip - 1.0) < 1e-14, f"implicit: the moving end holds U ({tip!r})")

if a.np > 2:  # the rest is rank-independent set-up, checked at 1 and 2 ranks
    c.done()
# initial conditions from a mode: the cantilever example released from its first mode vibrates at f_1
case = CASE
modes = os.path.join(d, "modes.h5")
rc, so, se = run(a.np, ["modes", case, "-output_file", modes, "-modes_n", "2"])
f1 = h5py.File(modes, "r")["modes/frequency"][0]
out = os.path.join(d, "mode_ic.h5")
rc, so, se = run(a.np, [case, "-output_file", out, "-load_tip_t0", "1e3", "-ic_names", "m1", "-ic_m1_type", "mode", "-ic_m1_file", modes,
                        "-ic_m1_mode", "1", "-ic_m1_amplitude", "0.01", "-ts_max_time", repr(2.0 / f1), "-ts_type", "newmark",
                        "-ts_dt", repr(1 / (400 * f1)), "-ts_ksp_type", "preonly", "-ts_pc_type", "cholesky", "-output_frames", "1"])
f = h5py.File(out, "r")
p = f["probes/tip"]
dofs = p.attrs["dofs"]
dofs = (dofs.decode() if isinstance(dofs, bytes) else str(dofs)).split(",")
t, uy = p["time"][:], p["values"][:, dofs.index("uy")]
x0 = f["fields/displacement"][0]
amp0 = np.max(np.linalg.norm(x0[:, :3], axis=1))
zc = [t[i] - uy[i] * (t[i + 1] - t[i]) / (uy[i + 1] - uy[i]) for i in range(len(t) - 1) if uy[i] > 0 >= uy[i + 1]]
fmeas = 1.0 / (zc[1] - zc[0]) if len(zc) >= 2 else 0
c.check(abs(amp0 - 0.01) < 1e-12, f"mode initial condition: largest translation {amp0:.12g} m = the amplitude 0.01 m")
c.check(abs(fmeas / f1 - 1) < 1e-3, f"free vibration from mode 1 at {fmeas:.5f} Hz against f_1 = {f1:.5f} Hz (0.1%, Newmark at 400 steps per period)")

# bad input: one line, exit 1
table = os.path.join(d, "acc.txt")
gen = bar[:-4] + ["-ts_max_time", "1e-6"]
bad = [
    ("clamped and prescribed", gen + ["-bc_names", "root,tip,hold", "-bc_hold_group", "tip", "-bc_hold_dofs", "clamped"], "prescribes a motion"),
    ("function without value", gen + ["-bc_root_function", "ramp", "-bc_root_t1", "1"], "without -bc_root_value"),
    ("mode beyond the file", [case, "-ic_names", "m", "-ic_m_type", "mode", "-ic_m_file", modes, "-ic_m_mode", "7", "-ic_m_amplitude", "1e-3"], "mode 7 is beyond the 2 modes"),
    ("unsorted table", gen + ["-bc_tip_function", "table", "-bc_tip_type", "acceleration", "-bc_tip_table_file", table], "does not increase"),
    ("implicit with dt auto", gen + ["-ts_type", "newmark", "-ts_dt", "auto"], "give the step with -ts_dt"),
]
for what, args, msg in bad:
    if what == "unsorted table":
        open(table, "w").write("0 0\n0.2 1\n0.1 2\n")
    rc, so, se = run(a.np, args + ["-output_file", os.path.join(d, "bad.h5")], check=False, timeout=60)
    lines = [ln for ln in se.splitlines() if ln.startswith("flexure: error:")]
    c.check(rc == 1 and len(lines) == 1 and msg in lines[0] and "Traceback" not in se, f"bad input ({what}): exit {rc}, {lines[0] if lines else se[-300:]!r}")
for what, text, msg in [("empty table", "# no rows\n", "holds no (time, value) rows"), ("table not numbers", "0 1\n0.1 x\n", "not a number")]:
    open(table, "w").write(text)
    rc, so, se = run(a.np, gen + ["-bc_tip_function", "table", "-bc_tip_table_file", table, "-output_file", os.path.join(d, "bad.h5")], check=False, timeout=60)
    lines = [ln for ln in se.splitlines() if ln.startswith("flexure: error:")]
    c.check(rc == 1 and len(lines) == 1 and msg in lines[0], f"bad input ({what}): exit {rc}, {lines[0] if lines else se[-300:]!r}")
c.done()
