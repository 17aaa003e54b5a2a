"""flexure's generalized-alpha against PETSc's TSALPHA2 on the same model (flexure-tsalpha2 sets
TSSetI2Function / TSSetI2Jacobian on flexure's operators and converts the alpha convention): the tip
displacement histories agree to 1e-8 relative, at 1 and 2 ranks, for rho_inf 0.8 and 0.5, with and without
Rayleigh damping, with a direct solver and with CG + GAMG (rtol 1e-12).
Both start from the consistent a_0 = 0 (model at rest, tip load ramped from zero; the ramp's corner falls
on a step, so TSALPHA2's load at t_n + alpha_f h equals flexure's weighted loads). A misspelled option of the
tool is refused in one line."""
import os

import h5py
import numpy as np
from flxtest import BIN, CASE, MPI_ENV, SOURCE, Checker, args_np_out, launcher, run
import subprocess

a = args_np_out()
c = Checker()
load = ["-load_tip_function", "ramp", "-load_tip_t1", "0.01"]
H, N = 1e-4, 300
solvers = {"direct (Cholesky)": (["-ts_ksp_type", "preonly", "-ts_pc_type", "cholesky"], ["-alpha2_ksp_type", "preonly", "-alpha2_pc_type", "cholesky"]),
           "CG + GAMG, rtol 1e-12": (["-ts_ksp_rtol", "1e-12"], ["-alpha2_ksp_rtol", "1e-12"])}
env = dict(os.environ, **MPI_ENV)
for np_ in (1, 2):
    for r in (0.8, 0.5):
        for damp in ([], ["-damping_mass", "2.0", "-damping_stiffness", "1e-5"]):
            for sname, (ours, theirs) in solvers.items():
                out = os.path.join(a.out, f"a2_ours_np{np_}.h5")
                run(np_, [CASE] + load + damp + ours + ["-ts_type", "genalpha", "-ts_genalpha_radius", str(r), "-ts_dt", repr(H), "-ts_max_steps", str(N),
                                                        "-ts_monitor_interval", "-1", "-output_frames", "1", "-output_file", out])
                with h5py.File(out, "r") as f:
                    dofs = f["probes/tip"].attrs["dofs"]
                    dofs = (dofs.decode() if isinstance(dofs, bytes) else str(dofs)).split(",")
                    t, u = f["probes/tip/time"][:], f["probes/tip/values"][:, dofs.index("uy")]
                csv = os.path.join(a.out, f"a2_theirs_np{np_}.csv")
                cmd = launcher(np_) + [os.path.join(BIN, "flexure-tsalpha2"), CASE] + load + damp + theirs + [
                    "-tsalpha2_radius", str(r), "-tsalpha2_dt", repr(H), "-tsalpha2_steps", str(N), "-tsalpha2_probe_node", "1", "-tsalpha2_probe_dof", "1", "-tsalpha2_output", csv]
                p = subprocess.run(cmd, cwd=SOURCE, env=env, capture_output=True, text=True, timeout=300)
                if p.returncode:
                    print(p.stdout, p.stderr)
                ref = np.loadtxt(csv)
                ok = p.returncode == 0 and ref.shape[0] == len(u) and np.max(np.abs(ref[:, 0] - t)) < 1e-12
                rel = np.max(np.abs(ref[:, 1] - u)) / np.max(np.abs(u)) if ok else float("inf")
                c.check(ok and rel < 1e-8, f"{np_} rank(s), rho_inf {r}, {'Rayleigh damping' if damp else 'undamped'}, {sname}: {N} steps, max |flexure - TSALPHA2| / max |u| = {rel:.2e} (< 1e-8)")
# a misspelled option of the tool is refused in one line (the case file's -ts_, -output_, -probe_ pass: they are flexure's)
p = subprocess.run(launcher(1) + [os.path.join(BIN, "flexure-tsalpha2"), CASE] + load + ["-tsalpha2_dt", repr(H), "-tsalpha2_steps", "3", "-tsalpha2_radius", "0.8", "-tsalpha2_stepz", "4"],
                   cwd=SOURCE, env=env, capture_output=True, text=True, timeout=120)
lines = [l for l in p.stderr.splitlines() if l.startswith("flexure-tsalpha2: error:")]
c.check(p.returncode == 1 and len(lines) == 1 and "-tsalpha2_stepz" in lines[0] and "PETSC ERROR" not in p.stderr,
        f"misspelled -tsalpha2_stepz: exit {p.returncode}, {lines[0] if lines else p.stderr.strip()[:200]!r}")
c.done()
