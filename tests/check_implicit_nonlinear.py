"""Implicit steppers with Newton on geometrically nonlinear models (issue 14, must-show 6b; src/steppers/alphanewton.c):
large-deflection beam dynamics run explicitly (gcd3, small step: the reference) and implicitly (newmark, hht,
genalpha, full Newton; on the right-angle cantilever genalpha also with modified Newton), histories compared after interpolating the explicit one
to the implicit times, relative to the peak of each history.

Both models use the section of Simo and Vu-Quoc (CMAME 66 (1988) 125, sec. 7.3): EA = GA = 1e6, EI = GJ = 1e3,
rho A = 1, rotary inertia rho I = diag(20, 10, 10) (spherical nodal inertia: the largest lumped value), co-rotational
beams of length 1:
- a cantilever of 10 beams (L = 10) under a tip force pulse 0 -> 40 over t in [0, 1], back to 0 at t = 2, free
  afterwards, to t = 10 s: tip rotation up to 85 degrees; tip ux, uy, rz;
- the right-angle cantilever of Simo and Vu-Quoc: two members of length 10 in the x-y plane (10 beams each),
  clamped at one end, an out-of-plane force at the elbow rising 0 -> 50 over [0, 1], back to 0 at t = 2, free
  afterwards, to t = 20 s; elbow and tip uz.
Explicit step 4e-4 s (below the critical step of the axial and shear waves), implicit steps 0.05 s; the issue asks
agreement within 1% of the peak. Newton iterations per step are read from the stepper's report (at most 5 with full
Newton: quadratic convergence with the T^-1 term of the rotational mass).
Step control: the cantilever with -ts_dt 0.1 and at most 2 corrections per step (-ts_newton_max_it 2) needs halved
steps during the pulse: the run completes, the step grows back (fewer than half the sub-steps a run at the smallest
step would take), the probes stay at the requested times and the history within 0.1% of the explicit one (the sub-steps are small)."""
import os
import re

import h5py
import numpy as np
from flxtest import Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "implicit_nonlinear")
os.makedirs(d, exist_ok=True)
SECTION = ["-material_names", "m", "-material_m_E", "1e6", "-material_m_nu", "0", "-material_m_rho", "1",
           "-section_names", "s", "-section_s_material", "m", "-section_s_A", "1", "-section_s_Iy", "1e-3", "-section_s_Iz", "1e-3",
           "-section_s_J", "2e-3", "-section_s_shear_correction", "2", "-section_s_rotary_inertia_scale", "1e4",
           "-section_s_geometry", "nonlinear", "-bc_names", "c", "-bc_c_group", "root", "-bc_c_dofs", "clamped",
           "-load_names", "p", "-load_p_function", "table", "-load_p_table", "0,0,1,1,2,0", "-ts_monitor_interval", "-1", "-output_frames", "4"]
CANTILEVER = ["-mesh_generate", "beam", "-mesh_beam_elements", "10", "-mesh_beam_length", "10", "-section_s_groups", "beam",
              "-load_p_group", "tip", "-load_p_value", "0,40,0", "-probe_names", "tip", "-probe_tip_group", "tip",
              "-probe_tip_dofs", "ux,uy,rz", "-ts_max_time", "10"] + SECTION
n = 10
nodes = [(0.0, 10.0 * i / n, 0.0) for i in range(n + 1)] + [(-10.0 * i / n, 10.0, 0.0) for i in range(1, n + 1)]
msh = write_msh41(os.path.join(d, "right_angle.msh"), nodes, {"frame": [(i + 1, i + 2) for i in range(2 * n)]},
                  {"root": [1], "elbow": [n + 1], "tip": [2 * n + 1]})
RIGHT_ANGLE = ["-mesh_file", msh, "-section_s_groups", "frame", "-load_p_group", "elbow", "-load_p_value", "0,0,50",
               "-probe_names", "elbow,tip", "-probe_elbow_group", "elbow", "-probe_elbow_dofs", "uz", "-probe_tip_group", "tip",
               "-probe_tip_dofs", "uz", "-ts_max_time", "20"] + SECTION


def histories(h5, probes):
    with h5py.File(h5, "r") as f:
        return {p: (f[f"probes/{p}/time"][:], f[f"probes/{p}/values"][:]) for p in probes}


