"""Real X key events: xdotool focuses TileScope's window and presses F11 then Ctrl+Q; the app
must switch to presentation mode and quit, writing what it showed."""
import os
import subprocess
import sys
import time

from guitest import Run, check

SCRIPT = r'''
"$1" --dump-state "$2" > "$3" 2>&1 &
app=$!
for i in $(seq 1 300); do grep -q "tilescope: ready" "$3" && break; sleep 0.1; done
win=$(xdotool search --sync --name '^TileScope$' | head -n 1)
xdotool windowfocus --sync "$win"
xdotool key --window "$win" F11
sleep 1
xdotool key --window "$win" ctrl+q
wait $app
'''


def main(binary):
    run = Run(binary)
    log = os.path.join(run.dir, "app.log")
    command = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", "bash", "-c", SCRIPT, "-", binary, run.state_file, log]
    done = subprocess.run(command, env=run.env, capture_output=True, text=True, timeout=120)
    print(done.stdout + done.stderr)
    with open(log) as f:
        print(f.read())
    check(done.returncode == 0, "the app quits with status 0 on Ctrl+Q")
    state = run.state()
    check(state["presentation"], "F11 from a real key event turned presentation mode on")
    check(state["font_size"] >= 28, "presentation fonts were rebuilt large")
    print("PASS")


if __name__ == "__main__":
    main(sys.argv[1])
