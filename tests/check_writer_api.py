"""The generic writer API (tests/test_writer.c) at 1, 2 and 4 ranks: every value of every dataset is the function of
natural index, frame and component that the program wrote, the layout is the documented one (/fields/NAME,
/fields/NAME/TYPE, /static/..., /history/NAME with /history/time, attributes 'components' and 'columns'), the node
groups are the mesh's node sets, the XDMF lists each field and parses, and bad names are refused."""
import os
import subprocess
import xml.etree.ElementTree as ET

import h5py
import numpy as np

from flxtest import BIN, MPI_ENV, Checker, args_np_out, launcher

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"writer_api_np{a.np}")
os.makedirs(d, exist_ok=True)
env = dict(os.environ, **MPI_ENV)
p = subprocess.run(launcher(a.np) + [os.path.join(BIN, "test_writer"), d], capture_output=True, text=True, env=env, timeout=120)
print(p.stdout)
c.check(p.returncode == 0, f"test_writer exits 0 (got {p.returncode}) {p.stderr[-500:]}")
for line in p.stdout.splitlines():
    if line.startswith("refused"):
        c.check(line.endswith("yes"), line)
c.check(p.stdout.count("refused") == 11, "every bad name was tried")


def rows(n, width, base):
    i = np.arange(n)[:, None]
    return base + 10.0 * i + np.arange(width)[None, :]


def comps(ds):
    v = ds.attrs["components"]
    return (v.decode() if isinstance(v, bytes) else str(v)).split(",")


with h5py.File(os.path.join(d, "api_transient.h5"), "r") as f:
    N = f["mesh/coordinates"].shape[0]
    E = f["mesh/line2/connectivity"].shape[0]
    Q = f["mesh/quad4/connectivity"].shape[0]
    c.check(list(f["time"][...]) == [0.0, 0.1, 0.2], "/time holds the three frames")
    ok = True
    for k, name in enumerate(["displacement", "velocity", "acceleration", "reaction"]):
        ds = f["fields/" + name]
        ok &= ds.shape == (3, N, 6) and all(np.array_equal(ds[fr], rows(N, 6, 1000.0 * fr + 0.25 * k)) for fr in range(3))
    c.check(ok, "node fields /fields/{displacement,velocity,acceleration,reaction} (T x N x 6) hold what was written")
    bf = f["fields/beam_forces/line2"]
    c.check(bf.shape == (3, E, 12) and all(np.array_equal(bf[fr], rows(E, 12, 1e5 * fr)) for fr in range(3)), "/fields/beam_forces/line2 (T x E x 12)")
    c.check(comps(bf) == ["N_1", "Vy_1", "Vz_1", "T_1", "My_1", "Mz_1", "N_2", "Vy_2", "Vz_2", "T_2", "My_2", "Mz_2"], "attribute components names the 12 columns")
    qf = f["fields/quad_field/quad4"]
    c.check(qf.shape == (3, Q, 2) and all(np.array_equal(qf[fr], rows(Q, 2, 1e5 * fr + 0.5)) for fr in (1, 2)), "a cell field starting at frame 1 has T rows, the frames it was written at hold its values")
    c.check("beam_forces" not in f["fields"] or "quad4" not in f["fields/beam_forces"], "no cell field for a type given NULL")
    t = np.arange(15.0)
    c.check(np.array_equal(f["history/time"][...], t), "/history/time (K) appended 5 rows at a time")
    hb = f["history/reactions/base"]
    c.check(hb.shape == (15, 6) and np.array_equal(hb[...], 10 * t[:, None] + np.arange(6)[None, :]), "/history/reactions/base (K x 6) in a sub-group")
    col = hb.attrs["columns"]
    c.check((col.decode() if isinstance(col, bytes) else str(col)) == "Fx,Fy,Fz,Mx,My,Mz", "attribute columns")
    c.check(np.array_equal(f["history/single"][...], -t[:, None]), "/history/single (K x 1)")
    ng, groups = f["mesh/node_groups"][...], f["mesh/node_groups"].attrs["groups"]
    groups = (groups.decode() if isinstance(groups, bytes) else str(groups)).split(",")
    xyz = f["mesh/coordinates"][...]
    x0 = ng[:, groups.index("x0")] == 1
    c.check(ng.shape == (N, len(groups)) and np.array_equal(x0, np.abs(xyz[:, 0]) < 1e-12), "/mesh/node_groups: group x0 holds exactly the nodes at x = 0")
    conn = f["mesh/line2/connectivity"][...]
    st = np.zeros(N, bool)
    st[conn.ravel()] = True
    c.check(np.array_equal(ng[:, groups.index("stiffeners")] == 1, st), "group stiffeners holds exactly the nodes of its beam elements")
with h5py.File(os.path.join(d, "api_static.h5"), "r") as f:
    c.check("time" not in f and "fields" not in f, "a file without frames has no /time and no /fields")
    c.check(np.array_equal(f["static/displacement"][...], rows(N, 6, 0.125)) and np.array_equal(f["static/reaction"][...], rows(N, 6, 0.125)), "/static/displacement and /static/reaction (N x 6)")
    c.check(np.array_equal(f["static/beam_forces/line2"][...], rows(E, 12, 0.375)), "/static/beam_forces/line2 (E x 12)")
    c.check("p" in f["probes"] and "reactions" in f["history"], "the file stays usable after refused names")
for name, want in (("api_transient.xdmf", {"displacement", "reaction", "reaction_moment", "beam_forces_Mz_2", "quad_field_b", "node_group_x0", "element_group"}),
                   ("api_static.xdmf", {"displacement", "displacement_rotation", "reaction_moment", "beam_forces_N_1", "node_group_stiffeners"})):
    root = ET.parse(os.path.join(d, name)).getroot()
    names = {e.get("Name") for e in root.iter("Attribute")}
    c.check(want <= names, f"{name} parses and lists {sorted(want)}")
    if name == "api_transient.xdmf":
        frames = [g for g in root.iter("Grid") if g.get("CollectionType") == "Spatial"]
        c.check(len(frames) == 3, "three frames in the XDMF")
        c.check(not any(a.get("Name") == "quad_field_a" for a in frames[0].iter("Attribute")) and any(a.get("Name") == "quad_field_a" for a in frames[1].iter("Attribute")), "a cell field is listed from the frame it starts at")
c.done()
