"""The stiffened panel (examples/stiffened_panel: MITC4 skin and beam stiffeners sharing nodes, pressure
pulse, explicit) run at 1, 2 and 4 ranks gives the same centre history and the same final shell resultants
to 1e-12 relative, and its energy balance holds to 1e-8 of the peak energy."""
import os

import h5py
import numpy as np
from flxtest import SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
case = os.path.join(SOURCE, "examples/stiffened_panel/case.yaml")
hist, res = {}, {}
for n in (1, 2, 4):
    out = os.path.join(a.out, f"panel_np{n}.h5")
    run(n, [case, "-output_file", out, "-ts_max_time", "0.004", "-ts_monitor_interval", "-1", "-output_frames", "4"])
    with h5py.File(out, "r") as f:
        hist[n] = f["probes/centre/values"][:]
        res[n] = f["fields/shell_resultants/quad4"][-1]
        if n == 1:
            e = f["energy"]
            T, U, W, D = (e[k][:] for k in ("kinetic", "strain", "external_work", "damping"))
            err = np.max(np.abs(T + U - W + D)) / np.max(T + U)
            c.check(err < 1e-8, f"energy balance error {err:.2e} of the peak energy (< 1e-8)")
            c.check(np.max(np.abs(hist[1][:, 0])) > 1e-4, f"the pulse deflects the centre: peak {np.max(np.abs(hist[1][:, 0])):.3e} m")
for n in (2, 4):
    rel = np.max(np.abs(hist[n] - hist[1])) / np.max(np.abs(hist[1]))
    rr = np.max(np.abs(res[n] - res[1])) / np.max(np.abs(res[1]))
    c.check(rel <= 1e-12 and rr <= 1e-12, f"panel at {n} ranks: centre history difference {rel:.2e}, resultants difference {rr:.2e} (<= 1e-12)")
c.done()
