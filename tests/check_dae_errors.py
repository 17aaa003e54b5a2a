"""Bad input on constrained systems (issue 16), through flexure-pendulum-dae: each failure is one line
"flexure-pendulum-dae: error: ..." with exit 1 that names what is wrong; nothing else is printed on stderr.
- a redundant constraint (the rod length on top of the two pivot constraints): the singular saddle-point matrix is
  diagnosed and the dependent constraints are named;
- an initial position or velocity that violates the constraints: refused with the violation and the constraint,
  or projected with -ts_dae_project_ic (the run then holds the constraints to round-off);
- a constrained step whose iteration does not converge (-ts_dae_max_it 2): the run stops with the reason;
- an implicit constrained step that does not converge (-ts_dae_max_it 1): the run stops with the reason;
- -ts_dae_solver schur with a massless coordinate, and -ts_alpha_mass consistent on constraints: refused;
- error control, or variable steps (-ts_alpha_dt_ratios), with the index-3 trapezoidal rule: refused with the reason
  and the alternatives (variable steps ran to an energy error of 1e8 J on a 4.9 J pendulum, exit 0);
- an implicit steppers' option (-ts_dae_soi2, -ts_dae_tangent, -ts_dae_step_adjust) with the constrained GCD: refused
  (it was ignored);
- velocity constraints and a force nonlinear in the multipliers (flexure-exact-dae, seed 002's problem (15)) with a
  method other than SOI2 (gcd, index-3 genalpha): refused naming what only SOI2 integrates;
- -ts_dae_tangent diagonal on a system with a mass matrix M(t, x) (flexure-andrews): refused."""
import os
import re
import subprocess

from flxtest import BIN, Checker

EXE = os.path.join(BIN, "flexure-pendulum-dae")
c = Checker()


def run(args, exe=EXE):
    p = subprocess.run([exe, "-ts_dt", "1e-2"] + args, capture_output=True, text=True, timeout=60)
    err = [l for l in p.stderr.splitlines() if l.strip()]
    return p.returncode, p.stdout, err


def expect_error(args, must, what, exe=EXE):
    rc, so, err = run(args, exe)
    ok = rc == 1 and len(err) == 1 and err[0].startswith(os.path.basename(exe) + ": error: ") and all(re.search(m, err[0]) for m in must)
    c.check(ok, f"{what}: exit {rc}, {len(err)} line(s): {err[0] if err else ''}")


expect_error(["-pendulum_redundant"], [r"'rod length .*' and 'pivot x .*' are redundant or inconsistent", "singular"], "redundant constraint named")
expect_error(["-pendulum_x0", "1.001,0,1.5707963267948966"], [r"initial position violates the constraint 'pivot x .*' by 0\.001", "-ts_dae_project_ic"], "inconsistent initial position refused")
expect_error(["-pendulum_case", "001", "-pendulum_v0", "1,1"], [r"initial velocity violates the constraint 'rod length .*' by 0\.73205", "-ts_dae_project_ic"], "inconsistent initial velocity refused")
expect_error(["-ts_dae_max_it", "2"], [r"constrained GCD step to t = \S+ s did not converge in 2 iterations", "last change of x_\{n\+1\}", "reduce -ts_dt"], "non-converging step stops the run with the reason")
expect_error(["-ts_dae_solver", "schur"], [r"schur divides by the lumped mass", "-ts_dae_solver lu"], "schur refused with a massless coordinate")
expect_error(["-ts_type", "newmark", "-ts_dae_max_it", "1"], [r"implicit constrained step \(newmark\) to t = \S+ s did not converge in 1 Newton iterations", "-ts_alpha_adapt"], "non-converging implicit step stops the run with the reason")
expect_error(["-pendulum_case", "001", "-ts_type", "newmark", "-ts_alpha_adapt"], [r"-ts_alpha_adapt with the index-3 trapezoidal rule", "weakly unstable when the step changes", "-ts_dae_soi2"], "error control refused with the index-3 trapezoidal rule")
expect_error(["-pendulum_case", "001", "-ts_type", "newmark", "-ts_alpha_dt_ratios", "1,1.1"], [r"-ts_alpha_dt_ratios with the index-3 trapezoidal rule", "weakly unstable when the step changes", "-ts_dae_soi2"], "variable steps refused with the index-3 trapezoidal rule")
for opt in (["-ts_dae_soi2"], ["-ts_dae_tangent", "full"], ["-ts_dae_step_adjust", "false"]):
    expect_error(["-ts_type", "gcd"] + opt, [opt[0] + r" applies to the implicit steppers on constrained systems"], f"{opt[0]} refused by the constrained GCD")
expect_error(["-ts_type", "hht", "-ts_alpha_mass", "consistent"], [r"-ts_alpha_mass consistent with constraints is not supported yet"], "consistent mass on constraints refused")
EXACT = os.path.join(BIN, "flexure-exact-dae")
for args, meth in ((["-ts_type", "gcd"], "gcd"), (["-ts_type", "genalpha"], r"genalpha \(index 3\)")):
    expect_error(args, [f"-ts_type {meth}: this system has velocity \\(nonholonomic\\) constraints, which only generalized-alpha-SOI2 integrates", "-ts_dae_soi2"], f"velocity constraints refused by {args[1]}", EXACT)
expect_error(["-ts_type", "newmark", "-ts_dae_tangent", "diagonal"], [r"-ts_dae_tangent diagonal needs the lumped mass", "-ts_dae_tangent full"], "the diagonal Newton matrix refused with a mass matrix M(t, x)", os.path.join(BIN, "flexure-andrews"))
for args, what in [(["-pendulum_x0", "1.001,0,1.5707963267948966"], "position"), (["-pendulum_case", "001", "-pendulum_v0", "1,1"], "velocity")]:
    rc, so, err = run(args + ["-ts_dae_project_ic"])
    m = re.search(r"^max_drift = (\S+)$", so, re.M)
    c.check(rc == 0 and f"note: the initial {what} violated" in so and m and float(m.group(1)) < 1e-12,
            f"inconsistent initial {what} projected with -ts_dae_project_ic: exit {rc}, drift {m.group(1) if m else '?'}{'' if rc == 0 else ': ' + ' / '.join(err)[:400]}")
c.done()
