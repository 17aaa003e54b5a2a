"""Nonlinear statics of co-rotational beams (issue 14, must-show 2-5), flexure static at --np ranks:
 2. roll-up: a cantilever under an end moment M = 2 pi E I / L (20 elements, 4 load increments) has its tip on the
    exact circle at M/M_max = 0.25, 0.5, 0.75, 1 within 1e-3 L; the error falls at second order (10, 20, 40 elements);
 3. end shear: tip displacements at P L^2/(E I) = 1, 2, 4, 10 (10 increments) within 0.5 % of the elastica (elliptic
    integrals evaluated here with mpmath);
 4. the 45-degree bend of Bathe and Bolourchi (1979), 8 elements, tip load 600 in 6 increments: tip position within
    1 % of the published (15.9, 47.2, 53.4), and of Simo and Vu-Quoc's (15.79, 47.23, 53.37), measured as the distance
    between the positions over the length of the published tip displacement (per component, x differs by 2 %: the
    converged co-rotational answer, 32 elements, is (15.56, 46.89, 53.61));
 5. Lee's frame (E = 7200, A = 6, I = 2, L = 120, 20 elements per member) with arc length: the path passes the limit
    point; limit load (parabola through the path points around the top) within 1 % of the published 18.5
    (Schweizerhof and Wriggers 1986);
 section forces of the co-rotational beams (/static/beam_forces, co-rotated element axes): the rolled-up cantilever
 carries M in bending and nothing else at every section; under the end shear every element carries the force P and
 the root the moment P (L + u_tip);
 and the contract datasets (/static/path/load_factor K, /static/path/displacement K x N x 6, /static/displacement)."""
import math
import os

import h5py
import mpmath as mp
import numpy as np
from flxtest import Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
E, NU = 210e9, 0.3
BAR = ["-material_names", "steel", "-material_steel_E", repr(E), "-material_steel_nu", repr(NU), "-material_steel_rho", "7850",
       "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "steel", "-section_bar_geometry", "nonlinear",
       "-bc_names", "clamp", "-bc_clamp_group", "root", "-bc_clamp_dofs", "clamped"]


def path(h5):
    with h5py.File(h5, "r") as f:
        return f["/static/path/load_factor"][:], f["/static/path/displacement"][:], f["/static/displacement"][:]


def solve(name, opts):
    h5 = os.path.join(a.out, f"nl_{name}_np{a.np}.h5")
    _, so, _ = run(a.np, ["static", "-output_file", h5] + opts)
    return path(h5) + (so,)


# 2. roll-up
I = 1.0 / 75000.0  # 20 x 20 mm square: 1.333e-8
EI = E * I
M = 2 * math.pi * EI


def rollup(n):
    sec = ["-section_bar_A", "4e-4", "-section_bar_Iy", repr(I), "-section_bar_Iz", repr(I), "-section_bar_J", "2.25e-8"]
    lam, d, final, _ = solve(f"rollup{n}", ["-mesh_generate", "beam", "-mesh_beam_elements", str(n)] + BAR + sec +
                             ["-load_names", "m", "-load_m_group", "tip", "-load_m_value", f"0,0,0,0,0,{M!r}", "-static_increments", "4"])
    err = []
    for k, l in enumerate(lam):
        kap = 2 * math.pi * l
        err.append(math.hypot(1 + d[k, -1, 0] - math.sin(kap) / kap, d[k, -1, 1] - (1 - math.cos(kap)) / kap))
    return lam, d, final, err


lam, d, final, err = rollup(20)
c.check(len(lam) == 4 and np.allclose(lam, [0.25, 0.5, 0.75, 1.0], rtol=0, atol=1e-15), f"roll-up path: load factors {list(lam)}")
c.check(d.shape == (4, 21, 6) and np.array_equal(d[-1], final), f"/static/path/displacement {d.shape}, its last row is /static/displacement")
for l, e in zip(lam, err):
    c.check(e < 1e-3, f"roll-up, 20 elements, M/M_max = {l:.2f}: tip off the exact circle by {e:.2e} L < 1e-3 L")
# section forces of the co-rotational beams (/static/beam_forces, co-rotated element axes): under the end moment
# every section carries M in bending and nothing else
with h5py.File(os.path.join(a.out, f"nl_rollup20_np{a.np}.h5"), "r") as f:
    bf = f["/static/beam_forces/line2"][:]
