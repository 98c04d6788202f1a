/* The table of Python's special names (see pynames.h). */
#include "pynames.h"

#include <string.h>

enum {
    PYNAMES_ROOT = 1,     /* a special root (sg_pyname_special_root) */
    PYNAMES_GETATTR = 2,  /* getattr-like: `arg` is the position of the attribute name */
    PYNAMES_IMPORTER = 4, /* imports the module its argument names */
    PYNAMES_IMPORTER_MODULE = 8, /* every name under this module is an importer (importlib.*) */
    PYNAMES_IMPORTER_FULL = 16,  /* an importer that returns the named module itself, not its root */
    PYNAMES_NAMESPACE = 32,      /* a prefix that adds nothing to the name after it (sys.modules.) */
    PYNAMES_ALIAS = 64,          /* another name of `to` (importlib.__import__ is __import__) */
};

typedef struct pynames__entry {
    const char *name;
    size_t len;
    unsigned roles;
    int arg;        /* PYNAMES_GETATTR: position of the attribute name */
    const char *to; /* PYNAMES_ALIAS: the canonical name */
} pynames__entry;

#define PYNAMES__E(name, roles, arg) {name, sizeof name - 1, roles, arg, NULL}
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
    PYNAMES__E("importlib.import_module", PYNAMES_IMPORTER | PYNAMES_IMPORTER_FULL, -1),
    PYNAMES__E("sys.modules.", PYNAMES_NAMESPACE, -1),
    PYNAMES__E("builtins.", PYNAMES_NAMESPACE, -1),
    {"importlib.__import__", sizeof "importlib.__import__" - 1, PYNAMES_ALIAS, -1, "__import__"},
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

sg_pyname_import sg_pyname_importer(const char *qname)
{
    const pynames__entry *e = pynames__find(qname, strlen(qname), PYNAMES_IMPORTER);
    if (!e)
        return SG_PYNAME_IMPORT_NONE;
    return e->roles & PYNAMES_IMPORTER_FULL ? SG_PYNAME_IMPORT_FULL : SG_PYNAME_IMPORT_TOP;
}

size_t sg_pyname_namespace_prefix(const char *qname)
{
    for (size_t i = 0; i < PYNAMES_N; i++) {
        const pynames__entry *e = &pynames__table[i];
        if ((e->roles & PYNAMES_NAMESPACE) && !strncmp(qname, e->name, e->len))
            return e->len;
    }
    return 0;
}

const char *sg_pyname_canonical(const char *qname)
{
    const pynames__entry *e = pynames__find(qname, strlen(qname), PYNAMES_ALIAS);
    return e ? e->to : qname;
}
