"""A free, torque-free body with finite rotations (issue 14, must-shows 6a and 7): a star of six steel arms (1 m,
2 co-rotational beams each) along +-x, +-y, +-z, whose inertia is isotropic, spinning at 10 rad/s about the skew
axis (1, 2, 3) (-ic_NAME_type spin), 10^4 explicit steps at the automatic step (~0.9 of the critical step of the
initial state).

Checks, from the results file:
- angular momentum sum m x x v + j omega (j the model's spherical nodal rotary inertia) at every frame: gcd3 keeps it to
  round-off (the central-difference step with spherical inertia and composed rotations conserves it exactly);
  gcd5 to its truncation error;
- total energy (kinetic with the method's velocities and rotary inertia, plus the ledger's strain energy) and the
  ledger's own balance: bounded, no drift;
- the body keeps turning about the fixed axis at the initial rate: the hub's angular velocity stays along the axis and
  its size at 10 rad/s, to within what the arms' centrifugal bending (rho A w^2 L^4 / (8 E I) ~ 5e-5 m on 1 m arms:
  the arms are stiff tubes) changes in the inertia, 1e-4;
- the explicit histories are bit-identical at 1, 2 and 4 ranks."""
import os

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "spinning_star")
os.makedirs(d, exist_ok=True)
E, RHO, AREA, I = 210e9, 7850.0, 1e-4, 1e-6
nodes, cells = [(0.0, 0.0, 0.0)], []
for ax in range(3):
    for sgn in (1, -1):
        prev = 1
        for k in (1, 2):
            p = [0.0, 0.0, 0.0]
            p[ax] = sgn * k / 2
            nodes.append(tuple(p))
            cells.append((prev, len(nodes)))
            prev = len(nodes)
mesh = write_msh41(os.path.join(d, "star.msh"), nodes, {"star": cells}, {"hub": [1]})
axis = np.array([1.0, 2.0, 3.0]) / np.sqrt(14.0)
w = 10.0 * axis
BASE = ["-mesh_file", mesh, "-material_names", "s", "-material_s_E", repr(E), "-material_s_nu", "0.3", "-material_s_rho", repr(RHO),
        "-section_names", "a", "-section_a_groups", "star", "-section_a_material", "s", "-section_a_A", repr(AREA),
        "-section_a_Iy", repr(I), "-section_a_Iz", repr(I), "-section_a_J", "2e-6", "-section_a_geometry", "nonlinear",
        "-ic_names", "w", "-ic_w_type", "spin", "-ic_w_group", "star", "-ic_w_value", ",".join(map(repr, w)),
        "-model_allow_rigid_body", "-ts_max_steps", "10000", "-output_frames", "20", "-ts_monitor_interval", "-1"]


def masses(f):
    """Nodal masses and the spherical rotary inertia the model lumps (largest diagonal entry in global axes)."""
    X, conn = f["mesh/coordinates"][:], f["mesh/line2/connectivity"][:]
    m, jd = np.zeros(len(X)), np.zeros((len(X), 3))
    for p, q in conn:
        L = np.linalg.norm(X[q] - X[p])
        e = (X[q] - X[p]) / L
        J = RHO * L / 2 * (2 * I * np.outer(e, e) + I * (np.eye(3) - np.outer(e, e)))
        for n in (p, q):
            m[n] += RHO * AREA * L / 2
            jd[n] += np.diag(J)
    return X, m, jd.max(axis=1)


def measure(h5):
    with h5py.File(h5, "r") as f:
        X, m, j = masses(f)
        u, v, t = f["fields/displacement"][:], f["fields/velocity"][:], f["time"][:]
        te, K, U, W = (f["energy/" + k][:] for k in ("time", "kinetic", "strain", "external_work"))
    Lm, En, dirdev, ratedev = [], [], 0.0, 0.0
    for k in range(len(t)):
        x, vt, om = X + u[k, :, :3], v[k, :, :3], v[k, :, 3:]
        Lm.append((m[:, None] * np.cross(x, vt)).sum(0) + (j[:, None] * om).sum(0))
        i = np.argmin(abs(te - t[k]))
        En.append(0.5 * (m * (vt**2).sum(1)).sum() + 0.5 * (j * (om**2).sum(1)).sum() + U[i])
        wh = om[0]  # the hub's angular velocity
        dirdev = max(dirdev, np.linalg.norm(wh / np.linalg.norm(wh) - axis))
        ratedev = max(ratedev, abs(np.linalg.norm(wh) / 10.0 - 1))
    Lm, En = np.array(Lm), np.array(En)
    B = K + U - W
    return dict(dL=np.abs(Lm - Lm[0]).max() / np.linalg.norm(Lm[0]), dE=np.abs(En - En[0]).max() / En[0],
                ledger=np.abs(B - B[0]).max() / B[0], dirdev=dirdev, ratedev=ratedev, turns=10.0 * t[-1] / (2 * np.pi), u=u, v=v)


res = {}
for preset, np_ in (("gcd3", 1), ("gcd3", 2), ("gcd3", 4), ("gcd5", 1)):
    h5 = os.path.join(d, f"{preset}_np{np_}.h5")
    run(np_, BASE + ["-ts_gcd_preset", preset, "-output_file", h5])
    res[preset, np_] = measure(h5)
r3, r5 = res["gcd3", 1], res["gcd5", 1]
c.check(r3["turns"] > 1, f"gcd3: {r3['turns']:.2f} turns in 10^4 steps")
c.check(r3["dL"] < 1e-13, f"gcd3: angular momentum kept to {r3['dL']:.2e} relative (round-off; tolerance 1e-13)")
c.check(r5["dL"] < 5e-8, f"gcd5: angular momentum kept to {r5['dL']:.2e} relative (truncation; tolerance 5e-8)")
c.check(r3["dE"] < 3e-7, f"gcd3: total energy within {r3['dE']:.2e} relative, bounded (tolerance 3e-7)")
c.check(r5["dE"] < 1e-7, f"gcd5: total energy within {r5['dE']:.2e} relative (tolerance 1e-7)")
c.check(r3["ledger"] < 1e-6 and r5["ledger"] < 5e-7, f"energy ledger balance (central-difference kinetic energy, O(h^2)): gcd3 {r3['ledger']:.2e}, gcd5 {r5['ledger']:.2e} of the energy (tolerances 1e-6, 5e-7)")
for p, r in (("gcd3", r3), ("gcd5", r5)):
    c.check(r["dirdev"] < 1e-4 and r["ratedev"] < 1e-4, f"{p}: the hub's angular velocity stays along the axis to {r['dirdev']:.1e} and at 10 rad/s to {r['ratedev']:.1e} relative (tolerance 1e-4: the arms' bending changes the inertia)")
for np_ in (2, 4):
    same = np.array_equal(r3["u"], res["gcd3", np_]["u"]) and np.array_equal(r3["v"], res["gcd3", np_]["v"])
    c.check(same, f"gcd3 at {np_} ranks: displacement and velocity histories bit-identical to 1 rank")
c.done()
