/* snipgate CLI entry point: everything lives in the library (gate/cli.c). */
#include "cli.h"

int main(int argc, char **argv)
{
    return sg_cli_main(argc, argv);
}
