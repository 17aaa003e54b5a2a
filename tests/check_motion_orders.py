"""Prescribed motion keeps each stepper's order: a 20-element bar clamped at one end whose other end moves as
x = (1, 2) mm sin(2 pi 2000 t) in (ux, uy); the mid node's history against a reference (gcd5 at h = 1.25e-8), at
three steps halving from 4e-7 s. GCD of degree 3, 4 and 5 take x, v, a, j, s of the moving DOFs from the motion's
derivatives (orders 2, 3, 4); Newmark and generalized-alpha take x, v and a* from it (order 2)."""
import os

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "motion_orders")
os.makedirs(d, exist_ok=True)
bar = ["-mesh_generate", "beam", "-mesh_beam_elements", "20", "-mesh_beam_length", "1",
       "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
       "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "steel", "-section_bar_A", "1e-4",
       "-section_bar_Iy", "1e-9", "-section_bar_Iz", "1e-9", "-section_bar_J", "2e-9",
       "-bc_names", "root,tip", "-bc_root_group", "root", "-bc_tip_group", "tip", "-bc_tip_dofs", "ux,uy",
       "-bc_tip_value", "1e-3,2e-3", "-bc_tip_function", "sine", "-bc_tip_frequency", "2000",
       "-probe_names", "mid", "-probe_mid_node", "10", "-probe_mid_dofs", "ux,uy",
       "-ts_max_time", "1e-3", "-ts_allow_unstable", "-ts_monitor_interval", "-1", "-output_frames", "1"]
SAMPLES = np.arange(1e-5, 1e-3, 1e-5)


def history(tag, args):
    out = os.path.join(d, tag + ".h5")
    run(1, bar + args + ["-output_file", out])
    p = h5py.File(out, "r")["probes/mid"]
    t, v = p["time"][:], p["values"][:]
    return np.array([[v[np.argmin(np.abs(t - s)), k] for k in range(2)] for s in SAMPLES])


ref = history("ref", ["-ts_gcd_preset", "gcd5", "-ts_dt", "1.25e-8"])
scale = np.max(np.abs(ref))
steps = ["4e-7", "2e-7", "1e-7"]
for name, args, order in [("gcd3", ["-ts_gcd_preset", "gcd3"], 2), ("gcd4_a1/4", ["-ts_gcd_preset", "gcd4_a1/4"], 3), ("gcd5", ["-ts_gcd_preset", "gcd5"], 4),
                          ("newmark", ["-ts_type", "newmark", "-ts_ksp_type", "preonly", "-ts_pc_type", "lu"], 2),
                          ("genalpha", ["-ts_type", "genalpha", "-ts_ksp_type", "preonly", "-ts_pc_type", "lu"], 2)]:
    err = [np.max(np.abs(history(name.replace("/", "") + h, args + ["-ts_dt", h]) - ref)) / scale for h in steps]
    rates = [np.log2(err[i] / err[i + 1]) for i in range(len(err) - 1)]
    c.check(all(abs(r - order) < 0.1 for r in rates), f"{name}: errors {', '.join(f'{e:.2e}' for e in err)} of the peak, rates {', '.join(f'{r:.3f}' for r in rates)} (order {order} within 0.1)")
c.done()
