"""A model at rest stays at rest (FlxSystemSetRoundoff). A co-rotational f_int is zero at the reference configuration
only to round-off (here 2.7 m bays of a 31 m tower, coordinates not exact in binary), so the structure moves by
round-off and holds about 1e-20 J while nothing was put in. Before the round-off floor, the explicit run stopped as
unstable after 150 steps and the implicit runs stopped after 23 steps (energy) or failed Newton at the smallest step.
- explicit gcd3, 4000 steps at the automatic step: exit 0, every displacement below 1e-13 of the model's size (measured 5e-15);
- implicit newmark and genalpha (full Newton), 40 steps: exit 0, no step halved, one Newton iteration per step;
- at 1.05 of the critical step (-ts_allow_unstable) the round-off grows: the run still stops as unstable (exit 2)
  within 150 steps (measured 100: a floor set too high would let the growth run on), and says the energy is measured
  against the round-off floor (nothing was put in);
- at 2 h_crit with no output before step 100, an element turns over before the ledger is flushed (17 steps): the run
  still stops as unstable (exit 2), names the element's failure as the next step's, and keeps the energy of every
  step before it in the results file (before, the element took the blame and the ledger was lost)."""
import os
import re

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run, tower

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"at_rest_np{a.np}")
os.makedirs(d, exist_ok=True)
M = tower("3,3,12", "2.7,2.7,31", wind=None) + ["-section_tube_geometry", "nonlinear"]
L = np.sqrt(2 * 2.7**2 + 31**2)

out = os.path.join(d, "gcd3.h5")
rc, so, se = run(a.np, M + ["-ts_max_steps", "4000", "-output_frames", "8", "-output_file", out], check=False)
f = h5py.File(out, "r")
umax = np.max(np.abs(f["fields/displacement"][:]))
e = f["energy"]
held = np.max(e["kinetic"][:] + e["strain"][:])
c.check(rc == 0 and len(e["time"]) == 4001, f"explicit gcd3 at rest: exit {rc}, {len(e['time']) - 1} steps {se.strip()[-300:] if rc else ''}")
c.check(umax < 1e-13 * L, f"explicit gcd3 at rest: largest displacement {umax:.3e} m = {umax / L:.2e} of the model's size {L:.2f} m (< 1e-13), energy held {held:.3e} J")
hcrit = float(f.attrs["critical_step"])

for t in ("newmark", "genalpha"):
    out = os.path.join(d, f"{t}.h5")
    rc, so, se = run(a.np, M + ["-ts_type", t, "-ts_dt", "1e-3", "-ts_max_steps", "40", "-output_frames", "4", "-output_file", out], check=False)
    m = re.search(r"(\d+) halvings .*?Newton iterations per step ([\d.]+) on average", so)
    umax = np.max(np.abs(h5py.File(out, "r")["fields/displacement"][:])) if rc == 0 else np.inf
    c.check(rc == 0 and m is not None and m.group(1) == "0" and float(m.group(2)) <= 1.0 and umax < 1e-13 * L,
            f"implicit {t} at rest: exit {rc}, {m.group(1) if m else '?'} halvings, {m.group(2) if m else '?'} Newton iterations per step, largest displacement {umax:.3e} m {se.strip()[-300:] if rc else ''}")

out = os.path.join(d, "unstable.h5")
rc, so, se = run(a.np, M + ["-ts_dt", f"{1.05 * hcrit:.4g}", "-ts_allow_unstable", "-ts_max_steps", "20000", "-output_interval", "10", "-output_file", out], check=False)
lines = [ln for ln in se.splitlines() if ln.startswith("flexure: error:")]
m = re.search(r"after (\d+) steps", lines[0]) if lines else None
c.check(rc == 2 and len(lines) == 1 and "unstable" in lines[0] and "against the round-off floor" in lines[0] and m and int(m.group(1)) < 150,
        f"1.05 h_crit at rest: exit {rc}, stopped after {m.group(1) if m else '?'} steps: {lines[0][:260] if lines else se[-300:]!r}")

out = os.path.join(d, "turned_over.h5")
rc, so, se = run(a.np, M + ["-ts_dt", f"{2 * hcrit:.4g}", "-ts_allow_unstable", "-ts_max_steps", "20000", "-output_interval", "100", "-output_file", out], check=False)
lines = [ln for ln in se.splitlines() if ln.startswith("flexure: error:")]
m = re.search(r"after (\d+) steps .*Step (\d+) then failed: .*turned over", lines[0]) if lines else None
rows = len(h5py.File(out, "r")["energy/time"]) if os.path.exists(out) else -1
c.check(rc == 2 and len(lines) == 1 and "unstable" in lines[0] and m and int(m.group(2)) == int(m.group(1)) + 1 and rows == int(m.group(1)) + 1,
        f"2 h_crit, no flush before the turnover: exit {rc}, {rows} energy rows in the file: {lines[0][:400] if lines else se[-300:]!r}")
c.done()
