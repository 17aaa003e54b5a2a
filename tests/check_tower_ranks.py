"""A lattice tower (generated; nodes shared by up to 18 beams, so assembled blocks sum many elements) run
at 1, 2 and 4 ranks gives the same probe history to 1e-12 relative (here: bit for bit), because every rank
assembles its rows from all touching cells in natural order and K x sums rows in natural order."""
import os

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run

a = args_np_out()
c = Checker()
model = ["-mesh_generate", "tower", "-mesh_tower_bays", "3,3,12", "-mesh_tower_size", "0.6,0.6,2.4",
         "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
         "-section_names", "tube", "-section_tube_groups", "frame", "-section_tube_material", "steel", "-section_tube_A", "1.2e-3",
         "-section_tube_Iy", "1.0e-6", "-section_tube_Iz", "1.0e-6", "-section_tube_J", "2.0e-6",
         "-bc_names", "base", "-bc_base_group", "base", "-load_names", "wind", "-load_wind_group", "top", "-load_wind_value", "100,50,0",
         "-probe_names", "p", "-probe_p_node", "200", "-ts_max_steps", "3000", "-ts_monitor_interval", "-1", "-output_frames", "3"]
hist = {}
for n in (1, 2, 4):
    out = os.path.join(a.out, f"tower_np{n}.h5")
    run(n, model + ["-output_file", out])
    hist[n] = h5py.File(out, "r")["probes/p/values"][:]
for n in (2, 4):
    rel = np.max(np.abs(hist[n] - hist[1])) / np.max(np.abs(hist[1]))
    c.check(rel <= 1e-12, f"tower at {n} ranks: max |difference| / max |history| = {rel:.2e} (<= 1e-12)")
c.done()
