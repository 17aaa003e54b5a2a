"""flexure-bench (scripts/bench's explicit part) on small models at 1, 2 and 4 ranks, as scripts/bench runs it: every
item is reported, the element loop's roofline says which bound, the element loop agrees with the assembled K x to 1e-14 (random x), and -bench_scaling reports the speed-up
of the triad (over -bench_triad_mb per array), the element loop and the first preset's step from 1 rank to 2 in the
same process, with the one-rank copy of the model of the same size, and each one's speed-up against its roofline
bound's; the element loop's in-cache time, each item's share of its bound (per repetition) and the read stream are
reported as medians within their ranges. No timing is asserted (times on a shared machine are not a test); the numbers'
relations that hold by construction are checked: each median lies in its range, and the ratio of two medians lies
in the range of the repetitions' ratios (the median is monotone). At 1 rank: the co-rotational step takes the first
preset that carries finite rotations (cd_classic does not), and an error is one line, with no PETSc traceback."""
import os
import re
import subprocess

from flxtest import BIN, MPI_ENV, SOURCE, TIMEOUT_SCALE, Checker, args_np_out, launcher, tower

a = args_np_out()
c = Checker()
steel = ["-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850"]
plate = ["-mesh_generate", "plate", "-mesh_plate_size", "1,1", "-mesh_divisions", "12,12"] + steel + [
    "-section_names", "skin", "-section_skin_groups", "plate", "-section_skin_material", "steel", "-section_skin_thickness", "0.01",
    "-bc_names", "x0", "-bc_x0_group", "x0", "-bc_x0_dofs", "clamped", "-load_names", "p", "-load_p_type", "pressure",
    "-load_p_group", "plate", "-load_p_value", "1000"]
common = ["-ts_omega_bound", "-ts_monitor_interval", "-1", "-bench_reps", "3", "-bench_steps", "5", "-bench_products", "2", "-bench_triad_mb", "16"]
models = {"tower": tower("3,3,20", "4,4,80") + ["-bench_nonlinear"], "quads": plate, "triangles": plate + ["-mesh_triangles"]}
num = r"([0-9.]+(?:e[-+]?[0-9]+)?)"
e = 0.005  # every scaling figure is printed to two decimals
for name, opts in models.items():
    cmd = launcher(a.np) + [os.path.join(BIN, "flexure-bench")] + opts + common + (["-bench_scaling"] if a.np > 1 else [])
    env = dict(os.environ, **MPI_ENV)
    p = subprocess.run(cmd, cwd=SOURCE, env=env, capture_output=True, text=True, timeout=80 * TIMEOUT_SCALE)
    c.check(p.returncode == 0, f"{name}: flexure-bench exits 0 ({p.stderr.strip()[-300:]})")
    out = p.stdout
    m = re.search(r"\|element loop - assembled K x\|_inf / \|K x\|_inf = " + num, out)
    c.check(m is not None and float(m.group(1)) < 1e-14, f"{name}: element loop against assembled K x: {m.group(1) if m else 'missing'} < 1e-14")
    c.check(re.search(r"^bench: vector arrays 64-byte aligned$", out, re.M) is not None, f"{name}: the vector arrays are 64-byte aligned (src/util/memalign.c)")
    items = re.findall(r"^bench: (.+?)\s+" + num + r" ns/DOF \(" + num + r" \.\. " + num + r"\)", out, re.M)
    want = ["gcd3 step", "gcd4_a3/4 step", "gcd5 step", "PETSc MatMult", "flexure K x (assembled)", "element loop"]
    if name == "tower":
        want += ["co-rotational f_int", "co-rotational gcd3 step"]
    got = {i[0].strip(): tuple(float(v) for v in i[1:]) for i in items}
    c.check(all(w in got for w in want), f"{name}: every item reported ({sorted(got)})")
    c.check(all(lo <= med <= hi and med > 0 for med, lo, hi in got.values()), f"{name}: each median positive and within its range")
    c.check(re.search(r"^bench: roofline: element loop .* -> (memory|compute) bound", out, re.M) is not None, f"{name}: the element loop's roofline says which bound")
    # the in-cache time measured in every repetition: its median within its range
    m = re.search(r"^bench: roofline: element loop .*compute bound \(in cache\) " + num + r" ns/DOF \(" + num + r" \.\. " + num + r";", out, re.M)
    c.check(m is not None and 0 < float(m.group(2)) - 0.005 <= float(m.group(1)) <= float(m.group(3)) + 0.005, f"{name}: the in-cache time's median and range ({m.group(0)[-60:] if m else 'missing'})")
    # each bounded item's share of its bound: the median of the repetitions' shares, within their range
    shares = re.findall(r"^bench: (.+?)\s+[0-9.]+ ns/DOF .*; bound " + num + r" ns/DOF, (\d+)% of it \((\d+) \.\. (\d+)\)", out, re.M)
    c.check(len(shares) >= 6 and all(int(lo) <= int(med) <= int(hi) and float(b) > 0 for _, b, med, lo, hi in shares),
            f"{name}: every bounded item's share of its bound, the median within the repetitions' range ({len(shares)} items)")
    m = re.search(r"^bench: read stream " + num + r" GB/s \(" + num + r" \.\. " + num + r"\) = " + num + r" x the triad's \(" + num + r" \.\. " + num + r"\)", out, re.M)
    c.check(m is not None and float(m.group(2)) <= float(m.group(1)) <= float(m.group(3)) and float(m.group(5)) - e <= float(m.group(4)) <= float(m.group(6)) + e,
            f"{name}: the read stream's bandwidth and its ratio to the triad's, medians within their ranges ({m.group(0) if m else 'missing'})")
    if a.np == 1:
        continue
    tri = re.search(r"^bench: scaling, 1 rank against (\d+), interleaved in this process: the triad's speed-up " + num + r" .*; (\d+) MB per array", out, re.M)
    c.check(tri is not None and int(tri.group(1)) == a.np and int(tri.group(3)) == 16, f"{name}: the triad's in-process speed-up reported, over -bench_triad_mb 16 MB per array")
    for item in ["element loop", "gcd3 step"]:
        s = re.search(r"^bench: scaling, " + re.escape(item) + r": 1 rank " + num + r", (\d+) ranks " + num + r" ns/DOF; speed-up " + num
                      + r" \(" + num + r" \.\. " + num + r"\) = " + num + r" x the triad's", out, re.M)
        ok = s is not None
        if ok:
            t1, t2, sp, lo, hi = (float(s.group(i)) for i in (1, 3, 4, 5, 6))
            # the ratio of the medians lies in the ratios' range
            ok = t1 > e and t2 > e and lo <= sp <= hi and (t1 - e) / (t2 + e) <= hi + e and (t1 + e) / (t2 - e) >= lo - e and int(s.group(2)) == a.np
            own = got.get(item)  # the P-rank figure is the item's own median (printed to 0.01)
            ok = ok and own is not None and abs(t2 - own[0]) <= 0.01 * t2 + 0.006
        c.check(ok, f"{name}: {item}'s speed-up from 1 rank to {a.np} in the same process: {s.group(0) if s else 'missing'}")
        b = re.search(r"^bench: scaling, " + re.escape(item) + r": .*; its bound's speed-up " + num + r" \(" + num + r" \.\. " + num + r"\): " + num
                      + r" x it \(" + num + r" \.\. " + num + r"\)$", out, re.M)
        ok = b is not None and s is not None and all(float(b.group(i + 1)) - e <= float(b.group(i)) <= float(b.group(i + 2)) + e for i in (1, 4))
        if ok:  # the item's speed-up over its bound's (medians) lies in the range of the repetitions' quotients
            sp, bs, lo, hi = float(s.group(4)), float(b.group(1)), float(b.group(5)), float(b.group(6))
            ok = bs > e and (sp - e) / (bs + e) <= hi + e and (sp + e) / (bs - e) >= lo - e
        c.check(ok, f"{name}: {item}'s speed-up against its roofline bound's, medians within their ranges: {b.group(0) if b else 'missing'}")
    rng = num + r" \(" + num + r" \.\. " + num + r"\)"
    cb = re.search(r"^bench: scaling, element loop's compute bound \(in cache\): 1 rank " + rng + r", (\d+) ranks " + rng + r" ns/DOF$", out, re.M)
    ok = cb is not None and int(cb.group(4)) == a.np and all(0 < float(cb.group(i + 1)) - e <= float(cb.group(i)) <= float(cb.group(i + 2)) + e for i in (1, 5))
    c.check(ok, f"{name}: the element loop's in-cache time at 1 and {a.np} ranks, medians of the repetitions within their ranges: {cb.group(0) if cb else 'missing'}")
