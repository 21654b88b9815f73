"""The layers of the tree, checked on every build: sim/io (file input, atomic writes, CPU clock) →
sim/cuda (the front end for students' CUDA C) → sim/model (the hardware model) → sim/lesson (lessons, tours, narration, formulas) → kernels →
app/cli → app/gui (the shell) → app/plot → app/panels → app/pages → app/main.cpp. A file
includes only its own layer and those below it, so the model never sees a lesson; app/cli
compiles with no GUI library in reach."""
import json
import os
import re
import sys

LAYERS = ["sim/io", "sim/cuda", "sim/model", "sim/lesson", "sim/bench", "kernels", "app/cli", "app/gui", "app/plot", "app/panels", "app/pages", "app/main.cpp"]
GUI_LIBRARIES = re.compile(r"imgui|glfw|glad|stb", re.IGNORECASE)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def layer_of(path):
    for rank in range(len(LAYERS) - 1, -1, -1):
        if path == LAYERS[rank] or path.startswith(LAYERS[rank] + "/"):
            return rank
    return None


def upward_includes(root):
    found = []
    for top in ("sim", "kernels", "app"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith((".h", ".cpp", ".cu", ".cuh")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                own = layer_of(path)
                with open(os.path.join(root, path), encoding="utf-8") as source:
                    for target in INCLUDE.findall(source.read()):
                        rank = layer_of(target)
                        if own is not None and rank is not None and rank > own:
                            found.append(f"{path} includes {target}")
    return found


def gui_in_cli(build, root):
    problems = []
    checked = 0
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as db:
        for entry in json.load(db):
            # A unity build (TILESCOPE_UNITY_BUILD) compiles the CLI's files as batches that
            # live in the library's own build folder.
            if (os.path.relpath(entry["file"], root).startswith("app/cli/")
                    or "/tilescope_cli.dir/" in entry["file"]):
                checked += 1
                flags = entry.get("command") or " ".join(entry.get("arguments", []))
                paths = [w for w in flags.split() if w.startswith(("-I", "-isystem"))]
                problems += [f"{entry['file']}: {p}" for p in paths if GUI_LIBRARIES.search(p)]
    if checked == 0:
        problems.append(f"{build}/compile_commands.json compiles nothing of app/cli")
    for name in os.listdir(os.path.join(root, "app", "cli")):
        with open(os.path.join(root, "app", "cli", name), encoding="utf-8") as source:
            problems += [f"app/cli/{name} includes {t}" for t in INCLUDE.findall(source.read())
                         if GUI_LIBRARIES.search(t)]
    return problems


def main():
    root, build = sys.argv[1], sys.argv[2]
    upward = upward_includes(root)
    cli = gui_in_cli(build, root)
    for line in upward + cli:
        print("FAIL:", line)
    # The check must see the tree: a wrong root would pass vacuously.
    if (layer_of("app/pages/lesson_page.h") != LAYERS.index("app/pages")
            or not os.path.isfile(os.path.join(root, "app/pages/lesson_page.h"))
            or not os.path.isfile(os.path.join(root, "sim/model/machine.h"))
            or layer_of("sim/model/machine.h") >= layer_of("sim/lesson/tour.h")):
        print("FAIL: the layer table does not match the tree")
        return 1
    if upward or cli:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
