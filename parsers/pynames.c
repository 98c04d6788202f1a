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
    PYNAMES_GETTER = 128,        /* returns the attribute its name argument names (getattr, getattr_static) */
    PYNAMES_FORWARD = 256,       /* calls (or returns) the callable it is given: see sg_pyname_forward */
    PYNAMES_RETURNS_ARG = 512,   /* a forwarder that returns its callable, or a stand-in (partial, register) */
    PYNAMES_IMPORTER_RESOLVE = 1024, /* an importer taking "module:qualname" (pkgutil.resolve_name) */
};

typedef struct pynames__entry {
    const char *name;
    size_t len;
    unsigned roles;
    int arg;        /* PYNAMES_GETATTR: position of the attribute name; PYNAMES_FORWARD: of the callable */
    const char *to; /* PYNAMES_ALIAS: the canonical name */
    sg_pyname_forward fwd; /* PYNAMES_FORWARD: where the callable and its arguments are */
} pynames__entry;

#define PYNAMES__E(name, roles, arg) {name, sizeof name - 1, roles, arg, NULL, {0, NULL, 0, NULL, NULL}}
/* A forwarder: the callable at `pos` (or keyword `kw`); its positional arguments follow it from
 * `args_from` (or are the tuple passed as keyword `args_kw`), its keywords are the call's other
 * keywords (or the dict passed as `kwargs_kw`). */
#define PYNAMES__F(name, roles, pos, kw, args_from, args_kw, kwargs_kw)                                              \
    {name, sizeof name - 1, PYNAMES_FORWARD | (roles), pos, NULL, {pos, kw, args_from, args_kw, kwargs_kw}}
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
    PYNAMES__E("getattr", PYNAMES_GETTER, 1),
    PYNAMES__E("inspect.getattr_static", PYNAMES_GETATTR | PYNAMES_GETTER, 1),
    PYNAMES__E("object.__getattribute__", PYNAMES_GETTER, 1),
    PYNAMES__E("type.__getattribute__", PYNAMES_GETTER, 1),
    PYNAMES__E("inspect", PYNAMES_ROOT, -1),
    PYNAMES__E("functools", PYNAMES_ROOT, -1),
    PYNAMES__E("atexit", PYNAMES_ROOT, -1),
    PYNAMES__E("threading", PYNAMES_ROOT, -1),
    PYNAMES__E("pkgutil", PYNAMES_ROOT, -1),
    PYNAMES__E("weakref", PYNAMES_ROOT, -1),
    PYNAMES__E("concurrent", PYNAMES_ROOT, -1),
    PYNAMES__E("contextlib", PYNAMES_ROOT, -1),
    PYNAMES__E("functools.reduce", 0, -1),
    /* modules and types whose functions the constant evaluator folds (decoders, paths) */
    PYNAMES__E("base64", PYNAMES_ROOT, -1),
    PYNAMES__E("binascii", PYNAMES_ROOT, -1),
    PYNAMES__E("codecs", PYNAMES_ROOT, -1),
    PYNAMES__E("bytes", PYNAMES_ROOT, -1),
    PYNAMES__E("bytearray", PYNAMES_ROOT, -1),
    PYNAMES__E("pathlib", PYNAMES_ROOT, -1),
    PYNAMES__E("pkgutil.resolve_name", PYNAMES_IMPORTER | PYNAMES_IMPORTER_FULL | PYNAMES_IMPORTER_RESOLVE, -1),
    PYNAMES__E("pydoc", PYNAMES_ROOT, -1),
    PYNAMES__E("pydoc.locate", PYNAMES_IMPORTER | PYNAMES_IMPORTER_FULL, -1),
    PYNAMES__F("functools.partial", PYNAMES_RETURNS_ARG, 0, NULL, 1, NULL, NULL),
    PYNAMES__F("functools.partialmethod", PYNAMES_RETURNS_ARG, 0, NULL, 1, NULL, NULL),
    PYNAMES__F("atexit.register", PYNAMES_RETURNS_ARG, 0, "func", 1, NULL, NULL),
    PYNAMES__F("operator.call", 0, 0, NULL, 1, NULL, NULL),
    PYNAMES__F("asyncio.to_thread", 0, 0, "func", 1, NULL, NULL),
    PYNAMES__F("threading.Thread", 0, 1, "target", -1, "args", "kwargs"),
    PYNAMES__F("threading.Timer", 0, 1, "function", -1, "args", "kwargs"),
    PYNAMES__F("multiprocessing.Process", 0, 1, "target", -1, "args", "kwargs"),
    PYNAMES__F("weakref.finalize", 0, 1, "func", 2, NULL, NULL),
    PYNAMES__F("contextlib.ExitStack.callback", 0, 0, "callback", 1, NULL, NULL),
    PYNAMES__F("concurrent.futures.ThreadPoolExecutor.submit", 0, 0, "fn", 1, NULL, NULL),
    PYNAMES__F("concurrent.futures.ProcessPoolExecutor.submit", 0, 0, "fn", 1, NULL, NULL),
    PYNAMES__E("importlib.import_module", PYNAMES_IMPORTER | PYNAMES_IMPORTER_FULL, -1),
    PYNAMES__E("sys.modules.", PYNAMES_NAMESPACE, -1),
    PYNAMES__E("builtins.", PYNAMES_NAMESPACE, -1),
    /* vendored copies are the library they copy (pip._vendor.requests.get is requests.get) */
    PYNAMES__E("pip._vendor.", PYNAMES_NAMESPACE, -1),
    PYNAMES__E("requests.packages.", PYNAMES_NAMESPACE, -1),
    PYNAMES__E("setuptools._vendor.", PYNAMES_NAMESPACE, -1),
    PYNAMES__E("pkg_resources._vendor.", PYNAMES_NAMESPACE, -1),
    {"importlib.__import__", sizeof "importlib.__import__" - 1, PYNAMES_ALIAS, -1, "__import__", {0, NULL, 0, NULL, NULL}},
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
    if (pynames__find(qname, n, PYNAMES_IMPORTER | PYNAMES_GETATTR | PYNAMES_FORWARD))
        return true;
    size_t root = strcspn(qname, ".");
    return root < n && pynames__find(qname, root, PYNAMES_IMPORTER_MODULE);
}

