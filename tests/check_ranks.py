"""The cantilever run at 1, 2 and 4 ranks gives the same tip history to 1e-12 relative."""
import os

import h5py
import numpy as np
from flxtest import Checker, args_np_out

a = args_np_out()
c = Checker()
ref = h5py.File(os.path.join(a.out, "cantilever_np1.h5"), "r")["probes/tip/values"][:]
for n in (2, 4):
    v = h5py.File(os.path.join(a.out, f"cantilever_np{n}.h5"), "r")["probes/tip/values"][:]
    same = v.shape == ref.shape
    rel = np.max(np.abs(v - ref)) / np.max(np.abs(ref)) if same else np.inf
    c.check(same and rel <= 1e-12, f"{n} ranks: max |difference| / max |tip history| = {rel:.2e} (<= 1e-12) over {ref.shape[0]} steps")
c.done()
