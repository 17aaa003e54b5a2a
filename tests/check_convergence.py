"""Convergence order of the GCD degrees on the FE cantilever (step load, displacement and velocity fields at
t = 1 ms): Richardson estimates from 4 step sizes h/2^k below the critical step; expected order 2 for
degree 3, 3 for degree 4 (3/4, 1/3, 1/2), 4 for the degree-5 preset gcd5. Steps well below the critical
one keep every mode of the mesh in the asymptotic range, so the measured order is the method's."""
import os

import h5py
import numpy as np
from flxtest import CASE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
for preset, expected in (("gcd3", 2), ("gcd4_a3/4", 3), ("gcd5", 4)):
    u, v = [], []
    for k in (16, 32, 64, 128):
        out = os.path.join(a.out, f"conv_{preset.replace('/', '')}_{k}.h5")
        run(a.np, [CASE, "-ts_gcd_preset", preset, "-ts_dt", repr(2.5e-6 / k), "-ts_max_time", "1e-3", "-output_interval", "100000000",
                   "-output_file", out, "-ts_monitor_interval", "-1"])
        f = h5py.File(out, "r")
        u.append(f["fields/displacement"][-1])
        v.append(f["fields/velocity"][-1])
    for name, z in (("displacement", u), ("velocity", v)):
        d = [np.linalg.norm(z[i] - z[i + 1]) for i in range(3)]
        p = [np.log2(d[i] / d[i + 1]) for i in range(2)]
        c.check(abs(p[-1] - expected) < 0.25, f"{preset}: {name} order {p[0]:.2f}, {p[-1]:.2f} (expected {expected}; differences {d[0]:.2e} {d[1]:.2e} {d[2]:.2e})")
c.done()
