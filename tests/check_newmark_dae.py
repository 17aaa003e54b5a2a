"""Index-3 Newmark on seed paper 001's pendulum (issue 16, must-show 3): flexure-pendulum-dae -pendulum_case 001
(point mass, m = 1, L = 1, x^2 + y^2 = L^2, released from rest at (sin(pi/3), -cos(pi/3)), g = 9.81, T = 4 s),
errors at T in (x, y) and (vx, vy) against the exact solution (theta = 2 asin(k sn(K - w t, k^2)), k = sin(pi/6),
mpmath):
- Table 1 (trapezoidal, beta 1/4, gamma 1/2), rows h = 2^-7 .. 2^-11, and Table 2 (gamma 3/4, beta 25/64), rows
  2^-5 .. 2^-11: every Delta_q and Delta_v within 1% of the paper's; the rates at the finest pair: 4.00 (Table 1,
  within 0.05) and 2.0 (Table 2, velocities, within 0.05; the paper: 1.99);
- the constraint held at position level at every step (drift below 1e-12);
- error control (-ts_alpha_adapt, docs/methods.md "Error control of the implicit steppers"), at eps = 1e-4 and
  1e-6, with accepted and rejected steps printed:
  * per unit step (the default: seed 001's estimate (beta - 1/6) h^2 (a_{n+1} - a_n), projected onto the
    constraints' tangent space, held at 0.2 eps h / T per step): the global error at T below eps in the norm of
    seed 001 eq. (24) (weighted RMS, scale max(1, max |q_i|)) for the positions, and for the velocities with
    their scale max(1, max |v_i|), on this pendulum with HHT (alpha -0.3, index 3) and with the trapezoidal rule
    in SOI2 form (-ts_dae_soi2; index 3 refuses it: test dae_bad_input), and on Andrews' squeezer (HHT -0.3,
    index 3, M(q); 7 angles at 0.03 s against the IVP test set's reference); the pendulum's error proportional to
    eps (the ratio of the two errors within [50, 200] around 100);
  * per step (-ts_alpha_adapt_type step: seed 001 eqs. 25-26, HHT -0.3): every accepted step's estimate below eps
    and the global error at T falling as eps^(2/3) (a second-order method whose local error is held at eps: the
    ratio of the two errors within [10, 45] around 100^(2/3) = 21.5); the global errors themselves are printed
    against eps (a local tolerance per step does not bound them)."""
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

ANDREWS = os.path.join(BIN, "flexure-andrews")
AREF = [0.1581077119629904e2, -0.1575637105984298e2, 0.4082224013073101e-1, -0.5347301163226948e0, 0.5244099658805304e0, 0.5347301163226948e0, 0.1048080741042263e1]


def wrms(err, scale):
    """Seed 001 eq. (24): sqrt(1/p sum (e_i / Y_i)^2), Y_i = max(1, scale_i)."""
    return math.sqrt(sum((e / max(1.0, abs(y)))**2 for e, y in zip(err, scale)) / len(err))


def counts(so):
    m = re.search(r"error control \(([^,]+), -ts_alpha_adapt_rtol \S+\): (\d+) accepted steps, (\d+) rejected \((\d+) by Newton\); steps (\S+) \.\. (\S+) s; largest accepted error estimate (\S+) of its threshold", so)
    return m and (m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), float(m.group(5)), float(m.group(6)), float(m.group(7)))


def pendulum_scales():
    """max_t |x_i|, max_t |v_i| of the exact solution over [0, T] (400 samples)."""
    k, w = mp.sin(mp.pi / 6), mp.sqrt(g / L)
    mx = [0.0] * 4
    for j in range(401):
        u = mp.ellipk(k**2) - w * T * j / 400
        th, thd = 2 * mp.asin(k * mp.ellipfun("sn", u, m=k**2)), -2 * k * w * mp.ellipfun("cn", u, m=k**2)
        for i, val in enumerate([L * mp.sin(th), -L * mp.cos(th), L * mp.cos(th) * thd, L * mp.sin(th) * thd]):
            mx[i] = max(mx[i], abs(float(val)))
    return mx[:2], mx[2:]


