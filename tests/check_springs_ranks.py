"""Springs and dampers at 1, 2 and 4 ranks: two parallel cantilevers joined at every node by spring cells
(cells that cross the partition boundaries: their coupling is in the block preallocation and the halo), with
springs to ground at the free ends, under a tip load on one of them.
 - springs only (the explicit step): the same history at 2 and 4 ranks as at 1, bit for bit (<= 1e-12);
 - with dampers in the links (conditionally explicit step, CG on M + c h C_d: the Krylov inner products sum in
   a rank-dependent order): the same history to 1e-10;
 - the reaction totals at the clamped roots follow the same rules (1e-12 and 1e-10 of their peak)."""
import os

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "springs_ranks")
os.makedirs(d, exist_ok=True)
ne = 30
nodes = [(i / ne, 0.0, 0.0) for i in range(ne + 1)] + [(i / ne, 0.1, 0.0) for i in range(ne + 1)]
A = [(i + 1, i + 2) for i in range(ne)]
B = [(ne + 2 + i, ne + 3 + i) for i in range(ne)]
links = [(i + 1, ne + 2 + i) for i in range(1, ne + 1)]
msh = write_msh41(os.path.join(d, "twin.msh"), nodes, {"beams": A + B, "links": links}, {"root": [1, ne + 2], "tipA": [ne + 1], "ends": [ne + 1, 2 * ne + 2]})
model = ["-mesh_file", msh, "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
         "-section_names", "bar,link", "-section_bar_groups", "beams", "-section_bar_material", "steel", "-section_bar_A", "4e-4",
         "-section_bar_Iy", "1.3e-8", "-section_bar_Iz", "1.3e-8", "-section_bar_J", "2.2e-8",
         "-section_link_groups", "links", "-section_link_stiffness", "2e5,1e5,3e5,10,20,30",
         "-spring_names", "g", "-spring_g_group", "ends", "-spring_g_stiffness", "1e4,2e4,3e4,1,2,3", "-spring_g_axes", "1,0,1,0,1,0",
         "-bc_names", "root", "-bc_root_group", "root", "-load_names", "tip", "-load_tip_group", "tipA", "-load_tip_value", "0,30,-100",
         "-load_tip_function", "step", "-probe_names", "p", "-probe_p_point", "1,0.1,0", "-ts_max_steps", "600", "-output_frames", "3",
         "-ts_monitor_interval", "-1"]
for what, extra, tol in (("springs (explicit step)", [], 1e-12), ("springs and dampers (conditionally explicit step)", ["-section_link_damping", "2,1,3,0,0,0.001"], 1e-10)):
    hist, reac = {}, {}
    for n in (1, 2, 4):
        out = os.path.join(d, f"twin_np{n}.h5")
        run(n, model + extra + ["-output_file", out])
        with h5py.File(out, "r") as h:
            hist[n] = h["probes/p/values"][:]
            reac[n] = h["history/reactions/root"][:]
    for n in (2, 4):
        rel = np.max(np.abs(hist[n] - hist[1])) / np.max(np.abs(hist[1]))
        rr = np.max(np.abs(reac[n] - reac[1])) / np.max(np.abs(reac[1]))
        c.check(rel <= tol and rr <= tol, f"{what} at {n} ranks: probe history {rel:.1e}, reaction totals {rr:.1e} from 1 rank (<= {tol:g})")
c.done()
