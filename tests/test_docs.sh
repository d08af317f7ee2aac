#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/test_docs.sh - the README's first screen and the links of the docs:
#   first screen  README.md's "## Quick start" and its whole code block in
#                 the first 40 lines, the block naming each step (the
#                 package, ib_doctor, a gated pair, Kubernetes, JUnit);
#                 the two commands the project's rules require
#                 (scripts/demo.sh, scripts/test.sh) in the first 60; the
#                 README at most 339 lines (perftest's)
#   map           every docs/*.md page linked from the README
#   links         every relative link of README.md, results/README.md and
#                 docs/*.md (outside code blocks) names a file that exists,
#                 and its #anchor a heading of that file (GitHub's rule:
#                 lower case, punctuation dropped, spaces as -)
#   paths         every scripts/... and deploy/... path the quick start
#                 names exists
# About 1 s; python3 only.
set -u
cd "$(dirname "$0")/.." || exit 1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" - <<'EOF'
import glob, os, re, sys

failed = []
def fail(msg):
    failed.append(msg)
    print("FAIL " + msg)

readme = open("README.md").read().rstrip("\n").split("\n")
# first screen
try:
    qs = next(i for i, l in enumerate(readme) if l.strip() == "## Quick start")
    start = next(i for i in range(qs, len(readme)) if readme[i].startswith("```"))
    end = next(i for i in range(start + 1, len(readme))
               if readme[i].startswith("```"))
except StopIteration:
    qs = start = end = None
    fail("README.md: no '## Quick start' heading followed by a code block")
if end is not None:
    if end + 1 > 40:
        fail(f"README.md: the quick start's code block ends on line {end + 1}, "
             "past the first 40")
    block = "\n".join(readme[start:end])
    for what, rx in (("the package", r"apt install \./build/deb/"),
                     ("ib_doctor", r"\bib_doctor\b"),
                     ("a gated pair", r"--expect-gbps"),
                     ("Kubernetes", r"scripts/k8s/run-pair\.sh"),
                     ("JUnit", r"--junit")):
        if not re.search(rx, block):
            fail(f"README.md: the quick start lacks {what} ({rx})")
    for path in re.findall(r"\b((?:scripts|deploy)/[\w./-]+)", block):
        if not os.path.exists(path):
            fail(f"README.md: the quick start names {path}, which is not in the tree")
head = "\n".join(readme[:60])
for cmd in ("scripts/demo.sh", "scripts/test.sh"):
    if cmd not in head:
        fail(f"README.md: {cmd} (the project's two commands) not in the first 60 lines")
if len(readme) > 339:
    fail(f"README.md: {len(readme)} lines, more than perftest's 339")

# map
text = "\n".join(readme)
for page in sorted(glob.glob("docs/*.md")):
    if f"]({page})" not in text:
        fail(f"README.md: no link to {page} (the documentation map)")

# links
def slug(title):
    t = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return t.replace(" ", "-")

def anchors(path):
    out = set()
    in_code = False
    for line in open(path):
        if line.startswith("```"):
            in_code = not in_code
        m = re.match(r"^#+ (.*)", line)
        if m and not in_code:
            out.add(slug(m.group(1)))
    return out

files = ["README.md", "results/README.md"] + sorted(glob.glob("docs/*.md"))
links = 0
for f in files:
    body = re.sub(r"```.*?```", "", open(f).read(), flags=re.S)
    for m in re.finditer(r"\]\(([^)\s]+)\)", body):
        link = m.group(1)
        if re.match(r"[a-z]+:", link):
            continue
        links += 1
        path, _, frag = link.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(f), path)) \
            if path else f
        if not os.path.exists(target):
            fail(f"{f}: link {link}: no {target}")
        elif frag and target.endswith(".md") and frag not in anchors(target):
            fail(f"{f}: link {link}: {target} has no heading #{frag}")

if failed:
    print(f"docs: {len(failed)} failed")
    sys.exit(1)
print(f"docs: quick start in lines {qs + 1}-{end + 1}, README {len(readme)} "
      f"lines, {len(glob.glob('docs/*.md'))} pages mapped, {links} links "
      f"in {len(files)} files resolve")
EOF
