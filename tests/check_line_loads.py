"""Line loads and beam section forces (issue 12, must-show 2).
- A simply supported Timoshenko beam (rectangle 20 x 100 mm, L = 1 m, 8 elements, Phi = 0.08 per element) under a
  uniform line load q: every nodal deflection equals the exact q x (L^3 - 2 L x^2 + x^3) / (24 E I) +
  q x (L - x) / (2 kappa G A) (midspan 5 q L^4 / 384 E I + q L^2 / 8 kappa G A), and the section forces from
  /static/beam_forces/line2 give the exact moment q x (L - x) / 2 (midspan q L^2 / 8, the same at both elements
  meeting there) and shear, to 1e-8 relative; the same load given in element axes gives the same answer.
- A cantilever under a tip load P: root section forces Vy = P and Mz = P L (element axes, tension positive,
  the same moment sign at both ends), the tip end zero, to 1e-10 relative.
- Transient: under a line load with a ramp, /fields/beam_forces/line2 (T x E x 12) satisfies each element's
  equilibrium with the load at the time of each output frame, Vy_2 - Vy_1 = -q_y(t) L_e (the distributed load is
  subtracted at the current time), and N, T continuous.
- Reactions: /static/reaction summed over the supports equals q L."""
import math
import os

import h5py
import numpy as np

from flxtest import Checker, args_np_out, run

a = args_np_out()
c = Checker()
E, nu, rho, b, h, L, n, q = 210e9, 0.3, 7850.0, 0.02, 0.1, 1.0, 8, 1000.0
G = E / (2 * (1 + nu))
A, I = b * h, b * h**3 / 12
kappa = 10 * (1 + nu) / (12 + 11 * nu)  # Cowper, rectangle
model = ["-mesh_generate", "beam", "-mesh_beam_elements", str(n), "-mesh_beam_length", str(L),
         "-material_names", "steel", "-material_steel_E", str(E), "-material_steel_nu", str(nu), "-material_steel_rho", str(rho),
         "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "steel",
         "-section_bar_shape", "rectangle", "-section_bar_b", str(b), "-section_bar_h", str(h)]
# pinned at the root (and torsion held), roller at the tip; the load in -Z is in -y of the elements (local y = Z)
ss = ["-bc_names", "root,tip", "-bc_root_group", "root", "-bc_root_dofs", "ux,uy,uz,rx", "-bc_tip_group", "tip", "-bc_tip_dofs", "uy,uz"]
line = ["-load_names", "q", "-load_q_type", "line", "-load_q_group", "beam"]


def static(name, args):
    path = os.path.join(a.out, f"line_loads_{name}_np{a.np}.h5")
    run(a.np, ["static"] + model + args + ["-output_file", path])
    f = h5py.File(path, "r")
    return f, f["/static/displacement"][:], f["/static/beam_forces/line2"][:]


