"""One mesh, many files: Gmsh meshes tests/data/reader_panel.geo (quadrangles and triangles, beams on four edges,
curves in two physical groups, an unnamed group, a point group) once, saves it as MSH 4.1 and 2.2, ASCII and
binary, and this script derives valid variants by hand: node and element tags sparse and unordered (up to
2^31 - 1, in 4.1 and 2.2), a 5000-character line, a whole element block on one line, a 600-character number
and a 600-character integer. Each must give the serial mesh of the reference file exactly (msh_tool dump,
coordinates in hexadecimal) and `flexure static` on each must write the same /mesh and /static/displacement,
bit for bit; a variant with one coordinate changed must not (the comparison can fail)."""
import os
import random
import subprocess

import h5py
import numpy as np

from flxtest import BIN, SOURCE, TIMEOUT_SCALE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"mesh_formats_np{a.np}")
os.makedirs(d, exist_ok=True)
geo = os.path.join(SOURCE, "tests", "data", "reader_panel.geo")


def path(name):
    return os.path.join(d, name)


def gmsh(*args):
    subprocess.run(["gmsh", *args], check=True, capture_output=True, timeout=120)


ref = path("ref41.msh")
gmsh("-2", geo, "-format", "msh41", "-o", ref)
files = {"4.1 ASCII": ref}
for name, fmt in [("4.1 binary", ["msh41", "-bin"]), ("2.2 ASCII", ["msh22"]), ("2.2 binary", ["msh22", "-bin"])]:
    p = path(name.replace(" ", "_").replace(".", "") + ".msh")
    gmsh(ref, "-save", "-format", *fmt, "-o", p)
    files[name] = p
with open(ref, "rb") as f:
    c.check(b"$Entities" in f.read(), "the reference is MSH 4.1 with entities")


def lines_of(p):
    return open(p).read().split("\n")


def write(name, lines):
    p = path(name)
    open(p, "w").write("\n".join(lines))
    return p


def section(lines, name):
    i = lines.index("$" + name)
    return i, lines.index("$End" + name)


def sparse_tags(n, rng):
    """n distinct tags in [1, 2^31 - 1], unordered, the largest possible one among them."""
    tags = set([2**31 - 1])
    while len(tags) < n:
        tags.add(rng.randrange(1, 2**31 - 1))
    tags = list(tags)
    rng.shuffle(tags)
    return tags


def sparse41(lines, rng):
    """MSH 4.1 ASCII with node and element tags replaced by sparse unordered ones."""
    L = list(lines)
    i, j = section(L, "Nodes")
    nb, nn, _, _ = map(int, L[i + 1].split())
    new = sparse_tags(nn, rng)
    m, k, q = {}, i + 2, 0
    for _ in range(nb):
        cnt = int(L[k].split()[3])
        for t in range(cnt):
            m[int(L[k + 1 + t])] = new[q]
            L[k + 1 + t] = str(new[q])
            q += 1
        k += 1 + 2 * cnt
    L[i + 1] = f"{nb} {nn} {min(new)} {max(new)}"
    i, j = section(L, "Elements")
    nb, ne, _, _ = map(int, L[i + 1].split())
    enew = sparse_tags(ne, rng)
    k, q = i + 2, 0
    for _ in range(nb):
        cnt = int(L[k].split()[3])
        for t in range(cnt):
            w = L[k + 1 + t].split()
            L[k + 1 + t] = " ".join([str(enew[q])] + [str(m[int(x)]) for x in w[1:]])
            q += 1
        k += 1 + cnt
    L[i + 1] = f"{nb} {ne} {min(enew)} {max(enew)}"
    return L


def sparse22(lines, rng):
    L = list(lines)
    i, j = section(L, "Nodes")
    new = sparse_tags(j - i - 2, rng)
    m = {}
    for k in range(i + 2, j):
        w = L[k].split()
        m[w[0]] = str(new[k - i - 2])
        L[k] = " ".join([m[w[0]]] + w[1:])
    i, j = section(L, "Elements")
    enew = sparse_tags(j - i - 2, rng)
    for k in range(i + 2, j):
        w = L[k].split()
        nt = int(w[2])
        L[k] = " ".join([str(enew[k - i - 2])] + w[1:3 + nt] + [m[x] for x in w[3 + nt:]])
    return L


