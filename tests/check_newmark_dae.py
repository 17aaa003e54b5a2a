"""Index-3 Newmark on seed paper 001's pendulum (issue 16, must-show 3): flexure-pendulum-dae -pendulum_case 001
(point mass, m = 1, L = 1, x^2 + y^2 = L^2, released from rest at (sin(pi/3), -cos(pi/3)), g = 9.81, T = 4 s),
errors at T in (x, y) and (vx, vy) against the exact solution (theta = 2 asin(k sn(K - w t, k^2)), k = sin(pi/6),
mpmath):
- Table 1 (trapezoidal, beta 1/4, gamma 1/2), rows h = 2^-7 .. 2^-11, and Table 2 (gamma 3/4, beta 25/64), rows
  2^-5 .. 2^-11: every Delta_q and Delta_v within 1% of the paper's; the rates at the finest pair: 4.00 (Table 1,
  within 0.05) and 2.0 (Table 2, velocities, within 0.05; the paper: 1.99);
- the constraint held at position level at every step (drift below 1e-12);
- error control (-ts_dae_adapt, HHT alpha -0.3) at eps = 1e-4 and 1e-6: every accepted step's estimate below eps,
  accepted and rejected steps reported, and the global error at T falling as eps^(2/3) (a second-order method
  whose local error is held at eps: the ratio of the two errors within [10, 45] around 100^(2/3) = 21.5); the
  global errors themselves are printed against eps (a local tolerance does not bound them)."""
import math
import os
import re
import subprocess

import mpmath as mp

from flxtest import BIN, Checker

EXE = os.path.join(BIN, "flexure-pendulum-dae")
c = Checker()
g, L, T = 9.81, 1.0, 4.0


def exact():
    mp.mp.dps = 30
    k, w = mp.sin(mp.pi / 6), mp.sqrt(g / L)
    u = mp.ellipk(k**2) - w * T
    th, thd = 2 * mp.asin(k * mp.ellipfun("sn", u, m=k**2)), -2 * k * w * mp.ellipfun("cn", u, m=k**2)
    return [float(L * mp.sin(th)), float(-L * mp.cos(th))], [float(L * mp.cos(th) * thd), float(L * mp.sin(th) * thd)]


def run(args):
    p = subprocess.run([EXE, "-pendulum_case", "001", "-ts_max_time", str(T)] + args, capture_output=True, text=True, timeout=120)
    o = {}
    for line in p.stdout.splitlines():
        m = re.match(r"^(\w+) = (.*)$", line)
        if m:
            o[m.group(1)] = [float(t) for t in m.group(2).split(",")]
    if p.returncode:
        print(p.stderr[-500:])
    return p.returncode, o, p.stdout


q, v = exact()
TABLES = {  # seed 001 Tables 1 and 2: h exponent: (Delta_q, Delta_v)
    "Table 1 (trapezoidal)": ([], {7: (1.13e-3, 3.42e-3), 8: (2.82e-4, 9.02e-4), 9: (7.05e-5, 2.29e-4), 10: (1.76e-5, 5.73e-5), 11: (4.41e-6, 1.44e-5)}),
    "Table 2 (gamma 3/4)": (["-ts_newmark_gamma", "0.75", "-ts_newmark_beta", "0.390625"],
                            {5: (6.21e-2, 7.38e-1), 6: (2.26e-2, 4.27e-1), 7: (8.19e-3, 2.31e-1), 8: (3.15e-3, 1.20e-1), 9: (1.31e-3, 6.12e-2), 10: (5.88e-4, 3.09e-2), 11: (2.77e-4, 1.55e-2)}),
}
for name, (args, rows) in TABLES.items():
    errs = {}
    for k, (pq, pv) in rows.items():
        rc, o, _ = run(["-ts_type", "newmark", "-ts_dt", repr(2.0**-k)] + args)
        if rc:
            c.check(False, f"{name} h=2^-{k}: exit {rc}")
            continue
        dq, dv = math.dist(o["final_q"], q), math.dist(o["final_v"], v)
        errs[k] = (dq, dv)
        c.check(abs(dq / pq - 1) < 0.01 and abs(dv / pv - 1) < 0.01 and o["max_drift"][0] < 1e-12,
                f"{name} h=2^-{k}: Delta_q {dq:.4e} (paper {pq:.2e}, {100 * (dq / pq - 1):+.2f}%), Delta_v {dv:.4e} (paper {pv:.2e}, {100 * (dv / pv - 1):+.2f}%), tolerance 1%; drift {o['max_drift'][0]:.1e}")
    if 10 in errs and 11 in errs:
        rq, rv = errs[10][0] / errs[11][0], errs[10][1] / errs[11][1]
        if name.startswith("Table 1"):
            c.check(abs(rq - 4) < 0.05 and abs(rv - 4) < 0.05, f"{name}: rates R_q {rq:.3f}, R_v {rv:.3f} at h = 2^-11 (second order: 4.00 within 0.05; paper 4.00, 3.99)")
        else:
            c.check(abs(rv - 2) < 0.05, f"{name}: rate R_v {rv:.3f} at h = 2^-11 (first order: 2.0 within 0.05; paper 1.99), R_q {rq:.3f} (paper 2.13, approaching 2)")

glob = {}
for eps in ("1e-4", "1e-6"):
    rc, o, so = run(["-ts_type", "hht", "-ts_hht_alpha", "-0.3", "-ts_dt", "0.1", "-ts_dae_adapt", "-ts_dae_adapt_rtol", eps])
    m = re.search(r"(\d+) accepted steps, (\d+) rejected .*largest accepted error estimate (\S+) \(tolerance", so)
    if rc or not m:
        c.check(False, f"error control eps={eps}: exit {rc}")
        continue
    acc, rej, emax = int(m.group(1)), int(m.group(2)), float(m.group(3))
    dq = math.dist(o["final_q"], q)
    glob[eps] = dq
    c.check(emax <= float(eps) and acc > 0 and rej >= 0 and o["max_drift"][0] < 1e-9,
            f"error control (HHT -0.3) eps={eps}: {acc} accepted, {rej} rejected steps, largest accepted estimate {emax:.3e} <= eps; global error at T {dq:.2e} ({dq / float(eps):.0f} eps); drift {o['max_drift'][0]:.1e} (< 1e-9: Newton stopped by the contraction test)")
if len(glob) == 2:
    r = glob["1e-4"] / glob["1e-6"]
    c.check(10 <= r <= 45, f"error control: global error at eps 1e-4 / at 1e-6 = {r:.1f} (eps^(2/3) gives 21.5; within [10, 45])")
c.done()