x = np.linspace(0, L, n + 1)
w_exact = q * x * (L**3 - 2 * L * x**2 + x**3) / (24 * E * I) + q * x * (L - x) / (2 * kappa * G * A)
M_exact = q * x * (L - x) / 2
V_exact = q * x - q * L / 2  # Vy: the load is along -y
mid = n // 2
print(f"exact midspan deflection 5 q L^4 / 384 E I + q L^2 / 8 kappa G A = {w_exact[mid]:.10e} m, moment q L^2 / 8 = {q * L * L / 8:g} N m")
for what, load in (("global axes", ["-load_q_value", f"0,0,{-q}"]), ("element axes", ["-load_q_value", f"0,{-q},0", "-load_q_axes", "element"])):
    f, u, bf = static("ss", ss + line + load)
    conn = f["/mesh/line2/connectivity"][:]
    xyz = f["/mesh/coordinates"][:]
    order = np.argsort(xyz[:, 0])
    w = -u[order, 2]
    err = np.max(np.abs(w - w_exact)) / w_exact[mid]
    c.check(err < 1e-8, f"{what}: every nodal deflection exact (largest error {err:.2e} of the midspan {w[mid]:.10e} m; tolerance 1e-8)")
    # section forces at both ends of each element, against the exact diagram at the element's nodes
    e_mm = e_vv = 0
    for e, (n0, n1) in enumerate(conn):
        for end, node in ((0, n0), (1, n1)):
            k = int(np.where(order == node)[0][0])
            e_mm = max(e_mm, abs(bf[e, 6 * end + 5] - M_exact[k]))
            e_vv = max(e_vv, abs(bf[e, 6 * end + 1] - V_exact[k]))
    c.check(e_mm < 1e-8 * q * L * L / 8, f"{what}: Mz at both ends of every element = q x (L - x) / 2 (largest error {e_mm:.2e} N m; tolerance 1e-8 of q L^2/8)")
    c.check(e_vv < 1e-8 * q * L / 2, f"{what}: Vy = q x - q L / 2 (largest error {e_vv:.2e} N)")
    left = [e for e, cn in enumerate(conn) if xyz[cn[1], 0] == 0.5 * L][0]
    right = [e for e, cn in enumerate(conn) if xyz[cn[0], 0] == 0.5 * L][0]
    for side, m in (("left", bf[left, 11]), ("right", bf[right, 5])):
        c.check(abs(m / (q * L * L / 8) - 1) < 1e-8, f"{what}: midspan moment from the {side} element {m:.12g} = q L^2 / 8 = {q * L * L / 8:g} ({m / (q * L * L / 8) - 1:+.1e})")
    c.check(np.all(np.abs(bf[:, [0, 2, 3, 4, 6, 8, 9, 10]]) < 1e-8 * q * L), "no axial force, torsion or out-of-plane forces")
    # -------- reactions ---------------------------------------------------------------------------------------
    r = f["/static/reaction"][:] if "/static/reaction" in f else np.zeros((1, 6))
    c.check(abs(np.sum(r[:, 2]) - q * L) < 1e-12 * q * L, f"{what}: /static/reaction sums to q L = {q * L:g} N (found {np.sum(r[:, 2]):.12g}; tolerance 1e-12)")
    # ------------------------------------------------------------------------------------------------------
    if "/static/beam_stresses/line2" in f:
        s = f["/static/beam_stresses/line2"][:]
        smax = np.max(s[:, [0, 3]])
        c.check(abs(smax / (q * L * L / 8 * h / 2 / I) - 1) < 1e-8, f"{what}: largest fibre stress M h / 2 I at midspan = {smax:.6e} Pa")
    f.close()

# cantilever under a tip load P (force load on the point group 'tip') in +Z = local +y
P = 250.0
f, u, bf = static("cantilever", ["-bc_names", "root", "-bc_root_group", "root", "-load_names", "P", "-load_P_group", "tip", "-load_P_value", f"0,0,{P}"])
conn = f["/mesh/line2/connectivity"][:]
xyz = f["/mesh/coordinates"][:]
root = [e for e, cn in enumerate(conn) if xyz[cn[0], 0] == 0][0]
tip = [e for e, cn in enumerate(conn) if xyz[cn[1], 0] == L][0]
c.check(abs(bf[root, 1] / P - 1) < 1e-10, f"cantilever: root shear Vy = {bf[root, 1]:.12g} = P = {P:g}")
c.check(abs(bf[root, 5] / (P * L) - 1) < 1e-10, f"cantilever: root moment Mz = {bf[root, 5]:.12g} = P L = {P * L:g}")
c.check(abs(bf[tip, 11]) < 1e-10 * P * L and abs(bf[tip, 7] / P - 1) < 1e-10, f"cantilever: at the tip Mz = {bf[tip, 11]:.2e} and Vy = {bf[tip, 7]:.12g} = P")
f.close()

# transient: line load with a ramp, equilibrium of every element with the load at each frame's time
path = os.path.join(a.out, f"line_loads_transient_np{a.np}.h5")
t1 = 2e-3
run(a.np, model + ss + line + ["-load_q_value", f"0,0,{-q}", "-load_q_function", "ramp", "-load_q_t0", "0", "-load_q_t1", str(t1),
                               "-ts_max_time", "3e-3", "-output_frames", "12", "-output_file", path])
with h5py.File(path, "r") as f:
    t = f["/time"][:]
    bf = f["/fields/beam_forces/line2"][:]
c.check(bf.shape == (len(t), n, 12) and len(t) >= 10, f"/fields/beam_forces/line2 is T x E x 12: {bf.shape}, {len(t)} frames")
s = np.clip(t / t1, 0, 1)
Le = L / n
err = np.max(np.abs(bf[:, :, 7] - bf[:, :, 1] - q * s[:, None] * Le)) / (q * Le)  # the load is -q(t) along y
c.check(err < 1e-8, f"transient: Vy_2 - Vy_1 = -q_y(t) L_e at every frame and element (largest error {err:.2e} of q L_e)")
c.check(np.max(np.abs(bf[:, :, 6] - bf[:, :, 0])) < 1e-6 * q * Le and np.max(np.abs(bf[:, :, 9] - bf[:, :, 3])) < 1e-6 * q * Le, "transient: N and T the same at both ends")
c.done()
