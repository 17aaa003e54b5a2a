"""History output (issue 12): rows every k steps, probes by coordinates, and plot_history.py on every file.
 - the example cantilever with -output_history_interval 7: /energy, /probes/*, /history/time and
   /history/reactions/clamp hold the steps 0, 7, 14, ... and the last; the probe values and reaction totals
   are those of the same steps of a run with interval 1 (bit for bit), and the ledger's external work and
   damping (which sum every step) equal them to round-off (1e-13 of the peak energy);
 - a probe by coordinates takes the nearest node: set-up prints it with its distance, /probes/NAME@node holds
   it (natural, 0-based), and its history is that of a probe given by that node;
 - scripts/plot_history.py draws a transient file (probe, reactions, ledger) and refuses a static and a modes
   file with one clear line (exit 2)."""
import os
import re
import subprocess

import h5py
import numpy as np
from flxtest import CASE, SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"history_np{a.np}")
os.makedirs(d, exist_ok=True)
base = [CASE, "-ts_max_steps", "100", "-output_interval", "50", "-damping_mass", "3", "-ts_monitor_interval", "-1",
        "-probe_names", "tip,p,q", "-probe_p_point", "0.512,0.01,0", "-probe_q_node", "21"]  # node 21 is at (0.5, 0, 0) in meshes/cantilever.msh
files = {}
for k in (1, 7):
    out = os.path.join(d, f"k{k}.h5")
    _, so, _ = run(a.np, base + ["-output_history_interval", str(k), "-output_file", out])
    files[k] = out
    if k == 7:
        line = next((l for l in so.splitlines() if l.startswith("Probe p:")), "")
with h5py.File(files[1], "r") as f1, h5py.File(files[7], "r") as f7:
    t1, t7 = f1["energy/time"][:], f7["energy/time"][:]
    steps = np.round(t7 / (t1[1] - t1[0])).astype(int)
    want = list(range(0, 100, 7)) + [100]
    same_t = [np.array_equal(f7[p][:], t7) for p in ("history/time", "probes/tip/time", "probes/p/time")]
    c.check(list(steps) == want and all(same_t), f"interval 7: {len(t7)} rows at steps 0, 7, ..., 98, 100 in /energy, /history and /probes")
    idx = np.searchsorted(t1, t7)
    ok = all(np.array_equal(f7[f"probes/{p}/{v}"][:], f1[f"probes/{p}/{v}"][:][idx]) for p in ("tip", "p") for v in ("values", "velocity", "acceleration"))
    okr = np.array_equal(f7["history/reactions/clamp"][:], f1["history/reactions/clamp"][:][idx])
    c.check(ok and okr, "interval 7: probe values and reaction totals are those of the same steps at interval 1 (bit for bit)")
    peak = np.max(f1["energy/kinetic"][:] + f1["energy/strain"][:])
    err = max(np.max(np.abs(f7[f"energy/{k}"][:] - f1[f"energy/{k}"][:][idx])) for k in ("kinetic", "strain", "external_work", "damping")) / peak
    c.check(err < 1e-13 and f1["energy/damping"][-1] > 0, f"interval 7: the ledger (work and damping summed over every step) equals interval 1's to {err:.1e} of the peak energy (< 1e-13)")
    node = int(f7["probes/p"].attrs["node"])
    X = f7["mesh/coordinates"][:]
    dist = np.linalg.norm(X - np.array([0.512, 0.01, 0]), axis=1)
    m = re.search(r"-> node (\d+) at .*distance ([0-9.eE+-]+)", line)
    c.check(node == np.argmin(dist) and m and int(m.group(1)) == node and abs(float(m.group(2)) - dist.min()) < 1e-6 * dist.min(),
            f"probe by point: nearest node {node} at {dist.min():.6f} m, printed ('{line.strip()}') and stored in /probes/p@node")
    c.check(int(f7["probes/q"].attrs["node"]) == 21 and int(f7["probes/tip"].attrs["node"]) == np.argmax(X[:, 0]), "probe node ids stored: by node (21) and by group (the tip)")
    c.check(node == 21 and np.array_equal(f7["probes/p/values"][:], f7["probes/q/values"][:]), "probe by point = probe by its node (bit for bit)")

# plot_history.py on every kind of results file
static, modes = os.path.join(d, "static.h5"), os.path.join(d, "modes.h5")
run(a.np, ["static", CASE, "-output_file", static])
run(a.np, ["modes", CASE, "-modes_n", "2", "-output_file", modes])
plot = os.path.join(SOURCE, "scripts", "plot_history.py")
png = os.path.join(d, "history.png")
if os.path.exists(png):
    os.remove(png)
p = subprocess.run(["/usr/bin/python3", plot, files[7], "-o", png], capture_output=True, text=True)
c.check(p.returncode == 0 and os.path.getsize(png) > 10000, f"plot_history.py draws the transient file ({p.stdout.strip()}{p.stderr.strip()[-200:]})")
for path, kind in ((static, "static results file"), (modes, "modes file")):
    p = subprocess.run(["/usr/bin/python3", plot, path, "-o", png], capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    c.check(p.returncode == 2 and len(lines) == 1 and kind in lines[0] and "Traceback" not in p.stderr, f"plot_history.py refuses a {kind}: '{p.stderr.strip()}'")
c.done()
