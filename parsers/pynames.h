/*
 * Python's special names, in ONE table (pynames.c): the roots resolution treats specially
 * (builtins, sys, __main__, importlib, __import__, getattr, vars...), the getattr-like functions
 * that take an attribute name as a constant argument, the dynamic importers, the namespace
 * prefixes normalisation strips (sys.modules., builtins.) and aliases (importlib.__import__). The resolver
 * and the rule engine both ask this table instead of keeping lists of their own.
 * Ownership: static data only; nothing to free.
 */
#ifndef SG_PYNAMES_H
#define SG_PYNAMES_H

#include <stdbool.h>
#include <stddef.h>

/* True if the first component `q` (n bytes) of a qualified name is a root that normalisation can
 * turn into another root, or that resolution treats specially: a name under it may still reach a
 * rule even if no rule names the root itself. */
bool sg_pyname_special_root(const char *q, size_t n);
/* For a getattr-like callee (getattr, setattr, delattr, hasattr, object.__getattribute__,
 * type.__getattribute__, operator.attrgetter): the position of its attribute-name argument;
 * -1 for any other name. */
int sg_pyname_getattr_arg(const char *qname);
/* True for callees the engine treats specially whatever the rules say: dynamic imports
 * (__import__, importlib.*, pkgutil.resolve_name), getattr-likes and forwarders. */
bool sg_pyname_special_callee(const char *qname);

/* Dynamic importers: __import__ returns the top-level package (unless given a fromlist),
 * importlib.import_module the named module itself. */
typedef enum sg_pyname_import {
    SG_PYNAME_IMPORT_NONE = 0,
    SG_PYNAME_IMPORT_TOP,     /* __import__ */
    SG_PYNAME_IMPORT_FULL,    /* importlib.import_module */
    SG_PYNAME_IMPORT_RESOLVE, /* pkgutil.resolve_name("os:system"): a module and a name in it */
} sg_pyname_import;
sg_pyname_import sg_pyname_importer(const char *qname);

/* For a getter (getattr, inspect.getattr_static, object.__getattribute__, type.__getattribute__):
 * the position of the attribute name (the object is at 0); -1 for any other name. */
int sg_pyname_getter_arg(const char *qname);

/* Higher-order helpers that call the callable they are given with arguments they are given
 * (functools.partial, atexit.register, threading.Thread(target=...), executor.submit...): where
 * the callable and its arguments are. `pos`/`kw`: the callable, by position and/or keyword (kw may
 * be NULL); `args_from`: first positional argument passed on (-1: none), or `args_kw`: the keyword
 * whose tuple holds them; `kwargs_kw`: the keyword whose dict holds the keywords passed on (NULL:
 * the call's own other keywords are passed on). */
typedef struct sg_pyname_forward {
    int pos;
    const char *kw;
    int args_from;
    const char *args_kw;
    const char *kwargs_kw;
} sg_pyname_forward;
/* The forwarding shape of `qname`, or NULL; *ret_returns_callable tells whether the call's value
 * stands for the callable (partial, atexit.register) rather than for an object (Thread). */
const sg_pyname_forward *sg_pyname_forwarder(const char *qname, bool *ret_returns_callable);
/* For a method that returns an object of its own class ("pathlib.Path.home", "pathlib.Path.expanduser",
 * "pathlib.Path.__truediv__"): that class; NULL otherwise. */
const char *sg_pyname_returns_self(const char *qname);
/* Functions that make an object of a known class (tarfile.open() a tarfile.TarFile, IPython's
 * get_ipython() its InteractiveShell): the class, or NULL. */
const char *sg_pyname_factory(const char *qname);
/* functools.reduce (or the Python 2 builtin): reduce(getattr, [names], obj) is obj.name1.name2. */
bool sg_pyname_is_reduce(const char *qname);

/* The length of a leading prefix that adds nothing to the name after it ("sys.modules.",
 * "builtins."), or 0. */
size_t sg_pyname_namespace_prefix(const char *qname);
/* The canonical name of `qname` ("importlib.__import__" -> "__import__"), else `qname`. */
const char *sg_pyname_canonical(const char *qname);

#endif
