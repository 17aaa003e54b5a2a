"""A lattice tower (generated; nodes shared by up to 18 beams, so assembled blocks sum many elements) run
at 1, 2 and 4 ranks gives the same probe history to 1e-12 relative (here: bit for bit), because every rank
assembles its rows from all touching cells in natural order and K x sums rows in natural order."""
import os

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run, tower

a = args_np_out()
c = Checker()
model = tower("3,3,12", "0.6,0.6,2.4", node=200) + ["-ts_max_steps", "3000", "-ts_monitor_interval", "-1", "-output_frames", "3"]
hist = {}
for n in (1, 2, 4):
    out = os.path.join(a.out, f"tower_np{n}.h5")
    run(n, model + ["-output_file", out])
    hist[n] = h5py.File(out, "r")["probes/p/values"][:]
for n in (2, 4):
    rel = np.max(np.abs(hist[n] - hist[1])) / np.max(np.abs(hist[1]))
    c.check(rel <= 1e-12, f"tower at {n} ranks: max |difference| / max |history| = {rel:.2e} (<= 1e-12)")
c.done()
