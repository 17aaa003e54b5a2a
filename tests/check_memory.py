"""Memory of an explicit run on the element loop (issue [4/5], must-show 6; docs/user-guide.md 2.9), from the run's
own memory lines (heap in use, all ranks, per DOF) at the set-up and at the end of the run (the solvers' start-up
and the first output included), on a lattice tower of about 2e4 DOFs with a wind load:
1. Rayleigh b_K damping and discrete dampers keep the run on the element loop: K is not assembled for the Jacobi
   preconditioner of the conditionally explicit solve (its diagonal comes from the set-up's element pass), and the
   dampers' matrix C_d holds their blocks alone, not the mesh's pattern. Each adds at most 150 B per DOF at the end
   (a diagonal and the Krylov solver's vectors); before, b_K assembled K after the memory line (+500 B per DOF)
   and the dampers' C_d had K's pattern (+1000 B per DOF, more than the assembled path).
2. The assembled path (-model_internal_force assembled) shows K in the same measure: at least 300 B per DOF more
   than the element loop (K reads about 530 B per DOF on the tower), so the figures above see what they measure.
3. The cell fields written in rounds of 1000 rows per rank (-output_cell_rows) give every field dataset bit for bit
   as in one round (the default holds this model's rows in one)."""
import os
import re

import h5py
import numpy as np

from flxtest import Checker, args_np_out, run, tower

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"memory_np{a.np}")
os.makedirs(d, exist_ok=True)
M = tower("8,8,40", "16,16,100") + ["-section_tube_A", "7.0e-4", "-ts_max_steps", "5", "-ts_gcd_preset", "gcd3", "-output_frames", "1"]
DAMPERS = ["-spring_names", "pad", "-spring_pad_group", "top", "-spring_pad_stiffness", "1e5,1e5,1e5,0,0,0", "-spring_pad_damping", "10,10,10,0,0,0"]
LINE = re.compile(r"memory: (\d+) B per DOF in use .* peak resident (\d+) B per DOF")


def memory(name, extra):
    """(set-up, end) heap in use per DOF of the run."""
    rc, so, se = run(a.np, M + extra + ["-output_file", os.path.join(d, f"{name}.h5")])
    lines = [ln for ln in so.splitlines() if LINE.search(ln)]
    setup = [int(LINE.search(ln).group(1)) for ln in lines if not ln.startswith("flexure: memory:")]
    end = [int(LINE.search(ln).group(1)) for ln in lines if ln.startswith("flexure: memory:") and "at the end" in ln]
    c.check(len(setup) == 1 and len(end) == 1, f"{name}: one memory line at the set-up and one at the end ({len(setup)}, {len(end)})")
    s, e = (setup or [0])[0], (end or [0])[0]
    print(f"  {name:34s} set-up {s:5d} B/DOF, end {e:5d} B/DOF")
    return s, e


print(f"tower 8 x 8 x 40 bays, {a.np} rank(s): heap in use per DOF, all ranks")
plain = memory("elements", ["-model_internal_force", "elements"])
bk = memory("elements, b_K", ["-model_internal_force", "elements", "-damping_stiffness", "1e-7"])
damp = memory("elements, dampers", ["-model_internal_force", "elements"] + DAMPERS)
asm = memory("assembled", ["-model_internal_force", "assembled"])
if plain[0] == 0 and asm[0] == 0:  # no heap measure (glibc's mallinfo2 under a sanitizer's allocator): the rounds only
    print("  the heap is not measured in this build (a sanitizer's allocator): memory checks skipped")
else:
    for name, m in (("b_K", bk), ("dampers", damp)):
        c.check(m[1] - plain[1] <= 150, f"{name} on the element loop adds {m[1] - plain[1]} B per DOF at the end (<= 150: no assembled K, C_d its own blocks)")
    c.check(asm[1] - plain[1] >= 300, f"the assembled path holds {asm[1] - plain[1]} B per DOF more at the end (>= 300: K is seen)")
# 3. the cell fields in rounds of 1000 rows per rank (7452 or 14904 rows per rank here: 8 or 15 rounds) give the same
#    file as in one round: every dataset bit for bit
memory("elements, rounds of 1000 rows", ["-model_internal_force", "elements", "-output_cell_rows", "1000"])
with h5py.File(os.path.join(d, "elements.h5"), "r") as f1, h5py.File(os.path.join(d, "elements, rounds of 1000 rows.h5"), "r") as f2:
    names = []
    f1.visit(lambda n: names.append(n) if isinstance(f1[n], h5py.Dataset) and n.startswith("fields/") else None)
    same = [n for n in names if np.array_equal(f1[n][()], f2[n][()], equal_nan=True)]
    c.check(len(names) >= 4 and len(same) == len(names), f"cell fields in rounds of 1000 rows: {len(same)} of {len(names)} field datasets bit for bit as in one round ({', '.join(sorted(set(names) - set(same))) or 'all'})")
c.done()
