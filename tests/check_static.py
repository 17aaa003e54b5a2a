"""Static cantilever: K u = f solved with KSP; tip deflection = P L^3/(3 E I) + P L/(kappa G A) to 1e-10."""
import os

from flxtest import CASE, STATIC_TIP, Checker, args_np_out, run

a = args_np_out()
c = Checker()
out = os.path.join(a.out, f"static_np{a.np}.h5")
_, so, _ = run(a.np, ["static", CASE, "-output_file", out, "-probe_tip_dofs", "uy"])
tip = [float(l.split("=")[1]) for l in so.splitlines() if l.startswith("probe tip uy")]
c.check(len(tip) == 1, "the static run prints the tip deflection")
if tip:
    rel = abs(-tip[0] - STATIC_TIP) / STATIC_TIP
    c.check(rel < 1e-10, f"tip deflection {-tip[0]:.15e} vs analytic {STATIC_TIP:.15e}: relative error {rel:.2e} < 1e-10")
c.done()