qs, vs = pendulum_scales()
prop = {}
for label, args in [("pendulum, HHT -0.3 (index 3)", ["-ts_type", "hht", "-ts_hht_alpha", "-0.3"]), ("pendulum, trapezoidal SOI2", ["-ts_type", "newmark", "-ts_dae_soi2"])]:
    for eps in ("1e-4", "1e-6"):
        rc, o, so = run(args + ["-ts_dt", "0.1", "-ts_alpha_adapt", "-ts_alpha_adapt_rtol", eps])
        n = counts(so)
        if rc or not n:
            c.check(False, f"error control per unit step, {label}, eps={eps}: exit {rc}")
            continue
        eq = wrms([a - b for a, b in zip(o["final_q"], q)], qs)
        ev = wrms([a - b for a, b in zip(o["final_v"], v)], vs)
        prop.setdefault(label, []).append(eq)
        c.check(eq <= float(eps) and ev <= float(eps) and n[3] == 0 and o["max_drift"][0] < 1e-12,
                f"error control per unit step, {label}, eps={eps}: {n[1]} accepted, {n[2]} rejected steps (h {n[4]:.2e} .. {n[5]:.2e} s); global error at T in the norm of eq. (24): positions {eq:.2e} = {eq / float(eps):.2f} eps, velocities {ev:.2e} = {ev / float(eps):.2f} eps (both <= eps; Euclidean: {math.dist(o['final_q'], q):.2e}, {math.dist(o['final_v'], v):.2e}); drift {o['max_drift'][0]:.1e}")
for label, e in prop.items():
    if len(e) == 2:
        c.check(50 <= e[0] / e[1] <= 200, f"error control per unit step, {label}: global error at eps 1e-4 / at 1e-6 = {e[0] / e[1]:.1f} (proportional to eps: 100; within [50, 200])")
for eps in ("1e-4", "1e-6"):
    p = subprocess.run([ANDREWS, "-ts_type", "hht", "-ts_hht_alpha", "-0.3", "-ts_dt", "1e-3", "-ts_alpha_adapt", "-ts_alpha_adapt_rtol", eps], capture_output=True, text=True, timeout=120)
    mm = re.search(r"^angles = (.*)$", p.stdout, re.M)
    n = counts(p.stdout)
    if p.returncode or not mm or not n:
        c.check(False, f"error control per unit step, Andrews, eps={eps}: exit {p.returncode} {p.stderr[-300:]}")
        continue
    ang = [float(t) for t in mm.group(1).split(",")]
    ea = wrms([a - b for a, b in zip(ang, AREF)], AREF)
    c.check(ea <= float(eps), f"error control per unit step, Andrews' squeezer (HHT -0.3, index 3, M(q)), eps={eps}: {n[1]} accepted, {n[2]} rejected steps (h {n[4]:.2e} .. {n[5]:.2e} s); the 7 angles at 0.03 s off the test set's by {ea:.2e} = {ea / float(eps):.2f} eps in the norm of eq. (24) (<= eps)")

glob = {}
glob = {}
for eps in ("1e-4", "1e-6"):
    rc, o, so = run(["-ts_type", "hht", "-ts_hht_alpha", "-0.3", "-ts_dt", "0.1", "-ts_alpha_adapt", "-ts_alpha_adapt_type", "step", "-ts_alpha_adapt_rtol", eps])
    n = counts(so)
    if rc or not n or n[0] != "per step":
        c.check(False, f"error control eps={eps}: exit {rc}")
        continue
    acc, rej, emax = n[1], n[2], n[6] * float(eps)
    dq = math.dist(o["final_q"], q)
    glob[eps] = dq
    c.check(emax <= float(eps) and acc > 0 and rej >= 0 and o["max_drift"][0] < 1e-9,
            f"error control per step (seed 001, HHT -0.3) eps={eps}: {acc} accepted, {rej} rejected steps, largest accepted estimate {emax:.3e} <= eps; global error at T {dq:.2e} ({dq / float(eps):.0f} eps); drift {o['max_drift'][0]:.1e} (< 1e-9: Newton stopped by the contraction test)")
if len(glob) == 2:
    r = glob["1e-4"] / glob["1e-6"]
    c.check(10 <= r <= 45, f"error control per step: global error at eps 1e-4 / at 1e-6 = {r:.1f} (eps^(2/3) gives 21.5; within [10, 45])")
c.done()
