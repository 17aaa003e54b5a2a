"""Blow-up detection: at 1.05 of the computed critical step (forced with -ts_allow_unstable) the run is
detected as unstable, stops cleanly with a nonzero exit and a message that gives the critical step, and
leaves a readable results file; at 0.98 of it the run stays bounded for 10^4 steps."""
import os

import h5py
import numpy as np
from flxtest import CASE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
probe = os.path.join(a.out, f"blowup_probe_np{a.np}.h5")
run(a.np, [CASE, "-ts_max_steps", "2", "-output_file", probe])
hcrit = float(h5py.File(probe, "r").attrs["critical_step"])

out = os.path.join(a.out, f"blowup_np{a.np}.h5")
rc, so, se = run(a.np, [CASE, "-ts_dt", repr(1.05 * hcrit), "-ts_allow_unstable", "-ts_max_steps", "20000", "-output_interval", "100", "-output_file", out], check=False)
lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
c.check(rc == 2 and len(lines) == 1 and "unstable" in lines[0] and "critical step" in lines[0], f"1.05 h_crit: exit {rc}, {lines[0] if lines else se[:300]!r}")
f = h5py.File(out, "r")
c.check(f["fields/displacement"].shape[0] >= 1 and f["energy/time"].shape[0] > 1, f"results file readable: {f['fields/displacement'].shape[0]} frames, {f['energy/time'].shape[0]} ledger rows")

out = os.path.join(a.out, f"stable_np{a.np}.h5")
rc, so, se = run(a.np, [CASE, "-ts_dt", repr(0.98 * hcrit), "-ts_max_steps", "10000", "-output_file", out, "-output_frames", "2"], check=False)
e = h5py.File(out, "r")["energy"]
B = e["kinetic"][:] + e["strain"][:] - e["external_work"][:]
err = np.max(np.abs(B - B[0])) / np.max(e["kinetic"][:] + e["strain"][:])
c.check(rc == 0 and len(B) == 10001 and err < 1e-6, f"0.98 h_crit: exit {rc}, {len(B) - 1} steps, energy balance error {err:.2e}")
c.done()
