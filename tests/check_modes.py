"""Modal analysis (flexure modes, SLEPc), at 1 and 2 ranks:
- simply supported square plate (examples/plate_modes, 32 x 32): the first six frequencies within 1% of
  the Kirchhoff values with quads (MITC4) and within 2% with triangles (DKT3) and with a mixed mesh;
- cantilever (examples/cantilever, 40 Timoshenko beams): the first four bending frequencies within 0.5% of
  the exact Timoshenko values (frequency equation solved here);
- a free-free beam: six rigid-body modes reported as such, then the first flexible mode (beta L = 4.7300);
- the same frequencies at 1 and 2 ranks (1e-8 relative);
- a clamped aluminium rod (L = 2 m, d = 20 mm, 40 elements) along x and along the skew axes (1, 1, 1), (1, 2, 3) and
  (0.2, 0.1, 1): the first torsion frequency within 1e-4 of (1/4L) sqrt(G/rho) = 390.24 Hz along every axis (the
  lumped rotary inertia keeps the torsional value along any axis; before, +22.5% along (1, 1, 1)), and the first
  bending frequency within 5e-5 of the rod's along x (the bending axes' rotary inertia is not exact off the axes)."""
import math
import os
import subprocess

import h5py
import numpy as np

from flxtest import SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()


def modes(np_, case, extra=(), tag="m"):
    out = os.path.join(a.out, f"modes_{tag}_np{np_}.h5")
    _, so, _ = run(np_, ["modes", case, "-output_file", out] + list(extra))
    with h5py.File(out, "r") as f:
        return f["/modes/frequency"][:], f["/modes/rigid_body"][:], f["/modes/shape"][:], float(f["/modes/omega_max"][0]), so


# --- plate
E, nu, rho, t, L = 210e9, 0.3, 7850.0, 0.01, 1.0
D = E * t**3 / (12 * (1 - nu**2))
kirch = sorted(math.pi / 2 * (m * m + n * n) * math.sqrt(D / (rho * t)) / L**2 for m in range(1, 6) for n in range(1, 6))[:6]
plate = os.path.join(SOURCE, "examples/plate_modes/case.yaml")
same = []
for kind, opt, tol in (("quads", [], 0.01), ("triangles", ["-mesh_triangles"], 0.02), ("mixed quads and triangles", ["-mesh_mixed"], 0.02)):
    tri = kind != "quads"
    per_np = []
    for np_ in (1, 2):
        f, rb, _, om, so = modes(np_, plate, opt, kind[:3])
        per_np.append(f)
        if np_ == 1:
            print(so[so.find("Modes:"):])
            print("  mode  flexure (Hz)  Kirchhoff (Hz)  error")
            for k in range(6):
                print(f"  {k + 1:4d}  {f[k]:12.5f}  {kirch[k]:12.5f}  {f[k] / kirch[k] - 1:+.4%}")
            err = max(abs(f[k] / kirch[k] - 1) for k in range(6))
            c.check(len(f) >= 6 and err < tol, f"plate ({kind}, 32 x 32): first six frequencies within {tol:.0%} of Kirchhoff (largest error {err:.3%})")
    same.append(np.max(np.abs(per_np[1][:6] / per_np[0][:6] - 1)))

# --- cantilever: Timoshenko frequency equation
E, G, rho, A, I, kap, Lb = 210e9, 210e9 / 2.6, 7850.0, 4.0e-4, 1.3333333333333333e-8, 0.8333333333333334, 1.0


def timo_det(w):
    kGA = kap * G * A
    # (kGA s^2 + rho A w^2)(EI s^2 - kGA + rho I w^2) + kGA^2 s^2 = 0, quadratic in s^2
    p2 = kGA * E * I
    p1 = kGA * (rho * I * w * w - kGA) + rho * A * w * w * E * I + kGA * kGA
    p0 = rho * A * w * w * (rho * I * w * w - kGA)
    r = np.roots([p2, p1, p0])
    sa, sb = max(r.real), min(r.real)  # s^2 = a^2 > 0 and -b^2 < 0 below the cut-off
    aa, bb = math.sqrt(sa), math.sqrt(-sb)
    ra = (kGA * aa * aa + rho * A * w * w) / (kGA * aa)
    q = (rho * A * w * w - kGA * bb * bb) / (kGA * bb)
    ch, sh, co, si = math.cosh(aa * Lb), math.sinh(aa * Lb), math.cos(bb * Lb), math.sin(bb * Lb)
    # w = C1 cosh + C2 sinh + C3 cos + C4 sin; psi = ra (C1 sinh + C2 cosh) + q (C3 sin - C4 cos)
    M = np.array([
        [1, 0, 1, 0],                                            # w(0) = 0
        [0, ra, 0, -q],                                          # psi(0) = 0
        [ra * aa * ch, ra * aa * sh, q * bb * co, q * bb * si],  # psi'(L) = 0
        [aa * sh - ra * sh, aa * ch - ra * ch, -bb * si - q * si, bb * co + q * co],  # w'(L) - psi(L) = 0
    ])
    return np.linalg.det(M / np.max(np.abs(M), axis=1, keepdims=True))


roots, w0, dw = [], 10.0, 2.0
prev = timo_det(w0)
while len(roots) < 4:
    w1 = w0 + dw
    cur = timo_det(w1)
    if prev * cur < 0:
        lo, hi = w0, w1
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if timo_det(lo) * timo_det(mid) <= 0:
                hi = mid
            else:
                lo = mid
        roots.append(0.5 * (lo + hi) / (2 * math.pi))
    w0, prev = w1, cur
