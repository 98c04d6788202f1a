/*
 * Build step: compile the seccomp allow-list (seccomp.c) to classic BPF once, at build time, and
 * write the raw program to a file that is embedded into libsnipgate. A cold `snipgate run` then
 * loads that program instead of running libseccomp (feature probing and filter generation,
 * ~0.35 ms per start). The program is byte-for-byte what sg_seccomp_build produces at run time
 * (a unit test compares them). If libseccomp or the build kernel cannot produce it, the file is
 * left empty and snipgate builds the filter at run time as before.
 * Usage: sg_seccomp_gen OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/sandbox.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT\n", argv[0]);
        return 2;
    }
    FILE *out = fopen(argv[1], "wb");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    struct sg_sandbox *sb = calloc(1, sizeof *sb);
    sg_diag diag;
    memset(&diag, 0, sizeof diag);
    if (sb && sg_seccomp_build(sb, &diag) == SG_OK)
        fwrite(sb->bpf, sizeof *sb->bpf, sb->bpf_len, out);
    else
        fprintf(stderr, "sg_seccomp_gen: %s (the filter will be built at run time)\n", diag.message);
    if (sb)
        free(sb->bpf);
    free(sb);
    return fclose(out) == 0 ? 0 : 1;
}
