"""Bad input and faults of nonlinear models (issue 14): one `flexure: error:` line, exit code 1 (input) or 2
(a solve that fails), no traceback, no hang, the results file readable where it was opened:
a geometry nonlinear section on shells names the section and its group; Newton that fails after the smallest step
prints the load factor, the residual history and a hint; an arc-length path that cannot continue says so; an
element whose length goes to zero, or that turns over (a full circle of a one-element cantilever: its ends turn by
0.9 pi against the chord at load factor 0.9), fails Newton's iteration, the step halves, and at the smallest step
the run stops (exit 2) with the load factor and the element's id and reason; an implicit transient whose Newton fails at the smallest step
allowed (-ts_newton_max_cuts) stops with the step, the time, the residual history of the last try and a hint
(exit 2), its results file readable with the frames written before; a full rotary inertia tensor in a linear model, one
not positive definite, or on a node with some rotations held, and a steady spin in a linear model, name what is wrong;
spring cells of non-zero length with translational stiffness (their rigid offsets are small-rotation terms) are
refused in nonlinear models, naming the cell and the section (rotational stiffness runs: check_rotational_springs.py),
while a rotational damper (it only dissipates) runs, its ledger balanced to round-off."""
import os
import re

from flxtest import SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"nl_errors_np{a.np}")
os.makedirs(d, exist_ok=True)
PLATE = os.path.join(SOURCE, "examples", "plate_modes", "case.yaml")
BAR = ["-mesh_generate", "beam", "-mesh_beam_elements", "4", "-material_names", "s", "-material_s_E", "210e9", "-material_s_nu", "0.3",
       "-material_s_rho", "7850", "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "s",
       "-section_bar_A", "4e-4", "-section_bar_Iy", "1.3e-8", "-section_bar_Iz", "1.3e-8", "-section_bar_J", "2.2e-8",
       "-section_bar_geometry", "nonlinear", "-bc_names", "c", "-bc_c_group", "root", "-bc_c_dofs", "clamped",
       "-output_file", os.path.join(d, "r.h5")]
LINK = os.path.join(d, "link.msh")  # a beam (0..1 m along x) and a spring cell of non-zero length (1..2 m), root at x = 0
with open(LINK, "w") as f:
    f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n3\n0 3 \"root\"\n1 1 \"beam\"\n1 2 \"link\"\n$EndPhysicalNames\n"
            "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 2 0 0\n$EndNodes\n$Elements\n3\n1 15 2 3 3 1\n2 1 2 1 1 1 2\n3 1 2 2 2 2 3\n$EndElements\n")
