"""The command line and its one error path: every failure ends with exactly one line `flexure: error: ...` on
stderr and the documented exit code (1 bad input), without a PETSc traceback, MPI_Abort or signal, within the
timeout: a YAML syntax error (file, line and column), a duplicate key, a missing case file, a directory, an
unknown subcommand, a stray argument, nan/inf/1e999 in an option (command line and case file, named), a value
that is not a number (named), a misspelled option in each group of options (named, with the option meant).
Accepted: the subcommand after the case file (runs the static analysis), a 5 KB command line (kept whole in the
results file), an option given twice (the last value, with a warning), keys of loads that the command line dropped (-load_names tip with a case declaring tip, side),
solver diagnostics read during the solve (-ts_ksp_converged_reason, with a warning when no solver ran). At 2
ranks, a rank that fails alone (FLX_FAULT_RANK) does not hang the others, nor does a failure of one stage of the
mesh distribution on one rank (FLX_FAULT_MESH: rank 0 packing a rank's data, a rank allocating or unpacking it)."""
import os

import h5py
from flxtest import CASE, SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, f"cli_np{a.np}")
os.makedirs(d, exist_ok=True)
out = ["-output_file", os.path.join(d, "r.h5")]
short = ["-ts_max_time", "2e-5"] + out


def write(name, text):
    p = os.path.join(d, name)
    open(p, "w").write(text)
    return p


def failure(what, args, expect, code=1):
    """A run that must fail: the exit code, one error line holding every string of expect, nothing else."""
    rc, so, se = run(a.np, args, timeout=120, check=False)
    lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
    bad = [s for s in ("PETSC ERROR", "MPI_ABORT", "Signal", "signal", "core dumped", "Traceback") if s in se + so]
    ok = rc == code and len(lines) == 1 and all(e in lines[0] for e in expect) and not bad
    c.check(ok, f"{what}: exit {rc}, {len(lines)} error line(s){', ' + str(bad) if bad else ''}: {lines[0] if lines else se.strip()[:300]!r}")


def success(what, args, expect=()):
    rc, so, se = run(a.np, args, timeout=120, check=False)
    ok = rc == 0 and "flexure: error" not in se and all(e in so for e in expect)
    c.check(ok, f"{what}: exit {rc} {se.strip()[:300]!r}")
    return so


case = open(CASE).read()
syntax = write("syntax.yaml", case.replace("  file: meshes/cantilever.msh\n", "  file: meshes/cantilever.msh\n bad: [\n"))
twice = write("twice.yaml", case + "ts:\n  max_time: 0.1\n")
failure("YAML syntax error", [syntax] + out, [f"{syntax}:6:2: YAML syntax error: did not find expected key"])
line = case.splitlines().index("  max_time: 0.3") + 1  # of the case's ts: max_time
failure("duplicate key", [twice] + out, [f"{twice}:{len(case.splitlines()) + 2}:3: 'ts_max_time' is set twice (also at line {line})"])
failure("YAML syntax error in -options_file_yaml", [CASE, "-options_file_yaml", syntax] + out, [f"{syntax}:6:2: YAML syntax error"])
failure("missing case file", [os.path.join(d, "nothere.yaml")] + out, [f"case file '{os.path.join(d, 'nothere.yaml')}' not found"])
failure("directory as case file", [d] + out, [f"'{d}' is a directory, not a case file"])
failure("unknown subcommand", ["statik", CASE] + out, ["unknown subcommand 'statik': use run, static, modes or stability"])
failure("unknown subcommand alone", ["statik"] + out, ["unknown subcommand 'statik'"])
failure("stray argument", [CASE, "-load_tip_value", "0,", "-100,", "0"] + out, ["unexpected argument '-100,'", "an option takes one word"])
failure("nan on the command line", [CASE, "-ts_max_time", "nan"] + out, ["-ts_max_time nan (command line): 'nan' is not a finite number"])
failure("inf in a list", [CASE, "-load_tip_value", "0,-inf,0"] + out, ["-load_tip_value 0,-inf,0 (command line): '-inf' is not a finite number"])
failure("1e999 overflows", [CASE, "-ts_dt", "1e999"] + out, ["'1e999' is not a finite number"])
infcase = write("inf.yaml", case.replace("  max_time: 0.3", "  max_time: .inf"))
failure("inf in the case file", [infcase] + out, [f"{infcase}:{line}: -ts_max_time .inf: '.inf' is not a finite number"])
failure("not a number", [CASE, "-material_steel_E", "abc"] + out, ["-material_steel_E abc (command line): 'abc' is not a number"])
failure("enum value", [CASE, "-load_tip_type", "forse"] + out, ["Unknown option forse for -load_tip_type"])

