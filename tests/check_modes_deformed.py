"""flexure modes -modes_deformed (issue 14: modes about a deformed static state, stress stiffening): a pinned-pinned
beam (40 co-rotational elements, Euler-Bernoulli) under an end tension T = pi^2 E I / L^2 has its bending
frequencies raised by sqrt(1 + T L^2 / (n^2 pi^2 E I)) (sqrt 2 and sqrt 1.25 for n = 1, 2; the ratio to the
unloaded model's frequencies, tolerance 1e-3); the static state is written to /static/displacement (tip stretch
T L / (E A) to 1e-6); under a compression of 1.2 times the Euler load the straight state is past buckling: its
first bending pair has omega^2 = (1 - 1.2) omega_1^2 < 0, written as negative frequencies, -sqrt(0.2) f_1 (5e-3; they
were written as 0 Hz, found by a helper) and printed as unstable; -modes_deformed on a linear model is refused."""
import math
import os

import h5py
from flxtest import Checker, args_np_out, run

a = args_np_out()
c = Checker()
E, I, A, L = 210e9, 1e-8, 1e-2, 1.0
T = math.pi**2 * E * I / L**2
opts = ["-mesh_generate", "beam", "-mesh_beam_elements", "40", "-material_names", "s", "-material_s_E", repr(E), "-material_s_nu", "0.3",
        "-material_s_rho", "7850", "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "s",
        "-section_bar_A", repr(A), "-section_bar_Iy", repr(I), "-section_bar_Iz", repr(I), "-section_bar_J", repr(2 * I),
        "-section_bar_shear_rigid", "-section_bar_geometry", "nonlinear", "-bc_names", "a,b", "-bc_a_group", "root", "-bc_a_dofs", "ux,uy,uz,rx",
        "-bc_b_group", "tip", "-bc_b_dofs", "uy,uz", "-load_names", "t", "-load_t_group", "tip", "-load_t_value", f"{T!r},0,0", "-modes_n", "4",
        "-static_increments", "1"]


def freqs(name, extra):
    h5 = os.path.join(a.out, f"modes_{name}_np{a.np}.h5")
    run(a.np, ["modes", "-output_file", h5] + opts + extra)
    with h5py.File(h5, "r") as f:
        return f["/modes/frequency"][:], (f["/static/displacement"][:] if "/static/displacement" in f else None)


f0, _ = freqs("unloaded", [])
f1, u = freqs("deformed", ["-modes_deformed"])
for k, n in ((0, 1), (2, 2)):
    want = math.sqrt(1 + T * L**2 / (n**2 * math.pi**2 * E * I))
    got = f1[k] / f0[k]
    c.check(abs(got / want - 1) < 1e-3, f"bending mode n = {n}: f(T)/f(0) = {f1[k]:.6f}/{f0[k]:.6f} = {got:.6f} vs sqrt(1 + T L^2/(n^2 pi^2 EI)) = {want:.6f}: {abs(got / want - 1):.1e} < 1e-3")
fb, _ = freqs("buckled", ["-modes_deformed", "-load_t_value", f"{-1.2 * T!r},0,0"])
want = -math.sqrt(0.2) * f0[0]
c.check(all(abs(fb[k] / want - 1) < 5e-3 for k in (0, 1)) and fb[2] > 0, f"past buckling (1.2 x the Euler load): the first pair at {fb[0]:.4f}, {fb[1]:.4f} Hz against -sqrt(0.2) f_1 = {want:.4f} Hz (5e-3; measured 1.6e-3), then {fb[2]:.4f} Hz")
stretch = T * L / (E * A)
c.check(u is not None and abs(u[-1, 0] / stretch - 1) < 1e-6, f"/static/displacement: tip stretch {u[-1, 0] if u is not None else None} vs T L/(E A) = {stretch:.6e}")
rc, _, se = run(a.np, ["modes", "-output_file", os.path.join(a.out, f"modes_lin_np{a.np}.h5"), "-modes_deformed"] +
                [x if x != "nonlinear" else "linear" for x in opts], check=False)
lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
c.check(rc == 1 and len(lines) == 1 and "-modes_deformed needs a model with a geometry nonlinear section" in lines[0], f"linear model: exit {rc}, {lines}")
c.done()
