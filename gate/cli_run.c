/* `snipgate run`: placeholder until the sandbox lands (issue 3). */
#include "cli.h"

int sg_cli_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sg_cli_error("run", "the sandbox is not built yet");
    return SG_EXIT_INTERNAL;
}
