#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets whose inputs TileScope does not ship as files:
settings files and --actions scripts (scripts/fuzz.sh runs it; the other targets start from
shipped lessons, the tests' test vectors and the saved H100 results).

  scripts/fuzz-seeds.py OUT_DIR     writes OUT_DIR/fuzz_settings/*.json, OUT_DIR/fuzz_actions/*.txt

Settings: a file as the app writes it, holding each shipped lesson as its last lesson, and
the same with one key of each wrong kind. Actions: every --actions script the GUI tests run,
read from their source (so a new test's script becomes a seed with no list to keep).
"""
import ast
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def settings_seeds():
    base = {"version": 1, "window": {"width": 1600, "height": 900}, "presentation": False, "font_size": 17.0,
            "imgui_layout": "[Window][Lesson]\nPos=0,20\nSize=800,600\n", "panels": {"matrices": {"open": True}}}
    seeds = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "assets", "lessons", "*.json"))):
        with open(path) as f:
            seeds["lesson_" + os.path.basename(path)] = dict(base, last_lesson=json.load(f))
    wrong = {"font_size": "large", "presentation": 1, "imgui_layout": [], "window": {"width": -1, "height": 1e300}}
    for key, value in wrong.items():
        seeds["wrong_" + key + ".json"] = dict(base, **{key: value})
    return {name: json.dumps(value, indent=2) for name, value in seeds.items()}


def action_scripts():
    """The string after each "--actions" in the GUI tests' calls, and the tests' lists of bad
    action arguments (tuples whose first item is a script line)."""
    scripts = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "gui", "*.py"))):
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                args = node.args
                for i in range(len(args) - 1):
                    if isinstance(args[i], ast.Constant) and args[i].value == "--actions" and \
                            isinstance(args[i + 1], ast.Constant) and isinstance(args[i + 1].value, str):
                        scripts.append(args[i + 1].value)
            if isinstance(node, ast.Tuple) and node.elts and isinstance(node.elts[0], ast.Constant) and \
                    isinstance(node.elts[0].value, str) and len(node.elts) == 2 and " " in node.elts[0].value:
                scripts.append(node.elts[0].value)
    return sorted(set(scripts))


def main():
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print("usage: scripts/fuzz-seeds.py OUT_DIR", file=sys.stderr)
        return 2
    out = sys.argv[1]
    written = {}
    for target, files in (("fuzz_settings", settings_seeds()),
                          ("fuzz_actions", {"script_%03d.txt" % i: s for i, s in enumerate(action_scripts())})):
        folder = os.path.join(out, target)
        os.makedirs(folder, exist_ok=True)
        for name, text in files.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
        written[target] = len(files)
    print(", ".join("%s: %d seeds" % item for item in written.items()))
    return 0


sys.exit(main())
