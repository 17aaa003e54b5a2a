"""Results-file errors (issue 13). An HDF5 failure on any one rank (injected with FLX_TEST_H5_FAIL=RANK:N, the N-th
collective check on that rank) stops every rank at 1, 2 and 4 ranks: exit code 3, one "flexure: error:" line naming
the file, no hang, the file closed and readable with the frames it had, the XDMF parsing and listing only those; a
failure during set-up leaves nothing. Output paths that cannot work are refused before anything is written (exit 1,
one line naming the option): the mesh file, the case file or a link to the mesh as -output_file, a file name over 200
characters, ':' in the name, /dev/null or a directory; probe names with '/', listed twice or too long, and a group name too long. Paths that
must work do: a name holding XML's special characters (the XDMF escapes them and ParaView's readers resolve the file),
and a path of 330 characters (Open MPI's I/O layer aborts on paths over about 245: the file is opened through its
directory)."""
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import h5py

from flxtest import BIN, CASE, MPI_ENV, SOURCE, Checker, launcher

import argparse

ap = argparse.ArgumentParser()
ap.add_argument("--np", type=int, default=1)
ap.add_argument("--out", default="/tmp")
ap.add_argument("--part", choices=["inject", "paths"], required=True)
a = ap.parse_args()
c = Checker()
d = os.path.abspath(os.path.join(a.out, f"io_{a.part}_np{a.np}"))
shutil.rmtree(d, ignore_errors=True)
os.makedirs(d)
SHORT = ["-ts_max_time", "0.005", "-output_frames", "5"]


def flexure(np_, args, env=None):
    e = dict(os.environ, **MPI_ENV, **(env or {}))
    pre = launcher(np_)
    cmd = pre + (["-x", "FLX_TEST_H5_FAIL"] if env and pre else []) + [os.path.join(BIN, "flexure")] + args
    p = subprocess.run(cmd, cwd=SOURCE, env=e, capture_output=True, text=True, timeout=120)
    return p.returncode, [l for l in p.stderr.splitlines() if l.startswith("flexure: error:")]


def frames_of(h5, xdmf):
    with h5py.File(h5, "r") as f:
        n = f["time"].shape[0] if "time" in f else 0
        ok = all(f[k].shape[0] == n for k in ("fields/displacement", "fields/velocity", "fields/acceleration")) if n else True
    x = len([g for g in ET.parse(xdmf).getroot().iter("Grid") if g.find("Time") is not None])
    return n, ok, x


def inject():
    for np_, spec, setup in ((1, "0:300", False), (2, "1:300", False), (4, "3:300", False), (2, "1:5", True)):
        h5 = os.path.join(d, f"inject_{np_}_{spec.replace(':', '_')}.h5")
        rc, lines = flexure(np_, [CASE, "-output_file", h5, "-ts_max_time", "0.01"], env={"FLX_TEST_H5_FAIL": spec})
        tag = f"np {np_}, failure injected on rank {spec.split(':')[0]} at check {spec.split(':')[1]}"
        c.check(rc == 3 and len(lines) == 1 and h5 in lines[0] and "injected by FLX_TEST_H5_FAIL" in lines[0], f"{tag}: exit 3 and one line naming the file ({rc}, {lines})")
        if setup:
            c.check(not os.path.exists(h5) and not os.path.exists(h5 + ".tmp"), f"{tag}: a failure during set-up leaves no file")
        else:
            try:
                n, ok, x = frames_of(h5, h5[:-3] + ".xdmf")
                c.check(n > 0 and ok and x <= n, f"{tag}: the file opens with its {n} complete frames, the XDMF parses ({x} frames)")
            except Exception as e:
                c.check(False, f"{tag}: results readable ({e})")


def paths():
    # outputs that must be refused, before anything is written
    mesh = os.path.join(d, "mesh.msh")
    shutil.copy(os.path.join(SOURCE, "meshes", "cantilever.msh"), mesh)
    case = os.path.join(d, "case.yaml")
    shutil.copy(CASE, case)
    os.symlink(mesh, os.path.join(d, "link.h5"))
    bad = [
        ("output = mesh file", [case, "-mesh_file", mesh, "-output_file", mesh], "-mesh_file"),
        ("output = case file", [case, "-mesh_file", mesh, "-output_file", case], "the case file"),
        ("output = link to the mesh", [case, "-mesh_file", mesh, "-output_file", os.path.join(d, "link.h5")], "-mesh_file"),
        ("file name over 200 characters", [CASE, "-output_file", os.path.join(d, "f" * 201 + ".h5")], "-output_file"),
        ("/dev/null as output", [CASE, "-output_file", "/dev/null"], "-output_file"),
        ("a directory as output", [CASE, "-output_file", d], "-output_file"),
        ("':' in the file name", [CASE, "-output_file", os.path.join(d, "a:b.h5")], "-output_file"),
        ("'/' in a probe name", [CASE, "-probe_names", "a/b", "-probe_a/b_group", "tip"], "-probe_names"),
        ("probe listed twice", [CASE, "-probe_names", "tip,tip"], "listed twice"),
        ("probe name of 64 characters", [CASE, "-probe_names", "p" * 64, f"-probe_{'p' * 64}_group", "tip"], "-probe_names"),
        ("group name of 300 characters", [CASE, "-probe_tip_group", "g" * 300], "-probe_tip_group"),
    ]
    before = {x: os.path.getmtime(os.path.join(d, x)) for x in ("mesh.msh", "case.yaml")}
    for what, args, key in bad:
        rc, lines = flexure(a.np, args + SHORT)
        c.check(rc == 1 and len(lines) == 1 and key in lines[0], f"np {a.np}, {what}: exit 1, one line naming {key} ({rc}, {lines})")
    c.check(all(os.path.getmtime(os.path.join(d, x)) == t for x, t in before.items()), "the mesh and the case file are untouched")
    c.check(not [x for x in os.listdir(d) if x.endswith(".tmp") or x.endswith(".xdmf")], "nothing was written for the refused outputs")

    # outputs that must work
    odd = os.path.join(d, "a&b<c>'d\"e.h5")
    long = os.path.join(d, "x" * 100, "y" * 100, "z" * 60, "results.h5")
    for what, h5 in (("a name with & < > ' \"", odd), (f"a path of {len(os.path.join(d, 'x' * 100, 'y' * 100, 'z' * 60, 'results.h5'))} characters", long)):
        rc, lines = flexure(a.np, [CASE, "-output_file", h5] + SHORT)
        c.check(rc == 0, f"{what}: the run succeeds ({rc}, {lines})")
        try:
            n, ok, x = frames_of(h5, h5[:-3] + ".xdmf")
            root = ET.parse(h5[:-3] + ".xdmf").getroot()
            refs = {re.split(r"[:|]", (e.text or "").strip())[0] for e in root.iter("DataItem") if e.get("Format") == "HDF"}
            c.check(ok and n > 0 and x == n and refs == {os.path.basename(h5)}, f"{what}: h5py reads {n} frames, the XDMF parses, lists them and names the file exactly ({refs})")
        except Exception as e:
            c.check(False, f"{what}: results readable ({e})")


inject() if a.part == "inject" else paths()
c.done()