cases = [
    ("spring cell of non-zero length, nonlinear", 1, ["-mesh_file", LINK] + BAR[4:12] + ["-section_names", "bar,lk", "-section_lk_groups", "link",
                                                                                     "-section_lk_stiffness", "1e6,1e6,1e6,0,0,0", "-section_lk_axes", "global"] + BAR[14:],
     "(spring section 'lk') has length 1. m and translational stiffness: a spring cell of non-zero length joins its nodes by rigid offsets"),
    ("nonlinear shells", 1, ["static", PLATE, "-model_geometry", "nonlinear", "-output_file", os.path.join(d, "p.h5")],
     "geometry nonlinear is not available for shells yet"),
    ("Newton fails", 2, ["static"] + BAR + ["-load_names", "p", "-load_p_group", "tip", "-load_p_value", "0,0,0,0,0,1e6",
                                           "-static_increments", "1", "-static_newton_max_it", "3", "-static_max_cuts", "1"],
     "Newton did not converge at load factor 0.5 (increment 1 of 1, after 1 halvings"),
    ("arc length cannot continue", 2, ["static"] + BAR + ["-load_names", "p", "-load_p_group", "tip", "-load_p_value", "0,0,0,0,0,1e6",
                                                         "-static_arclength", "-static_arclength_length", "50", "-static_newton_max_it", "2", "-static_max_cuts", "1"],
     "the arc-length path cannot continue at step 1"),
    ("element length to zero", 2, ["static", "-mesh_generate", "beam", "-mesh_beam_elements", "1"] + BAR[4:] +
     ["-load_names", "p", "-load_p_group", "tip", "-load_p_value", "-8.4e7,0,0", "-section_bar_shear_rigid", "-static_increments", "1"],
     "the internal force failed at the last iterate: co-rotational element 0 (line2, group 'beam'): its length went to zero"),
    ("element turns over", 2, ["static", "-mesh_generate", "beam", "-mesh_beam_elements", "1"] + BAR[4:] +
     ["-load_names", "p", "-load_p_group", "tip", "-load_p_value", "0,0,0,0,0,17153", "-static_increments", "8"],
     "Newton did not converge at load factor 0.900024 (increment 8 of 8, after 10 halvings of the step, from load factor 0.899902); "
     "out-of-balance force per iteration: 2.09e+00 (element failed); the internal force failed at the last iterate: co-rotational element 0 "
     "(line2, group 'beam'): it turned over (an end rotated by more than 162 degrees against its chord)"),
    ("implicit Newton fails at the smallest step", 2, BAR + ["-load_names", "p", "-load_p_group", "tip", "-load_p_value", "0,100,0",
                                                              "-load_p_function", "step", "-load_p_t0", "4.5e-5", "-ts_max_time", "1e-4",
                                                              "-ts_type", "newmark", "-ts_dt", "1e-5", "-ts_newton_max_it", "1",
                                                              "-ts_newton_max_cuts", "2", "-output_file", os.path.join(d, "newton.h5")],
     "Newton did not converge in step 5 at t = 4.25e-05 s, even with the step cut to 2.5e-06 s (-ts_dt 1e-05 s halved 2 times, "
     "the most -ts_newton_max_cuts allows); out-of-balance force per iteration of the last try: 1.00e+02"),
    ("inertia tensor in a linear model", 1, BAR[:-2] + ["-section_bar_geometry", "linear", "-pointmass_names", "m", "-pointmass_m_group", "tip",
                                                       "-pointmass_m_mass", "1", "-pointmass_m_inertia_tensor", "1,1,2,0,0,0", "-ts_max_steps", "2",
                                                       "-output_file", os.path.join(d, "t1.h5")],
     "a full rotary inertia tensor (-section_NAME_rotary_inertia tensor, -pointmass_NAME_inertia_tensor) turns with its node"),
    ("inertia tensor not positive definite", 1, BAR[:-2] + ["-pointmass_names", "m", "-pointmass_m_group", "tip", "-pointmass_m_mass", "1",
                                                           "-pointmass_m_inertia_tensor", "1,1,-1,0,0,0", "-material_s_rho", "0",
                                                           "-ts_max_steps", "2", "-output_file", os.path.join(d, "t2.h5")],
     "its rotary inertia tensor is not positive definite"),
    ("inertia tensor, rotations partly held", 1, BAR[:-2] + ["-bc_names", "c,r", "-bc_r_group", "tip", "-bc_r_dofs", "rx", "-pointmass_names", "m",
                                                            "-pointmass_m_group", "tip", "-pointmass_m_mass", "1", "-pointmass_m_inertia_tensor", "1,1,2,0,0,0",
                                                            "-ts_max_steps", "2", "-output_file", os.path.join(d, "t3.h5")],
     "has a full rotary inertia tensor and only some of its rotations prescribed"),
    ("steady spin in a linear model", 1, BAR[:-2] + ["-section_bar_geometry", "linear", "-ic_names", "w", "-ic_w_type", "spin", "-ic_w_group", "beam",
                                                    "-ic_w_value", "0,0,10", "-ic_w_steady", "-ts_max_steps", "2", "-output_file", os.path.join(d, "t4.h5")],
     "-ic_w_steady needs finite rotations"),
]
for what, code, args, expect in cases:
    rc, so, se = run(a.np, args, timeout=60, check=False)
    lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    ok = rc == code and len(lines) == 1 and expect in lines[0] and "Traceback" not in se and "PETSC ERROR" not in se
    c.check(ok, f"{what}: exit {rc} (want {code}), {lines[0] if lines else se.strip()[-400:]}")
# the implicit run that stopped keeps its results file readable, with the frames before the failing step
import h5py  # noqa: E402

with h5py.File(os.path.join(d, "newton.h5"), "r") as f:
    frames = f["/fields/displacement"].shape[0]
    times = list(f["/time"][:])
c.check(frames == 5 and abs(times[-1] - 4e-5) < 1e-12, f"implicit Newton failure: the results file is readable, {frames} frames up to t = {times[-1]:g} s (want 5, to 4e-05 s)")
# a rotational damper to ground at the tip of the co-rotational cantilever, under a step load: accepted, and the
# gcd3 ledger (the damper's work included) balances to round-off
rc, so, se = run(a.np, BAR[:-2] + ["-spring_names", "g", "-spring_g_group", "tip", "-spring_g_stiffness", "1e3,1e3,1e3,0,0,0", "-spring_g_damping", "0,0,0,1e-3,1e-3,1e-3",
                                   "-load_names", "p", "-load_p_group", "tip", "-load_p_value", "0,50,0", "-load_p_function", "step", "-ts_dt", "2e-6",
                                   "-ts_gcd_solve", "fixed_point", "-ts_max_steps", "2000", "-output_file", os.path.join(d, "damper.h5")], timeout=60, check=False)
m = re.search(r"largest energy balance error (\S+) of the peak", so)
c.check(rc == 0 and m is not None and float(m.group(1)) < 1e-11, f"rotational damper in a nonlinear model: exit {rc}, energy balance {m.group(1) if m else se.strip()[-300:]} of the peak (1.4e-13 measured; < 1e-11)")
c.done()
