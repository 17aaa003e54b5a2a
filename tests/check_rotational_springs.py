"""Rotational springs in geometrically nonlinear models, in motion (springrot.c; the forces, tangent and objectivity
are checked by nonlinear_rotational_springs_np*):
 - two bodies (point masses, spherical rotary inertia J) on coincident nodes joined by a zero-length spring of
   isotropic rotational stiffness k, spun in opposite senses about one axis: their relative rotation about it is
   alpha(t) = (w0 / W) sin(W t), W = sqrt(2 k / J), here to 2.5 rad (explicit gcd3 against it). Here, as in the
   cantilever below, the exact moment equals the small-rotation one (isotropic K, one axis): these two check the
   model runs finite rotations on springs end to end (the cantilever's Newton on the tangent's T^-1 part), the chain
   and nonlinear_rotational_springs_np* the exact form;
 - a chain of four bodies joined by rotational springs of non-zero length (anisotropic, in skew axes), each spun
   about another axis: it tumbles in 3D with relative rotations up to about 1 rad. Explicit gcd3: the total
   angular momentum J sum(omega) stays to round-off (each spring's moments on its nodes are opposite), the kinetic
   energy plus the springs' energy 1/2 phi . K phi computed here from the nodal rotations stays constant, and implicit
   generalized-alpha (Newton on the springs' tangent) follows the same motion (over 4 s); at 2 and 4 ranks the gcd3
   histories over 1 s are bit for bit those of 1 rank;
 - a bushing (a zero-length cell of anisotropic translational stiffness, axes carried by the hub's node) between a
   spinning hub and a body: the body's motion in the hub's frame against the exact solution of the rotating-frame
   equations (gcd3 and Newmark, 1 rank); at 2 and 4 ranks a tumbling chain of bushings cut by the partition bit for
   bit as at 1 rank;
 - statics: a cantilever of co-rotational beams on a rotational spring to ground, under an end moment, turns at its root
   by M / k and at its tip by M / k + M L / EI (1 and 2.5 rad), its tip on the arc;
 - a spring turned past 3 rad stops the run (exit 2) naming the spring, the node and the angle."""
import os
import re

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "rotational_springs")
os.makedirs(d, exist_ok=True)
J = 0.1


def skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def rexp(p):
    t = np.linalg.norm(p)
    if t < 1e-12:
        return np.eye(3) + skew(p)
    S = skew(p / t)
    return np.eye(3) + np.sin(t) * S + (1 - np.cos(t)) * S @ S


def rlog(R):
    t = np.arccos(np.clip((np.trace(R) - 1) / 2, -1, 1))
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    return w / 2 if t < 1e-12 else t / (2 * np.sin(t)) * w


def axes_matrix(k6, axes):
    """K_r in global axes: R^T diag(krx, kry, krz) R, R's rows the spring's x, y, z (y made orthogonal to x)."""
    x = np.array(axes[:3], float)
    y = np.array(axes[3:], float)
    x /= np.linalg.norm(x)
    y -= (y @ x) * x
    y /= np.linalg.norm(y)
    R = np.array([x, y, np.cross(x, y)])
    return R.T @ np.diag(k6[3:]) @ R


def probes(path, names):
    f = h5py.File(path, "r")
    return f["probes/" + names[0] + "/time"][:], {n: (f["probes/" + n + "/values"][:], f["probes/" + n + "/velocity"][:]) for n in names}


def bodies(names):
    opts = ["-pointmass_names", ",".join(names)]
    for n in names:
        opts += [f"-pointmass_{n}_group", n, f"-pointmass_{n}_mass", "1", f"-pointmass_{n}_inertia", f"{J},{J},{J}"]
    return opts


def spins(w):
    opts = ["-ic_names", ",".join("v" + n for n in w)]
    for n, om in w.items():
        opts += [f"-ic_v{n}_type", "velocity", f"-ic_v{n}_group", n, f"-ic_v{n}_value", "0,0,0," + ",".join(map(repr, om))]
    return opts


COMMON = ["-model_geometry", "nonlinear", "-model_allow_rigid_body", "-ts_monitor_interval", "-1"]

# --- two bodies, isotropic spring, relative rotation 2.5 rad about n
k = 2.0
W = np.sqrt(2 * k / J)
n = np.array([1.0, 2.0, 2.0]) / 3
amp = 2.5
pair = write_msh41(os.path.join(d, "pair.msh"), [(0, 0, 0), (0, 0, 0)], {"joint": [(1, 2)]}, {"a": [1], "b": [2]})
PAIR = ["-mesh_file", pair, "-section_names", "j", "-section_j_groups", "joint", "-section_j_stiffness", f"1e4,1e4,1e4,{k},{k},{k}",
        "-section_j_axes", "global", "-probe_names", "a,b", "-probe_a_group", "a", "-probe_b_group", "b"] + bodies(["a", "b"]) + COMMON
