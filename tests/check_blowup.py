"""Blow-up detection: at 1.05 of the computed critical step (forced with -ts_allow_unstable) the run is
detected as unstable, stops cleanly with a nonzero exit and a message that gives the critical step, and
leaves a readable results file; at 0.98 of it the run stays bounded for 10^4 steps. For each degree
(gcd3, gcd4_a3/4, gcd5), with the critical step from each method's own Omega_max."""
import os

import h5py
import numpy as np
from flxtest import CASE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
for preset in ("gcd3", "gcd4_a3/4", "gcd5"):
    tag = f"{preset.replace('/', '')}_np{a.np}"
    probe = os.path.join(a.out, f"blowup_probe_{tag}.h5")
    run(a.np, [CASE, "-ts_gcd_preset", preset, "-ts_max_steps", "2", "-output_file", probe])
    hcrit = float(h5py.File(probe, "r").attrs["critical_step"])
    out = os.path.join(a.out, f"blowup_{tag}.h5")
    rc, so, se = run(a.np, [CASE, "-ts_gcd_preset", preset, "-ts_dt", repr(1.05 * hcrit), "-ts_allow_unstable", "-ts_max_steps", "20000", "-output_interval", "100", "-output_file", out], check=False)
    lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    c.check(rc == 2 and len(lines) == 1 and "unstable" in lines[0] and "critical step" in lines[0], f"{preset} 1.05 h_crit: exit {rc}, {lines[0] if lines else se[:300]!r}")
    f = h5py.File(out, "r")
    c.check(f["fields/displacement"].shape[0] >= 1 and f["energy/time"].shape[0] > 1, f"{preset} results file readable: {f['fields/displacement'].shape[0]} frames, {f['energy/time'].shape[0]} ledger rows")

    out = os.path.join(a.out, f"stable_{tag}.h5")
    rc, so, se = run(a.np, [CASE, "-ts_gcd_preset", preset, "-ts_dt", repr(0.98 * hcrit), "-ts_max_steps", "10000", "-output_file", out, "-output_frames", "2"], check=False)
    e = h5py.File(out, "r")["energy"]
    held, given = np.max(e["kinetic"][:] + e["strain"][:]), np.max(np.abs(e["external_work"][:]))
    c.check(rc == 0 and len(e["time"]) == 10001 and held <= 1.5 * given, f"{preset} 0.98 h_crit: exit {rc}, {len(e['time']) - 1} steps, bounded: peak energy {held:.4f} J for {given:.4f} J of work put in")
c.done()
