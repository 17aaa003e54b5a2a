"""Prescribed displacements in `flexure static` (issue 12: "an axial bar with an imposed end displacement"):
 - linear: the example cantilever with its tip pulled by u = 1e-3 m along x (-bc_NAME_value): every node's ux is
   u x / L and the reactions are -+ E A u / L, to round-off; a transverse tip displacement gives the end force
   3 E I v / L^3 of a propped cantilever (shear flexibility included);
 - nonlinear (geometry nonlinear, co-rotational): the tip turned by 3 rad about z with its translations free bends
   the beam into a circular arc: the end moment E I theta / L (pure bending, exact for the element) and the tip on
   the arc (L sin(theta)/theta, L (1 - cos(theta))/theta), to the discretization error of 10 elements;
 - a velocity history has no static value: held at rest, with a note; arc length with a prescribed displacement
   is refused with one line."""
import os

import h5py
import numpy as np
from flxtest import A, CASE, E, G, I, KAPPA, L, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"static_motion_np{a.np}")
os.makedirs(d, exist_ok=True)
base = [CASE, "-load_names", "", "-probe_names", ""]


def static(name, opts):
    out = os.path.join(d, name + ".h5")
    _, so, se = run(a.np, ["static"] + base + opts + ["-output_file", out])
    f = h5py.File(out, "r")
    return f["/mesh/coordinates"][:], f["/static/displacement"][:], f["/static/reaction"][:], f, so


# --- linear: axial pull
u0 = 1e-3
X, U, R, _, _ = static("pull", ["-bc_names", "clamp,pull", "-bc_clamp_group", "root", "-bc_clamp_dofs", "clamped",
                                "-bc_pull_group", "tip", "-bc_pull_dofs", "ux", "-bc_pull_value", repr(u0)])
err = np.max(np.abs(U[:, 0] - u0 * X[:, 0] / L)) / u0
c.check(err < 1e-12, f"axial pull: ux = u x / L at every node to {err:.1e} of u (< 1e-12)")
F = E * A * u0 / L
tip, root = np.argmax(X[:, 0]), np.argmin(X[:, 0])
err = max(abs(R[tip, 0] - F), abs(R[root, 0] + F)) / F
c.check(err < 1e-12, f"axial pull: reactions +-E A u / L = {F:.6g} N to {err:.1e} (< 1e-12)")

# --- linear: transverse tip displacement of a cantilever (propped): end force 3 E I v / L^3 with shear flexibility
v0 = 1e-3
X, U, R, _, _ = static("prop", ["-bc_names", "clamp,prop", "-bc_clamp_group", "root", "-bc_clamp_dofs", "clamped",
                                "-bc_prop_group", "tip", "-bc_prop_dofs", "uy", "-bc_prop_value", repr(v0)])
Fy = v0 / (L**3 / (3 * E * I) + L / (KAPPA * G * A))
err = max(abs(R[tip, 1] - Fy), abs(R[root, 1] + Fy), abs(R[root, 5] + Fy * L)) / Fy
c.check(err < 1e-10, f"propped tip displacement: end force {Fy:.6g} N and root moment F L to {err:.1e} (< 1e-10)")

# --- nonlinear: the tip turned by theta about z
th = 3.0
X, U, R, f, so = static("turn", ["-model_geometry", "nonlinear", "-static_increments", "6", "-bc_names", "clamp,turn",
                                 "-bc_clamp_group", "root", "-bc_clamp_dofs", "clamped", "-bc_turn_group", "tip",
                                 "-bc_turn_dofs", "rz", "-bc_turn_value", repr(th)])
M = E * I * th / L
err = max(abs(R[tip, 5] - M), abs(R[root, 5] + M)) / M
c.check(err < 1e-12, f"end rotation {th} rad: end moments +-E I theta / L = {M:.6g} N m to {err:.1e} (< 1e-12)")
p = X[tip, :3] + U[tip, :3]
ex = np.array([L * np.sin(th) / th, L * (1 - np.cos(th)) / th, 0])
err = np.max(np.abs(p - ex)) / L
c.check(err < 2e-4, f"end rotation: tip on the circular arc to {err:.1e} L (< 2e-4 L; 10 elements, measured 1.6e-4)")
err = abs(U[tip, 5] - th)
c.check(err < 1e-12, f"end rotation: the tip's rotation vector is (0, 0, {U[tip, 5]:.15g}) ({err:.1e} from theta)")
lam = f["/static/path/load_factor"][:]
c.check(len(lam) == 6 and abs(lam[-1] - 1) < 1e-15, f"end rotation: path of {len(lam)} load factors up to {lam[-1]}")

# --- no static value: a velocity history is held at rest, with a note
_, U, _, _, so = static("vel", ["-bc_names", "clamp,v", "-bc_clamp_group", "root", "-bc_clamp_dofs", "clamped",
                                "-bc_v_group", "tip", "-bc_v_dofs", "ux", "-bc_v_value", "1", "-bc_v_type", "velocity"])
c.check(np.max(np.abs(U)) == 0 and "boundary condition 'v' prescribes a velocity history" in so,
        "a velocity history: held at rest in statics, and the note says so")

# --- arc length with a prescribed displacement: refused
rc, _, se = run(a.np, ["static"] + base + ["-model_geometry", "nonlinear", "-static_arclength", "-bc_names", "clamp,turn",
                                           "-bc_clamp_group", "root", "-bc_turn_group", "tip", "-bc_turn_dofs", "rz",
                                           "-bc_turn_value", "1", "-output_file", os.path.join(d, "arc.h5")], check=False)
lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
c.check(rc == 1 and len(lines) == 1 and "-static_arclength with prescribed displacements" in lines[0],
        f"arc length with a prescribed displacement: exit {rc}, one line: {lines[0] if lines else se.strip()[:200]}")
c.done()
