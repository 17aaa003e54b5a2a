"""Implicit steppers with Newton on a geometrically nonlinear model at 1, 2 and 4 ranks (issue 14, must-show 7): the
right-angle cantilever of Simo and Vu-Quoc (tests/check_implicit_nonlinear.py) over its load pulse and after it
(t in [0, 5] s, elbow and tip out of plane by more than 4; step 0.1 s), generalized-alpha with full and with modified Newton. The internal force
is summed in the same order at any rank count, but the factorization is not (MUMPS, whose elimination depends on
the partition), so the histories agree within the Newton tolerance (-ts_newton_rtol, -ts_newton_stol 1e-8), not bit for bit:
the largest difference of the elbow and tip histories relative to their peak must stay below 1e-8, the Newton
tolerance (measured 5e-15 .. 9e-15 with full Newton, 5e-15 .. 2e-14 with modified Newton; 4e-11 .. 8e-11 with
modified Newton at step 0.05 s, where a decision to re-form the tangent flipped with round-off). Full
Newton takes the same iterations at every rank count, modified Newton the same steps and halvings and iterations
per step within 5 %."""
import os
import re

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "implicit_nonlinear_ranks")
os.makedirs(d, exist_ok=True)
n = 10
nodes = [(0.0, 10.0 * i / n, 0.0) for i in range(n + 1)] + [(-10.0 * i / n, 10.0, 0.0) for i in range(1, n + 1)]
msh = write_msh41(os.path.join(d, "right_angle.msh"), nodes, {"frame": [(i + 1, i + 2) for i in range(2 * n)]},
                  {"root": [1], "elbow": [n + 1], "tip": [2 * n + 1]})
MODEL = ["run", "-mesh_file", msh, "-material_names", "m", "-material_m_E", "1e6", "-material_m_nu", "0", "-material_m_rho", "1",
         "-section_names", "s", "-section_s_groups", "frame", "-section_s_material", "m", "-section_s_A", "1", "-section_s_Iy", "1e-3",
         "-section_s_Iz", "1e-3", "-section_s_J", "2e-3", "-section_s_shear_correction", "2", "-section_s_rotary_inertia_scale", "1e4",
         "-section_s_geometry", "nonlinear", "-bc_names", "c", "-bc_c_group", "root", "-bc_c_dofs", "clamped",
         "-load_names", "p", "-load_p_group", "elbow", "-load_p_value", "0,0,50", "-load_p_function", "table", "-load_p_table", "0,0,1,1,2,0",
         "-probe_names", "elbow,tip", "-probe_elbow_group", "elbow", "-probe_elbow_dofs", "ux,uy,uz,rx", "-probe_tip_group", "tip",
         "-probe_tip_dofs", "ux,uy,uz,rx", "-ts_type", "genalpha", "-ts_dt", "0.1", "-ts_max_time", "5", "-output_frames", "4",
         "-ts_monitor_interval", "-1"]
for kind in ("full", "modified"):
    hist, its = {}, {}
    for np_ in (1, 2, 4):
        h5 = os.path.join(d, f"{kind}_np{np_}.h5")
        _, so, _ = run(np_, MODEL + ["-ts_newton_type", kind, "-output_file", h5])
        m = re.search(r"implicit Newton .*", so)
        its[np_] = m.group(0) if m else "?"
        with h5py.File(h5, "r") as f:
            hist[np_] = np.concatenate([f["probes/elbow/values"][:], f["probes/tip/values"][:]], axis=1)
    peak = np.abs(hist[1]).max(axis=0)
    c.check(peak[2] > 4 and peak[6] > 4, f"{kind} Newton: the elbow and the tip move out of plane (peaks {peak[2]:.3f}, {peak[6]:.3f})")
    for np_ in (2, 4):
        rel = (np.abs(hist[np_] - hist[1]).max(axis=0) / peak).max()
        c.check(rel <= 1e-8, f"{kind} Newton at {np_} ranks vs 1 rank: largest difference / peak {rel:.1e} (<= 1e-8)")
        if kind == "full":
            strip = r"\(smallest step.*?\);|\([0-9.]+ s\)|linear solves [0-9.]+ s"
            c.check(re.sub(strip, "", its[np_]) == re.sub(strip, "", its[1]), f"full Newton at {np_} ranks: the same steps, halvings and iterations as at 1 rank ({its[np_]})")
        else:
            m1 = re.search(r"(\d+) steps, (\d+) halvings.*per step ([0-9.]+)", its[1])
            mn = re.search(r"(\d+) steps, (\d+) halvings.*per step ([0-9.]+)", its[np_])
            ok = m1 and mn and m1.group(1, 2) == mn.group(1, 2) and abs(float(mn.group(3)) / float(m1.group(3)) - 1) <= 0.05
            c.check(bool(ok), f"modified Newton at {np_} ranks: the same steps and halvings, iterations per step within 5 % ({its[np_]}; 1 rank: {its[1]})")
c.done()
