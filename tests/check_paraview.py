"""ParaView reads every results file through the XDMF (issue 12, must-show 7): pvbatch opens a transient beam run,
the stiffened panel (beams and shells, generated mesh), a modes file and a static file with the default reader
(OpenDataFile, which picks Xdmf3ReaderS) and with the legacy "XDMF Reader". Each sees every field the HDF5 file holds
(node fields as two vectors, every component of every cell field of each cell type, the node groups and the element
group index), the number of time steps and their times are those of /time (or the modes), values read through
ParaView equal the HDF5 values (h5py), and neither reader prints a warning or an error."""
import json
import os
import subprocess
import sys

PV_SCRIPT = r'''
import json, sys
from paraview.simple import OpenDataFile, XDMFReader
from paraview import servermanager
from vtkmodules.vtkCommonDataModel import vtkDataSet

def leaves(obj):
    if obj is None:
        return
    if isinstance(obj, vtkDataSet):
        yield obj
        return
    it = obj.NewIterator()
    it.InitTraversal()
    while not it.IsDoneWithTraversal():
        yield it.GetCurrentDataObject()
        it.GoToNextItem()

out = {}
for xdmf, probes in json.loads(sys.argv[1]).items():
    for reader in ("default", "legacy"):
        r = OpenDataFile(xdmf) if reader == "default" else XDMFReader(FileNames=[xdmf])
        ts = list(r.TimestepValues) if r.TimestepValues else []
        res = {"xml": r.GetXMLName(), "times": ts, "point": sorted(r.PointData.keys()), "cell": sorted(r.CellData.keys()), "values": []}
        for (step, kind, array, index, comp) in probes:
            r.UpdatePipeline(ts[step] if ts else 0.0)
            data = servermanager.Fetch(r)
            val = None
            for ds in leaves(data):
                fd = ds.GetPointData() if kind == "point" else ds.GetCellData()
                a = fd.GetArray(array)
                if a is None:
                    continue
                n = a.GetNumberOfTuples()
                if kind == "cell" and isinstance(index, list):  # [cell type's number of cells, index]
                    if n != index[0]:
                        continue
                    val = a.GetComponent(index[1], comp)
                else:
                    val = a.GetComponent(index, comp)
                break
            res["values"].append(val)
        out[xdmf + "|" + reader] = res
print("PVRESULT " + json.dumps(out))
'''


def second(name):
    """The XDMF name of a node field's components 3-5."""
    return name + ("_moment" if ("reaction" in name or "force" in name) else "_rotation")


