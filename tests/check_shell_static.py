"""Static shell benchmarks, with their convergence under mesh refinement:
- Scordelis-Lo roof (examples/scordelis_lo): vertical displacement at the middle of the free edge vs 0.3024;
- pinched cylinder with rigid diaphragms (examples/pinched_cylinder): displacement under the load vs 1.8248e-5;
- simply supported square plate under uniform pressure: centre deflection vs the Navier series (Kirchhoff).
Each within 2% on the finest mesh of the table (16 x 16 for the roof and 32 x 32 for the cylinder, the
densities the literature reports), with the error decreasing under refinement."""
import math
import os

import h5py
import numpy as np

from flxtest import SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()


def probe(so, name):
    v = [float(l.split("=")[1]) for l in so.splitlines() if l.startswith("probe " + name)]
    return v[0] if v else float("nan")


def table(title, case, ref, key, meshes, extra=()):
    print(f"{title}: reference {ref:.5g}")
    print("  mesh      value          value/reference")
    ratios = []
    for n in meshes:
        out = os.path.join(a.out, f"shell_static_np{a.np}.h5")
        _, so, _ = run(a.np, ["static", case, "-mesh_divisions", f"{n},{n}", "-output_file", out] + list(extra))
        v = abs(probe(so, key))
        ratios.append(v / ref)
        print(f"  {n:3d} x {n:<3d} {v:.6e}   {v / ref:.4f}")
    return ratios


sl = table("Scordelis-Lo roof, MITC4", os.path.join(SOURCE, "examples/scordelis_lo/case.yaml"), 0.3024, "free_edge uz", [4, 8, 16])
c.check(abs(sl[-1] - 1) < 0.02, f"Scordelis-Lo 16 x 16: {sl[-1]:.4f} of 0.3024, within 2%")
c.check(all(abs(sl[i + 1] - 1) < abs(sl[i] - 1) for i in range(len(sl) - 1)), "Scordelis-Lo: the error decreases with refinement")
pc = table("Pinched cylinder, MITC4", os.path.join(SOURCE, "examples/pinched_cylinder/case.yaml"), 1.8248e-5, "load_point uz", [8, 16, 32])
c.check(abs(pc[-1] - 1) < 0.02, f"pinched cylinder 32 x 32: {pc[-1]:.4f} of 1.8248e-5, within 2%")
c.check(all(abs(pc[i + 1] - 1) < abs(pc[i] - 1) for i in range(len(pc) - 1)), "pinched cylinder: the error decreases with refinement")

# simply supported plate (hard support), 1 x 1 x 0.01 steel, pressure 1000 Pa: Navier series
E, nu, t, q = 210e9, 0.3, 0.01, 1000.0
D = E * t**3 / (12 * (1 - nu**2))
w = sum(16 * q / (math.pi**6 * D * m * n * (m * m + n * n) ** 2) * math.sin(m * math.pi / 2) * math.sin(n * math.pi / 2)
        for m in range(1, 200, 2) for n in range(1, 200, 2))
plate = os.path.join(SOURCE, "examples/plate_modes/case.yaml")
load = ["-load_names", "p", "-load_p_type", "pressure", "-load_p_group", "plate", "-load_p_value", str(q), "-probe_names", "c", "-probe_c_group", "centre", "-probe_c_dofs", "uz"]
for tri in (False, True):
    r = table(f"Simply supported plate under pressure, {'DKT3' if tri else 'MITC4'}", plate, w, "c uz", [8, 16, 32], load + (["-mesh_triangles"] if tri else []))
    c.check(abs(r[-1] - 1) < 0.005, f"plate centre deflection ({'triangles' if tri else 'quads'}, 32 x 32): {r[-1]:.5f} of the Navier value {w:.6e}, within 0.5%")
    if not tri:  # bending moment at the centre from /static/shell_resultants: Mx = 0.0479 q a^2 (nu = 0.3)
        Mx = sum(16 * q / (math.pi**4 * m * n) * (m * m + nu * n * n) / (m * m + n * n) ** 2 * math.sin(m * math.pi / 2) * math.sin(n * math.pi / 2)
                 for m in range(1, 400, 2) for n in range(1, 400, 2))
        with h5py.File(os.path.join(a.out, f"shell_static_np{a.np}.h5"), "r") as f:
            conn = f["/mesh/quad4/connectivity"][:]
            xyz = f["/mesh/coordinates"][:]
            res = f["/static/shell_resultants/quad4"][:]
            comp = f["/static/shell_resultants/quad4"].attrs["components"]
        comp = (comp.decode() if isinstance(comp, bytes) else str(comp)).split(",")
        centre = np.argmin(np.sum((xyz - [0.5, 0.5, 0]) ** 2, axis=1))
        near = [e for e in range(len(conn)) if centre in conn[e]]
        m_fe = np.mean(res[near, comp.index("Mxx")])
        s_fe = np.mean(res[near, comp.index("sxx_bottom")])
        c.check(abs(abs(m_fe) / Mx - 1) < 0.03, f"centre moment Mxx (mean of the 4 centre elements) {m_fe:.4f} N m/m vs Navier {Mx:.4f}: {abs(m_fe) / Mx - 1:+.2%} (tolerance 3%)")
        c.check(abs(s_fe - 6 * abs(m_fe) / t**2) < 1e-6 * abs(s_fe), f"bottom surface stress sxx = 6 M / t^2 = {s_fe:.6e} Pa")
c.done()
