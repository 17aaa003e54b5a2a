"""-help: flexure's reference lists every option the program reads, grouped, with a default and a description,
named things with NAME (the options that only print once per block in PETSc's own -help are there:
-section_names, -bc_names, -load_names, -damping_*, -model_allow_rigid_body, -modes_n), and no PETSc
boilerplate unless -help petsc. Completeness, three ways:
 1. the sources: every option name given as a literal to a PetscOptions* call is in the reference, and nothing
    outside src/util reads an option only outside an options block (PETSc's help sees options read in a block;
    a direct read of an option that a block reads too, to size an array, is fine);
 2. the cases: `flexure CASE -help` also runs the readers on the case's own options (named things, types,
    branches); for every example case and several option sets, they read nothing the reference lacks;
 3. the examples' case files: every option they give (with NAME for the names of named things) is listed.
The same text at 1 and 2 ranks."""
import os
import re

import yaml
from flxtest import SOURCE, Checker, run

c = Checker()


def help_text(args, np_=1, flag=("-help",)):
    rc, so, se = run(np_, list(args) + list(flag), timeout=120, check=False)
    if rc != 0:
        print(se)
    return rc, so


def options(text):
    """Option lines "  -name <default>: description" of the reference (stops at the solvers' paragraph)."""
    opts = {}
    for line in text.split("\nSolvers:")[0].splitlines():
        m = re.match(r"  (-[A-Za-z0-9_]+) <([^>]*)>: (.*)$", line)
        if m:
            opts[m.group(1).lower()] = (m.group(2), m.group(3))
    return opts


rc, ref_text = help_text([])
ref = options(ref_text)
c.check(rc == 0 and len(ref) > 100, f"flexure -help: exit {rc}, {len(ref)} options")
groups = [l for l in ref_text.splitlines() if re.match(r"^[a-z]+: ", l)]
order = [g.split(":")[0] for g in groups]
expected = ["mesh", "material", "section", "bc", "load", "base", "ic", "pointmass", "damping", "model", "ts", "output", "probe", "modes", "stability"]
c.check([g for g in order if g in expected] == expected, f"groups in a case file's order: {order}")
c.check("Petsc Release Version" not in ref_text and "Options for all PETSc programs" not in ref_text and "PetscDevice" not in ref_text, "no PETSc boilerplate in -help")
for name in ["-section_names", "-bc_names", "-load_names", "-ic_names", "-pointmass_names", "-probe_names", "-damping_mass", "-damping_stiffness",
             "-model_allow_rigid_body", "-modes_n", "-ts_type", "-ts_newmark_beta", "-ts_hht_alpha", "-ts_genalpha_radius", "-ts_gcd_preset",
             "-section_name_thickness", "-section_name_quad_element", "-section_name_a", "-load_name_function", "-load_name_table", "-probe_name_node",
             "-mesh_file", "-output_file", "-all_presets"]:
    c.check(name in ref, f"listed: {name} {ref.get(name, '')}")
empty = [n for n, (d, t) in ref.items() if len(t.strip()) < 8]
c.check(not empty, f"every option has a description ({len(ref)} options; without: {empty})")
req = [n for n, (d, t) in ref.items() if d == "required"]
c.check("-material_name_e" in req and "-section_name_groups" in req and "-mesh_file" not in req, f"required properties marked: {req}")
c.check(ref["-ts_type"][0] == "gcd" and "newmark" in ref["-ts_type"][1] and ref["-ts_safety"][0] == "0.9" and ref["-bc_name_dofs"][0] == "clamped", "defaults: -ts_type gcd (one of ... newmark ...), -ts_safety 0.9, -bc_NAME_dofs clamped")

rc, pet = help_text([], flag=("-help", "petsc"))
c.check(rc == 0 and "Options for all PETSc programs" in pet and len(options(pet)) >= len(ref), "-help petsc adds PETSc's own options")
rc2, ref2 = help_text([], 2)
c.check(rc2 == 0 and ref2 == ref_text, "-help prints the same text at 2 ranks")


def in_ref(name):
    name = name.lower()
    return name in ref


