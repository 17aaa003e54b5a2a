"""Shell stresses in a consistent frame (issue 12, must-show 6). The simply supported plate under pressure
(examples/plate_modes, 32 x 32, 1000 Pa) on the quad mesh and on the mixed quad/triangle mesh
(-mesh_generate plate -mesh_mixed: triangles on the half x > 0.5):
- /static/shell_stresses/TYPE (x the projection of global X, the default -output_shell_axis): on the triangle
  half, the largest and mean jumps of sxx, syy, sxy between neighbouring elements are below those of the quad
  mesh on the same half (no checkerboard), while in the element frame (/static/shell_resultants) the triangles'
  jumps are several times larger (their x axes alternate between the edge directions);
- the centre von Mises stress (mean over the elements around the centre node; there sxx = syy, so von Mises =
  6 M / t^2) matches Navier's series within 2%, top and bottom, on both meshes;
- on the quad mesh the element frame is the consistent frame: both fields agree (1e-12);
- -output_shell_axis 0,1,0 swaps sxx and syy;
- a traction (0, 0, -q) gives the displacements of the pressure q."""
import math
import os

import h5py
import numpy as np

from flxtest import SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
E, nu, t, q = 210e9, 0.3, 0.01, 1000.0
Mx = sum(16 * q / (math.pi**4 * m * n) * (m * m + nu * n * n) / (m * m + n * n) ** 2 * math.sin(m * math.pi / 2) * math.sin(n * math.pi / 2)
         for m in range(1, 400, 2) for n in range(1, 400, 2))
vm_ref = 6 * Mx / t**2
case = os.path.join(SOURCE, "examples", "plate_modes", "case.yaml")
load = ["-load_names", "p", "-load_p_type", "pressure", "-load_p_group", "plate", "-load_p_value", str(q)]
# stresses relative to Navier's centre von Mises
cols = {"consistent": ("shell_stresses", (8, 9, 10)), "element": ("shell_resultants", (8, 9, 10))}


def solve(name, extra):
    path = os.path.join(a.out, f"shell_stresses_{name}_np{a.np}.h5")
    run(a.np, ["static", case] + load + extra + ["-output_file", path])
    f = h5py.File(path, "r")
    cells, conn, fields = [], [], {"shell_stresses": [], "shell_resultants": []}
    for tt in ("tri3", "quad4"):
        if f"/mesh/{tt}/connectivity" not in f:
            continue
        cn = f[f"/mesh/{tt}/connectivity"][:]
        conn += [list(r) for r in cn]
        for k in fields:
            fields[k].append(f[f"/static/{k}/{tt}"][:])
    for k in fields:
        fields[k] = np.concatenate(fields[k])
    xyz = f["/mesh/coordinates"][:]
    comp = f["/static/shell_stresses/" + ("quad4" if "/static/shell_stresses/quad4" in f else "tri3")].attrs.get("components", b"")
    f.close()
    return xyz, conn, fields, (comp.decode() if isinstance(comp, bytes) else str(comp))


def jumps(xyz, conn, field, cs):
    """Largest and mean jump (over sxx, syy, sxy at the top) between elements sharing an edge, both in x > 0.5."""
    edges = {}
    for i, cn in enumerate(conn):
        for k in range(len(cn)):
            edges.setdefault(tuple(sorted((cn[k], cn[(k + 1) % len(cn)]))), []).append(i)
    cen = np.array([xyz[cn].mean(axis=0) for cn in conn])
    j = [max(abs(field[p[0], col] - field[p[1], col]) for col in cs) for p in edges.values()
         if len(p) == 2 and cen[p[0], 0] > 0.5 and cen[p[1], 0] > 0.5]
    return np.max(j) / vm_ref, np.mean(j) / vm_ref


res = {}
for name, extra in (("quads", []), ("mixed", ["-mesh_mixed"])):
    xyz, conn, fields, comp = solve(name, extra)
    if name == "quads":
        names = comp.split(",")
        c.check(names[8:12] == ["sxx_top", "syy_top", "sxy_top", "von_mises_top"] and names[15] == "von_mises_bottom",
                f"shell_stresses components: {comp}")
    for frame, (key, cs) in cols.items():
        res[name, frame] = jumps(xyz, conn, fields[key], cs)
        print(f"{name:6s} {frame:10s} frame, triangle half: largest jump {res[name, frame][0]:.4f}, mean {res[name, frame][1]:.4f} of the centre von Mises")
    centre = int(np.argmin(np.sum((xyz - [0.5, 0.5, 0]) ** 2, axis=1)))
    near = [i for i, cn in enumerate(conn) if centre in cn]
    for side, col in (("top", 11), ("bottom", 15)):
        vm = np.mean(fields["shell_stresses"][near, col])
        c.check(abs(vm / vm_ref - 1) < 0.02, f"{name}: centre von Mises ({side}, mean of {len(near)} elements) {vm:.5e} Pa vs Navier 6 M / t^2 = {vm_ref:.5e}: {vm / vm_ref - 1:+.2%} (tolerance 2%)")
    if name == "quads":
        d = np.max(np.abs(fields["shell_stresses"][:, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14]] - fields["shell_resultants"]))
        c.check(d < 1e-12 * np.max(np.abs(fields["shell_resultants"])), f"quads: consistent frame = element frame (x along global X): difference {d:.2e}")
for k, what in ((0, "largest"), (1, "mean")):
    c.check(res["mixed", "consistent"][k] < res["quads", "consistent"][k],
            f"mixed mesh, consistent frame: {what} jump between neighbouring triangles {res['mixed', 'consistent'][k]:.4f} below the quad mesh's {res['quads', 'consistent'][k]:.4f} (no checkerboard)")
c.check(res["mixed", "element"][1] > 3 * res["mixed", "consistent"][1],
        f"mixed mesh, element frame: mean jump {res['mixed', 'element'][1]:.4f} more than 3 x the consistent frame's (the checkerboard it removes)")
# a traction -q along z is the pressure q on the plate (normal +z): same displacements
path = os.path.join(a.out, f"shell_stresses_traction_np{a.np}.h5")
run(a.np, ["static", case, "-load_names", "t", "-load_t_type", "traction", "-load_t_group", "plate", "-load_t_value", f"0,0,{-q}", "-mesh_mixed", "-output_file", path])
with h5py.File(path, "r") as f, h5py.File(os.path.join(a.out, f"shell_stresses_mixed_np{a.np}.h5"), "r") as g:
    ut, up = f["/static/displacement"][:], g["/static/displacement"][:]
d = np.max(np.abs(ut - up)) / np.max(np.abs(up))
c.check(d < 1e-12, f"traction 0,0,-q = pressure q on the plate: displacements agree to {d:.1e} (tolerance 1e-12)")
xyz, conn, fy, _ = solve("mixed_y", ["-mesh_mixed", "-output_shell_axis", "0,1,0"])
_, _, fx, _ = solve("mixed", ["-mesh_mixed"])
d = max(np.max(np.abs(fy["shell_stresses"][:, 8] - fx["shell_stresses"][:, 9])), np.max(np.abs(fy["shell_stresses"][:, 9] - fx["shell_stresses"][:, 8])))
c.check(d < 1e-9 * vm_ref, f"-output_shell_axis 0,1,0 swaps sxx and syy (difference {d:.2e} Pa)")
c.done()