if a.np == 1:  # the co-rotational step takes the first preset that carries rotations; errors are one line
    env = dict(os.environ, **MPI_ENV)
    base = launcher(1) + [os.path.join(BIN, "flexure-bench")] + models["tower"] + common
    p = subprocess.run(base + ["-bench_presets", "cd_classic,gcd4_a3/4"], cwd=SOURCE, env=env, capture_output=True, text=True, timeout=80 * TIMEOUT_SCALE)
    m = re.search(r"^bench: co-rotational gcd4_a3/4 step .* x the linear gcd4_a3/4 step \(", p.stdout, re.M)
    c.check(p.returncode == 0 and m is not None, f"presets cd_classic,gcd4_a3/4: the co-rotational step is gcd4_a3/4's, against the linear gcd4_a3/4 step ({m.group(0)[:90] if m else p.stderr.strip()[-200:]})")
    p = subprocess.run(base + ["-bench_presets", "cd_classic"], cwd=SOURCE, env=env, capture_output=True, text=True, timeout=80 * TIMEOUT_SCALE)
    lines = [l for l in p.stderr.splitlines() if l.startswith("flexure-bench: error:")]
    c.check(p.returncode == 1 and len(lines) == 1 and "no preset of -bench_presets carries finite rotations" in lines[0] and "PETSC ERROR" not in p.stderr,
            f"presets cd_classic with -bench_nonlinear: one error line, exit {p.returncode}: {lines[0] if lines else p.stderr.strip()[:300]!r}")
    p = subprocess.run(base + ["-bench_repz", "2"], cwd=SOURCE, env=env, capture_output=True, text=True, timeout=80 * TIMEOUT_SCALE)
    lines = [l for l in p.stderr.splitlines() if l.startswith("flexure-bench: error:")]
    c.check(p.returncode == 1 and len(lines) == 1 and "-bench_repz" in lines[0], f"misspelled -bench_repz refused: exit {p.returncode}, {lines[0] if lines else p.stderr.strip()[:200]!r}")
    nobound = [o for o in models["quads"] + common if o != "-ts_omega_bound"]  # omega_max by Lanczos (SLEPc)
    p = subprocess.run(launcher(1) + [os.path.join(BIN, "flexure-bench")] + nobound, cwd=SOURCE, env=env, capture_output=True, text=True, timeout=80 * TIMEOUT_SCALE)
    c.check(p.returncode == 0 and "bench: gcd3 step" in p.stdout, f"without -ts_omega_bound (omega_max by Lanczos): exit {p.returncode} {p.stderr.strip()[-200:]!r}")
c.done()
