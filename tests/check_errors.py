"""Bad input gets one clear error line, a nonzero exit and no crash or hang: a truncated .msh, an unknown
element type, a node id out of range, an unknown physical group, a missing material property, an
unconstrained model (no boundary condition; a pin, which leaves the rotations about it free, named; a clamp on a
node that no element connects; a beam hung on springs to clamped anchors, soft along one axis; a part of the mesh
that no element joins to the clamped one (nodes never merged); a beam hung on springs to anchors nothing holds; a
beam held through a spring that is soft about its axis; a static solve of a
free structure, even with -model_allow_rigid_body), a dt above the critical step, a misspelled option, a list
option with more values than it takes (PETSc drops the rest), a negative rotary inertia of a point mass, a FIFO or a
device as an input file (no hang), a generated mesh beyond 32-bit
indices, a section on a group of points, a zero -ts_max_energy_error or -ts_omega_rtol, -mesh_triangles with -mesh_mixed; for shells: zero or
negative thickness, a degenerate quad, a badly warped quad, an inverted (bow-tie) quad and a pressure on
beams, each naming the section, or the element and its group; a generator's option with a mesh file or with another
generator, shear areas given to an Euler-Bernoulli section; and (at 1 rank) a misspelled option given to
flexure-pendulum. Accepted: a slender clamped wire, parts held through springs, a duplicated element and an initial velocity on a
group with a clamped node (with notes that name the pair and the DOFs it does not move)."""
import os
import subprocess

from flxtest import BIN, CASE, SOURCE, Checker, args_np_out, run
from mshwrite import write_msh41

a = args_np_out()
c = Checker()
mesh = open(os.path.join(SOURCE, "meshes", "cantilever.msh")).read().splitlines()
d = os.path.join(a.out, f"bad_np{a.np}")
os.makedirs(d, exist_ok=True)
fifo = os.path.join(d, "table.fifo")
if not os.path.exists(fifo):
    os.mkfifo(fifo)


def write(name, lines):
    p = os.path.join(d, name)
    open(p, "w").write("\n".join(lines) + "\n")
    return p


truncated = write("truncated.msh", mesh[:40])
i = mesh.index("1 1 1 40")  # element block header: dim 1, entity 1, Gmsh type 1 (line), 40 elements
unknown = write("unknown_type.msh", mesh[:i] + ["1 1 8 40"] + mesh[i + 1:])
badnode = write("bad_node.msh", mesh[:i + 1] + ["3 1 99"] + mesh[i + 2:])
# a beam hung at its ends on zero-length spring cells (axes x = (1, 0, 1), y = (0, 1, 0)) to clamped anchor nodes
hungmsh = write_msh41(os.path.join(d, "hung.msh"), [(0.25 * k, 0.0, 0.0) for k in range(5)] + [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)],
                      {"beam": [(k + 1, k + 2) for k in range(4)], "spr": [(6, 1), (7, 5)]}, {"anchor": [6, 7]})
hung = ["-mesh_file", hungmsh, "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
        "-section_names", "bar,s", "-section_bar_groups", "beam", "-section_bar_material", "steel", "-section_bar_A", "4e-4",
        "-section_bar_Iy", "1.3e-8", "-section_bar_Iz", "1.3e-8", "-section_bar_J", "2.2e-8", "-section_s_groups", "spr",
        "-section_s_axes", "1,0,1,0,1,0", "-bc_names", "a", "-bc_a_group", "anchor", "-bc_a_dofs", "clamped", "-ts_max_steps", "3"]
# the clamp's group on a point apart from the beam (a Gmsh point not embedded in the curve): it holds nothing
orphan = write_msh41(os.path.join(d, "orphan.msh"), [(0.1 * k, 0.0, 0.0) for k in range(11)] + [(0.0, 0.5, 0.0)],
                     {"beam": [(k + 1, k + 2) for k in range(10)]}, {"root": [12], "tip": [11]})
