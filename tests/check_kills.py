"""Killed runs (issue 13, must-show 4): 20 runs at 2 ranks, frames every few steps so that a good share of the run is
spent writing, are killed with SIGKILL (10) or SIGTERM (10) sent to the whole job at a random instant after the
results file appears (a batch system's time limit). Every time, the HDF5 file opens with h5py and every dataset reads
in full, and the XDMF beside it parses as XML and lists only frames the file holds (so ParaView can open it). The
file is written under PATH.tmp until its mesh is flushed and renamed, the XDMF is replaced by renaming, and the
file's size stays above every address HDF5 records (space is reserved ahead), so no instant leaves a truncated file."""
import os
import random
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

import h5py

from flxtest import BIN, MPIEXEC, MPI_ENV, SOURCE, Checker, args_np_out


def read_all(f):
    """Read every dataset of an open h5py file; return the number of frames."""
    names = []
    f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
    for n in names:
        f[n][...]
    return f["time"].shape[0] if "time" in f else 0


def session(sid):
    """The processes of session sid (mpiexec starts each rank in a process group of its own)."""
    pids = []
    for x in os.listdir("/proc"):
        if x.isdigit():
            try:
                with open(f"/proc/{x}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[3]) == sid and fields[0] != "Z":
                    pids.append(int(x))
            except (OSError, IndexError, ValueError):
                pass
    return pids


def kill_job(p, sig):
    """Signal every process of the job at once, as a batch system does (its cgroup), and wait until all are gone:
    a rank left running after mpiexec dies would still be writing while the file is read."""
    for pid in session(p.pid):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass
    t0 = time.time()
    while session(p.pid) and time.time() - t0 < 60:
        p.poll()
        time.sleep(0.01)
    for pid in session(p.pid):  # a job that ignored the signal for a minute
        os.kill(pid, signal.SIGKILL)
    p.wait()


def one(c, i, sig, delay, d):
    h5 = os.path.join(d, "results.h5")
    for x in os.listdir(d):
        if os.path.isfile(os.path.join(d, x)):
            os.remove(os.path.join(d, x))
    # the ranks' shared-memory segments in a directory of the test's own, emptied after each kill: a job killed with
    # SIGKILL cannot remove them, and in /dev/shm they stayed (4 MB per rank of each killed job)
    shm = os.path.join(d, "shm")
    os.makedirs(shm, exist_ok=True)
    env = dict(os.environ, **MPI_ENV, OMPI_MCA_btl_vader_backing_directory=shm)
    cmd = [MPIEXEC, "-np", "2", os.path.join(BIN, "flexure"), "examples/cantilever/case.yaml", "-output_file", h5, "-output_interval", "25", "-ts_max_time", "0.1"]
    p = subprocess.Popen(cmd, cwd=SOURCE, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    t0 = time.time()
    while not os.path.exists(h5) and p.poll() is None and time.time() - t0 < 60:
        time.sleep(0.001)
    time.sleep(delay)
    kill_job(p, sig)
    left = os.listdir(shm)
    for x in left:
        os.remove(os.path.join(shm, x))
    what = f"run {i}: {sig.name} {delay:.3f} s after the file appeared"
    try:
        with h5py.File(h5, "r") as f:
            n = read_all(f)
            nf = f["fields/displacement"].shape[0] if "fields" in f else 0
        root = ET.parse(os.path.join(d, "results.xdmf")).getroot()
        frames = len([g for g in root.iter("Grid") if g.find("Time") is not None])  # a file with no frame yet shows the mesh
        c.check(frames <= min(n, nf), f"{what}: the HDF5 file opens and reads ({n} frames), the XDMF parses ({frames} frames)")
        return 1
    except Exception as e:
        c.check(False, f"{what}: {e}")
        return 0


def main():
    a = args_np_out()
    c = Checker()
    d = os.path.join(a.out, "kills")
    os.makedirs(d, exist_ok=True)
    seed = int(time.time())
    print(f"kill instants from random.Random({seed})")
    rng = random.Random(seed)
    ok = 0
    for i in range(20):
        ok += one(c, i, signal.SIGKILL if i % 2 == 0 else signal.SIGTERM, rng.uniform(0.0, 1.0), d)
    c.check(ok == 20, f"{ok} of 20 killed runs left readable files")
    c.done()


if __name__ == "__main__":
    main()