if a.np <= 2:
    out = os.path.join(d, f"pair_np{a.np}.h5")
    w0 = amp * W / 2
    run(a.np, PAIR + spins({"a": -w0 * n, "b": w0 * n}) + ["-ts_dt", "1e-4", "-ts_max_time", "2", "-output_file", out])
    t, p = probes(out, ["a", "b"])
    alpha = np.array([rlog(rexp(pa[3:6]).T @ rexp(pb[3:6])) @ n for pa, pb in zip(p["a"][0], p["b"][0])])
    exact = amp * np.sin(W * t)
    err = np.max(np.abs(alpha - exact)) / amp
    c.check(err < 1e-6, f"two bodies, isotropic spring: relative rotation to {np.max(np.abs(alpha)):.3f} rad against (w0/W) sin(W t): {err:.2e} of the amplitude (< 1e-6)")
    rc, so, se = run(a.np, PAIR + spins({"a": -1.3 * w0 * n, "b": 1.3 * w0 * n}) + ["-ts_dt", "1e-4", "-ts_max_time", "2", "-output_file", os.path.join(d, "past.h5")], check=False)
    lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    c.check(rc == 2 and len(lines) == 1 and "the rotational spring 'j' at the node at (0., 0., 0.) m has turned by 3.0" in lines[0] and "past 3.0 rad it is not modelled" in lines[0],
            f"a spring turned past 3 rad: exit {rc}: {lines[0] if lines else se[-300:]!r}")

# --- a bushing on a spinning hub: a zero-length cell with anisotropic translational stiffness (k1, k2, k3 along the
# hub's x, y, z; no rotational stiffness) joins a body of mass m to a hub (translations held, rotary inertia 1e6,
# so it spins at Omega about z to 1e-7) whose node carries the bushing's axes. Given a velocity v0 along x, the body
# moves in the hub's frame (q = R_hub^T u) by m (q'' + 2 Omega x q' + Omega x (Omega x q)) + diag(k) q = 0: that
# linear system solved exactly (eigenvectors) against gcd3 and Newmark. In axes fixed in space the body would see
# the stiffness turn under it: q off by the order of itself.
HUB = write_msh41(os.path.join(d, "hub.msh"), [(0, 0, 0), (0, 0, 0)], {"bush": [(1, 2)]}, {"hub": [1], "body": [2]})
kb, Om, v0 = np.array([400.0, 900.0, 100.0]), 10.0, 0.01
BUSH = ["-mesh_file", HUB, "-section_names", "b", "-section_b_groups", "bush", "-section_b_stiffness", ",".join(map(repr, kb)) + ",0,0,0",
        "-section_b_axes", "global", "-bc_names", "hold", "-bc_hold_group", "hub", "-bc_hold_dofs", "ux,uy,uz",
        "-pointmass_names", "hub,body", "-pointmass_hub_group", "hub", "-pointmass_hub_mass", "1", "-pointmass_hub_inertia", "1e6,1e6,1e6",
        "-pointmass_body_group", "body", "-pointmass_body_mass", "1", "-pointmass_body_inertia", f"{J},{J},{J}",
        "-ic_names", "spin,push", "-ic_spin_type", "velocity", "-ic_spin_group", "hub", "-ic_spin_value", f"0,0,0,0,0,{Om!r}",
        "-ic_push_type", "velocity", "-ic_push_group", "body", "-ic_push_value", f"{v0!r},0,0,0,0,0",
        "-probe_names", "hub,body", "-probe_hub_group", "hub", "-probe_body_group", "body", "-ts_max_time", "2", "-output_frames", "4"] + COMMON
A4 = np.array([[0, 0, 1, 0], [0, 0, 0, 1], [Om**2 - kb[0], 0, 0, 2 * Om], [0, Om**2 - kb[1], -2 * Om, 0]])
lam, V = np.linalg.eig(A4)
if a.np == 1:  # both nodes land on one rank at any rank count: the parallel case is the chain of bushings below
    for ts, dt, tol in (("gcd", "1e-4", 2e-5), ("newmark", "1e-3", 4e-3)):
        out = os.path.join(d, f"hub_{ts}_np{a.np}.h5")
        run(a.np, BUSH + ["-ts_type", ts, "-ts_dt", dt, "-output_file", out])
        t, p = probes(out, ["hub", "body"])
        q = np.array([rexp(ph[3:6]).T @ pb[:3] for ph, pb in zip(p["hub"][0], p["body"][0])])
        y = np.real(np.array([V @ (np.exp(lam * tk) * np.linalg.solve(V, [0, 0, v0, 0])) for tk in t]))
        amp = np.max(np.abs(y[:, :2]))
        err = np.max(np.abs(q[:, :2] - y[:, :2])) / amp
        spin = np.max(np.abs(p["hub"][1][:, 5] - Om)) / Om
        c.check(err < tol and np.max(np.abs(q[:, 2])) < 1e-12 * amp and spin < 1e-6,
                f"bushing on a hub spinning at {Om:g} rad/s ({ts}, dt = {dt}): the body in the hub's frame against the exact motion: {err:.2e} of the amplitude {amp:.3e} m (< {tol:g}), hub spin within {spin:.1e}")