eb = [(bl**2) * math.sqrt(E * I / (rho * A * Lb**4)) / (2 * math.pi) for bl in (1.875104, 4.694091, 7.854757, 10.995541)]
cant = os.path.join(SOURCE, "examples/cantilever/case.yaml")
per_np = []
for np_ in (1, 2):
    f, rb, sh, om, so = modes(np_, cant, ["-modes_n", "12"], "cant")
    # bending in y: modes whose largest translation is uy
    bend = [f[k] for k in range(len(f)) if np.argmax(np.abs(sh[k][:, :3]).max(axis=0)) == 1][:4]
    per_np.append(f)
    if np_ == 1:
        print("cantilever bending (y)  flexure (Hz)  Timoshenko exact (Hz)  error   (Euler-Bernoulli)")
        for k in range(4):
            print(f"  {k + 1:4d}  {bend[k]:12.5f}  {roots[k]:12.5f}  {bend[k] / roots[k] - 1:+.4%}   ({eb[k]:.5f})")
        err = max(abs(bend[k] / roots[k] - 1) for k in range(4))
        c.check(len(bend) == 4 and err < 0.005, f"cantilever: first four bending frequencies within 0.5% of the exact Timoshenko values (largest error {err:.3%})")
same.append(np.max(np.abs(per_np[1] / per_np[0] - 1)))

# --- free-free beam: rigid-body modes
free = os.path.join(a.out, "free_beam.yaml")
with open(free, "w") as fh:
    fh.write("""mesh: {generate: beam, beam: {length: 1.0, elements: 40}}
material: {names: steel, steel: {E: 210e9, nu: 0.3, rho: 7850}}
section: {names: bar, bar: {groups: beam, material: steel, A: 4.0e-4, Iy: 1.3333333333333333e-8, Iz: 1.3333333333333333e-8, J: 2.25e-8}}
""")
f, rb, _, om, so = modes(a.np, free, ["-modes_n", "8"], "free")
print(so[so.find("Modes:"):])
ff = 4.730041**2 * math.sqrt(E * I / (rho * A)) / (2 * math.pi)
c.check(list(rb[:6]) == [1] * 6 and rb[6] == 0, "free-free beam: the first six modes are reported as rigid-body modes, then flexible ones")
c.check(abs(f[6] / ff - 1) < 0.005, f"free-free beam: first flexible mode {f[6]:.4f} Hz vs {ff:.4f} Hz (Euler-Bernoulli, beta L = 4.7300): {f[6] / ff - 1:+.3%}")
# scripts/plot_modes.py draws the modes file (beams) and refuses a file without modes
plot = os.path.join(SOURCE, "scripts", "plot_modes.py")
png = os.path.join(a.out, "free_modes.png")
p = subprocess.run(["/usr/bin/python3", plot, os.path.join(a.out, f"modes_free_np{a.np}.h5"), "--modes", "7,8", "-o", png], capture_output=True, text=True)
c.check(p.returncode == 0 and os.path.getsize(png) > 10000, f"plot_modes.py draws modes 7 and 8 of the free beam ({p.stdout.strip()}{p.stderr.strip()[-200:]})")
p = subprocess.run(["/usr/bin/python3", plot, os.path.join(a.out, f"modes_free_np{a.np}.h5"), "--modes", "9"], capture_output=True, text=True)
c.check(p.returncode == 2 and "mode 9 is not in the file (1..8)" in p.stderr and "Traceback" not in p.stderr, f"plot_modes.py refuses a mode beyond the file: '{p.stderr.strip()}'")
c.check(max(same) < 1e-8, f"same frequencies at 1 and 2 ranks (largest relative difference {max(same):.2e} < 1e-8)")
# torsion of a rod along skew axes
G_al, rho_al, L_rod = 70e9 / 2 / 1.33, 2700.0, 2.0
fT = math.sqrt(G_al / rho_al) / (4 * L_rod)
bend = {}
for axis in ("1,0,0", "1,1,1", "1,2,3", "0.2,0.1,1"):
    out = os.path.join(a.out, f"modes_rod_np{a.np}.h5")
    run(a.np, ["modes", "-mesh_generate", "beam", "-mesh_beam_elements", "40", "-mesh_beam_length", "2", "-mesh_beam_direction", axis,
               "-material_names", "al", "-material_al_E", "70e9", "-material_al_nu", "0.33", "-material_al_rho", "2700",
               "-section_names", "rod", "-section_rod_groups", "beam", "-section_rod_material", "al", "-section_rod_shape", "circle", "-section_rod_d", "0.02",
               "-bc_names", "c", "-bc_c_group", "root", "-modes_n", "30", "-output_file", out])
    with h5py.File(out, "r") as f:
        fr, sh = f["/modes/frequency"][:], f["/modes/shape"][:]
    twist = [k for k in range(len(fr)) if np.sum(sh[k][:, :3] ** 2) < 1e-6 * np.sum(sh[k][:, 3:] ** 2)]
    bend[axis] = fr[0]
    ok = len(twist) > 0
    err = fr[twist[0]] / fT - 1 if ok else float("nan")
    c.check(ok and abs(err) < 1e-4, f"rod along ({axis}): first torsion frequency {fr[twist[0]] if ok else float('nan'):.3f} Hz against {fT:.3f} Hz: {err:+.1e} (1e-4)")
for axis in ("1,1,1", "1,2,3", "0.2,0.1,1"):
    e = abs(bend[axis] / bend["1,0,0"] - 1)
    c.check(e < 5e-5, f"rod along ({axis}): first bending frequency {bend[axis]:.5f} Hz, {e:.1e} from the rod along x (5e-5; measured up to 1.5e-5)")
c.done()
