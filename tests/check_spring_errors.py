"""Bad input of springs, reactions, probes and history output: one `flexure: error:` line naming the option,
exit code 1, no traceback, no hang. A probe on a multi-node group is refused before the model is set up."""
import os

from flxtest import CASE, Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"spring_errors_np{a.np}")
os.makedirs(d, exist_ok=True)
nodes = []
for k in range(4):
    nodes += [(float(k), 0.0, 0.0)] * 2
msh = write_msh41(os.path.join(d, "pairs.msh"), nodes, {"spring": [(2 * k + 1, 2 * k + 2) for k in range(4)]}, {"ground": [1, 3, 5, 7], "mass": [2, 4, 6, 8]})
good = ["-mesh_file", msh, "-section_names", "s", "-section_s_groups", "spring", "-section_s_stiffness", "1,2,3,4,5,6", "-section_s_axes", "global",
        "-pointmass_names", "m,n", "-pointmass_m_group", "mass", "-pointmass_m_mass", "1", "-pointmass_m_inertia", "1,1,1",
        "-pointmass_n_group", "ground", "-pointmass_n_mass", "1", "-pointmass_n_inertia", "1,1,1",
        "-bc_names", "g", "-bc_g_group", "ground", "-ts_max_steps", "5", "-ts_monitor_interval", "-1", "-output_file", os.path.join(d, "r.h5")]
rc, _, se = run(a.np, good, check=False)
c.check(rc == 0, f"the reference model (masses on springs) runs {se.strip()[-200:]}")
cases = [
    ("spring on an unknown group", ["-spring_names", "x", "-spring_x_group", "nope", "-spring_x_stiffness", "1,1,1,1,1,1"], "spring 'x' (-spring_x_group): unknown physical group 'nope'"),
    ("spring without a group", ["-spring_names", "x", "-spring_x_stiffness", "1,1,1,1,1,1"], "spring 'x' has no group"),
    ("negative stiffness", ["-section_s_stiffness", "1,-2,3,4,5,6"], "-section_s_stiffness: ky = -2"),
    ("negative damping", ["-spring_names", "x", "-spring_x_group", "mass", "-spring_x_damping", "0,0,0,0,0,-1"], "-spring_x_damping: crz = -1"),
    ("three stiffness values", ["-section_s_stiffness", "1,2,3"], "-section_s_stiffness has 3 values: give six"),
    ("no stiffness and no damping", ["-spring_names", "x", "-spring_x_group", "mass"], "spring 'x' has no values"),
    ("axes not orthogonal", ["-section_s_axes", "1,0,0,1,1,0"], "-section_s_axes '1,0,0,1,1,0': the x and y axes are not orthogonal"),
    ("axes not six numbers", ["-spring_names", "x", "-spring_x_group", "mass", "-spring_x_stiffness", "1,1,1,1,1,1", "-spring_x_axes", "element"], "-spring_x_axes 'element': give global or"),
    ("zero-length cell with element axes", ["-section_s_axes", "element"], "a spring cell of zero length has no axis of its own"),
    ("a node held only by a spring without mass", ["-pointmass_names", "n"], "has no mass, and the explicit GCD step needs mass on every free DOF"),
    ("moment point with two coordinates", ["-bc_g_moment_point", "1,2"], "-bc_g_moment_point needs three coordinates"),
    ("history interval 0", ["-output_history_interval", "0"], "-output_history_interval 0 must be positive"),
]
pcases = [
    ("probe on a multi-node group", ["-probe_names", "p", "-probe_p_group", "beam"], "probe 'p': group 'beam' has 41 nodes"),
    ("probe node out of range", ["-probe_names", "p", "-probe_p_node", "41"], "probe 'p': node 41 (-probe_p_node) is not in the mesh, whose nodes are 0..40"),
    ("probe by node and by point", ["-probe_names", "p", "-probe_p_node", "3", "-probe_p_point", "0,0,0"], "give exactly one of -probe_p_node, -probe_p_group or -probe_p_point"),
    ("probe point with two coordinates", ["-probe_names", "p", "-probe_p_point", "0,0"], "-probe_p_point needs three coordinates"),
]
for what, args, expect in [(w, good + x, e) for w, x, e in cases] + [(w, [CASE, "-output_file", os.path.join(d, "c.h5")] + x, e) for w, x, e in pcases]:
    rc, so, se = run(a.np, args, timeout=60, check=False)
    lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    ok = rc == 1 and len(lines) == 1 and expect in lines[0] and "Traceback" not in se and "PETSC ERROR" not in se
    if what.startswith("probe on a multi"):
        ok = ok and "Model:" not in so  # refused before the model's set-up
    c.check(ok, f"{what}: exit {rc}, {lines[0] if lines else se.strip()[-300:]}")
c.done()