# a beam whose mesh was never merged at its middle: node 12 doubles node 6, so elements 6-10 float free of the clamp
split = write_msh41(os.path.join(d, "split.msh"), [(0.1 * k, 0.0, 0.0) for k in range(11)] + [(0.5, 0.0, 0.0)],
                    {"beam": [(k + 1, k + 2) for k in range(10) if k != 5] + [(12, 7)]}, {"root": [1], "tip": [11]})
# two beams joined by a zero-length spring cell at x = 0.5, the first clamped at its root: the second is held through
# the spring (a part held by a part), unless the spring is soft about the beams' axis
twomsh = write_msh41(os.path.join(d, "two.msh"), [(0.1 * k, 0.0, 0.0) for k in range(6)] + [(0.5 + 0.1 * k, 0.0, 0.0) for k in range(6)],
                     {"a": [(k + 1, k + 2) for k in range(5)], "b": [(k + 7, k + 8) for k in range(5)], "spr": [(6, 7)]}, {"root": [1], "tip": [12]})
two = ["-mesh_file", twomsh, "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
       "-section_names", "bar,s", "-section_bar_groups", "a,b", "-section_bar_material", "steel", "-section_bar_A", "4e-4",
       "-section_bar_Iy", "1.3e-8", "-section_bar_Iz", "1.3e-8", "-section_bar_J", "2.2e-8", "-section_s_groups", "spr",
       "-section_s_axes", "global", "-bc_names", "r", "-bc_r_group", "root", "-bc_r_dofs", "clamped", "-ts_max_steps", "3"]

# command-line model without a case file (a generated beam), to drop the boundary condition
gen = ["-mesh_generate", "beam", "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3",
       "-material_steel_rho", "7850", "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "steel",
       "-section_bar_A", "4e-4", "-section_bar_Iy", "1.3e-8", "-section_bar_Iz", "1.3e-8", "-section_bar_J", "2.2e-8",
       "-load_names", "tip", "-load_tip_group", "tip", "-load_tip_value", "0,-100,0", "-ts_max_time", "0.001"]
