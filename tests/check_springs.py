"""Discrete springs and dampers against closed forms (issue 12, must-show 5, springs):
 - masses on springs: four zero-length spring cells (stiffness in rotated, given axes) each holding a point
   mass: `flexure modes` gives sqrt(k/m) and sqrt(k_r/J) for the six spring directions to 1e-8 (asked: 1e-6);
 - a beam on elastic supports: a free-free beam with springs to ground at its nodes, proportional to the nodal
   masses (k = s m in every DOF): its six rigid-body modes move to sqrt(s) and every flexible mode to
   sqrt(omega_0^2 + s), omega_0 the beam without springs, to 1e-8;
 - (1 and 2 ranks) a mass on a spring and a damper (a spring cell): the free decay follows the exact damped solution
   x = v0/w_d exp(-zeta w t) sin(w_d t) (conditionally explicit GCD: the damper's C_d in the KSP operator;
   generalized-alpha and Newmark: C_d in K_eff), and the energy ledger balances with the damper's dissipation;
 - (1 and 2 ranks) a dashpot to ground at the tip of the example cantilever: flexure's generalized-alpha gives PETSc TSALPHA2's
   history (flexure-tsalpha2 with C_d in its I-function and Jacobian) to 1e-8."""
import os
import subprocess

import h5py
import numpy as np
from flxtest import BIN, CASE, MPI_ENV, SOURCE, Checker, args_np_out, launcher, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"springs_np{a.np}")
os.makedirs(d, exist_ok=True)
mon = ["-ts_monitor_interval", "-1"]

# --- masses on springs: 4 pairs (ground, mass) of coincident nodes joined by a zero-length spring cell
K6 = np.array([1000.0, 2000.0, 3000.0, 40.0, 50.0, 60.0])
C6 = np.array([5.0, 0, 0, 0, 0, 0.02])
m, J = 2.5, 0.1
nodes, cells = [], []
for k in range(4):
    nodes += [(k * 1.0, 0.5 * k, 0.0)] * 2
    cells.append((2 * k + 1, 2 * k + 2))
msh = write_msh41(os.path.join(d, "masses.msh"), nodes, {"spring": cells}, {"ground": [1, 3, 5, 7], "mass": [2, 4, 6, 8]})
axes = "1,1,0,-1,1,0"  # spring x along (1,1,0), y along (-1,1,0): in the global x-y plane, so an isotropic inertia decouples
model = ["-mesh_file", msh, "-section_names", "s", "-section_s_groups", "spring", "-section_s_stiffness", ",".join(map(repr, K6)),
         "-section_s_axes", axes, "-pointmass_names", "m,g", "-pointmass_m_group", "mass", "-pointmass_m_mass", repr(m),
         "-pointmass_m_inertia", f"{J},{J},{J}", "-pointmass_g_group", "ground", "-pointmass_g_mass", "1", "-pointmass_g_inertia", "1,1,1",
         "-bc_names", "g", "-bc_g_group", "ground", "-bc_g_dofs", "clamped"]
out = os.path.join(d, "masses_modes.h5")
run(a.np, ["modes"] + model + ["-modes_n", "24", "-output_file", out])
f = np.sort(h5py.File(out, "r")["modes/frequency"][:])
exact = np.sort(np.repeat(np.sqrt(K6 / np.array([m, m, m, J, J, J])) / (2 * np.pi), 4))
rel = np.max(np.abs(f - exact) / exact)
c.check(len(f) == 24 and rel < 1e-8, f"masses on zero-length springs in given axes: 24 frequencies = sqrt(k/m), sqrt(k_r/J) (4 each) to {rel:.1e} (< 1e-8; asked 1e-6)")

# --- a free-free beam on springs to ground proportional to its nodal masses
ne, rho, A, Iy, Iz = 20, 7850.0, 4e-4, 1.3333333333333333e-8, 2.0e-8
Le = 1.0 / ne
mn = rho * A * Le
jn = [rho * Le * (Iy + Iz), rho * Le * Iz, rho * Le * Iy]  # nodal rotary inertia about global x, y, z (local y = global Z)
s = 1.0e6
beam = ["-mesh_generate", "beam", "-mesh_beam_elements", str(ne), "-material_names", "steel", "-material_steel_E", "210e9",
        "-material_steel_nu", "0.3", "-material_steel_rho", repr(rho), "-section_names", "bar", "-section_bar_groups", "beam",
        "-section_bar_material", "steel", "-section_bar_A", repr(A), "-section_bar_Iy", repr(Iy), "-section_bar_Iz", repr(Iz),
        "-section_bar_J", "2.25e-8"]
