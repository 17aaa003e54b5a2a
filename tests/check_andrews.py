"""Andrews' squeezer mechanism (issue 16, must-show 5): flexure-andrews (7 angles, M(q), 6 constraints; seed 004
section 3.7.1) to t = 0.03 s against the published reference solution: F. Mazzia, C. Magherini, Test Set for Initial
Value Problem Solvers, release 2.4 (University of Bari, 2008), problem ANDREWS (Hairer and Wanner, Solving ODEs II,
section VII.7, eq. (7.11); Schiehlen 1990), computed there with PSIDE at rtol = atol = 1e-14.
- index-3 Newmark (trapezoidal, implicit, h = 1e-5 s: 3000 steps): the seven angles within 1e-4 relative;
- constrained GCD degree 5 (gcd5, exact start-up, h = 1e-6 s: 30000 steps): within 1e-9 relative (measured 2.7e-10),
  and the energy balance E - E_0 - T (beta - beta_0) (seed 004 eq. (23)) within 2e-12 J (measured 6.3e-13);
- the constraints held at position level (drift below 1e-14 rad-scaled lengths, i.e. round-off of 0.1 m coordinates).
Prints each method's steps, Newton iterations and wall time (the run's cost)."""
import os
import re
import subprocess
import time

from flxtest import BIN, Checker

EXE = os.path.join(BIN, "flexure-andrews")
REF = [0.1581077119629904e2, -0.1575637105984298e2, 0.4082224013073101e-1, -0.5347301163226948e0, 0.5244099658805304e0, 0.5347301163226948e0, 0.1048080741042263e1]
NAMES = ["beta", "Theta", "gamma", "Phi", "delta", "Omega", "epsilon"]
c = Checker()
for label, args, tol, etol in [("newmark (index 3), h = 1e-5", ["-ts_type", "newmark", "-ts_dt", "1e-5"], 1e-4, None),
                               ("gcd5 (constrained GCD), h = 1e-6", ["-ts_gcd_preset", "gcd5", "-ts_gcd_startup", "exact", "-ts_dt", "1e-6"], 1e-9, 2e-12)]:
    t0 = time.time()
    p = subprocess.run([EXE] + args, capture_output=True, text=True, timeout=120)
    wall = time.time() - t0
    lines = p.stdout.strip().splitlines()
    m = re.match(r"^angles = (.*)$", lines[-1]) if lines else None
    if p.returncode or not m:
        c.check(False, f"{label}: exit {p.returncode}, last line {lines[-1] if lines else ''} {p.stderr[-300:]}")
        continue
    q = [float(t) for t in m.group(1).split(",")]
    rel = [abs(a / b - 1) for a, b in zip(q, REF)]
    worst = max(range(7), key=lambda i: rel[i])
    cost = [l for l in lines if l.startswith("implicit constrained") or l.startswith("constrained GCD:")]
    print(f"{label}: {wall:.2f} s wall; " + " | ".join(cost))
    c.check(max(rel) < tol, f"{label}: the seven angles at t = 0.03 s within {max(rel):.2e} relative of the test set's (worst {NAMES[worst]} {q[worst]:.10g} vs {REF[worst]:.10g}; tolerance {tol:g})")
    drift = float(re.search(r"^max_drift = (\S+)$", p.stdout, re.M).group(1))
    c.check(drift < 1e-14, f"{label}: constraint drift max |g| = {drift:.1e} m (< 1e-14)")
    if etol:
        de = float(re.search(r"^max_energy_error = (\S+)$", p.stdout, re.M).group(1))
        c.check(de < etol, f"{label}: energy balance |E - E_0 - T (beta - beta_0)| <= {de:.2e} J (< {etol:g})")
c.done()
