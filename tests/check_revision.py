"""The git revision that results files record (scripts/revision.cmake, run by every build; written as the root
attribute git_revision). On a scratch git repository: a clean tree gives the commit's short hash, a changed tracked
file adds "-dirty" (and an untracked file does not), the header is rewritten only when the revision changes (so an
unchanged revision rebuilds nothing), a commit makes it clean again, and a tree outside git gives "unknown". Then
a run of this build: its results file holds a revision of that form."""
import os
import re
import shutil
import subprocess

import h5py
from flxtest import CASE, SOURCE, Checker, args_np_out, run

a = args_np_out()
c = Checker()
d = os.path.join(a.out, "revision")
shutil.rmtree(d, ignore_errors=True)
repo, plain = os.path.join(d, "repo"), os.path.join(d, "plain")
os.makedirs(repo)
os.makedirs(plain)
header = os.path.join(d, "rev.h")
GIT = ["git", "-c", "user.name=flexure test", "-c", "user.email=test@flexure.invalid", "-c", "commit.gpgsign=false"]


def git(*args):
    return subprocess.run(GIT + list(args), cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def revision(src):
    """Run revision.cmake on src; return (the revision written, whether the header was rewritten)."""
    before = os.stat(header).st_mtime_ns if os.path.exists(header) else None
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=d)  # plain is inside the source tree's checkout: git stops at d
    subprocess.run(["cmake", f"-DSRC={src}", f"-DOUT={header}", "-P", os.path.join(SOURCE, "scripts", "revision.cmake")], check=True, capture_output=True, env=env)
    text = open(header).read()
    m = re.fullmatch(r'#define FLX_GIT_REVISION "([^"]*)"\n', text)
    return (m.group(1) if m else f"malformed header {text!r}"), os.stat(header).st_mtime_ns != before


git("init", "-q")
open(os.path.join(repo, "a.c"), "w").write("int a;\n")
git("add", "a.c")
git("commit", "-q", "-m", "first")
head = git("rev-parse", "--short=7", "HEAD")
rev, wrote = revision(repo)
c.check(rev == head and wrote, f"clean tree: {rev!r} (the commit {head})")
os.utime(header, ns=(1, 1))  # an old time stamp: a rewrite would change it
rev, wrote = revision(repo)
c.check(rev == head and not wrote, f"the same revision again: {rev!r}, header {'rewritten' if wrote else 'untouched'}")
open(os.path.join(repo, "b.c"), "w").write("int b;\n")
rev, wrote = revision(repo)
c.check(rev == head and not wrote, f"an untracked file: {rev!r}, header {'rewritten' if wrote else 'untouched'}")
open(os.path.join(repo, "a.c"), "a").write("int c;\n")
rev, wrote = revision(repo)
c.check(rev == head + "-dirty" and wrote, f"a tracked file changed: {rev!r}, header {'rewritten' if wrote else 'untouched'}")
git("commit", "-q", "-am", "second")
head2 = git("rev-parse", "--short=7", "HEAD")
rev, wrote = revision(repo)
c.check(rev == head2 and head2 != head and wrote, f"committed: {rev!r} (the commit {head2})")
rev, wrote = revision(plain)
c.check(rev == "unknown" and wrote, f"a tree outside git: {rev!r}")

out = os.path.join(d, "r.h5")
run(a.np, [CASE, "-ts_max_time", "2e-5", "-ts_monitor_interval", "-1", "-output_file", out])
rev = h5py.File(out, "r").attrs["git_revision"]
rev = rev.decode() if isinstance(rev, bytes) else str(rev)
c.check(re.fullmatch(r"[0-9a-f]{7,}(-dirty)?|unknown", rev) is not None and (rev != "unknown" or not os.path.isdir(os.path.join(SOURCE, ".git"))),
        f"this build's results file: git_revision {rev!r}")
c.done()
