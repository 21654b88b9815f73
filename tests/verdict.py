"""How TileScope's test scripts state their verdict, for CTest to read: the first check that
does not hold ends the script with "FAIL: ..." and status 1 (the tests' FAIL_REGULAR_EXPRESSION);
a script that gets through prints PASS itself.

`check` takes what should hold and prints it when it does ("ok: ..."), so a log reads as the
list of what was seen; `expect` takes what is wrong when it does not hold and prints nothing
otherwise, for checks run by the hundred. The scripts put tests/ on sys.path to import it."""
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(condition, problem):
    if not condition:
        fail(problem)


def check(condition, message):
    expect(condition, message)
    print("ok: " + message)