# 1. the sources
literal = re.compile(r'(?:PetscOptions(?:Real|Int|Bool|String|Enum|EList|FList|RealArray|IntArray|StringArray|BoolArray|EnumArray|Scalar|ScalarArray|BoundedInt|RangeInt|Name)|FlxOptions(?:RealArray|IntArray))\(\s*"(-[A-Za-z][A-Za-z0-9_]*)"')
direct = re.compile(r"PetscOptions(?:Get(?!All)[A-Z][A-Za-z]*|HasName|FindPair)\(([^;]*?)\);")  # GetAll lists the database, it reads no option
missing, outside, nlit = [], [], 0
for root, _, files in os.walk(os.path.join(SOURCE, "src")):
    for f in files:
        if not f.endswith(".c") or f in ("bench.c", "tsalpha2.c"):
            continue
        p = os.path.join(root, f)
        text = open(p).read()
        for lit in literal.findall(text):
            nlit += 1
            tail = lit[1:].lower()
            if not any(n == "-" + tail or n.endswith("_" + tail) for n in ref):
                missing.append(f"{os.path.relpath(p, SOURCE)}: {lit}")
        if "/src/util/" in p + "/":
            continue
        read = set(literal.findall(text))
        for call in direct.findall(text):  # a direct read is fine if a block reads the same option (a peek)
            m = re.search(r'"(-[A-Za-z][A-Za-z0-9_]*)"', call)
            if not m or m.group(1) not in read:
                outside.append(f"{os.path.relpath(p, SOURCE)}: {call.strip()[:60]}")
c.check(nlit > 80 and not missing, f"sources: the {nlit} option names given to PetscOptions* calls are in -help (missing: {missing})")
c.check(not outside, f"sources: no option read only outside an options block (PetscOptionsGet*/HasName/FindPair: {outside})")

# 2. the cases' own readers read nothing the reference lacks
ex = lambda n: os.path.join(SOURCE, "examples", n, "case.yaml")
gen = ["-mesh_generate", "tower", "-material_names", "s", "-material_s_E", "1", "-material_s_nu", "0.3", "-material_s_rho", "1",
       "-section_names", "t,p", "-section_t_groups", "frame", "-section_t_material", "s", "-section_t_A", "1", "-section_t_Iy", "1", "-section_t_Iz", "1",
       "-section_t_J", "1", "-section_p_groups", "x", "-section_p_material", "s", "-section_p_thickness", "0.01",
       "-probe_names", "a,b", "-probe_a_node", "3", "-probe_b_group", "top", "-ic_names", "v", "-ic_v_group", "top", "-ic_v_value", "1,0,0",
       "-pointmass_names", "m", "-pointmass_m_group", "top", "-pointmass_m_mass", "1", "-load_names", "g,w", "-load_g_type", "gravity",
       "-load_g_value", "0,0,-9.81", "-load_w_group", "top", "-load_w_value", "1,0,0", "-load_w_function", "table", "-load_w_table", "0,0,1,1"]
cases = [[ex("cantilever")], [ex("plate_modes")], [ex("scordelis_lo")], [ex("pinched_cylinder")], [ex("stiffened_panel")],
         ["static", ex("cantilever")], ["modes", ex("plate_modes")], gen,
         [ex("cantilever"), "-ts_type", "newmark", "-ts_alpha_mass", "consistent"], [ex("cantilever"), "-ts_type", "hht"],
         [ex("cantilever"), "-ts_type", "genalpha", "-ts_genalpha_alpha_m", "0"], [ex("cantilever"), "-ts_gcd_solve", "ksp", "-damping_stiffness", "1e-6"],
         ["stability", "-ts_gcd_preset", "gcd5"]]
for args in cases:
    rc, text = help_text(args)
    extra = sorted(set(options(text)) - set(ref))
    c.check(rc == 0 and not extra, f"{' '.join(os.path.relpath(a, SOURCE) if a.startswith('/') else a for a in args)[:90]} -help: exit {rc}, read only there: {extra}")

# 3. every option of the examples' case files is in the reference (names of named things as NAME)
def flatten(d, pre=""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from flatten(v, f"{pre}{k}_")
        else:
            yield f"{pre}{k}", v


undocumented = []
for name in sorted(os.listdir(os.path.join(SOURCE, "examples"))):
    p = ex(name)
    if not os.path.exists(p):
        continue
    flat = dict(flatten(yaml.safe_load(open(p))))
    kinds = {k[:-6]: [n.strip() for n in str(v).split(",")] for k, v in flat.items() if k.endswith("_names")}
    for k in flat:
        n = k
        for kind, names in kinds.items():
            for nm in sorted(names, key=len, reverse=True):
                if k.lower().startswith(f"{kind}_{nm}_".lower()):
                    n = f"{kind}_NAME_{k[len(kind) + len(nm) + 2:]}"
                    break
        if not in_ref("-" + n):
            undocumented.append(f"{name}: -{k}")
c.check(not undocumented, f"every option of the examples' case files is in -help (missing: {undocumented})")
c.done()
