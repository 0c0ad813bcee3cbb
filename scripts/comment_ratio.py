#!/usr/bin/python3
"""Prints, per folder of src/ and for include/pebble/, the share of lines and of characters that are
comments (docs/architecture.md, "How much is comment").

A comment line holds nothing but comment (// or /* */, a Doxygen /// too); a line of code with a
comment after it counts as code. Characters are the non-blank ones, the comment markers included.
Standard library only; nothing runs it but a person who wants the figures.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scan(text):
    """(lines, comment-only lines, non-blank characters, comment characters) of one C++ file."""
    lines = comment_lines = chars = comment_chars = 0
    in_block = False
    for line in text.splitlines():
        lines += 1
        code = comment = 0
        i, n = 0, len(line)
        quote = None
        while i < n:
            c = line[i]
            if in_block:
                if line.startswith("*/", i):
                    in_block = False
                    comment += 2
                    i += 2
                    continue
                comment += not c.isspace()
                i += 1
            elif quote:
                code += not c.isspace()
                if c == "\\":
                    code += 1
                    i += 2
                    continue
                if c == quote:
                    quote = None
                i += 1
            elif line.startswith("//", i):
                comment += sum(not ch.isspace() for ch in line[i:])
                break
            elif line.startswith("/*", i):
                in_block = True
                comment += 2
                i += 2
            else:
                if c in "\"'" and not (c == "'" and i > 0 and line[i - 1].isalnum()):  # 1'000 digit separator
                    quote = c
                code += not c.isspace()
                i += 1
        chars += code + comment
        comment_chars += comment
        if comment and not code:
            comment_lines += 1
    return lines, comment_lines, chars, comment_chars


def folders():
    src = os.path.join(ROOT, "src")
    out = [("src/ (top)", [os.path.join(src, f) for f in sorted(os.listdir(src))
                            if os.path.isfile(os.path.join(src, f))])]
    for d in sorted(os.listdir(src)):
        full = os.path.join(src, d)
        if os.path.isdir(full):
            out.append((f"src/{d}/", [os.path.join(dp, f) for dp, _, fs in os.walk(full) for f in sorted(fs)]))
    inc = os.path.join(ROOT, "include", "pebble")
    out.append(("include/pebble/", [os.path.join(dp, f) for dp, _, fs in os.walk(inc) for f in sorted(fs)]))
    return out


def main():
    rows = []
    total = [0, 0, 0, 0]
    for name, files in folders():
        sums = [0, 0, 0, 0]
        for f in files:
            if f.endswith((".hpp", ".cpp", ".h", ".hpp.in")):
                for k, v in enumerate(scan(open(f, encoding="utf-8").read())):
                    sums[k] += v
        total = [a + b for a, b in zip(total, sums)]
        rows.append((name, sums))
    rows.append(("all", total))
    print(f"{'folder':<18}{'lines':>7}{'comment':>9}{'share':>7}{'chars':>9}{'comment':>9}{'share':>7}")
    for name, (ln, cl, ch, cc) in rows:
        print(f"{name:<18}{ln:>7}{cl:>9}{100 * cl / max(ln, 1):>6.1f}%{ch:>9}{cc:>9}{100 * cc / max(ch, 1):>6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
