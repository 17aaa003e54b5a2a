"""The default example, as scripts/demo runs it, writes results.h5, results.xdmf and a PNG."""
import os
import subprocess

from flxtest import CASE, SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "demo")
os.makedirs(d, exist_ok=True)
h5 = os.path.join(d, "results.h5")
run(2, [CASE, "-output_file", h5])
png = os.path.join(d, "history.png")
subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "plot_history.py"), h5, "--probe", "tip", "--dof", "uy", "-o", png], check=True)
for p in (h5, os.path.join(d, "results.xdmf"), png):
    c.check(os.path.getsize(p) > 0 if os.path.exists(p) else False, f"{os.path.basename(p)} written")
xdmf = open(os.path.join(d, "results.xdmf")).read()
c.check("/fields/displacement" in xdmf and "Polyline" in xdmf, "XDMF points at the displacement time series on the beam mesh")
c.done()