ends = ",".join(repr(x / 2) for x in jn)  # the end nodes get half the mass of the others: complete it
beam += ["-pointmass_names", "r,t", "-pointmass_r_group", "root", "-pointmass_r_mass", repr(mn / 2), "-pointmass_r_inertia", ends,
         "-pointmass_t_group", "tip", "-pointmass_t_mass", repr(mn / 2), "-pointmass_t_inertia", ends, "-modes_n", "14"]
springs = ["-spring_names", "soil", "-spring_soil_group", "beam", "-spring_soil_stiffness", ",".join(repr(s * x) for x in [mn, mn, mn] + jn)]


def frequencies(name, opts):
    path = os.path.join(d, name)
    run(a.np, ["modes"] + opts + ["-output_file", path])
    with h5py.File(path, "r") as h:
        return h["modes/frequency"][:]


f0 = frequencies("beam0.h5", beam)
f1 = frequencies("beam1.h5", beam + springs)
fs = np.sqrt(s) / (2 * np.pi)
rel0 = np.max(np.abs(f1[:6] / fs - 1))
c.check(np.all(f0[:6] == 0) and rel0 < 1e-8, f"free-free beam on elastic supports: 6 rigid-body modes at sqrt(k/m) = {fs:.6f} Hz to {rel0:.1e} (< 1e-8; asked 1e-6)")
pred = np.sqrt(f0[6:] ** 2 + fs**2)
rel1 = np.max(np.abs(f1[6:] / pred - 1))
c.check(rel1 < 1e-8, f"free-free beam on elastic supports: flexible modes at sqrt(f_0^2 + k/(4 pi^2 m)) ({f1[6]:.4f} ... {f1[-1]:.4f} Hz) to {rel1:.1e} (< 1e-8; asked 1e-6)")

# --- free decay of the masses on springs and dampers, initial velocity (1, 1, 0) (= sqrt(2) along the spring's x) and 1 rad/s about z
decay = model + ["-section_s_damping", ",".join(map(repr, C6)), "-ic_names", "v", "-ic_v_group", "mass", "-ic_v_type", "velocity",
                 "-ic_v_value", "1,1,0,0,0,1", "-probe_names", "m", "-probe_m_node", "1", "-ts_max_time", "0.2", "-output_frames", "2"] + mon


def exact_decay(t, k, mass, cc, v0):
    w = np.sqrt(k / mass)
    z = cc / (2 * np.sqrt(k * mass))
    wd = w * np.sqrt(1 - z * z)
    return v0 / wd * np.exp(-z * w * t) * np.sin(wd * t)


hist = {}
for name, opts, tol, btol in () if a.np > 2 else (("gcd3 (C_d in the conditionally explicit KSP step)", ["-ts_dt", "1e-4"], 1e-5, 1e-12),
                              ("generalized-alpha", ["-ts_type", "genalpha", "-ts_dt", "1e-4"], 2e-5, None),
                              ("trapezoidal Newmark", ["-ts_type", "newmark", "-ts_dt", "1e-4"], 2e-5, 5e-10)):
    out = os.path.join(d, "decay.h5")
    _, so, _ = run(a.np, decay + opts + ["-output_file", out])
    with h5py.File(out, "r") as h:
        t, u = h["probes/m/time"][:], h["probes/m/values"][:]
        e = h["energy"]
        B = e["kinetic"][:] + e["strain"][:] - e["external_work"][:] + e["damping"][:]
        D = e["damping"][-1]
        N = e["numerical_dissipation"][-1]
    hist[name] = u
    x = (u[:, 0] + u[:, 1]) / np.sqrt(2)
    ex, er = exact_decay(t, K6[0], m, C6[0], np.sqrt(2)), exact_decay(t, K6[5], J, C6[5], 1.0)
    errx, errr = np.max(np.abs(x - ex)) / np.max(np.abs(ex)), np.max(np.abs(u[:, 5] - er)) / np.max(np.abs(er))
    c.check(errx < tol and errr < tol, f"{name}: damped free decay along the spring's x {errx:.1e}, about z {errr:.1e} from the exact solution (< {tol:g}), dt 1e-4")
    if btol is not None:
        bal = np.max(np.abs(B - B[0])) / B[0]
        c.check(bal < btol and D > 0.25 * B[0], f"{name}: energy ledger with the dampers' work {D:.6f} J of {B[0]:.4f} J: balance error {bal:.1e} (< {btol:g})")
    else:
        c.check(D > 0.25 * B[0] and abs(N) < 1e-6 * B[0], f"{name}: the dampers took {D:.6f} J of {B[0]:.4f} J, the method's numerical dissipation {N:.1e} J (|.| < 1e-6 of it)")