def solve(name, model, probes, method):
    h5 = os.path.join(d, f"{name}_{method[1]}{'_' + method[-1] if len(method) > 4 else ''}.h5")
    _, so, _ = run(1, ["run"] + model + ["-ts_type"] + method[1:] + ["-output_file", h5])
    its = re.search(r"Newton iterations per step ([0-9.]+) on average \(at most (\d+)\)", so)
    halv = re.search(r"(\d+) halvings", so)
    return histories(h5, probes), its, halv, so


refs = {}
for name, model, probes, dofs in (("cantilever", CANTILEVER, ["tip"], ["ux", "uy", "rz"]),
                                  ("right_angle", RIGHT_ANGLE, ["elbow", "tip"], ["uz"])):
    ref, _, _, _ = solve(name, model, probes, ["gcd", "gcd", "-ts_dt", "4e-4"])
    refs[name] = ref
    peaks = {p: np.abs(ref[p][1]).max(axis=0) for p in probes}
    print(f"{name}: explicit peaks " + ", ".join(f"{p} {dof} {peaks[p][k]:.4g}" for p in probes for k, dof in enumerate(dofs)))
    if name == "cantilever":
        c.check(np.degrees(peaks["tip"][2]) > 45, f"cantilever: the tip turns beyond 45 degrees ({np.degrees(peaks['tip'][2]):.1f})")
    methods = [["newmark", "newmark", "-ts_dt", "0.05"], ["hht", "hht", "-ts_dt", "0.05"], ["genalpha", "genalpha", "-ts_dt", "0.05"]]
    if name == "right_angle":
        methods.append(["genalpha", "genalpha", "-ts_dt", "0.05", "-ts_newton_type", "modified"])
    for method in methods:
        hist, its, halv, _ = solve(name, model, probes, method)
        errs = []
        for p in probes:
            t, v = hist[p]
            tr, vr = ref[p]
            for k in range(v.shape[1]):
                errs.append(np.abs(np.interp(t, tr, vr[:, k]) - v[:, k]).max() / peaks[p][k])
        label = f"{name}, {' '.join(method[1:])}"
        full = len(method) == 4
        c.check(max(errs) <= 0.01, f"{label}: histories vs explicit gcd3 (dt 4e-4), largest difference / peak: "
                + ", ".join(f"{e:.2e}" for e in errs) + " (<= 1e-2)")
        c.check(its is not None and (float(its.group(1)) <= 3.5 and int(its.group(2)) <= 5 if full else float(its.group(1)) <= 8),
                f"{label}: Newton iterations per step {its.group(1) if its else '?'} on average, at most {its.group(2) if its else '?'}"
                + (" (full: <= 3.5, <= 5)" if full else " (modified: <= 8 on average)") + f"; {halv.group(1) if halv else '?'} halvings")

# step control: with at most 2 corrections per step (-ts_newton_max_it 2) Newton fails at the large steps of the
# pulse; the step is halved and grows back, the frames and probes stay at the requested times and the history at
# the explicit one's
ref = refs["cantilever"]
hist, _, _, so = solve("cantilever", CANTILEVER, ["tip"], ["newmark", "newmark", "-ts_dt", "0.1", "-ts_newton_max_it", "2"])
m = re.search(r"(\d+) steps, (\d+) halvings \(smallest step ([0-9.e+-]+) s\)", so)
nsub, ncut, hmin = int(m.group(1)), int(m.group(2)), float(m.group(3))
t, v = hist["tip"]
c.check(ncut > 0 and nsub < 0.5 * 10 / hmin, f"step control: {ncut} halvings down to {hmin:g} s, {nsub} steps in all (< half of the {10 / hmin:.0f} steps at the smallest: the step grew back)")
c.check(len(t) == 101 and np.abs(t - 0.1 * np.arange(101)).max() < 1e-12, f"step control: {len(t)} probe rows at the requested times k 0.1 s (largest offset {np.abs(t - 0.1 * np.arange(len(t))).max():.1e} s)")
errs = [np.abs(np.interp(t, ref["tip"][0], ref["tip"][1][:, k]) - v[:, k]).max() / np.abs(ref["tip"][1][:, k]).max() for k in range(3)]
c.check(max(errs) <= 1e-3, "step control: tip ux, uy, rz vs explicit gcd3, largest difference / peak " + ", ".join(f"{e:.2e}" for e in errs) + " (<= 1e-3)")
c.done()
