"""Real X key events: xdotool focuses TileScope's window and presses F11 then Ctrl+Q; the app
must switch to presentation mode and quit, writing what it showed."""
from guitest import Run, check, run_tests


def test_f11_and_ctrl_q(binary):
    run = Run(binary)
    status = run.interact([], ['xdotool key --window "$win" F11', "sleep 1"], timeout=120)
    check(status == 0, "the app quits with status 0 on Ctrl+Q")
    state = run.state()
    check(state["presentation"], "F11 from a real key event turned presentation mode on")
    check(state["font_size"] >= 28, "presentation fonts were rebuilt large")


if __name__ == "__main__":
    run_tests(globals())
