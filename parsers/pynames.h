/*
 * Python's special names, in ONE table (pynames.c): the roots resolution treats specially
 * (builtins, sys, __main__, importlib, __import__, getattr, vars...), the getattr-like functions
 * that take an attribute name as a constant argument, and the dynamic importers. The resolver
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
 * (__import__, importlib.*) and getattr-likes. */
bool sg_pyname_special_callee(const char *qname);

#endif
