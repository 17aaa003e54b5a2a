"""The co-rotational internal force is bit-identical at 1, 2 and 4 ranks (owned and halo cells in natural order,
owned nodes summed in natural element order): an explicit run of the example cantilever with -model_geometry
nonlinear (the GCD stepper calls f_int every step) gives bit-identical /fields/displacement at 1, 2 and 4 ranks.
Its energy ledger balances to round-off: the strain term is U(x_0) plus the internal force's work, summed as the
external work is, so that the central-difference identity M (D_{n+1} - D_n) / h^2 = f_ext - f_int closes it for any
f_int (before: U(x_n) against the step's velocities, 3e-2 of the peak energy under this step load)."""
import re
import os

import h5py
import numpy as np
from flxtest import CASE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
u = {}
for np_ in (1, 2, 4):
    h5 = os.path.join(a.out, f"nl_ranks_np{np_}.h5")
    _, so, _ = run(np_, ["run", CASE, "-model_geometry", "nonlinear", "-ts_dt", "2e-6", "-ts_max_steps", "150", "-output_frames", "15", "-output_file", h5])
    m = re.search(r"largest energy balance error (\S+) of the peak", so)
    c.check(m is not None and float(m.group(1)) < 1e-13, f"{np_} rank(s): energy balance {m.group(1) if m else 'missing'} of the peak energy (gcd3: round-off, 5.7e-15 measured; tolerance 1e-13)")
    with h5py.File(h5, "r") as f:
        u[np_] = f["/fields/displacement"][:]
peak = np.abs(u[1]).max()
c.check(peak > 1e-5, f"the tip moves ({peak:.3e} m)")
for np_ in (2, 4):
    c.check(np.array_equal(u[1], u[np_]), f"/fields/displacement at {np_} ranks bit-identical to 1 rank ({u[1].shape}, largest difference {np.abs(u[1] - u[np_]).max():.1e})")
c.done()
