"""Explicit dynamics of the simply supported plate (examples/plate_modes, 32 x 32 MITC4) under a suddenly
applied uniform pressure of 1000 Pa, and the critical step from the modal analysis:
- the undamped peak centre deflection is 1.9 to 2.1 times the static one (flexure static, same mesh);
- the oscillation period of the centre matches the first mode of flexure modes within 1%;
- omega_max from /modes/omega_max (SLEPc) and the stepper's own power-iteration estimate agree within the
  safety factor (0.9), and the element-by-element bound lies above both;
- a run at 0.98 of the critical step computed from /modes/omega_max (-ts_omega_max_file) stays bounded
  for 20000 steps, and one at 1.05 of it is stopped as unstable."""
import os
import re

import h5py
import numpy as np

from flxtest import SOURCE, Checker, args_np_out, fit_frequency, run

a = args_np_out()
c = Checker()
case = os.path.join(SOURCE, "examples/plate_modes/case.yaml")
load = ["-load_names", "p", "-load_p_type", "pressure", "-load_p_group", "plate", "-load_p_value", "1000", "-load_p_function", "step",
        "-probe_names", "c", "-probe_c_group", "centre", "-probe_c_dofs", "uz"]
mfile = os.path.join(a.out, f"plate_modes_np{a.np}.h5")
run(a.np, ["modes", case, "-output_file", mfile])
with h5py.File(mfile, "r") as f:
    f1 = f["/modes/frequency"][0]
    om_modes = float(f["/modes/omega_max"][0])
_, so, _ = run(a.np, ["static", case, "-output_file", os.path.join(a.out, f"plate_static_np{a.np}.h5")] + load)
w_static = float([l for l in so.splitlines() if l.startswith("probe c uz")][0].split("=")[1])

out = os.path.join(a.out, f"plate_dyn_np{a.np}.h5")
_, so, _ = run(a.np, ["run", case, "-output_file", out, "-output_frames", "10", "-ts_max_time", "0.08", "-ts_monitor_interval", "-1"] + load)
m = re.search(r"omega_max: ([0-9.e+-]+) rad/s by Lanczos.*?, ([0-9.e+-]+) rad/s element-by-element bound", so)
om_power, om_bound = float(m.group(1)), float(m.group(2))
with h5py.File(out, "r") as f:
    t = f["probes/c/time"][:]
    u = f["probes/c/values"][:, 0]
peak = np.max(np.abs(u)) / abs(w_static)
c.check(1.9 <= peak <= 2.1, f"peak centre deflection / static ({w_static:.6e} m) = {peak:.4f} in [1.9, 2.1]")


w_ref = 2 * np.pi * f1
T = 2 * np.pi / fit_frequency(t, u, w_ref)
c.check(abs(T * f1 - 1) < 0.01, f"period of the centre {T:.6f} s vs first mode 1/{f1:.5f} Hz = {1 / f1:.6f} s: {100 * (T * f1 - 1):+.3f}% (tolerance 1%)")

print(f"omega_max: SLEPc {om_modes:.6e}, Lanczos {om_power:.6e}, element bound {om_bound:.6e} rad/s")
c.check(abs(om_power / om_modes - 1) < 1e-5, f"omega_max from /modes/omega_max and from the stepper's Lanczos estimate differ by {abs(om_power / om_modes - 1):.2e} (1e-5: both converged to 1e-6 on omega^2)")
c.check(om_bound >= om_modes * (1 - 1e-9), f"the element-by-element bound {om_bound:.6e} is above omega_max {om_modes:.6e}")
hc = 2 / om_modes
for fac, stable in ((0.98, True), (1.05, False)):
    rc, so, se = run(a.np, ["run", case, "-output_file", os.path.join(a.out, f"plate_crit_np{a.np}.h5"), "-ts_omega_max_file", mfile, "-ts_dt", repr(fac * hc),
                            "-ts_max_steps", "20000", "-ts_max_time", "1", "-ts_monitor_interval", "-1", "-output_frames", "2", "-ts_allow_unstable"] + load, check=False)
    if stable:
        c.check(rc == 0 and "/modes/omega_max of" in so, f"dt = 0.98 x 2/omega_max(modes) = {fac * hc:.6e} s: 20000 steps, bounded (exit {rc})")
    else:
        c.check(rc == 2, f"dt = 1.05 x 2/omega_max(modes) = {fac * hc:.6e} s: stopped as unstable (exit {rc})")
c.done()