bend = np.abs(bf[:, [4, 5, 10, 11]]).max(axis=1)
rest = np.abs(bf[:, [0, 1, 2, 3, 6, 7, 8, 9]]).max()
c.check(bf.shape == (20, 12) and np.abs(bend / M - 1).max() < 1e-12 and rest < 1e-12 * M, f"roll-up at M_max, section forces in the co-rotated axes: bending moment M to {np.abs(bend / M - 1).max():.1e}, N, V, T below {rest / M:.1e} M (tolerance 1e-12)")
e10 = rollup(10)[3][2]
e40 = rollup(40)[3][2]
o1, o2 = math.log2(e10 / err[2]), math.log2(err[2] / e40)
c.check(1.9 < o1 < 2.1 and 1.9 < o2 < 2.1, f"roll-up at M/M_max = 0.75: errors {e10:.3e}, {err[2]:.3e}, {e40:.3e} with 10, 20, 40 elements: orders {o1:.3f}, {o2:.3f} (2 +- 0.1)")


# 3. end shear: elastica by elliptic integrals (mpmath quadrature; Mattiasson 1981, Table 1, gives the same digits)
def elastica(al):
    def integral(tl, f):
        return mp.quad(lambda t: f(t) / mp.sqrt(2 * (mp.sin(tl) - mp.sin(t))), [0, tl])
    tl = mp.findroot(lambda tl: integral(tl, lambda t: 1) - mp.sqrt(al), 0.5 if al < 3 else 1.3)
    return float(1 - mp.sqrt(2 * mp.sin(tl) / al)), float(integral(tl, mp.sin) / mp.sqrt(al)), float(tl)


Ibig, Abig = 1e-8, 1e-2  # a large area: the elastica is inextensible
P = 10 * E * Ibig
lam, d, _, _ = solve("shear", ["-mesh_generate", "beam", "-mesh_beam_elements", "20"] + BAR +
                     ["-section_bar_A", repr(Abig), "-section_bar_Iy", repr(Ibig), "-section_bar_Iz", repr(Ibig), "-section_bar_J", repr(2 * Ibig),
                      "-section_bar_shear_rigid", "-load_names", "p", "-load_p_group", "tip", "-load_p_value", f"0,{-P!r},0",
                      "-static_increments", "10"])
for al in (1, 2, 4, 10):
    k = int(round(al)) - 1
    u, v, th = elastica(al)
    eu, ev, et = abs(-d[k, -1, 0] - u) / u, abs(-d[k, -1, 1] - v) / v, abs(-d[k, -1, 5] - th) / th
    c.check(max(eu, ev, et) < 5e-3, f"end shear P L^2/EI = {al}: tip u/L {-d[k, -1, 0]:.5f} (elastica {u:.5f}), v/L {-d[k, -1, 1]:.5f} ({v:.5f}), "
            f"rotation {-d[k, -1, 5]:.5f} ({th:.5f}): largest relative error {max(eu, ev, et):.2e} < 5e-3")

# section forces: every element carries the tip force P (|N, Vy, Vz| = P at both ends, in its co-rotated axes) and
# the root the moment P (L + u_tip)
with h5py.File(os.path.join(a.out, f"nl_shear_np{a.np}.h5"), "r") as f:
    bf = f["/static/beam_forces/line2"][:]
res = np.linalg.norm(bf[:, [0, 1, 2]], axis=1), np.linalg.norm(bf[:, [6, 7, 8]], axis=1)
mroot = np.linalg.norm(bf[0, 3:6])
c.check(max(np.abs(res[0] / P - 1).max(), np.abs(res[1] / P - 1).max()) < 1e-9 and abs(mroot / (P * (1 + d[-1, -1, 0])) - 1) < 1e-12,
        f"end shear P L^2/EI = 10, section forces: the force carried by each element is P to {max(np.abs(res[0] / P - 1).max(), np.abs(res[1] / P - 1).max()):.1e}, the root moment P (L + u_tip) to {abs(mroot / (P * (1 + d[-1, -1, 0])) - 1):.1e} (tolerances 1e-9: Newton's, 1e-12)")

