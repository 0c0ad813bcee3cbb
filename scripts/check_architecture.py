#!/usr/bin/python3
"""Checks that the maps of the source tree are true to it (docs/architecture.md, "Maps that are checked").

Fails (exit 1, one line per problem) when
  1. a path named in docs/architecture.md (in backticks, in a link, or in the layer map's code block)
     does not exist;
  2. a folder or file under src/, or a header under include/pebble/, is missing from the layer map,
     or a folder under src/ from the README's Layout section;
  3. a comment in src/ or include/ names a file path that does not exist, or a bare file name
     (world.cpp) that no file in the repository has;
  4. a short citation in src/ or include/ ([seed-manifold §3]) is not defined in docs/references.md,
     or a comment cites a seed or an issue by number ("seed 002", "issue 19") instead of its short name.
Standard library only; runs in well under a second.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_DIRS = {".git", "build", "node_modules", "__pycache__", ".cache"}
EXT = r"(?:hpp|cpp|h|md|txt|sh|py|svg|png|json|cmake|in|toml|yml)"
PATH_RE = re.compile(r"(?<![\w./-])((?:[\w.-]+/)+[\w.*-]+\." + EXT + r")(?![\w/])")
BARE_RE = re.compile(r"(?<![\w./-])([A-Za-z_][\w-]*\.(?:hpp|cpp))(?![\w/])")
CITE_RE = re.compile(r"\[((?:seed|issue)-[\w-]+)(?: (§\d+))?\]")
NUMBERED_RE = re.compile(r"\b(?:[Ss]eeds? \d{3}|[Ii]ssues? \d+)\b")

problems = []


def rel(p):
    return os.path.relpath(p, ROOT)


def all_files():
    out = []
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        out += [os.path.join(d, f) for f in files]
    return out


FILES = all_files()
BASENAMES = {os.path.basename(f) for f in FILES}


def exists(path, bases):
    """A path as written, looked up from each base folder; a glob's * matches any name part."""
    for base in bases:
        full = os.path.normpath(os.path.join(ROOT, base, path))
        if "*" in path:
            pat = re.compile(re.escape(full).replace(r"\*", r"[^/]*") + "$")
            if any(pat.match(f) for f in FILES):
                return True
        elif os.path.exists(full) or os.path.exists(full + ".in"):  # version.hpp is generated from .in
            return True
    return False


# 1 and 2: docs/architecture.md
doc_path = os.path.join(ROOT, "docs", "architecture.md")
doc = open(doc_path, encoding="utf-8").read()
DOC_BASES = ["", "src", "include", "docs"]
for token in re.findall(r"`([^`\n]+)`", doc) + re.findall(r"\]\(([^)#\s]+)", doc):
    for path in PATH_RE.findall(token):
        if not exists(path, DOC_BASES):
            problems.append(f"docs/architecture.md names {path}, which does not exist")

# The layer map: the first code block after "## The layers". Lines at one space of indent open a
# tree (include/pebble/ or src/); at three spaces, a folder ("simd/") followed by its first file, or
# a file of the tree's own; at the file column, a further file of the current folder.
m = re.search(r"## The layers\n+```\n(.*?)```", doc, re.S)
if not m:
    problems.append("docs/architecture.md: no code block after '## The layers'")
    block = ""
else:
    block = m.group(1)
listed = set()
top = folder = None
for line in block.splitlines():
    if re.match(r"^ \S", line):
        top, folder = line.split()[0], None
        continue
    if top is None:
        continue
    fm = re.match(r"^   ([\w]+/)\s+(\S+)", line)
    if fm and not fm.group(2).startswith(("(", "the", "a")):
        folder = fm.group(1)
        listed.add(os.path.normpath(os.path.join(top, folder)))
        name = fm.group(2)
    else:
        fm = re.match(r"^   ([\w./*-]+\.\w+)", line) or re.match(r"^   ([\w]+/)\s*$", line)
        if fm:
            folder, name = None, fm.group(1)
            if name.endswith("/"):
                folder, name = name, None
                listed.add(os.path.normpath(os.path.join(top, folder)))
        else:
            fm = re.match(r"^ {6,}([\w.*-]+\.\w+)\s", line + " ")
            name = fm.group(1) if fm and folder else None
    if name and PATH_RE.fullmatch("x/" + name):
        path = os.path.join(top, folder or "", name)
        if not exists(path, [""]):
            problems.append(f"docs/architecture.md's layer map lists {path}, which does not exist")
        listed.add(os.path.normpath(path))


