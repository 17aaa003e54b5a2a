"""A Gmsh shell model with a beam stiffener (issue 12, must-show 1). meshes/stiffened_plate.geo is meshed here:
a 1 m x 50 mm x 5 mm steel strip in the XY plane, cantilevered along the Physical Curve 'root' (clamped: a
curve group of a shell mesh without a section is a node set), loaded by a line load of 100 N/m in -Z along the
Physical Curve 'tip' (the edge cells of that group), with a 4 x 30 mm flat-bar stiffener (shape rectangle) on
its centre line.
- static, plain strip (-setnumber stiffener 0): tip deflection = beam theory P L^3 / 3 E I (P = q B) within 1%
  (measured -0.6%: the clamp restrains the anticlastic curvature over a length of about B), and under an edge
  moment per length m, M L^2 / 2 E I (M = m B) within 1%;
- static, stiffened: tip deflection = the composite beam (plate strip + bar, Timoshenko bar) within 1%;
- static section forces of the stiffener (/static/beam_forces/line2): the stiffener's root moment is the part
  of the total P L that its stiffness share carries (within 2%); the line cells of 'root' and 'tip' have NaN rows;
- explicit run under the suddenly applied load: energy balance below 1e-6 of the peak energy, beam forces and
  shell stresses written at every frame (T x E x 12, T x E x 16);
- at 2 and 4 ranks: the same static tip deflection as at 1 rank (1e-7: LU against MUMPS) and the same tip history
  (1e-10);
- the mesh saved as MSH 4.1 ASCII and binary and MSH 2.2 ASCII and binary gives the same static tip deflection
  (bit-identical)."""
import os
import subprocess

import h5py
import numpy as np

from flxtest import SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"stiffened_plate_np{a.np}")
os.makedirs(d, exist_ok=True)
geo = os.path.join(SOURCE, "meshes", "stiffened_plate.geo")
E, nu, rho, L, B, t, q = 210e9, 0.3, 7850.0, 1.0, 0.05, 0.005, 100.0
bs, hs = 0.004, 0.03
G = E / (2 * (1 + nu))


def mesh(name, extra):
    path = os.path.join(d, name)
    subprocess.run(["gmsh", "-2", geo, "-o", path] + extra, check=True, capture_output=True)
    return path


model = ["-material_names", "steel", "-material_steel_E", str(E), "-material_steel_nu", str(nu), "-material_steel_rho", str(rho),
         "-section_skin_groups", "plate", "-section_skin_material", "steel", "-section_skin_thickness", str(t),
         "-bc_names", "root", "-bc_root_group", "root", "-bc_root_dofs", "clamped",
         "-load_names", "edge", "-load_edge_type", "line", "-load_edge_group", "tip", "-load_edge_value", f"0,0,{-q}",
         "-probe_names", "tip", "-probe_tip_group", "tip_centre", "-probe_tip_dofs", "uz"]
plain = ["-section_names", "skin"]
stiff = ["-section_names", "skin,bar", "-section_bar_groups", "stiffener", "-section_bar_material", "steel",
         "-section_bar_shape", "rectangle", "-section_bar_b", str(bs), "-section_bar_h", str(hs)]


def tip(so):
    return float([l for l in so.splitlines() if l.startswith("probe tip uz")][0].split("=")[1])


def static(np_, msh, extra, name):
    path = os.path.join(d, name + ".h5")
    _, so, _ = run(np_, ["static", "-mesh_file", msh] + model + extra + ["-output_file", path])
    return tip(so), path


strip = mesh("strip.msh", ["-setnumber", "stiffener", "0", "-format", "msh41"])
plate = mesh("plate.msh", ["-format", "msh41"])
P, Is = q * B, B * t**3 / 12
w_beam = -P * L**3 / (3 * E * Is)
w, _ = static(a.np, strip, plain, "strip")
c.check(abs(w / w_beam - 1) < 0.01, f"plain strip: tip deflection {w:.6e} m vs beam theory P L^3 / 3 E I = {w_beam:.6e}: {w / w_beam - 1:+.2%} (tolerance 1%)")
# an edge moment per length m about Y along the tip: M = m B, tip deflection -M L^2 / 2 E I
mY = 20.0
wm, _ = static(a.np, strip, plain + ["-load_edge_value", f"0,0,0,0,{mY},0"], "strip_moment")
wm_beam = -mY * B * L**2 / (2 * E * Is)
c.check(abs(wm / wm_beam - 1) < 0.01, f"plain strip, edge moment: tip deflection {wm:.6e} m vs beam theory M L^2 / 2 E I = {wm_beam:.6e}: {wm / wm_beam - 1:+.2%} (tolerance 1%)")
EI = E * (Is + bs * hs**3 / 12)
kappa = 10 * (1 + nu) / (12 + 11 * nu)
w_comp = -P * L**3 / (3 * EI) - P * L / (kappa * G * bs * hs)
ws, path = static(a.np, plate, stiff, "plate")
c.check(abs(ws / w_comp - 1) < 0.01, f"stiffened: tip deflection {ws:.6e} m vs the composite beam {w_comp:.6e}: {ws / w_comp - 1:+.2%} (tolerance 1%)")
with h5py.File(path, "r") as f:
    conn = f["/mesh/line2/connectivity"][:]
    grp = f["/mesh/line2/group"][:]
    xyz = f["/mesh/coordinates"][:]
    bf = f["/static/beam_forces/line2"][:]