out = ["-output_file", os.path.join(d, "r.h5")]
cases = [
    ("truncated .msh", [CASE, "-mesh_file", truncated], "truncated"),
    ("unknown element type", [CASE, "-mesh_file", unknown], "unknown or unsupported element type 8"),
    ("node id out of range", [CASE, "-mesh_file", badnode], "refers to node 99"),
    ("unknown physical group", [CASE, "-bc_clamp_group", "roots"], "unknown physical group 'roots'"),
    ("missing material property", [CASE, "-material_names", "steel,alu", "-material_alu_nu", "0.33", "-material_alu_rho", "2700"], "-material_alu_E"),
    ("unconstrained model", gen, "unconstrained"),
    ("beam pinned at one node (turns about it)", gen + ["-bc_names", "pin", "-bc_pin_group", "root", "-bc_pin_dofs", "ux,uy,uz"],
     "leave 3 rigid-body motions free: the rotation about the axis through (0, 0, 0) along"),
    ("beam pinned at both ends (twists about its axis)", gen + ["-bc_names", "pin,roll", "-bc_pin_group", "root", "-bc_pin_dofs", "ux,uy,uz",
                                                                "-bc_roll_group", "tip", "-bc_roll_dofs", "uy,uz"],
     "leave 1 rigid-body motion free: the rotation about the axis through (0.5, 0, 0) along (1, 0, 0)"),
    ("a FIFO as a table file (it would block the reader)", [CASE, "-load_tip_function", "table", "-load_tip_table_file", fifo],
     "-load_tip_table_file: " + fifo + " is not a regular file (a device, a FIFO or a socket)"),
    ("/dev/zero as the omega_max file", [CASE, "-ts_omega_max_file", "/dev/zero"], "-ts_omega_max_file: /dev/zero is not a regular file (a device, a FIFO or a socket)"),
    ("a generated mesh beyond 32-bit indices", gen + ["-mesh_beam_elements", "2000000000"], "-mesh_beam_elements: the generated mesh would have 2e+09 nodes"),
    ("a section on a group of points", [CASE, "-section_names", "bar,extra", "-section_extra_groups", "tip", "-section_extra_material", "steel",
                                        "-section_extra_A", "1", "-section_extra_Iy", "1", "-section_extra_Iz", "1", "-section_extra_J", "1"],
     "section 'extra' applies to no element: its groups (-section_extra_groups tip) hold no line, quad or triangle cells"),
    ("a list option with more values than it takes", [CASE, "-section_bar_orientation", "0,1,0,9"], "-section_bar_orientation takes at most 3 values; 4 were given"),
    ("a zero energy-error limit", [CASE, "-ts_max_energy_error", "0"], "-ts_max_energy_error 0.: give a positive multiple of the energy put in"),
    ("a zero omega_max tolerance", [CASE, "-ts_omega_rtol", "0"], "-ts_omega_rtol 0.: give the omega_max estimate's relative tolerance in (0, 1)"),
    ("negative rotary inertia of a point mass", [CASE, "-pointmass_names", "m", "-pointmass_m_group", "tip", "-pointmass_m_mass", "1", "-pointmass_m_inertia", "-1e-9,-1e-9,-1e-9"],
     "-pointmass_m_inertia must not be negative"),
    ("static solve of a free structure", ["static"] + gen + ["-model_allow_rigid_body"],
     "flexure static needs every rigid-body motion held (-model_allow_rigid_body accepts free structures in flexure run and modes only)"),
    ("a part that nothing holds (unmerged nodes)", [CASE, "-mesh_file", split],
     "the model is unconstrained: one of its 2 unconnected parts (the 6 nodes joined to node 6, centroid (0.75, 0, 0);"),
    ("a beam hung on springs to anchors that nothing holds", hung[:-8] + ["-ts_max_steps", "3", "-section_s_stiffness", "1e6,1e6,1e6,1e3,1e3,1e3", "-pointmass_names", "pm",
                                                                  "-pointmass_pm_group", "anchor", "-pointmass_pm_mass", "1", "-pointmass_pm_inertia", "1,1,1"],
     "the model is unconstrained: no boundary condition or spring to ground holds it, every rigid-body motion is free"),
    ("a part held by a spring soft about its axis", two + ["-section_s_stiffness", "1e6,1e6,1e6,0,1e3,1e3"],
     "one of its 2 unconnected parts (the 6 nodes joined to node 6, centroid (0.75, 0, 0); nodes at the same place that were never merged, or pieces nothing joins, make parts): its boundary conditions and springs to ground leave 1 rigid-body motion free: the rotation about the axis through (0.75, 0, 0) along (1, 0, 0)"),
    ("clamp on a node no element connects", [CASE, "-mesh_file", orphan], "6 prescribed DOFs have no stiffness at all, no element or spring acting on them"),
    ("beam hung on springs to clamped anchors, soft along the springs' z", hung + ["-section_s_stiffness", "1e6,1e6,0,1e3,1e3,1e3"],
     "leave 1 rigid-body motion free: the translation along (0.707, 0, -0.707)"),
    ("dt above the critical step", [CASE, "-ts_dt", "1e-5"], "above the critical step"),
    ("misspelled option", [CASE, "-ts_max_tme", "0.1"], "-ts_max_tme"),
    ("implicit stepper without a step", [CASE, "-ts_type", "genalpha"], "give the step with -ts_dt"),
    ("seventh force component", [CASE, "-load_tip_value", "0,-100,0,0,0,0,5"], "-load_tip_value has more than 6 values"),
    ("name of 70 characters", [CASE, "-load_names", "a" * 70, "-load_" + "a" * 70 + "_group", "tip", "-load_" + "a" * 70 + "_value", "0,1,0"], "must have 1 to 63 characters"),
    ("name given twice", [CASE, "-load_names", "tip,TIP"], "'TIP' is given twice"),
]