# a misspelled option in each group, named with the option meant
ic = ["-ic_names", "v", "-ic_v_group", "tip", "-ic_v_type", "velocity", "-ic_v_value", "0,1e-3,0"]
pm = ["-pointmass_names", "m", "-pointmass_m_group", "tip", "-pointmass_m_mass", "0.1"]
typo_case = write("typo.yaml", case.replace("  frames: 150", "  frames: 150\n  intervall: 2"))
typos = [  # (group, the command and case, more options, what the message must say)
    ("mesh", [CASE], ["-mesh_fil", "x"], "-mesh_fil (command line, did you mean -mesh_file?)"),
    ("material", [CASE], ["-material_steel_nuu", "0.3"], "-material_steel_nuu (command line, did you mean -material_steel_nu?)"),
    ("section", [CASE], ["-section_bar_shear_corection", "0.8"], "did you mean -section_bar_shear_correction?"),
    ("bc", [CASE], ["-bc_clamp_dof", "ux"], "-bc_clamp_dof (command line, did you mean -bc_clamp_dofs?)"),
    ("load", [CASE], ["-load_tip_valeu", "0,-1,0"], "-load_tip_valeu (command line, did you mean -load_tip_value?)"),
    ("load time function", [CASE], ["-load_tip_functoin", "ramp"], "did you mean -load_tip_function?"),
    ("ic", [CASE], ic + ["-ic_v_grup", "tip"], "-ic_v_grup (command line, did you mean -ic_v_group?)"),
    ("pointmass", [CASE], pm + ["-pointmass_m_inertai", "1,1,1"], "did you mean -pointmass_m_inertia?"),
    ("damping", [CASE], ["-damping_mas", "1"], "-damping_mas (command line, did you mean -damping_mass?)"),
    ("model", [CASE], ["-model_allow_rigid", "1"], "did you mean -model_allow_rigid_body?"),
    ("ts", [CASE], ["-ts_monitor_intervall", "1"], "-ts_monitor_intervall (command line, did you mean -ts_monitor_interval?)"),
    ("ts gcd", [CASE], ["-ts_gcd_presett", "gcd5"], "did you mean -ts_gcd_preset?"),
    ("output", [CASE], ["-output_intervall", "3"], "-output_intervall (command line, did you mean -output_interval?)"),
    ("probe", [CASE], ["-probe_tip_dof", "ux"], "-probe_tip_dof (command line, did you mean -probe_tip_dofs?)"),
    ("modes option in a run", [CASE], ["-modes_n", "3"], "-modes_n (command line, read only by flexure modes)"),
    ("monitor of a solver that does not exist", [CASE], ["-ts_ksp_monitor"], "-ts_ksp_monitor (command line)"),
    ("modes", ["modes", CASE], ["-modes_nn", "3"], "-modes_nn (command line, did you mean -modes_n?)"),
    ("static solver", ["static", CASE], ["-static_ksp_typ", "cg"], "-static_ksp_typ (command line)"),
    ("case file", [typo_case], [], f"-output_intervall ({typo_case}:{case.splitlines().index('  frames: 150') + 2}, did you mean -output_interval?)"),
]
# a few runs (mpirun costs seconds), each with up to 8 misspelled options: the one error line names each one
runs = []
for group, head, more, expect in typos:
    if not runs or runs[-1][0] != head or len(runs[-1][1]) == 8:
        runs.append((head, []))
    runs[-1][1].append((group, more, expect))
for head, items in runs:
    args = list(head) + [x for _, more, _ in items for x in more]
    failure(f"misspelled options ({', '.join(g for g, _, _ in items)})", args + short, [e for _, _, e in items] + ["unknown or unused option", "-help lists every option"])

# accepted
so = success("subcommand after the case file", [CASE, "static"] + out, ["static solution written to"])
c.check("steps to t =" not in so, "subcommand after the case file: no transient ran")
long = []
while len(" ".join(long)) < 5200:
    long += ["-ts_monitor_interval", "5"]