sg_pyname_import sg_pyname_importer(const char *qname)
{
    const pynames__entry *e = pynames__find(qname, strlen(qname), PYNAMES_IMPORTER);
    if (!e)
        return SG_PYNAME_IMPORT_NONE;
    if (e->roles & PYNAMES_IMPORTER_RESOLVE)
        return SG_PYNAME_IMPORT_RESOLVE;
    return e->roles & PYNAMES_IMPORTER_FULL ? SG_PYNAME_IMPORT_FULL : SG_PYNAME_IMPORT_TOP;
}

int sg_pyname_getter_arg(const char *qname)
{
    const pynames__entry *e = pynames__find(qname, strlen(qname), PYNAMES_GETTER);
    return e ? e->arg : -1;
}

const sg_pyname_forward *sg_pyname_forwarder(const char *qname, bool *ret_returns_callable)
{
    const pynames__entry *e = pynames__find(qname, strlen(qname), PYNAMES_FORWARD);
    if (!e)
        return NULL;
    if (ret_returns_callable)
        *ret_returns_callable = (e->roles & PYNAMES_RETURNS_ARG) != 0;
    return &e->fwd;
}

/* Methods that return an object of their own class (pathlib: Path.home(), p.expanduser(), p / "x"). */
static const char *const pynames__self_classes[] = {"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
                                                    "pathlib.PurePosixPath"};
static const char *const pynames__self_methods[] = {"home", "cwd", "expanduser", "resolve", "absolute", "joinpath",
                                                    "with_name", "with_suffix", "with_stem", "relative_to",
                                                    "__truediv__"};

const char *sg_pyname_returns_self(const char *qname)
{
    for (size_t i = 0; i < sizeof pynames__self_classes / sizeof pynames__self_classes[0]; i++) {
        size_t cl = strlen(pynames__self_classes[i]);
        if (strncmp(qname, pynames__self_classes[i], cl) || qname[cl] != '.')
            continue;
        for (size_t k = 0; k < sizeof pynames__self_methods / sizeof pynames__self_methods[0]; k++)
            if (!strcmp(qname + cl + 1, pynames__self_methods[k]))
                return pynames__self_classes[i];
    }
    return NULL;
}

/* Factories whose result's methods some rule is about: tarfile.open(...).add(...) is
 * tarfile.TarFile.add, get_ipython().system(...) is InteractiveShell.system. */
static const struct {
    const char *fn, *cls;
} pynames__factories[] = {
    {"tarfile.open", "tarfile.TarFile"},
    {"tarfile.TarFile.open", "tarfile.TarFile"},
    {"tarfile.TarFile.taropen", "tarfile.TarFile"},
    {"tarfile.TarFile.gzopen", "tarfile.TarFile"},
    {"tarfile.TarFile.bz2open", "tarfile.TarFile"},
    {"tarfile.TarFile.xzopen", "tarfile.TarFile"},
    {"get_ipython", "IPython.core.interactiveshell.InteractiveShell"},
    {"IPython.get_ipython", "IPython.core.interactiveshell.InteractiveShell"},
    {"IPython.core.getipython.get_ipython", "IPython.core.interactiveshell.InteractiveShell"},
};

const char *sg_pyname_factory(const char *qname)
{
    for (size_t i = 0; i < sizeof pynames__factories / sizeof pynames__factories[0]; i++)
        if (!strcmp(qname, pynames__factories[i].fn))
            return pynames__factories[i].cls;
    return NULL;
}

bool sg_pyname_is_reduce(const char *qname)
{
    return !strcmp(qname, "functools.reduce") || !strcmp(qname, "reduce");
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