if a.np > 1:  # four bodies on coincident nodes, a chain of three bushings with rotational stiffness, tumbling: the
    # partition cuts bushings, so a rank holds a node of one as a ghost (its quaternion from its owner)
    bush4 = write_msh41(os.path.join(d, "bush4.msh"), [(0, 0, 0)] * 4, {"bush": [(1, 2), (2, 3), (3, 4)]}, {q: [i + 1] for i, q in enumerate("abcd")})
    B4 = ["-mesh_file", bush4, "-section_names", "b", "-section_b_groups", "bush", "-section_b_stiffness", "400,900,100,3,1.5,0.8", "-section_b_axes", "1,1,0,-1,1,1",
          "-probe_names", "a,b,c,d"] + sum(([f"-probe_{q}_group", q] for q in "abcd"), []) + bodies(list("abcd")) + COMMON + \
        ["-ic_names", "v", "-ic_v_type", "velocity", "-ic_v_group", "a", "-ic_v_value", "0.01,0,0.02,1.5,-0.5,1.0", "-ts_dt", "1e-4", "-ts_max_time", "0.5", "-output_frames", "2"]
    o2, o1 = os.path.join(d, f"bush4_np{a.np}.h5"), os.path.join(d, f"bush4_np1_for_np{a.np}.h5")
    _, so2, _ = run(a.np, B4 + ["-output_file", o2])
    run(1, B4 + ["-output_file", o1])
    (_, q2), (_, q1) = probes(o2, list("abcd")), probes(o1, list("abcd"))
    cut = re.search(r"edge cut (\d+)", so2)
    c.check(cut and int(cut.group(1)) > 0 and all(np.array_equal(q1[n][0], q2[n][0]) and np.array_equal(q1[n][1], q2[n][1]) for n in "abcd"),
            f"a chain of bushings cut by the partition (edge cut {cut.group(1) if cut else '?'}), tumbling: the probe histories at {a.np} ranks bit for bit those of 1 rank")

# --- statics: a cantilever of co-rotational beams on a rotational spring to ground (pinned root, isotropic k) under
# an end moment M: the root turns by M / k, every element by M l / EI, so the tip by M / k + M L / EI (here 1 and
# 2.5 rad), and the beam is an arc of curvature M / EI starting at the angle M / k
E, I, L = 210e9, 1.0 / 75000.0, 1.0
M = 1.5 * E * I / L
kr = M / 1.0
h5 = os.path.join(d, f"semirigid_np{a.np}.h5")
run(a.np, ["static", "-mesh_generate", "beam", "-mesh_beam_elements", "20", "-model_geometry", "nonlinear", "-material_names", "steel",
           "-material_steel_E", repr(E), "-material_steel_nu", "0.3", "-material_steel_rho", "7850", "-section_names", "bar",
           "-section_bar_groups", "beam", "-section_bar_material", "steel", "-section_bar_A", "4e-4", "-section_bar_Iy", repr(I),
           "-section_bar_Iz", repr(I), "-section_bar_J", "2.25e-8", "-bc_names", "pin", "-bc_pin_group", "root", "-bc_pin_dofs", "ux,uy,uz",
           "-spring_names", "base", "-spring_base_group", "root", "-spring_base_stiffness", f"0,0,0,{kr!r},{kr!r},{kr!r}",
           "-load_names", "m", "-load_m_group", "tip", "-load_m_value", f"0,0,0,0,0,{M!r}", "-static_increments", "4", "-output_file", h5])
with h5py.File(h5, "r") as f:
    u = f["/static/displacement"][:]