so = success("5 KB command line", [CASE] + long + short)
cmd = h5py.File(out[1], "r").attrs["command_line"]
cmd = cmd.decode() if isinstance(cmd, bytes) else str(cmd)
c.check(len(cmd) > 5200 and cmd.count("-ts_monitor_interval") == len(long) // 2, f"5 KB command line kept whole in the results file ({len(cmd)} characters)")
two = write("two_loads.yaml", case.replace("  names: tip\n  tip: {type: force", "  names: tip, side\n  side: {type: force, group: tip, value: \"0,0,50\", function: ramp, t1: 0.01}\n  tip: {type: force", 1))
success("two loads, both active (spaces after the comma)", [two] + short)
success("a load dropped on the command line: its keys are not unused options", [two, "-load_names", "tip"] + short)
failure("a load dropped, a key of the active one misspelled", [two, "-load_names", "tip", "-load_tip_valeu", "1,1,1"] + short, ["-load_tip_valeu (command line, did you mean -load_tip_value?)"])
failure("a load dropped, its key given on the command line", [two, "-load_names", "tip", "-load_side_t1", "0.1"] + short, ["-load_side_t1 (command line, not read with these settings)"])
so = success("an option given twice (the last value is used)", [CASE, "-ts_monitor_interval", "5", "-ts_monitor_interval", "7"] + short)
c.check("flexure: warning: -ts_monitor_interval is given twice on the command line (5, then 7): the last value is used" in so, "an option given twice with different values: a warning names both")
so = success("solver diagnostics of a solver that never ran", [CASE, "-ts_ksp_converged_reason"] + short)
c.check("flexure: warning: option -ts_ksp_converged_reason was not used" in so, "a warning names the diagnostic no solver read")
success("diagnostics read during the static solve", ["static", CASE, "-static_ksp_view", "-static_ksp_converged_reason", "-options_left", "no"] + out, ["KSP Object: (static_)", "Linear static_ solve converged"])
# a failure on one rank alone, while the others wait in a collective operation: no hang, the failing rank's
# message and the exit code of a system failure, within the agreement's timeout (3 s here, 30 s by default)
if a.np >= 2:
    import time
    for r in (0, a.np - 1):
        os.environ["FLX_FAULT_RANK"], os.environ["FLX_AGREE_TIMEOUT"] = str(r), "3"
        t0 = time.time()
        rc, so, se = run(a.np, [CASE] + out, timeout=120, check=False)
        dt = time.time() - t0
        del os.environ["FLX_FAULT_RANK"], os.environ["FLX_AGREE_TIMEOUT"]
        lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
        c.check(rc == 3 and len(lines) == 1 and f"fault injected on rank {r} alone" in lines[0] and "the other ranks did not answer" in lines[0] and dt < 60,
                f"rank {r} fails alone: exit {rc} after {dt:.1f} s: {lines[0] if lines else se[-300:]!r}")
    # a failure in one stage of the mesh distribution on one rank (FLX_FAULT_MESH, as running out of memory
    # would): rank 0 packing a rank's data (the last rank's, the first packed, or its own, the last), a rank
    # allocating its receive buffers, a rank unpacking. Every rank stops at the same check, at once: the failing
    # rank's message, the exit code of a system failure, no results file begun.
    last = a.np - 1
    for stage in (f"pack:{last}", "pack:0", f"alloc:{last}", "unpack:0", f"unpack:{last}"):
        res = os.path.join(d, "fault_mesh.h5")
        if os.path.exists(res):
            os.remove(res)
        os.environ["FLX_FAULT_MESH"] = stage
        t0 = time.time()
        rc, so, se = run(a.np, [CASE, "-output_file", res], timeout=120, check=False)
        dt = time.time() - t0
        del os.environ["FLX_FAULT_MESH"]
        lines = [l for l in se.splitlines() if l.startswith("flexure: error:")]
        name, r = stage.split(":")
        bad = [s for s in ("PETSC ERROR", "MPI_ABORT", "Signal", "signal", "core dumped", "Traceback") if s in se + so]
        c.check(rc == 3 and len(lines) == 1 and f"fault injected while distributing the mesh: {name}, rank {r}" in lines[0] and not bad and dt < 60
                and not os.path.exists(res), f"mesh distribution, {name} fails on rank {r}: exit {rc} after {dt:.1f} s, {len(lines)} error line(s): {lines[0] if lines else se[-300:]!r}")
c.done()