def listed_file(path):
    if path in listed:
        return True
    return any("*" in p and re.match(re.escape(p).replace(r"\*", r"[^/]*") + "$", path) for p in listed)


for d, dirs, files in os.walk(os.path.join(ROOT, "src")):
    dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
    for x in dirs:
        if rel(os.path.join(d, x)) not in listed:
            problems.append(f"{rel(os.path.join(d, x))}/ is not described in docs/architecture.md's layer map")
    for f in files:
        if not listed_file(rel(os.path.join(d, f))):
            problems.append(f"{rel(os.path.join(d, f))} is not listed in docs/architecture.md's layer map")
readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
layout = re.search(r"^## Layout\n(.*?)(?=^## |\Z)", readme, re.M | re.S)
for x in sorted(os.listdir(os.path.join(ROOT, "src"))):
    if os.path.isdir(os.path.join(ROOT, "src", x)) and not (layout and f"`{x}/`" in layout.group(1)):
        problems.append(f"src/{x}/ is not named in the README's Layout section")
headers = os.path.join(ROOT, "include", "pebble")
include_part = block.split(" src/")[0]
for f in sorted(os.listdir(headers)):
    stem = f.split(".")[0]
    if os.path.isfile(os.path.join(headers, f)) and not re.search(r"\b" + re.escape(stem) + r"\b", include_part):
        problems.append(f"include/pebble/{f} is not named in docs/architecture.md's layer map")

# 3 and 4: comments in src/ and include/
refs_path = os.path.join(ROOT, "docs", "references.md")
refs = open(refs_path, encoding="utf-8").read() if os.path.exists(refs_path) else ""
defined = set(re.findall(r"^\| `([\w-]+)` \|", refs, re.M))
sections = set()  # (name, "§N") from each "### `name`" table
for m in re.finditer(r"^### `([\w-]+)`.*?\n(.*?)(?=^#|\Z)", refs, re.M | re.S):
    sections |= {(m.group(1), n) for n in re.findall(r"^\| (§\d+) \|", m.group(2), re.M)}
SRC_BASES = ["", "src", "include"]
for f in sorted(FILES):
    r = rel(f)
    if not (r.startswith("src/") or r.startswith("include/")) or not r.endswith((".hpp", ".cpp", ".in")):
        continue
    for no, line in enumerate(open(f, encoding="utf-8"), 1):
        c = line.find("//")
        if c < 0:
            continue
        comment = line[c + 2:]
        for path in PATH_RE.findall(comment):
            if not exists(path, SRC_BASES + [os.path.dirname(r)]):
                problems.append(f"{r}:{no}: names {path}, which does not exist")
        for name in BARE_RE.findall(comment):
            if name not in BASENAMES and name + ".in" not in BASENAMES:
                problems.append(f"{r}:{no}: names {name}, which no file in the repository has")
        for key, section in CITE_RE.findall(comment):
            if key not in defined:
                problems.append(f"{r}:{no}: cites [{key}], which docs/references.md does not define")
            elif section and (key, section) not in sections:
                problems.append(f"{r}:{no}: cites [{key} {section}], a section docs/references.md does not list")
        for cite in NUMBERED_RE.findall(comment):
            problems.append(f"{r}:{no}: cites '{cite}' by number; cite it by its short name (docs/references.md)")

for p in problems:
    print("check_architecture: " + p)
if problems:
    sys.exit(1)
print(f"check_architecture: docs/architecture.md and the comments in src/ and include/ match the tree "
      f"({len(listed)} paths in the layer map, {len(defined)} references)")
