/* snipgate CLI entry point: the verbs are in cli/cli*.c, on top of the public API. */
#include "cli.h"

int main(int argc, char **argv)
{
    return sg_cli_main(argc, argv);
}
