"""The paper's spinning top (seed 000, section 6, Table 7): degree 5 (1.62, 1.03522, 1.0291293, 1.016), the
conditionally explicit fixed-point step on velocity-dependent gyroscopic forces. h = 1e-2 and 1e-3 within 5%
of Table 7; h = 1e-4 lies on the floating-point plateau (the paper's 1e-4 and 1e-5 values, 3.51e-13 and
3.14e-13, are that plateau), where agreement within a factor 2 is asked."""
import os
import re
import subprocess

from flxtest import BIN, Checker

c = Checker()
for h, ref, rule in ((1e-2, 2.28e-5, "5%"), (1e-3, 3.0949e-9, "5%"), (1e-4, 3.5092e-13, "plateau")):
    p = subprocess.run([os.path.join(BIN, "flexure-spinning-top"), "-ts_dt", repr(h)], capture_output=True, text=True)
    m = re.search(r"max_energy_error = (\S+)", p.stdout)
    its = re.search(r"solve: (\S+) iterations per step on average", p.stdout)
    if not m:
        c.check(False, f"h = {h}: no result (exit {p.returncode}) {p.stderr[-300:]}")
        continue
    err = float(m.group(1))
    ok = abs(err / ref - 1) < 0.05 if rule == "5%" else 0.5 <= err / ref <= 2
    c.check(ok, f"h = {h:g}: {err:.6e} vs Table 7 {ref:.5e} ({100 * (err / ref - 1):+.2f}%, {rule}); fixed-point iterations per step {its.group(1) if its else '?'}")
c.done()
