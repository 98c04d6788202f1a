/*
 * Literal anchors of POSIX extended regular expressions: the literal runs every match must
 * contain, so that regexec can be skipped on text that cannot match (see pack.h).
 */
#include "pack.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *anchor__literals(const char *re, bool *ret_nomem)
{
    char all[512], cur[256] = "";
    size_t al = 0, cl = 0, longest = 0;
    int depth = 0;
    /* Every literal run outside groups and classes is required; keep them all ("a\0b\0\0"). */
#define ANCHOR_BREAK()                                                                                        \
    do {                                                                                                      \
        if (cl && al + cl + 2 < sizeof all) {                                                                 \
            memcpy(all + al, cur, cl);                                                                        \
            al += cl;                                                                                         \
            all[al++] = 0;                                                                                    \
            if (cl > longest)                                                                                 \
                longest = cl;                                                                                 \
        }                                                                                                     \
        cl = 0;                                                                                               \
    } while (0)
    for (size_t i = 0; re[i]; i++) {
        char c = re[i];
        if (c == '\\' && re[i + 1]) {
            char n = re[++i];
            if (depth == 0 && !isalnum((unsigned char)n) && cl < sizeof cur - 1)
                cur[cl++] = n;
            else
                ANCHOR_BREAK();
        } else if (c == '[') {
            ANCHOR_BREAK();
            size_t j = i + 1;
            if (re[j] == '^')
                j++;
            if (re[j] == ']')
                j++;
            while (re[j] && re[j] != ']') {
                if (re[j] == '[' && re[j + 1] == ':') {
                    const char *e = strstr(re + j + 2, ":]");
                    j = e ? (size_t)(e - re) + 2 : j + 1;
                    continue;
                }
                j++;
            }
            if (!re[j])
                return NULL;
            i = j;
        } else if (c == '(') {
            depth++;
            ANCHOR_BREAK();
        } else if (c == ')') {
            depth--;
            ANCHOR_BREAK();
        } else if (c == '|') {
            if (depth == 0)
                return NULL; /* top-level alternation: no literal is required */
            ANCHOR_BREAK();
        } else if (c == '*' || c == '?' || c == '{') {
            if (cl)
                cl--; /* the previous character is optional */
            ANCHOR_BREAK();
            if (c == '{') {
                while (re[i] && re[i] != '}')
                    i++;
                if (!re[i])
                    return NULL;
            }
        } else if (c == '.' || c == '^' || c == '$' || c == '+') {
            if (c == '+' && cl) {
                /* x+ requires one x: keep it, but the run ends here */
            }
            ANCHOR_BREAK();
        } else if (depth == 0 && cl < sizeof cur - 1) {
            cur[cl++] = c;
        } else {
            ANCHOR_BREAK();
        }
    }
    ANCHOR_BREAK();
#undef ANCHOR_BREAK
    if (longest < 2)
        return NULL;
    all[al++] = 0;
    char *r = malloc(al);
    if (r)
        memcpy(r, all, al);
    else
        *ret_nomem = true;
    return r;
}

sg_status sg_regex_anchor(const char *re, char **ret_anchors)
{
    bool nomem = false;
    char *a = anchor__literals(re, &nomem);
    if (nomem)
        return SG_ERR_NOMEM;
    *ret_anchors = a;
    return SG_OK;
}

bool sg_regex_anchors_in(const char *anchors, const char *text, size_t n)
{
    if (!anchors)
        return true;
    for (const char *a = anchors; *a; a += strlen(a) + 1)
        if (!sg_memmem(text, n, a, strlen(a)))
            return false;
    return true;
}
