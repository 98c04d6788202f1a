/* The table of Python's special names (see pynames.h). */
#include "pynames.h"

#include <string.h>

enum {
    PYNAMES_ROOT = 1,     /* a special root (sg_pyname_special_root) */
    PYNAMES_GETATTR = 2,  /* getattr-like: `arg` is the position of the attribute name */
    PYNAMES_IMPORTER = 4, /* imports the module its argument names */
    PYNAMES_IMPORTER_MODULE = 8, /* every name under this module is an importer (importlib.*) */
};

typedef struct pynames__entry {
    const char *name;
    size_t len;
    unsigned roles;
    int arg;
} pynames__entry;

#define PYNAMES__E(name, roles, arg) {name, sizeof name - 1, roles, arg}
static const pynames__entry pynames__table[] = {
    PYNAMES__E("builtins", PYNAMES_ROOT, -1),
    PYNAMES__E("sys", PYNAMES_ROOT, -1),
    PYNAMES__E("__main__", PYNAMES_ROOT, -1),
    PYNAMES__E("importlib", PYNAMES_ROOT | PYNAMES_IMPORTER_MODULE, -1),
    PYNAMES__E("__import__", PYNAMES_ROOT | PYNAMES_IMPORTER, -1),
    PYNAMES__E("getattr", PYNAMES_ROOT | PYNAMES_GETATTR, 1),
    PYNAMES__E("vars", PYNAMES_ROOT, -1),
    PYNAMES__E("globals", PYNAMES_ROOT, -1),
    PYNAMES__E("locals", PYNAMES_ROOT, -1),
    PYNAMES__E("operator", PYNAMES_ROOT, -1),
    PYNAMES__E("object", PYNAMES_ROOT, -1),
    PYNAMES__E("type", PYNAMES_ROOT, -1),
    PYNAMES__E("hasattr", PYNAMES_ROOT | PYNAMES_GETATTR, 1),
    PYNAMES__E("setattr", PYNAMES_ROOT | PYNAMES_GETATTR, 1),
    PYNAMES__E("delattr", PYNAMES_ROOT | PYNAMES_GETATTR, 1),
    PYNAMES__E("object.__getattribute__", PYNAMES_GETATTR, 1),
    PYNAMES__E("type.__getattribute__", PYNAMES_GETATTR, 1),
    PYNAMES__E("operator.attrgetter", PYNAMES_GETATTR, 0),
};
#undef PYNAMES__E

#define PYNAMES_N (sizeof pynames__table / sizeof pynames__table[0])

static const pynames__entry *pynames__find(const char *q, size_t n, unsigned role)
{
    for (size_t i = 0; i < PYNAMES_N; i++) {
        const pynames__entry *e = &pynames__table[i];
        if ((e->roles & role) && e->len == n && !memcmp(e->name, q, n))
            return e;
    }
    return NULL;
}

bool sg_pyname_special_root(const char *q, size_t n)
{
    return pynames__find(q, n, PYNAMES_ROOT) != NULL;
}

int sg_pyname_getattr_arg(const char *qname)
{
    const pynames__entry *e = pynames__find(qname, strlen(qname), PYNAMES_GETATTR);
    return e ? e->arg : -1;
}

bool sg_pyname_special_callee(const char *qname)
{
    size_t n = strlen(qname);
    if (pynames__find(qname, n, PYNAMES_IMPORTER | PYNAMES_GETATTR))
        return true;
    size_t root = strcspn(qname, ".");
    return root < n && pynames__find(qname, root, PYNAMES_IMPORTER_MODULE);
}