# --- consistent mass: the point masses and the springs' (empty) blocks are in M_c, so Newmark gives the lumped history
if a.np <= 2:
    out = os.path.join(d, "decay_consistent.h5")
    run(a.np, decay + ["-ts_type", "newmark", "-ts_dt", "1e-4", "-ts_alpha_mass", "consistent", "-output_file", out])
    with h5py.File(out, "r") as h:
        u = h["probes/m/values"][:]
    lump = hist["trapezoidal Newmark"]
    rel = np.max(np.abs(u - lump)) / np.max(np.abs(lump))
    c.check(rel < 1e-12, f"trapezoidal Newmark with consistent mass (point masses only): the lumped history to {rel:.1e} (< 1e-12)")

# --- generalized-alpha with a dashpot against PETSc TSALPHA2 (1 and 2 ranks: the 4-rank case adds nothing to springs_same_at_1_2_4_ranks)
if a.np > 2:
    c.done()
dash = ["-spring_names", "dash", "-spring_dash_group", "tip", "-spring_dash_damping", "0,3,0,0,0,0", "-load_tip_function", "ramp", "-load_tip_t1", "0.01"]
H, NS = 1e-4, 300
out = os.path.join(d, "dash.h5")
run(a.np, [CASE] + dash + ["-ts_type", "genalpha", "-ts_dt", repr(H), "-ts_max_steps", str(NS), "-ts_ksp_type", "preonly", "-ts_pc_type", "cholesky",
                           "-output_frames", "1", "-output_file", out] + mon)
with h5py.File(out, "r") as h:
    dofs = h["probes/tip"].attrs["dofs"]
    dofs = (dofs.decode() if isinstance(dofs, bytes) else str(dofs)).split(",")
    t, u = h["probes/tip/time"][:], h["probes/tip/values"][:, dofs.index("uy")]
csv = os.path.join(d, "dash_tsalpha2.csv")
env = dict(os.environ, **MPI_ENV)
cmd = launcher(a.np) + [os.path.join(BIN, "flexure-tsalpha2"), CASE] + dash + ["-alpha2_ksp_type", "preonly", "-alpha2_pc_type", "cholesky",
                                                                                     "-tsalpha2_dt", repr(H), "-tsalpha2_steps", str(NS), "-tsalpha2_probe_node", "1",
                                                                                     "-tsalpha2_probe_dof", "1", "-tsalpha2_output", csv]
p = subprocess.run(cmd, cwd=SOURCE, env=env, capture_output=True, text=True, timeout=120)
ok = p.returncode == 0
rel = float("inf")
if ok:
    ref = np.loadtxt(csv)
    ok = ref.shape[0] == len(u) and np.max(np.abs(ref[:, 0] - t)) < 1e-12
    rel = np.max(np.abs(ref[:, 1] - u)) / np.max(np.abs(u)) if ok else rel
else:
    print(p.stdout, p.stderr)
c.check(ok and rel < 1e-8, f"generalized-alpha with a dashpot to ground at the tip: max |flexure - TSALPHA2| / max |u| = {rel:.1e} over {NS} steps (< 1e-8)")
c.done()
