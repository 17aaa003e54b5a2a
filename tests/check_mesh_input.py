"""Hostile mesh files are refused at once with one `flexure: error:` line naming the file and the line (ASCII) or
the byte offset (binary data), exit code 1, no traceback, no hang: truncated and garbled binary files of both
versions, a duplicate node tag (4.1 and 2.2), a mesh numbered from 0, a node tag beyond 2^31, an $Entities
count of -1, 10^9 elements announced in a small file, a node tag outside the declared range, NaN and inf
coordinates, a second-order element, a physical name beyond the 63-character limit, two groups of the same
name, /dev/zero, a directory, a FIFO, an empty file, a file that is not a mesh and an unknown MSH version.
Every run has a timeout. The meshes derive from meshes/cantilever.geo, meshed here by Gmsh."""
import os
import re
import struct
import subprocess

from flxtest import CASE, SOURCE, TIMEOUT_SCALE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"mesh_input_np{a.np}")
os.makedirs(d, exist_ok=True)
geo = os.path.join(SOURCE, "meshes", "cantilever.geo")


def path(name):
    return os.path.join(d, name)


def gmsh(name, *args):
    p = path(name)
    subprocess.run(["gmsh", "-1", geo, *args, "-o", p], check=True, capture_output=True, timeout=120)
    return p


asc41 = gmsh("c41.msh", "-format", "msh41")
bin41 = gmsh("c41b.msh", "-format", "msh41", "-bin")
asc22 = gmsh("c22.msh", "-format", "msh22")
bin22 = gmsh("c22b.msh", "-format", "msh22", "-bin")
order2 = gmsh("order2.msh", "-format", "msh41", "-order", "2")
L41 = open(asc41).read().split("\n")
L22 = open(asc22).read().split("\n")
B41 = open(bin41, "rb").read()
B22 = open(bin22, "rb").read()


def write(name, lines):
    p = path(name)
    open(p, "w").write("\n".join(lines))
    return p


def writeb(name, data):
    p = path(name)
    open(p, "wb").write(data)
    return p


def edit(lines, old, new, start=0):
    """Replace the first line equal to old (from line start on) by new."""
    L = list(lines)
    L[L.index(old, start)] = new
    return L


i41 = L41.index("$Nodes")
nb, nn, _, _ = map(int, L41[i41 + 1].split())
# 4.1: the first block has node 1 and its coordinates, the second node 2, the third nodes 3..nn
dup41 = edit(L41, "2", "1", i41 + 2)
zero41 = list(L41)
zero41[i41 + 1] = f"{nb} {nn} 0 {nn - 1}"
k = i41 + 2
for _ in range(nb):
    cnt = int(zero41[k].split()[3])
    for t in range(cnt):
        zero41[k + 1 + t] = str(int(zero41[k + 1 + t]) - 1)
    k += 1 + 2 * cnt
big41 = list(L41)
big41[i41 + 1] = f"{nb} {nn} 1 2147483648"
big41 = edit(big41, "2", "2147483648", i41 + 2)
range41 = edit(L41, "2", str(nn + 5), i41 + 2)
iE = L41.index("$Entities")
ent41 = list(L41)
ent41[iE + 1] = "-1 " + " ".join(L41[iE + 1].split()[1:])
iel = L41.index("$Elements")
many41 = list(L41)
w = many41[iel + 1].split()
many41[iel + 1] = f"{w[0]} 1000000000 1 1000000000"
nan41 = edit(L41, "1 0 0", "1 nan 0", i41)
inf41 = edit(L41, "1 0 0", "1 0 1e999", i41)
iP = L41.index("$PhysicalNames")
longname41 = edit(L41, L41[iP + 2], L41[iP + 2].split('"')[0] + '"' + "n" * 70 + '"')
samename41 = edit(L41, L41[iP + 3], L41[iP + 3].split('"')[0] + '"' + L41[iP + 2].split('"')[1] + '"')
i22 = L22.index("$Nodes")
dup22 = list(L22)
dup22[i22 + 3] = "1 " + " ".join(dup22[i22 + 3].split()[1:])