# 4. Bathe and Bolourchi's 45-degree bend: R = 100, 1 x 1 section, E = 1e7, nu = 0, tip load 600 along z
R, n = 100.0, 8
nodes = [(R - R * math.cos(math.pi / 4 * i / n), R * math.sin(math.pi / 4 * i / n), 0.0) for i in range(n + 1)]
msh = write_msh41(os.path.join(a.out, f"bend_np{a.np}.msh"), nodes, {"beam": [(i + 1, i + 2) for i in range(n)]}, {"root": [1], "tip": [n + 1]})
lam, d, _, _ = solve("bend", ["-mesh_file", msh, "-material_names", "m", "-material_m_E", "1e7", "-material_m_nu", "0", "-material_m_rho", "1",
                              "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "m", "-section_bar_geometry", "nonlinear",
                              "-section_bar_shape", "rectangle", "-section_bar_b", "1", "-section_bar_h", "1",
                              "-bc_names", "clamp", "-bc_clamp_group", "root", "-bc_clamp_dofs", "clamped",
                              "-load_names", "p", "-load_p_group", "tip", "-load_p_value", "0,0,600", "-static_increments", "6"])
tip = np.array(nodes[-1]) + d[-1, -1, :3]
for who, pub in (("Bathe and Bolourchi 1979", (15.9, 47.2, 53.4)), ("Simo and Vu-Quoc 1986", (15.79, 47.23, 53.37))):
    pub = np.array(pub)
    rel = np.linalg.norm(tip - pub) / np.linalg.norm(pub - np.array(nodes[-1]))
    c.check(rel < 1e-2, f"45-degree bend, 8 elements, P = 600: tip ({tip[0]:.2f}, {tip[1]:.2f}, {tip[2]:.2f}) vs {who} ({pub[0]}, {pub[1]}, {pub[2]}): "
            f"distance {np.linalg.norm(tip - pub):.3f} = {rel:.2e} of the tip displacement < 1e-2")

# 5. Lee's frame: two members of 120, E = 720, A = 6, I = 2, pinned ends, load at 24 from the corner; arc length
ne = 20
col = [(0.0, 120.0 * i / ne, 0.0) for i in range(ne + 1)]
beam = [(120.0 * i / ne, 120.0, 0.0) for i in range(1, ne + 1)]
nodes = col + beam
cells = [(i + 1, i + 2) for i in range(2 * ne)]
msh = write_msh41(os.path.join(a.out, f"lee_np{a.np}.msh"), nodes, {"beam": cells}, {"pins": [1, 2 * ne + 1], "load": [ne + 1 + ne // 5]})
Pref = 20.0
lam, d, _, so = solve("lee", ["-mesh_file", msh, "-material_names", "m", "-material_m_E", "7200", "-material_m_nu", "0.3", "-material_m_rho", "1",
                              "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "m", "-section_bar_geometry", "nonlinear",
                              "-section_bar_A", "6", "-section_bar_Iy", "2", "-section_bar_Iz", "2", "-section_bar_J", "4", "-section_bar_shear_rigid",
                              "-bc_names", "pin,plane", "-bc_pin_group", "pins", "-bc_pin_dofs", "ux,uy,uz", "-bc_plane_group", "beam", "-bc_plane_dofs", "uz,rx,ry",
                              "-load_names", "p", "-load_p_group", "load", "-load_p_value", f"0,{-Pref},0",
                              "-static_arclength", "-static_increments", "10", "-static_arclength_steps", "60"])
k = int(np.argmax(lam))
v = -d[:, ne + ne // 5, 1]
c.check(0 < k < len(lam) - 1 and lam[-1] < lam[k] and v[-1] > v[k], f"Lee's frame: the path passes the limit point (step {k + 1} of {len(lam)}; "
        f"load factor {lam[k]:.4f} then {lam[-1]:.4f}, deflection under the load {v[k]:.2f} then {v[-1]:.2f})")
# the top of the parabola through the three path points around the largest load factor (in the deflection)
cf = np.polyfit(v[k - 1:k + 2], lam[k - 1:k + 2], 2)
plim = max(lam[k], np.polyval(cf, -cf[1] / (2 * cf[0]))) * Pref
c.check(abs(plim - 18.5) / 18.5 < 1e-2, f"Lee's frame: limit load {plim:.3f} vs 18.5 published: {abs(plim - 18.5) / 18.5:.2e} < 1e-2")
c.done()
