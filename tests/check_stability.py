"""Stability computed from the stepper's own amplification matrix (flexure stability) reproduces the
paper: Omega_max = 2, sqrt(12/5), sqrt(4/3) for the degree-3 sets and 1.264911 for degree 4 (1/4, 1/3, 1/2),
each to 1e-6; rho(0.1) = 1.0033389 for degree 4 (5/4, 1/3, 1/2), which has no stable interval."""
import math
import os
import re
import subprocess

from flxtest import BIN, Checker

c = Checker()
out = subprocess.run([os.path.join(BIN, "flexure"), "stability", "-all_presets"], capture_output=True, text=True, check=True).stdout
om = dict(re.findall(r"^(\S+) degree=\d params=\S+ Omega_max=(\S+)$", out, re.M))
for name, ref in [("gcd3", 2.0), ("gcd3_a4/3", math.sqrt(12 / 5)), ("gcd3_a2", math.sqrt(4 / 3)), ("gcd4_a1/4", 1.264911064)]:
    v = float(om.get(name, "nan"))
    c.check(abs(v - ref) < 1e-6, f"{name}: Omega_max {v:.10f} vs {ref:.10f} (1e-6)")
c.check(float(om.get("gcd4_a5/4", "nan")) == 0, "gcd4_a5/4: no stable interval (Omega_max 0)")
c.check(float(om.get("gcd5_paper", "nan")) == 0, "gcd5_paper (4/5, 1, 1, 1): no stable interval (the paper says about 0.6)")
# the degree-5 preset found by the search: stable to Omega_max >= 1 and pendulum error <= 1e-5 at h = 1e-2
o5 = float(om.get("gcd5", "nan"))
p = subprocess.run([os.path.join(BIN, "flexure-pendulum"), "-ts_gcd_preset", "gcd5", "-ts_dt", "1e-2"], capture_output=True, text=True)
e5 = float(p.stdout.strip().splitlines()[-1].split("=")[1]) if p.returncode == 0 else float("inf")
c.check(o5 >= 1 and e5 <= 1e-5, f"gcd5 preset: Omega_max {o5:.7f} (>= 1), pendulum error {e5:.3e} at h = 1e-2 (<= 1e-5)")
out = subprocess.run([os.path.join(BIN, "flexure"), "stability", "-ts_gcd_degree", "4", "-ts_gcd_params", "5/4,1/3,1/2",
                      "-stability_omega", "0.1", "-stability_points", "2"], capture_output=True, text=True, check=True).stdout
rho = float(out.strip().splitlines()[-1].split()[1])
c.check(abs(rho - 1.0033389) < 1e-7, f"degree 4 (5/4, 1/3, 1/2): rho(0.1) = {rho:.10f} vs paper 1.0033389")
c.check("no stable interval" in out, "flexure stability says the set has no stable interval")
# a set without a stable interval is refused by the stepper unless forced
p = subprocess.run([os.path.join(BIN, "flexure-pendulum"), "-ts_gcd_preset", "gcd4_a5/4", "-ts_dt", "1e-3"], capture_output=True, text=True)
c.check(p.returncode != 0 and "no stable interval" in p.stderr, "the stepper refuses a set without a stable interval")
p = subprocess.run([os.path.join(BIN, "flexure-pendulum"), "-ts_gcd_preset", "gcd4_a5/4", "-ts_dt", "1e-3", "-ts_allow_unstable"], capture_output=True, text=True)
c.check(p.returncode == 0 and "max_energy_error" in p.stdout, "... and runs it when forced with -ts_allow_unstable")
c.done()