# binary files: where the node data and the element data start
n41 = B41.index(b"$Nodes\n") + 7
e41 = B41.index(b"$Elements\n") + 10
n22 = B22.index(b"$Nodes\n") + 7
e22 = B22.index(b"$Elements\n") + 10
e22 = B22.index(b"\n", e22) + 1  # after the ASCII count line
garbled41 = bytearray(B41)
garbled41[n41 + 8:n41 + 16] = struct.pack("<q", 2**62)  # number of nodes
garbled22 = bytearray(B22)
garbled22[e22:e22 + 4] = struct.pack("<i", 9)  # element type of the first block: 6-node triangle
nodes22 = bytearray(B22)
nodes22[e22 + 24:e22 + 28] = struct.pack("<i", 4000)  # first node of the first element (point: type, n, ntags=2, tag, phys, ent, node)

fifo = path("fifo.msh")
if not os.path.exists(fifo):
    os.mkfifo(fifo)
os.makedirs(path("adir.msh"), exist_ok=True)

LINE = r":\d+: "
BYTE = r": byte \d+ \(\$\w+\): "
cases = [
    ("truncated binary 4.1", writeb("trunc41.msh", B41[:n41 + 100]), BYTE, "file truncated?"),
    ("truncated binary 4.1 (in the last element)", writeb("trunc41e.msh", B41[:B41.index(b"$EndElements") - 6]), BYTE, "file truncated?"),
    ("truncated binary 2.2", writeb("trunc22.msh", B22[:e22 + 30]), BYTE, "file truncated?"),
    ("garbled binary 4.1 (node count)", writeb("garbled41.msh", bytes(garbled41)), BYTE, "announces 4611686018427387904 nodes, but the"),
    ("garbled binary 2.2 (element type)", writeb("garbled22.msh", bytes(garbled22)), BYTE, "unsupported element type 9"),
    ("garbled binary 2.2 (node tag)", writeb("nodes22.msh", bytes(nodes22)), BYTE, "refers to node 4000, which is not defined"),
    ("duplicate node tag (4.1)", write("dup41.msh", dup41), LINE, "node tag 1 is defined a second time"),
    ("duplicate node tag (2.2)", write("dup22.msh", dup22), LINE, "node tag 1 is defined a second time"),
    ("mesh numbered from 0", write("zero41.msh", zero41), LINE, "Gmsh tags start at 1"),
    ("node tag beyond 2^31", write("big41.msh", big41), LINE, "tags must stay below 2^31"),
    ("node tag outside the declared range", write("range41.msh", range41), LINE, f"expected a node tag within the header's range in $Nodes (an integer in [1, {nn}]), found {nn + 5}"),
    ("$Entities count -1", write("ent41.msh", ent41), LINE, "expected the number of points in $Entities (an integer of at least 0), found -1"),
    ("10^9 elements announced", write("many41.msh", many41), LINE, "$Elements announces 1000000000 elements, but the"),
    ("NaN coordinate", write("nan41.msh", nan41), LINE, "expected a node coordinate (a finite number) in $Nodes, found 'nan'"),
    ("inf coordinate", write("inf41.msh", inf41), LINE, "expected a node coordinate (a finite number) in $Nodes, found '1e999'"),
    ("second-order element", order2, LINE, "unknown or unsupported element type 8 (3-node second-order line)"),
    ("physical name of 70 characters", write("longname.msh", longname41), LINE, "is longer than flexure's limit of 63 characters"),
    ("two groups of the same name", write("samename.msh", samename41), LINE, "are both named"),
    ("/dev/zero", "/dev/zero", "", "is not a regular file"),
    ("a directory", path("adir.msh"), "", "is a directory"),
    ("a FIFO", fifo, "", "is not a regular file"),
    ("an empty file", write("empty.msh", []), "", "is empty"),
    ("not a mesh (the case file)", CASE, LINE, "not a Gmsh mesh file: expected $MeshFormat"),
    ("MSH 4.0", write("v40.msh", edit(L41, "4.1 0 8", "4.0 0 8")), LINE, "MSH format version '4.0' is not read"),
    ("no such file", path("missing.msh"), "", "cannot open the mesh file"),
]
for what, mesh, where, expect in cases:
    try:
        rc, so, se = run(a.np, [CASE, "-mesh_file", mesh, "-output_file", path("r.h5")], timeout=60, check=False)
    except subprocess.TimeoutExpired:
        c.check(False, f"{what}: no answer within {60 * TIMEOUT_SCALE:g} s")
        continue
    lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    named = bool(lines) and re.search(re.escape(mesh) + where, lines[0]) is not None
    ok = rc == 1 and len(lines) == 1 and named and expect in lines[0] and "PETSC ERROR" not in se + so and "Signal" not in se
    c.check(ok, f"{what}: exit {rc}, message: {lines[0] if lines else se.strip()[:300]!r}")
c.done()