def plate_msh(name, xyz, quads):
    """A small MSH 4.1 plate: surface group 'plate' with the given quads, point group 'fix' at node 1."""
    n = len(xyz)
    lines = ["$MeshFormat", "4.1 0 8", "$EndMeshFormat", "$PhysicalNames", "2", '0 1 "fix"', '2 2 "plate"', "$EndPhysicalNames",
             "$Entities", "1 0 1 0", "1 0 0 0 1 1", "1 0 0 0 2 2 1 1 2 0", "$EndEntities",
             "$Nodes", f"2 {n} 1 {n}", "0 1 0 1", "1", " ".join(map(str, xyz[0])), f"2 1 0 {n - 1}"]
    lines += [str(k + 2) for k in range(n - 1)] + [" ".join(map(str, p)) for p in xyz[1:]]
    lines += ["$EndNodes", "$Elements", f"2 {len(quads) + 1} 1 {len(quads) + 1}", "0 1 15 1", "1 1", f"2 1 3 {len(quads)}"]
    lines += [f"{k + 2} " + " ".join(map(str, q)) for k, q in enumerate(quads)] + ["$EndElements"]
    return write(name, lines)


grid = [(x, y, 0.0) for y in (0, 0.5, 1) for x in (0, 0.5, 1)]
quads = [(1, 2, 5, 4), (2, 3, 6, 5), (4, 5, 8, 7), (5, 6, 9, 8)]
warped = list(grid)
warped[4] = (0.5, 0.5, 0.3)
degen = list(grid)
degen[4] = degen[1]
shell = ["-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
         "-section_names", "skin", "-section_skin_groups", "plate", "-section_skin_material", "steel", "-section_skin_thickness", "0.01",
         "-bc_names", "fix", "-bc_fix_group", "fix", "-bc_fix_dofs", "clamped", "static"]
cases += [
    ("zero shell thickness", shell[:-1] + ["-section_skin_thickness", "0", "-mesh_file", plate_msh("good.msh", grid, quads), "static"], "section 'skin' (groups plate): thickness"),
    ("negative shell thickness", shell[:-1] + ["-section_skin_thickness", "-0.01", "-mesh_file", plate_msh("good.msh", grid, quads), "static"], "must be positive"),
    ("degenerate quad", shell + ["-mesh_file", plate_msh("degenerate.msh", degen, quads)], "element 0 (quad4, group 'plate'): degenerate quad: two nodes coincide"),
    ("badly warped quad", shell + ["-mesh_file", plate_msh("warped.msh", warped, quads)], "(quad4, group 'plate'): warped quad: warp"),
    ("inverted quad", shell + ["-mesh_file", plate_msh("inverted.msh", grid, [(1, 2, 5, 4), (2, 3, 5, 6), (4, 5, 8, 7), (5, 6, 9, 8)])], "element 1 (quad4, group 'plate'): inverted quad"),
    ("pressure on beams", [CASE, "-load_names", "p", "-load_p_type", "pressure", "-load_p_group", "beam", "-load_p_value", "1e3"], "a pressure needs shell elements"),
    ("a generator's option with a mesh file", [CASE, "-mesh_triangles"], "-mesh_triangles applies to -mesh_generate plate|cylinder only, not to a mesh file"),
    ("triangles and a mixed mesh at once", ["-mesh_generate", "plate", "-mesh_triangles", "-mesh_mixed"] + shell[:-7],
     "give -mesh_triangles (triangles only) or -mesh_mixed (quads on the first half along x, triangles on the second), not both"),
    ("another generator's option", gen + ["-mesh_divisions", "4,4"], "-mesh_divisions applies to -mesh_generate plate|cylinder only, not to -mesh_generate beam"),
    ("shear areas of an Euler-Bernoulli beam", [CASE, "-section_bar_shear_rigid", "-section_bar_shear_areas", "1e-4,1e-4"],
     "-section_bar_shear_rigid (Euler-Bernoulli, no shear deformation) leaves no use for -section_bar_shear_areas"),
]
for what, args, expect in cases:
    rc, so, se = run(a.np, args + out, timeout=120, check=False)
    lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    ok = rc != 0 and len(lines) == 1 and expect in lines[0] and "PETSC ERROR" not in se + so and "Signal" not in se
    c.check(ok, f"{what}: exit {rc}, message: {lines[0] if lines else se.strip()[:300]!r}")