def long_lines(lines):
    """A node coordinate line padded to 5000 characters, and the largest element block on one line."""
    L = list(lines)
    i, j = section(L, "Nodes")
    k = j - 1  # last coordinate line
    L[k] = " " * (5000 - len(L[k])) + L[k]
    i, j = section(L, "Elements")
    k, best = i + 2, None
    while k < j:
        cnt = int(L[k].split()[3])
        if best is None or cnt > best[1]:
            best = (k, cnt)
        k += 1 + cnt
    k, cnt = best
    L[k + 1:k + 1 + cnt] = [" ".join(L[k + 1:k + 1 + cnt])]
    return L


def long_numbers(lines):
    """A 600-character coordinate (trailing zeros) and a 600-character node tag (leading zeros)."""
    L = list(lines)
    i, j = section(L, "Nodes")
    k = j - 1
    w = L[k].split()
    x = w[0] if "." in w[0] or "e" in w[0] else w[0] + "."
    if "e" in x:
        x = x.replace("e", "0" * (600 - len(x)) + "e")
    else:
        x = x + "0" * (600 - len(x))
    L[k] = " ".join([x] + w[1:])
    tagline = i + 3  # first node tag of the first block
    L[tagline] = L[tagline].strip().rjust(600, "0")
    return L


rng = random.Random(12)
L41, L22 = lines_of(ref), lines_of(files["2.2 ASCII"])
files["4.1 sparse unordered tags"] = write("sparse41.msh", sparse41(L41, rng))
files["2.2 sparse unordered tags"] = write("sparse22.msh", sparse22(L22, rng))
files["4.1 5000-character line, block on one line"] = write("long_line.msh", long_lines(L41))
files["4.1 600-character numbers"] = write("long_number.msh", long_numbers(L41))
c.check(max(len(x) for x in lines_of(files["4.1 5000-character line, block on one line"])) >= 5000, "a line of 5000 characters or more")
c.check(max(len(t) for x in lines_of(files["4.1 600-character numbers"]) for t in x.split()) >= 600, "a number of 600 characters")
i, j = section(L41, "Nodes")
moved = list(L41)
w = moved[j - 1].split()
moved[j - 1] = " ".join([repr(float(w[0]) + 1e-12)] + w[1:])
moved = write("moved.msh", moved)


def dump(p):
    r = subprocess.run([os.path.join(BIN, "msh_tool"), "dump", p], capture_output=True, text=True, timeout=60 * TIMEOUT_SCALE)
    return r.returncode, r.stdout


rc, want = dump(ref)
c.check(rc == 0 and want.startswith("nodes"), f"reference read: {want[:60]!r}")
for name, p in files.items():
    rc, got = dump(p)
    c.check(rc == 0 and got == want, f"{name}: serial mesh identical to the reference ({len(want.splitlines())} lines)")
rc, got = dump(moved)
c.check(rc == 0 and got != want, "a mesh with one coordinate moved by 1e-12 reads differently")

model = ["-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
         "-section_names", "skin,bar", "-section_skin_groups", "plate", "-section_skin_material", "steel", "-section_skin_thickness", "0.004",
         "-section_bar_groups", "stiff", "-section_bar_material", "steel", "-section_bar_A", "2.4e-4", "-section_bar_Iz", "3.2e-8",
         "-section_bar_Iy", "7.2e-10", "-section_bar_J", "2.88e-9", "-bc_names", "root", "-bc_root_group", "root", "-bc_root_dofs", "clamped",
         "-load_names", "tip,corner", "-load_tip_group", "tip", "-load_tip_value", "0,0,-100", "-load_corner_group", "corner",
         "-load_corner_value", "10,0,-50"]


def solve(p, tag):
    out = path(f"static_{tag}.h5")
    run(a.np, ["static", "-mesh_file", p, "-output_file", out] + model, timeout=120)
    with h5py.File(out, "r") as f:
        data = {}
        f["mesh"].visititems(lambda k, v: data.__setitem__("mesh/" + k, v[()]) if isinstance(v, h5py.Dataset) else None)
        data["groups"] = f["mesh"].attrs["groups"]
        data["displacement"] = f["static/displacement"][()]
    return data


base = solve(ref, "ref")
umax = np.abs(base["displacement"]).max()
c.check(umax > 1e-3 and np.isfinite(base["displacement"]).all(), f"reference static solution: max |u| = {umax:.6e}")
for k, (name, p) in enumerate(files.items()):
    if p == ref:
        continue
    got = solve(p, str(k))
    same = got.keys() == base.keys() and all(np.array_equal(got[x], base[x]) for x in base if x != "groups") and got["groups"] == base["groups"]
    c.check(same, f"{name}: /mesh and /static/displacement bit-identical to the reference ({len(base) - 1} datasets)")
c.done()
