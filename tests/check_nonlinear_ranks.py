"""The co-rotational internal force is bit-identical at 1, 2 and 4 ranks (owned and halo cells in natural order,
owned nodes summed in natural element order): an explicit run of the example cantilever with -model_geometry
nonlinear (the GCD stepper calls f_int every step) gives bit-identical /fields/displacement at 1, 2 and 4 ranks.
Its energy ledger balances to round-off: the strain term is U(x_0) plus the internal force's work, summed as the
external work is, so that the central-difference identity M (D_{n+1} - D_n) / h^2 = f_ext - f_int closes it for any
f_int (before: U(x_n) against the step's velocities, 3e-2 of the peak energy under this step load).
A second model, a MITC4 plate with a co-rotational stiffener whose rotary inertia is a full tensor, is bit-identical
at 1, 2 and 4 ranks too; at 4 ranks some rank holds none of the stiffener's nodes (it crashed there, reading tensors
it does not have)."""
import re
import os

import h5py
import numpy as np
from flxtest import CASE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
u = {}
for np_ in (1, 2, 4):
    h5 = os.path.join(a.out, f"nl_ranks_np{np_}.h5")
    _, so, _ = run(np_, ["run", CASE, "-model_geometry", "nonlinear", "-ts_dt", "2e-6", "-ts_max_steps", "150", "-output_frames", "15", "-output_file", h5])
    m = re.search(r"largest energy balance error (\S+) of the peak", so)
    c.check(m is not None and float(m.group(1)) < 1e-13, f"{np_} rank(s): energy balance {m.group(1) if m else 'missing'} of the peak energy (gcd3: round-off, 5.7e-15 measured; tolerance 1e-13)")
    with h5py.File(h5, "r") as f:
        u[np_] = f["/fields/displacement"][:]
peak = np.abs(u[1]).max()
c.check(peak > 1e-5, f"the tip moves ({peak:.3e} m)")
for np_ in (2, 4):
    c.check(np.array_equal(u[1], u[np_]), f"/fields/displacement at {np_} ranks bit-identical to 1 rank ({u[1].shape}, largest difference {np.abs(u[1] - u[np_]).max():.1e})")

STIFFENED = """mesh: {generate: plate, plate_size: "1.0,0.8", divisions: "6,6", plate_stiffeners: 1}
material: {names: steel, steel: {E: 210e9, nu: 0.3, rho: 7850}}
section:
  names: skin,bar
  skin: {groups: plate, material: steel, thickness: 0.004}
  bar: {groups: stiffeners, material: steel, shape: rectangle, b: 0.006, h: 0.04, geometry: nonlinear, rotary_inertia: tensor}
bc: {names: x0, x0: {group: x0, dofs: clamped}}
load: {names: p, p: {type: pressure, group: plate, value: 1000, function: step}}
ts: {max_time: 0.0005, dt: 5e-7}
output: {frames: 5}
"""
case = os.path.join(a.out, "nl_ranks_stiffened.yaml")
with open(case, "w") as f:
    f.write(STIFFENED)
s = {}
for np_ in (1, 2, 4):
    h5 = os.path.join(a.out, f"nl_ranks_stiffened_np{np_}.h5")
    run(np_, ["run", case, "-ts_monitor_interval", "-1", "-output_file", h5])
    with h5py.File(h5, "r") as f:
        s[np_] = f["/fields/displacement"][:]
c.check(np.abs(s[1]).max() > 1e-6, f"the stiffened plate moves ({np.abs(s[1]).max():.3e} m)")
for np_ in (2, 4):
    c.check(np.array_equal(s[1], s[np_]), f"stiffened plate, tensor rotary inertia: /fields/displacement at {np_} ranks bit-identical to 1 rank ({s[1].shape}, largest difference {np.abs(s[1] - s[np_]).max():.1e})")
c.done()
