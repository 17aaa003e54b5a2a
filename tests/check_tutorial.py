"""The tutorials run as written (issue 12, must-show 9): the tagged blocks of docs/user-guide.md (and the tour of
README.md) are executed in a copy of the repository's inputs in a temporary directory, as a user would run them
from the repository root, with scripts/env.sh sourced; the numbers the documents state are checked against the
ones the commands print.

Tags (the first word of a fenced block's info string stays the language, so the documents render as usual):
- ```sh tutorial              shell commands, run with bash -e in the directory (one bash per block);
- ```yaml tutorial=FILE        (any language) the block is written to FILE before the commands that follow;
- ```text tutorial-output      lines the previous sh block prints: each line must appear in its output with the same
                               words, and every number in it must equal the printed one to the digits shown (half a
                               unit in the last digit shown, and at least 1e-9 relative); a line '...' is skipped.
Every tagged sh block must exit 0, every output block must find its lines, and each document must hold at least
one of each kind, so that a document that loses its tags fails the test instead of passing it empty.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE = os.environ.get("FLX_SOURCE", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("FLX_BIN", os.path.join(SOURCE, "build", "bin"))
NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
FENCE = re.compile(r"^```(\S*)\s*(.*)$")


def blocks(path):
    """The tagged fenced blocks of a Markdown file, in order: (kind, file, text, line)."""
    out, lines, i = [], open(path).read().split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        tags, start, body = m.group(2).split(), i + 1, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        text = "\n".join(body) + "\n"
        for t in tags:
            if t == "tutorial" and m.group(1) == "sh":
                out.append(("sh", None, text, start))
            elif t.startswith("tutorial="):
                out.append(("file", t.split("=", 1)[1], text, start))
            elif t == "tutorial-output":
                out.append(("output", None, text, start))
    return out


def digits_tolerance(s):
    """Half a unit in the last digit of the number as written."""
    mant, _, exp = s.lower().partition("e")
    dec = len(mant.split(".")[1]) if "." in mant else 0
    return 0.5 * 10.0 ** (int(exp or 0) - dec)


def match_line(want, got_lines):
    """Find want in got_lines: same words, numbers equal to the digits shown. Returns (ok, message)."""
    words = NUM.split(want)
    nums = NUM.findall(want)
    key = [w.split() for w in words]
    best = None
    for g in got_lines:
        gw = NUM.split(g)
        if [w.split() for w in gw] != key:
            continue
        gn = NUM.findall(g)
        bad = [(w, x) for w, x in zip(nums, gn)
               if abs(float(x) - float(w)) > max(digits_tolerance(w) * (1 + 1e-12), 1e-9 * abs(float(w)))]
        if not bad:
            return True, f"'{want.strip()}' printed as '{g.strip()}'"
        best = f"'{want.strip()}': printed '{g.strip()}' ({', '.join(f'{x} for {w}' for w, x in bad)})"
    return False, best or f"'{want.strip()}': no printed line has these words"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp")
    ap.add_argument("docs", nargs="*", default=["docs/user-guide.md", "README.md"])
    a = ap.parse_args()
    failed = 0
    t_start = time.time()
    for doc in a.docs:
        bl = blocks(os.path.join(SOURCE, doc))
        kinds = {k for k, _, _, _ in bl}
        ok = {"sh", "output"} <= kinds
        print(("PASS" if ok else "FAIL") + f": {doc}: {len(bl)} tagged blocks ({', '.join(sorted(kinds)) or 'none'})")
        failed += not ok
        os.makedirs(a.out, exist_ok=True)
        work = tempfile.mkdtemp(prefix="tutorial_", dir=a.out)
        try:
            # the repository's inputs as a user has them (build/bin: the binaries under test)
            for d in ("meshes", "examples", "scripts"):
                shutil.copytree(os.path.join(SOURCE, d), os.path.join(work, d))
            os.makedirs(os.path.join(work, "build"))
            os.symlink(BIN, os.path.join(work, "build", "bin"))
            env = {k: v for k, v in os.environ.items() if not k.startswith("OMPI_")}
            last = None
            for kind, fname, text, line in bl:
                where = f"{doc}:{line}"
                if kind == "file":
                    p = os.path.join(work, fname)
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    with open(p, "w") as fp:
                        fp.write(text)
                    print(f"      {where}: wrote {fname}")
                elif kind == "sh":
                    t0 = time.time()
                    p = subprocess.run(["bash", "-e", "-c", "source scripts/env.sh\n" + text], cwd=work, env=env,
                                       capture_output=True, text=True, timeout=120)
                    last = p.stdout + p.stderr
                    ok = p.returncode == 0
                    print(("PASS" if ok else "FAIL") + f": {where}: exit {p.returncode} in {time.time() - t0:.1f} s: "
                          + " / ".join(l for l in text.splitlines() if l and not l.startswith("#"))[:200])
                    if not ok:
                        print(last)
                        failed += 1
                else:
                    got = (last or "").splitlines()
                    for want in text.splitlines():
                        if not want.strip() or want.strip() == "...":
                            continue
                        ok, msg = match_line(want, got)
                        print(("PASS" if ok else "FAIL") + f": {where}: {msg}")
                        failed += not ok
        finally:
            if not failed:
                shutil.rmtree(work, ignore_errors=True)
            else:
                print(f"      (the directory is kept: {work})")
    print(f"{'FAIL' if failed else 'PASS'}: {failed} failed checks ({time.time() - t_start:.1f} s)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