# slender is not free: a clamped 10 m steel wire of 1 mm diameter in 1000 beams. Its softest constrained rigid
# motion (turning about the clamp) has 1.6e-13 of the element bound omega_max^2, far above round-off (1e-17 and below)
wire = ["-mesh_generate", "beam", "-mesh_beam_length", "10", "-mesh_beam_elements", "1000", "-material_names", "steel",
        "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850", "-section_names", "w",
        "-section_w_groups", "beam", "-section_w_material", "steel", "-section_w_A", "7.854e-7", "-section_w_Iy", "4.909e-14",
        "-section_w_Iz", "4.909e-14", "-section_w_J", "9.817e-14", "-bc_names", "c", "-bc_c_group", "root", "-bc_c_dofs", "clamped",
        "-ts_max_steps", "5", "-ts_monitor_interval", "-1"]
rc, so, se = run(a.np, wire + out, timeout=120, check=False)
c.check(rc == 0 and "flexure: error" not in se, f"a clamped 10 m wire of 1000 beams (slender, not free) runs: exit {rc} {se.strip()[:200]!r}")
# a beam whose element 3 was copied (element 10 on the same nodes): runs, and the note names the pair
dupmsh = write_msh41(os.path.join(d, "dup.msh"), [(0.1 * k, 0.0, 0.0) for k in range(11)],
                     {"beam": [(k + 1, k + 2) for k in range(10)] + [(5, 4)]}, {"root": [1], "tip": [11]})
rc, so, se = run(a.np, [CASE, "-mesh_file", dupmsh, "-ts_max_steps", "3", "-ts_monitor_interval", "-1"] + out, timeout=120, check=False)
note = ("flexure: note: 1 element of the mesh repeats the nodes of another of its type (the first: line2 element 10 of group 'beam' "
        "repeats element 3 of group 'beam', natural order from 0): where sections take both")
c.check(rc == 0 and "flexure: error" not in se and note in so, f"a duplicated element runs and is named: exit {rc} {so.strip()[:400]!r}")
# an initial velocity on a group that holds the clamped root: taken elsewhere, and the root's one DOF it would move is named
rc, so, se = run(a.np, [CASE, "-ic_names", "v0", "-ic_v0_type", "velocity", "-ic_v0_group", "beam", "-ic_v0_value", "0,1,0,0,0,0",
                        "-ts_max_steps", "3", "-ts_monitor_interval", "-1"] + out, timeout=120, check=False)
note = "flexure: note: initial condition 'v0' gives non-zero values to 1 DOF that boundary conditions prescribe: it keeps its prescribed motion"
c.check(rc == 0 and "flexure: error" not in se and note in so, f"an initial velocity on a group with a clamped node runs and says so: exit {rc} {so.strip()[-300:]!r}")
rc, so, se = run(a.np, two + ["-section_s_stiffness", "1e6,1e6,1e6,1e3,1e3,1e3", "-ts_monitor_interval", "-1"] + out, timeout=120, check=False)
c.check(rc == 0 and "flexure: error" not in se, f"a beam held through a spring by a clamped beam runs: exit {rc} {se.strip()[:200]!r}")
rc, so, se = run(a.np, hung + ["-section_s_stiffness", "1e6,1e6,1e6,1e3,1e3,1e3", "-ts_monitor_interval", "-1"] + out, timeout=120, check=False)
c.check(rc == 0 and "flexure: error" not in se, f"the beam hung on springs stiff in every direction runs: exit {rc} {se.strip()[:200]!r}")
if a.np == 1:  # the examples reject misspelled options too
    p = subprocess.run([os.path.join(BIN, "flexure-pendulum"), "-ts_dt", "1e-3", "-ts_gcd_startp", "zero"], capture_output=True, text=True)
    ok = p.returncode != 0 and "flexure-pendulum: error: unknown or unused option -ts_gcd_startp" in p.stderr and "max_energy_error" not in p.stdout
    c.check(ok, f"flexure-pendulum, misspelled option: exit {p.returncode}, message: {p.stderr.strip()[:300]!r}")
c.done()
