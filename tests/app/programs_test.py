"""Every program the build makes answers --help and refuses an argument it lacks.

write_test_vectors once took --help for a folder name and made a folder called --help. The
list of programs is gathered by CMake from the build's own targets (tests/CMakeLists.txt),
so a program added later is checked without anyone remembering to add it here. Each runs in
an empty folder with no input on stdin: it must answer or refuse at once, name the argument
it refuses, and leave the folder empty.

    programs_test.py NAME=PATH...
"""
import os
import subprocess
import sys
import tempfile

BOGUS = "--no-such-option"
# GoogleTest's own help begins with this line; every other program prints a usage line.
HELP_WORDS = ("usage", "This program contains tests written using Google Test")


def run(path, argument):
    folder = tempfile.mkdtemp(prefix="tilescope-programs-")
    done = subprocess.run([path, argument], cwd=folder, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)
    left = os.listdir(folder)
    if not left:
        os.rmdir(folder)
    return done.returncode, done.stdout + done.stderr, left


def main(programs):
    failures = []
    for entry in programs:
        name, path = entry.split("=", 1)
        status, output, left = run(path, "--help")
        answered = status == 0 and any(word.lower() in output.lower() for word in HELP_WORDS)
        print("%s --help: exit %d, %s" % (name, status, output.strip().splitlines()[0] if output.strip() else "no output"))
        if not answered or left:
            failures.append("%s --help: exit %d, files left %s, output %r" % (name, status, left, output[:200]))
        status, output, left = run(path, BOGUS)
        print("%s %s: exit %d, %s" % (name, BOGUS, status, output.strip().splitlines()[0] if output.strip() else "no output"))
        if status <= 0 or BOGUS not in output or left:
            failures.append("%s %s: exit %d (wanted a refusal naming it), files left %s, output %r" %
                            (name, BOGUS, status, left, output[:200]))
    for failure in failures:
        print("FAIL: " + failure)
    if not programs:
        print("FAIL: no program given")
    elif not failures:
        print("PASS: %d programs answer --help and refuse %s" % (len(programs), BOGUS))


if __name__ == "__main__":
    main(sys.argv[1:])