def expected(h5path):
    """Fields a reader must show, and (frame, kind, array, index, component, value) probes, from the HDF5 file."""
    import h5py
    import numpy as np
    f = h5py.File(h5path, "r")
    point, cell, probes = set(), set(), []
    if "modes" in f:
        prefix, nsteps = "modes", f["modes/frequency"].shape[0]
        s = f["modes/shape"][...]
        point |= {"mode_shape", "mode_shape_rotation"}
        k = int(np.argmax(np.abs(s[1, :, 2])))
        probes.append((1, "point", "mode_shape", k, 2, float(s[1, k, 2])))
    else:
        prefix = "fields" if "time" in f else "static"
        nsteps = f["time"].shape[0] if "time" in f else 0
        step = max(nsteps - 2, 0)
        for name, obj in f[prefix].items():
            if isinstance(obj, h5py.Dataset):  # node field
                point |= {name, second(name)}
                d = obj[...]
                row = d[step] if nsteps else d
                for part in (0, 1):  # the largest translation-like and rotation-like value
                    sub = np.abs(row[:, 3 * part:3 * part + 3])
                    k, c = np.unravel_index(int(np.argmax(sub)), sub.shape)
                    probes.append((step, "point", second(name) if part else name, int(k), int(c), float(row[k, 3 * part + c])))
            else:  # cell field: one group per field, one dataset per cell type
                for tname, ds in obj.items():
                    comps = ds.attrs["components"]
                    comps = (comps.decode() if isinstance(comps, bytes) else str(comps)).split(",")
                    cell |= {f"{name}_{c}" for c in comps}
                    d = ds[...]
                    row = d[step] if nsteps else d
                    j, cc = np.unravel_index(int(np.argmax(np.abs(row))), row.shape)
                    probes.append((step, "cell", f"{name}_{comps[cc]}", [d.shape[-2], int(j)], 0, float(row[j, cc])))
    groups = f["mesh/node_groups"].attrs["groups"]
    groups = (groups.decode() if isinstance(groups, bytes) else str(groups)).split(",")
    point |= {"node_group_" + g for g in groups}
    ng = f["mesh/node_groups"][...]
    g = int(np.argmin(ng.sum(axis=0)))  # the smallest group: a value 1 somewhere, 0 elsewhere
    probes.append((0, "point", "node_group_" + groups[g], int(np.argmax(ng[:, g])), 0, 1.0))
    probes.append((0, "point", "node_group_" + groups[g], int(np.argmin(ng[:, g])), 0, 0.0))
    cell |= {"element_group", "partition"}
    times = list(f["time"][...]) if prefix == "fields" else list(range(1, nsteps + 1)) if prefix == "modes" else []
    return point, cell, times, probes


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from flxtest import Checker, args_np_out, run
    a = args_np_out()
    c = Checker()
    d = os.path.abspath(os.path.join(a.out, "paraview"))
    os.makedirs(d, exist_ok=True)
    runs = {
        "beam": ["examples/cantilever/case.yaml", "-ts_max_time", "0.005", "-output_frames", "5"],
        "panel": ["examples/stiffened_panel/case.yaml", "-mesh_divisions", "20,16", "-ts_max_time", "0.0006", "-output_frames", "4"],
        "modes": ["modes", "examples/plate_modes/case.yaml", "-mesh_divisions", "8,8", "-modes_n", "4"],
        "static": ["static", "examples/stiffened_panel/case.yaml", "-mesh_divisions", "10,8"],
    }
    exp = {}
    for name, args in runs.items():
        h5 = os.path.join(d, name + ".h5")
        run(a.np, args + ["-output_file", h5])
        exp[os.path.join(d, name + ".xdmf")] = expected(h5)
    script = os.path.join(d, "pv_read.py")
    with open(script, "w") as fp:
        fp.write(PV_SCRIPT)
    arg = json.dumps({x: [p[:5] for p in e[3]] for x, e in exp.items()})
    p = subprocess.run(["pvbatch", script, arg], capture_output=True, text=True, timeout=240)
    noise = [l for l in (p.stdout + p.stderr).splitlines() if l.strip() and not l.startswith("PVRESULT")]
    c.check(p.returncode == 0, f"pvbatch exits 0 (got {p.returncode})")
    c.check(not noise, "ParaView prints no warning or error" + ("" if not noise else ": " + " | ".join(noise[:5])))
    line = [l for l in p.stdout.splitlines() if l.startswith("PVRESULT ")]
    if not line:
        print(p.stdout[-3000:], p.stderr[-3000:])
        c.check(False, "pvbatch reported results")
        c.done()
    res = json.loads(line[0][len("PVRESULT "):])
    for xdmf, (point, cell, times, probes) in exp.items():
        name = os.path.basename(xdmf)
        for reader in ("default", "legacy"):
            r = res[xdmf + "|" + reader]
            tag = f"{name}, {reader} reader ({r['xml']})"
            if reader == "default":
                c.check(r["xml"] == "Xdmf3ReaderS", f"{tag}: OpenDataFile picks Xdmf3ReaderS")
            c.check(point <= set(r["point"]), f"{tag}: every node field and node group ({len(point)}) is there" + ("" if point <= set(r["point"]) else f", missing {sorted(point - set(r['point']))}"))
            c.check(cell <= set(r["cell"]), f"{tag}: every cell field component and the element group ({len(cell)}) are there" + ("" if cell <= set(r["cell"]) else f", missing {sorted(cell - set(r['cell']))}"))
            c.check(len(r["times"]) == len(times) and all(abs(x - y) <= 1e-15 * max(1.0, abs(y)) for x, y in zip(r["times"], times)), f"{tag}: {len(r['times'])} time steps, those of the file ({len(times)})")
            for pr, got in zip(probes, r["values"]):
                c.check(got == pr[5], f"{tag}: {pr[2]}[{pr[3]}][{pr[4]}] at step {pr[0]} = {got} equals the HDF5 value {pr[5]}")
    c.done()


if __name__ == "__main__":
    main()
