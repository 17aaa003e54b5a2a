"""The double pendulum with stiff spring-dampers of seed paper 001 section 6.2 (issue 16, must-show 3):
flexure-double-pendulum with index-3 Newmark, gamma = 3/4, beta = (gamma + 1/2)^2 / 4 = 25/64, to T = 2 s at
h = 2^-12 .. 2^-15. The paper's absolute errors (Table 3) are not reproducible (it does not say which components
enter them; digest section 1.6), so the order is measured by self-convergence: with the differences
d_k = |q(h_k) - q(h_{k+1})| of all six coordinates (and velocities), d_k / d_{k+1} -> 2 for a first-order method
(paper: R -> 2.02 in q, 1.99 in v). Checked: the rate of the finest pair within 0.1 of 2, in positions and
velocities; the constraints held to round-off. The constrained GCD with gcd4_a3/4, which amplifies damped motion, is
refused with the dampers' rate bound the example declares (Gershgorin, (c1 + 2 c2) / I1 and 2 c2 / I2: 4.44e5 1/s),
and gcd4_damped runs (to 1 ms at h = 1e-6, its positions within 2e-6 of gcd3's; measured 5.9e-7)."""
import math
import os
import re
import subprocess

from flxtest import BIN, Checker

EXE = os.path.join(BIN, "flexure-double-pendulum")
c = Checker()
res = []
for k in range(12, 16):
    p = subprocess.run([EXE, "-ts_type", "newmark", "-ts_newmark_gamma", "0.75", "-ts_newmark_beta", "0.390625", "-ts_dt", repr(2.0**-k)], capture_output=True, text=True, timeout=120)
    o = {m.group(1): [float(t) for t in m.group(2).split(",")] for m in re.finditer(r"^(\w+) = (.*)$", p.stdout, re.M)}
    if p.returncode or "final_q" not in o:
        c.check(False, f"h = 2^-{k}: exit {p.returncode} {p.stderr[-300:]}")
        break
    c.check(o["max_drift"][0] < 1e-13, f"h = 2^-{k}: drift {o['max_drift'][0]:.1e} (< 1e-13)")
    res.append((o["final_q"], o["final_v"]))
if len(res) == 4:
    dq = [math.dist(res[i][0], res[i + 1][0]) for i in range(3)]
    dv = [math.dist(res[i][1], res[i + 1][1]) for i in range(3)]
    rq = [dq[i] / dq[i + 1] for i in range(2)]
    rv = [dv[i] / dv[i + 1] for i in range(2)]
    c.check(abs(rq[-1] - 2) <= 0.1 and abs(rv[-1] - 2) <= 0.1,
            f"first order: rates {', '.join(f'{r:.3f}' for r in rq)} (positions), {', '.join(f'{r:.3f}' for r in rv)} (velocities) from h = 2^-12 .. 2^-15; the finest within 0.1 of 2 (paper, against its reference: 2.02, 1.99)")
p = subprocess.run([EXE, "-ts_type", "gcd", "-ts_gcd_preset", "gcd4_a3/4", "-ts_dt", "1e-6", "-ts_max_time", "1e-3"], capture_output=True, text=True, timeout=120)
msg = (p.stderr.strip().splitlines() or [""])[-1]
c.check(p.returncode != 0 and "amplifies damped motion" in msg and "dampers up to 444444" in msg, f"constrained GCD, gcd4_a3/4: refused (exit {p.returncode}: {msg[:200]})")
fin = {}
for preset in ("gcd3", "gcd4_damped"):
    p = subprocess.run([EXE, "-ts_type", "gcd", "-ts_gcd_preset", preset, "-ts_dt", "1e-6", "-ts_max_time", "1e-3"], capture_output=True, text=True, timeout=120)
    fin[preset] = [float(t) for t in m.group(1).split(",")] if p.returncode == 0 and (m := re.search(r"^final_q = (.*)$", p.stdout, re.M)) else None
d = max(abs(a - b) for a, b in zip(fin["gcd3"], fin["gcd4_damped"])) if all(fin.values()) else math.inf
c.check(d < 2e-6, f"constrained GCD, gcd4_damped at h = 1e-6 to 1 ms: runs, its state within {d:.1e} of gcd3's (< 2e-6)")
c.done()
