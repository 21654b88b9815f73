"""No test names a program by a path of the machine that configured it: a build folder that
travels (scripts/device-check.sh runs one on a lent GPU server) must find python3, cpack and
the rest there by name. Every test's program and every argument that is a program on this
machine is either in the source or build tree, which travel with the checkout, or given by
name for CTest or the script to look up on PATH when the test runs.

Usage: commands_test.py SOURCE_DIR BUILD_DIR
Prints PASS, or FAIL: with each test and the path it bakes."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from verdict import check  # noqa: E402

# One argument of add_test() as CMake writes CTest files: [=[bracketed]=], "quoted" or bare.
ARGUMENT = re.compile(r'\[(=*)\[(.*?)\]\1\]|"((?:[^"\\]|\\.)*)"|([^\s()]+)')


def commands(build):
    """(test name, its command and arguments) for every add_test() in the build's CTest files.
    Read from the files rather than from `ctest --show-only`, which prints a program given by
    name as the path it resolves to on this machine."""
    for folder, _, files in os.walk(build):
        for name in files:
            if name.endswith(".cmake") and (name == "CTestTestfile.cmake" or name.endswith("_tests.cmake")):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    for line in f:
                        if line.startswith("add_test("):
                            words = [m.group(2) if m.group(2) is not None else
                                     re.sub(r"\\(.)", r"\1", m.group(3)) if m.group(3) is not None else m.group(4)
                                     for m in ARGUMENT.finditer(line[len("add_test("):].rstrip().rstrip(")"))]
                            yield words[0], words[1:]


def baked(words, trees):
    """The words that are programs of this machine outside `trees`, named by their path."""
    found = []
    for word in words:
        if not os.path.isabs(word):
            continue
        path = os.path.realpath(word)
        if any(path == tree or path.startswith(tree + os.sep) for tree in trees):
            continue
        if os.path.isfile(path) and os.access(path, os.X_OK):
            found.append(word)
    return found


def main():
    source, build = (os.path.realpath(folder) for folder in sys.argv[1:3])
    tests = list(commands(build))
    check(len(tests) > 100, "%d tests read from the CTest files" % len(tests))
    problems = ["%s: %s" % (name, " ".join(baked(words, (source, build)))) for name, words in tests
                if baked(words, (source, build))]
    check(not problems, "no test names a program outside the source and build trees by its path%s"
          % "".join("\n  " + problem for problem in problems))
    print("PASS")


if __name__ == "__main__":
    main()