root, tip = u[0, 3:6], u[-1, 3:6]
p0, kap = M / kr, M / (E * I)
circle = np.array([(np.sin(p0 + kap * L) - np.sin(p0)) / kap - L, (np.cos(p0) - np.cos(p0 + kap * L)) / kap])
rerr = max(np.linalg.norm(root - [0, 0, p0]), np.linalg.norm(tip - [0, 0, p0 + kap * L]))
perr = np.linalg.norm(u[-1, :2] - circle) / L
c.check(rerr < 1e-12 and perr < 5e-4, f"cantilever on a rotational spring, end moment: root and tip rotations {root[2]:.9f}, {tip[2]:.9f} rad against M/k = {p0:g} and M/k + ML/EI = {p0 + kap * L:g} ({rerr:.1e} < 1e-12), tip {perr:.1e} L off the arc (< 5e-4)")

# --- a tumbling chain of four bodies, rotational springs of non-zero length in skew axes
chain = write_msh41(os.path.join(d, "chain.msh"), [(0, 0, 0), (0.3, 0, 0), (0.6, 0.1, 0), (0.9, 0.1, 0.2)], {"link": [(1, 2), (2, 3), (3, 4)]},
                    {"a": [1], "b": [2], "c": [3], "d": [4]})
K6, AXES = [0, 0, 0, 3.0, 1.5, 0.8], [1, 1, 0, -1, 1, 1]
W4 = {"a": [1.5, -0.5, 1.0], "b": [-1.0, 2.0, 0.5], "c": [0.5, 0.5, -2.0], "d": [2.0, -1.0, 0.0]}
CHAIN = ["-mesh_file", chain, "-section_names", "s", "-section_s_groups", "link", "-section_s_stiffness", ",".join(map(repr, K6)),
         "-section_s_axes", ",".join(map(repr, AXES)), "-probe_names", "a,b,c,d"] + sum(([f"-probe_{q}_group", q] for q in "abcd"), []) + \
    bodies(list("abcd")) + spins(W4) + COMMON + ["-ts_dt", "1e-3"]
# 4 s at 1 rank; at 2 and 4 ranks 1 s (1000 steps compared bit for bit with 1 rank) and 10 frames (a frame costs
# 17 ms at 4 ranks on 2 cores: 8 s to 1.4 s)
CHAIN += ["-ts_max_time", "4" if a.np == 1 else "1", "-output_frames", "400" if a.np == 1 else "10"]
out = os.path.join(d, f"chain_gcd3_np{a.np}.h5")
run(a.np, CHAIN + ["-output_file", out])
t, p = probes(out, list("abcd"))
L = J * sum(p[q][1][:, 3:6] for q in "abcd")
Lerr = np.max(np.linalg.norm(L - L[0], axis=1)) / np.linalg.norm(L[0])
Kr = axes_matrix(K6, AXES)
phi = [np.array([rlog(rexp(pa[3:6]).T @ rexp(pb[3:6])) for pa, pb in zip(p[u][0], p[v][0])]) for u, v in ("ab", "bc", "cd")]
U = sum(0.5 * np.einsum("ti,ij,tj->t", f, Kr, f) for f in phi)
big = max(np.max(np.linalg.norm(f, axis=1)) for f in phi)
c.check(Lerr < 1e-12, f"tumbling chain, gcd3: total angular momentum J sum(omega) constant to {Lerr:.1e} (< 1e-12); relative rotations up to {big:.2f} rad")
E = h5py.File(out, "r")["energy/kinetic"][:] + U  # the run's kinetic energy (at the probes' steps) and the springs' from the rotations
evar = (E.max() - E.min()) / E.max()
c.check(evar < 2e-5, f"tumbling chain, gcd3: kinetic + the springs' energy 1/2 phi.K phi (from the nodal rotations) constant to {evar:.1e} (< 2e-5; the method's O(h^2); 0.95 with the small-rotation spring)")
if a.np == 1:
    ga = os.path.join(d, "chain_genalpha.h5")
    _, so, _ = run(1, CHAIN + ["-ts_type", "genalpha", "-output_file", ga])
    tg, pg = probes(ga, list("abcd"))
    dev = max(np.linalg.norm(rlog(rexp(r1[3:6]).T @ rexp(r2[3:6]))) for q in "abcd" for r1, r2 in zip(pg[q][0], p[q][0]))
    c.check(dev < 1e-4, f"tumbling chain: implicit generalized-alpha (Newton) against gcd3, nodal rotations within {dev:.1e} rad (< 1e-4)")
else:
    ref = os.path.join(d, f"chain_gcd3_ref_for_np{a.np}.h5")
    run(1, CHAIN + ["-output_file", ref])
    _, p1 = probes(ref, list("abcd"))
    same = all(np.array_equal(p1[q][0], p[q][0]) and np.array_equal(p1[q][1], p[q][1]) for q in "abcd")
    c.check(same, f"tumbling chain, gcd3 at {a.np} ranks: probe histories bit for bit those of 1 rank")
c.done()