beams = ~np.isnan(bf[:, 0])
nan_rows = np.isnan(bf).all(axis=1)
c.check(np.all(beams | nan_rows) and nan_rows.sum() == 2 * 2 * 2, f"beam_forces: {beams.sum()} stiffener rows, {nan_rows.sum()} NaN rows (the 8 edge cells of 'root' and 'tip')")
root = [e for e in range(len(conn)) if beams[e] and min(xyz[conn[e], 0]) == 0][0]
share = bs * hs**3 / 12 / (Is + bs * hs**3 / 12)
Mroot = bf[root, 5]
c.check(abs(-Mroot / (share * P * L) - 1) < 0.02, f"stiffener root moment {Mroot:.4f} N m = its share {share:.4f} of P L = {P * L:g}: {-Mroot / (share * P * L) - 1:+.2%} (tolerance 2%)")
if a.np > 1:
    w1, _ = static(1, strip, plain, "strip_np1")
    ws1, _ = static(1, plate, stiff, "plate_np1")
    # 1 rank: PETSc's LU, more ranks: MUMPS; the thin strip's K is ill-conditioned (measured 8e-9)
    c.check(abs(w / w1 - 1) < 1e-7 and abs(ws / ws1 - 1) < 1e-7, f"static tip deflections at {a.np} ranks = at 1 rank ({w / w1 - 1:.1e}, {ws / ws1 - 1:.1e}; LU vs MUMPS, tolerance 1e-7)")

# explicit run under the suddenly applied load
dyn = ["-load_edge_function", "step", "-ts_max_steps", "1500", "-output_frames", "5"]


def transient(np_, name):
    path = os.path.join(d, name + ".h5")
    _, so, _ = run(np_, ["-mesh_file", plate] + model + stiff + dyn + ["-output_file", path])
    with h5py.File(path, "r") as f:
        return path, f["/probes/tip/values"][:, 0], float(so.split("largest energy balance error")[1].split()[0])


path, hist, ebal = transient(a.np, "run")
c.check(ebal < 1e-6, f"explicit run: energy balance error {ebal:.2e} of the peak energy (tolerance 1e-6)")
with h5py.File(path, "r") as f:
    T = len(f["/time"])
    shapes = (f["/fields/beam_forces/line2"].shape, f["/fields/shell_stresses/quad4"].shape)
c.check(shapes == ((T, len(conn), 12), (T, 160, 16)), f"transient fields: beam_forces {shapes[0]}, shell_stresses {shapes[1]} ({T} frames)")
if a.np > 1:
    _, hist1, _ = transient(1, "run_np1")
    err = np.max(np.abs(hist - hist1)) / np.max(np.abs(hist1))
    c.check(err < 1e-10, f"tip history at {a.np} ranks = at 1 rank ({err:.1e}, tolerance 1e-10)")

# the same mesh in the four Gmsh formats: identical answers within an encoding; between ASCII and binary, Gmsh's
# ASCII output rounds coordinates (about 1e-10 relative here), so the answers agree to that
ref = {}
for fmt, extra in (("msh41 ASCII", ["-format", "msh41"]), ("msh41 binary", ["-format", "msh41", "-bin"]),
                   ("msh22 ASCII", ["-format", "msh22"]), ("msh22 binary", ["-format", "msh22", "-bin"])):
    m = mesh(fmt.replace(" ", "_") + ".msh", extra)
    rc, so, se = run(a.np, ["static", "-mesh_file", m] + model + stiff + ["-output_file", os.path.join(d, "fmt.h5")], check=False)
    c.check(rc == 0, f"{fmt}: read ({se.strip()[-200:]})")
    wf = tip(so) if rc == 0 else float("nan")
    enc = "binary" if "binary" in fmt else "ASCII"
    ref.setdefault(enc, wf)
    c.check(wf == ref[enc], f"{fmt}: static tip deflection {wf:.15e} (identical to MSH 4.1 {enc})")
if len(ref) == 2:
    e = abs(ref["binary"] - ref["ASCII"]) / abs(ref["ASCII"])
    c.check(e < 1e-9, f"ASCII against binary: {e:.1e} (Gmsh's ASCII coordinates are rounded; tolerance 1e-9)")
c.done()
