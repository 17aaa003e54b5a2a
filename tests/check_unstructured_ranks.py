"""An unstructured Gmsh plate (tests/data/unstructured_plate.geo: quadrangles and triangles around a hole, nodes
numbered as the mesher made them) is stored in reverse Cuthill-McKee order (src/mesh/order.c: -info reports the
choice and the mean distance between neighbours' numbers, which must shrink at least fivefold). Its explicit run
under a pressure step with the element loop (-model_internal_force elements) must give every dataset under /fields
and /probes, and /time, bit for bit equal at 1, 2 and 4 ranks (every rank visits its cells in the same global
order), and the element loop must agree with the assembled stiffness's product (-model_internal_force assembled) to
1e-10 of the peak deflection."""
import os
import re
import subprocess

import h5py
import numpy as np
from flxtest import SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
mesh = os.path.join(a.out, "unstructured_plate.msh")
subprocess.run(["gmsh", "-2", os.path.join(SOURCE, "tests", "data", "unstructured_plate.geo"), "-format", "msh41", "-o", mesh],
               check=True, capture_output=True, timeout=120)
model = ["-mesh_file", mesh, "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3",
         "-material_steel_rho", "7850", "-section_names", "skin", "-section_skin_groups", "plate", "-section_skin_material", "steel",
         "-section_skin_thickness", "0.004", "-bc_names", "x0", "-bc_x0_group", "x0", "-bc_x0_dofs", "clamped",
         "-load_names", "p", "-load_p_type", "pressure", "-load_p_group", "plate", "-load_p_value", "1000",
         "-probe_names", "tip", "-probe_tip_point", "1,0.6,0", "-ts_max_time", "0.01", "-ts_monitor_interval", "-1", "-output_frames", "2"]


def datasets(f, roots):
    out = {}
    for r in roots:
        if isinstance(f[r], h5py.Dataset):
            out[r] = f[r][()]
        else:
            f[r].visititems(lambda n, o: out.__setitem__(f"{r}/{n}", o[()]) if isinstance(o, h5py.Dataset) else None)
    return out


hist, allsets = {}, {}
elements = ["-model_internal_force", "elements"]
for n, extra in ((1, elements + ["-info", ":sys"]), (2, elements), (4, elements), ("assembled", ["-model_internal_force", "assembled"])):
    out = os.path.join(a.out, f"unstructured_{n}.h5")
    _, so, _ = run(1 if n == "assembled" else n, model + extra + ["-output_file", out])
    if n == 1:
        m = re.search(r"node storage order: (\w+) \(mean \|i - j\| over the nodal graph's edges: natural ([0-9.e+]+), RCM ([0-9.e+]+)\)", so)
        c.check(m is not None and m.group(1) == "RCM", f"the unstructured mesh is stored in RCM order ({m.group(0) if m else 'no report'})")
        if m:
            c.check(float(m.group(3)) * 5 < float(m.group(2)), f"RCM shrinks the mean neighbour distance {m.group(2)} -> {m.group(3)} (at least 5 x)")
    with h5py.File(out, "r") as f:
        hist[n] = f["probes/tip/values"][:]
        allsets[n] = datasets(f, ["/time", "/fields", "/probes"])
peak = np.max(np.abs(hist[1][:, 2]))
c.check(peak > 1e-6, f"the pressure deflects the free corner: peak {peak:.3e} m")
c.check(any("tri3" in k for k in allsets[1]) and any("quad4" in k for k in allsets[1]), f"{len(allsets[1])} datasets compared, triangles' and quads' among them")
for n in (2, 4):
    diff = [k for k in allsets[1] if k not in allsets[n] or not np.array_equal(allsets[n][k], allsets[1][k])]
    rel = np.max(np.abs(hist[n] - hist[1])) / np.max(np.abs(hist[1]))
    c.check(not diff and allsets[n].keys() == allsets[1].keys(), f"{n} ranks: every /fields, /probes dataset and /time bit for bit equal to 1 rank's (differ: {diff[:4]}; probe difference {rel:.2e})")
rel = np.max(np.abs(hist["assembled"] - hist[1])) / np.max(np.abs(hist[1]))
c.check(rel <= 1e-10, f"element loop against the assembled product: history difference {rel:.2e} of the peak (<= 1e-10)")
c.done()
