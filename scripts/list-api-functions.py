#!/usr/bin/env python3
"""Print the name of every function a LayerKit header declares, one per line.

Usage: scripts/list-api-functions.py [--cc CC] HEADER [-I DIR ...]

The header is run through the C preprocessor (so comments, #if blocks and the
extern "C" guards are handled the way a compiler handles them), then split
into top-level declarations. A declaration that is not a typedef and whose
first `name(` is an lk_ identifier declares a function. Only lk_* names are
reported: everything else comes from the standard headers.
"""
import argparse
import re
import subprocess
import sys


def preprocess(cc, header, includes):
    cmd = [cc, "-E", "-P", "-x", "c", "-std=c99"]
    for d in includes:
        cmd += ["-I", d]
    cmd.append(header)
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def top_level_declarations(text):
    """Split C text at ';' outside braces and parentheses."""
    depth = 0
    current = []
    for ch in text:
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth -= 1
        if ch == ";" and depth == 0:
            yield "".join(current)
            current = []
        else:
            current.append(ch)


DECL_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def functions(text):
    names = []
    for decl in top_level_declarations(text):
        decl = " ".join(decl.split())
        if not decl or decl.startswith("typedef") or re.search(r"\btypedef\b", decl):
            continue
        # `struct x { ... } y` or an enum body: not a function declaration
        head = decl.split("(", 1)[0]
        if "{" in head:
            continue
        m = DECL_NAME.search(decl)
        if m and m.group(1).startswith("lk_"):
            names.append(m.group(1))
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", default="cc")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("header")
    args = ap.parse_args()
    text = preprocess(args.cc, args.header, args.includes)
    names = functions(text)
    seen = set()
    for n in names:
        if n not in seen:
            seen.add(n)
            print(n)
    if not names:
        print(f"list-api-functions: no lk_ function found in {args.header}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
