"""Helpers shared by the test scripts: run flexure under mpirun, parse output, compare numbers."""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE = os.environ.get("FLX_SOURCE", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("FLX_BIN", os.path.join(SOURCE, "build", "bin"))
MPIEXEC = os.environ.get("FLX_MPIEXEC", "mpirun")
CASE = os.path.join(SOURCE, "examples", "cantilever", "case.yaml")
# Slow builds (scripts/sanitize) stretch every timeout by this factor (ctest's own timeouts too).
TIMEOUT_SCALE = float(os.environ.get("FLX_TIMEOUT_SCALE", "1"))

# The example's data (examples/cantilever/case.yaml)
E, NU, RHO = 210e9, 0.3, 7850.0
A, I, KAPPA = 4.0e-4, 1.3333333333333333e-8, 0.8333333333333334
L, P = 1.0, 100.0
G = E / (2 * (1 + NU))
STATIC_TIP = P * L**3 / (3 * E * I) + P * L / (KAPPA * G * A)


def tower(bays, size, wind="100,50,0", node=None):
    """Options of a generated steel lattice tower clamped at its base, with a wind load on its top nodes
    (none when wind is None), and a probe 'p' at a natural node."""
    opts = ["-mesh_generate", "tower", "-mesh_tower_bays", bays, "-mesh_tower_size", size,
            "-material_names", "steel", "-material_steel_E", "210e9", "-material_steel_nu", "0.3", "-material_steel_rho", "7850",
            "-section_names", "tube", "-section_tube_groups", "frame", "-section_tube_material", "steel", "-section_tube_A", "1.2e-3",
            "-section_tube_Iy", "1.0e-6", "-section_tube_Iz", "1.0e-6", "-section_tube_J", "2.0e-6",
            "-bc_names", "base", "-bc_base_group", "base"]
    if wind is not None:
        opts += ["-load_names", "wind", "-load_wind_group", "top", "-load_wind_value", wind]
    if node is not None:
        opts += ["-probe_names", "p", "-probe_p_node", str(node)]
    return opts


# Open MPI as root, oversubscribed; PMIx keeps the job's keys in a hash table; for a faster start, the one-node
# transports named and hwloc's PCI and I/O discovery left out unless the environment sets them (e.g.
# OMPI_MCA_btl=self,tcp to debug a transport; tests/CMakeLists.txt sets the same for ctest, and says why).
_FAST_START = dict(OMPI_MCA_pml="ob1", OMPI_MCA_btl="self,vader",
                   HWLOC_COMPONENTS="-linux:pci,-linux:io,-linux:misc,-linux:annotate",
                   HWLOC_PLUGINS_BLACKLIST="hwloc_pci,hwloc_gl,hwloc_opencl")
MPI_ENV = dict(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1",
               PMIX_MCA_gds="hash", **{k: os.environ.get(k, v) for k, v in _FAST_START.items()})


def launcher(np_):
    """The command prefix that starts a program on np_ ranks: mpiexec, or nothing for one rank (the program runs as
    a singleton, the same code path, 0.1 s sooner per run; run() makes it an isolated singleton, 0.2 s sooner; the
    suite starts about a thousand one-rank runs). FLX_TEST_MPIEXEC=1 keeps mpiexec for one rank too."""
    if np_ == 1 and os.environ.get("FLX_TEST_MPIEXEC", "0") == "0":
        return []
    return [MPIEXEC, "-np", str(np_)]


def run(np_, args, timeout=240, check=True):
    """Run flexure on np_ ranks from the source directory; return (returncode, stdout, stderr)."""
    pre = launcher(np_)
    cmd = pre + [os.path.join(BIN, "flexure")] + list(args)
    env = dict(os.environ, **MPI_ENV)
    tmp = None
    if not pre:  # one rank without mpiexec: an isolated singleton (no runtime daemon: MPI_Init 0.06 s instead of 0.23 s).
        # Every isolated singleton is job 0, so each gets a session directory of its own: in one shared
        # /tmp/ompi.*/jf.0 a run's clean-up removed the MPI-IO file another run was opening (seen once in a suite).
        tmp = tempfile.mkdtemp(prefix="flx-mpi-")
        env.update(OMPI_MCA_ess_singleton_isolated="1", OMPI_MCA_orte_tmpdir_base=tmp)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=SOURCE, env=env, capture_output=True, text=True, timeout=timeout * TIMEOUT_SCALE)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    if os.environ.get("FLX_TEST_TIMES"):  # where a test's time goes
        print(f"[{time.monotonic() - t0:6.2f} s, {np_} rank(s), exit {p.returncode}] {' '.join(args)[:160]}", file=sys.stderr)
    if check and p.returncode != 0:
        print(p.stdout)
        print(p.stderr, file=sys.stderr)
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited with {p.returncode}")
    return p.returncode, p.stdout, p.stderr


_POOL = []


def start(np_, args, **kw):
    """Start run(np_, args, **kw) in the background and return its future (.result() gives run's result). At most two
    run at once: a test that holds both cores (ctest PROCESSORS 2) runs its one-rank runs in pairs."""
    if not _POOL:
        _POOL.append(concurrent.futures.ThreadPoolExecutor(max_workers=2))
    return _POOL[0].submit(run, np_, args, **kw)


def fit_residual(u, cols):
    """Residual sum of squares of the least-squares fit of the samples u by the columns cols (k arrays of u's length),
    solved by the k x k normal equations (the harmonic and decaying bases of the tests are well conditioned) and the
    residual formed from the samples: 3-4 x faster than numpy's lstsq, which the frequency scans call hundreds of
    times."""
    import numpy as np  # here: most scripts that import flxtest do not fit, and numpy's import costs 0.1 s

    G = np.array([[a @ b for b in cols] for a in cols])
    x = np.linalg.solve(G, np.array([a @ u for a in cols]))
    r = u - sum(xi * ci for xi, ci in zip(x, cols))
    return r @ r


def fit_frequency(t, u, w_ref):
    """The angular frequency w of the least-squares fit c + a cos(w t) + b sin(w t) to u(t): the best of 401 values
    within 20 % of w_ref, then a golden-section search within 1e-3 w_ref of it (to round-off)."""
    import numpy as np

    def residual(w):
        return fit_residual(u, [np.ones_like(t), np.cos(w * t), np.sin(w * t)])

    ws = np.linspace(0.8 * w_ref, 1.2 * w_ref, 401)
    w0 = ws[np.argmin([residual(w) for w in ws])]
    lo, hi = w0 - 0.001 * w_ref, w0 + 0.001 * w_ref
    for _ in range(60):
        m1, m2 = lo + 0.382 * (hi - lo), lo + 0.618 * (hi - lo)
        if residual(m1) < residual(m2):
            hi = m2
        else:
            lo = m1
    return 0.5 * (lo + hi)


class Checker:
    """Collects named checks; exits non-zero if any failed."""

    def __init__(self):
        self.failed = 0

    def check(self, ok, what):
        print(("PASS: " if ok else "FAIL: ") + what)
        if not ok:
            self.failed += 1

    def done(self):
        print(f"{'FAIL' if self.failed else 'PASS'}: {self.failed} failed checks")
        sys.exit(1 if self.failed else 0)


def args_np_out(argv=None):
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--out", default="/tmp")
    return ap.parse_args(argv)
