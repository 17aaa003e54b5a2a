"""Bad input of node sets, distributed loads and section shapes: one `flexure: error:` line naming the option and
the group, exit 1, no traceback, no hang.
- a line load on a group without beams or shell edges (a surface group; a point group);
- a line load or a boundary condition on a group that does not exist; a load on an empty group;
- a section shape with a missing, zero or negative dimension, an impossible one (tube t >= d/2), a dimension
  the shape does not take, or together with an explicit A;
- a group of cells without a section that nothing uses (the mesh's curve 'tip' of a shell model without its load);
- -load_NAME_axes on a load that is not a line load."""
import os
import subprocess

from flxtest import CASE, SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"results_errors_np{a.np}")
os.makedirs(d, exist_ok=True)
strip = os.path.join(d, "strip.msh")
subprocess.run(["gmsh", "-2", os.path.join(SOURCE, "meshes", "stiffened_plate.geo"), "-setnumber", "stiffener", "0", "-setnumber", "nx", "8",
                "-format", "msh41", "-o", strip], check=True, capture_output=True)
# the same mesh with a physical group that holds nothing
lines = open(strip).read().splitlines()
i = lines.index("$PhysicalNames")
empty = os.path.join(d, "empty_group.msh")
open(empty, "w").write("\n".join(lines[:i + 1] + [str(int(lines[i + 1]) + 1), '1 99 "nothing"'] + lines[i + 2:]) + "\n")

steel = ["-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850"]
beam = ["-mesh_generate", "beam", "-mesh_beam_elements", "8"] + steel + [
    "-section_names", "bar", "-section_bar_groups", "beam", "-section_bar_material", "steel",
    "-bc_names", "root", "-bc_root_group", "root", "static"]
rect = ["-section_bar_shape", "rectangle", "-section_bar_b", "0.02", "-section_bar_h", "0.04"]
shell = ["-mesh_file", strip] + steel + ["-section_names", "skin", "-section_skin_groups", "plate", "-section_skin_material", "steel",
                                         "-section_skin_thickness", "0.005", "-bc_names", "root", "-bc_root_group", "root", "static"]
plate = ["-mesh_generate", "plate", "-mesh_divisions", "4,4"] + steel + [
    "-section_names", "skin", "-section_skin_groups", "plate", "-section_skin_material", "steel", "-section_skin_thickness", "0.01",
    "-bc_names", "x0", "-bc_x0_group", "x0", "static"]
line = ["-load_names", "q", "-load_q_type", "line", "-load_q_value", "0,0,-100"]
cases = [
    ("line load on a surface group", plate + line + ["-load_q_group", "plate"],
     ["load 'q'", "a line load needs beam elements or shell edges", "group 'plate' (-load_q_group)"]),
    ("line load on a point group", beam + rect + line + ["-load_q_group", "tip"],
     ["load 'q'", "a line load needs beam elements or shell edges", "group 'tip' (-load_q_group)", "no line cells"]),
    ("line load on a group that does not exist", shell + line + ["-load_q_group", "edge"],
     ["load 'q' (-load_q_group)", "unknown physical group 'edge'", "root", "tip"]),
    ("node-set group that does not exist", shell + ["-load_names", "q", "-load_q_type", "line", "-load_q_group", "tip", "-load_q_value", "0,0,-1", "-bc_root_group", "clamp"],
     ["boundary condition 'root' (-bc_root_group)", "unknown physical group 'clamp'"]),
    ("load on an empty group", shell + ["-mesh_file", empty] + line + ["-load_q_group", "nothing"],
     ["load 'q'", "group 'nothing' (-load_q_group) is empty"]),
    ("shape with a missing dimension", beam + ["-section_bar_shape", "rectangle", "-section_bar_b", "0.02"],
     ["missing dimension", "section 'bar'", "-section_bar_h"]),
    ("shape with a zero dimension", beam + ["-section_bar_shape", "rectangle", "-section_bar_b", "0.02", "-section_bar_h", "0"],
     ["section 'bar' (-section_bar_shape rectangle)", "h = 0", "must be positive"]),
    ("shape with a negative dimension", beam + ["-section_bar_shape", "circle", "-section_bar_d", "-0.02"],
     ["section 'bar' (-section_bar_shape circle)", "d = -0.02", "must be positive"]),
    ("tube with t >= d/2", beam + ["-section_bar_shape", "tube", "-section_bar_d", "0.04", "-section_bar_t", "0.02"],
     ["section 'bar' (-section_bar_shape tube)", "t = 0.02 must be below d/2 = 0.02"]),
    ("dimension the shape does not take", beam + rect + ["-section_bar_d", "0.02"],
     ["section 'bar'", "-section_bar_d is not a dimension of a rectangle"]),
    ("shape and explicit A", beam + rect + ["-section_bar_A", "1e-3"],
     ["section 'bar'", "-section_bar_A and -section_bar_shape rectangle both given"]),
    ("cell group without a section that nothing uses", shell,
     ["physical group 'tip'", "line2 cells", "no section", "nothing uses it"]),
    ("axes on a force load", [CASE, "-load_tip_axes", "element"], ["-load_tip_axes applies to line loads only"]),
]
out = ["-output_file", os.path.join(d, "r.h5")]
for what, args, expect in cases:
    rc, so, se = run(a.np, args + out, timeout=120, check=False)
    errs = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    ok = rc == 1 and len(errs) == 1 and all(e in errs[0] for e in expect) and "PETSC ERROR" not in se + so and "Signal" not in se
    c.check(ok, f"{what}: exit {rc}, message: {errs[0] if errs else se.strip()[:300]!r}")
c.done()
