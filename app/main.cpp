// main.cpp — `tilescope`: the command line, or with no subcommand the GUI.
#include "app/cli/command_line.h"
#include "app/gui/gui_main.h"

int main(int argc, char** argv) { return cli::RunCommandLine(argc, argv, gui::RunGui); }
