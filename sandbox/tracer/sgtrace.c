/*
 * _sgtrace: the coverage tracer that runs INSIDE the sandbox, in the candidate's interpreter (a
 * CPython 3.11 extension module, loaded by the runner from a sealed memfd when the worker was made
 * with coverage). It records, for the candidate's own code only (code objects whose file is
 * "<snippet>"):
 *   - line transitions (previous line, line) as 8-bit saturating counters, and lines run;
 *   - the operands of == != < <= > >= and `in` when they are str or int (the fuzzer's comparison
 *     feedback), read from the value stack at the COMPARE_OP / CONTAINS_OP instruction.
 * into the shared map of sandbox/tracer/cov.h. It uses PyEval_SetTrace (a C trace function: no
 * Python call per event) and, for the operands, CPython 3.11's frame layout (internal headers):
 * it is built only against 3.11 and refuses to load elsewhere (the runner then reports an error).
 *
 * It is installed once, by attach(), and traces from then on (a call child inherits it over
 * fork): the runner keeps no reference to this module (multi-phase init, so the interpreter
 * keeps none either), and a fuzzed call runs exactly as any other call of the runner; the
 * previous-line state starts over at each call text's frame ("<call>").
 *
 * Not trusted: the candidate shares this process and can write the map, or find the trace
 * function's effects (a frame's f_trace_opcodes, its own speed: docs/fuzz.md). Nothing here
 * decides a verdict.
 */
#define PY_SSIZE_T_CLEAN
#define Py_BUILD_CORE 1
#define NEED_OPCODE_TABLES 1
#include <Python.h>
#include <frameobject.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_opcode.h>

#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sandbox/tracer/cov.h"

#if PY_VERSION_HEX < 0x030B0000 || PY_VERSION_HEX >= 0x030C0000
#error "_sgtrace reads CPython 3.11 frames"
#endif

static struct sg_cov_map *trace__map;
static unsigned trace__prev;            /* previous line (edge source) */
static PyCodeObject *trace__last_code;  /* cache: last code object asked about */
static int trace__last_is_snippet;
static PyObject *trace__snippet;        /* "<snippet>" */
static PyObject *trace__call;           /* "<call>" */

static int trace__is_snippet(PyCodeObject *co)
{
    if (co == trace__last_code)
        return trace__last_is_snippet;
    PyObject *fn = co->co_filename;
    int is = fn == trace__snippet ||
             (fn && PyUnicode_Check(fn) && PyUnicode_Compare(fn, trace__snippet) == 0);
    PyErr_Clear();
    trace__last_code = co;
    trace__last_is_snippet = is;
    return is;
}

static void trace__edge(unsigned line)
{
    unsigned idx = ((trace__prev * 2654435761u) ^ (line * 40503u)) % SG_COV_EDGES;
    if (trace__map->edges[idx] != 0xff)
        trace__map->edges[idx]++;
    if (line < SG_COV_LINES)
        trace__map->lines[line] = 1;
    trace__prev = line;
}

/* An operand as bytes for the map; 0 when it is not a str or an int64. */
static int trace__operand(PyObject *o, uint8_t *out, uint8_t *len)
{
    if (PyUnicode_CheckExact(o)) {
        Py_ssize_t n = 0;
        const char *s = PyUnicode_AsUTF8AndSize(o, &n);
        if (!s) {
            PyErr_Clear();
            return 0;
        }
        if (n > (Py_ssize_t)SG_COV_CMP_BYTES)
            n = SG_COV_CMP_BYTES;
        memcpy(out, s, (size_t)n);
        *len = (uint8_t)n;
        return SG_COV_CMP_STR;
    }
    if (PyLong_CheckExact(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        for (int i = 0; i < 8; i++)
            out[i] = (uint8_t)(((unsigned long long)v >> (8 * i)) & 0xff);
        *len = 8;
        return SG_COV_CMP_INT;
    }
    return 0;
}

static void trace__cmp(PyObject *a, PyObject *b)
{
    uint32_t k = trace__map->ncmp;
    if (k >= SG_COV_CMPS)
        return;
    struct sg_cov_cmp *c = &trace__map->cmps[k];
    uint8_t la = 0, lb = 0;
    int ka = trace__operand(a, c->a, &la);
    if (!ka || trace__operand(b, c->b, &lb) != ka)
        return;
    /* the same pair as the previous record (a loop): once is enough */
    if (k && trace__map->cmps[k - 1].kind == ka && trace__map->cmps[k - 1].la == la &&
        trace__map->cmps[k - 1].lb == lb && !memcmp(trace__map->cmps[k - 1].a, c->a, la) &&
        !memcmp(trace__map->cmps[k - 1].b, c->b, lb))
        return;
    c->kind = (uint8_t)ka;
    c->la = la;
    c->lb = lb;
    trace__map->ncmp = k + 1;
}

/* The two operands on top of the value stack of a frame about to run a comparison. */
static void trace__compare(_PyInterpreterFrame *f, int op)
{
    PyCodeObject *co = f->f_code;
    int depth = f->stacktop - co->co_nlocalsplus;
    if (depth < 2 || f->stacktop > co->co_nlocalsplus + co->co_stacksize)
        return;
    PyObject *a = f->localsplus[f->stacktop - 2], *b = f->localsplus[f->stacktop - 1];
    if (!a || !b)
        return;
    if (op == CONTAINS_OP && (PyTuple_CheckExact(b) || PyList_CheckExact(b))) {
        /* x in ("magic", "other"): each member is a comparison */
        Py_ssize_t n = PySequence_Fast_GET_SIZE(b);
        for (Py_ssize_t i = 0; i < n && i < 16; i++)
            trace__cmp(a, PySequence_Fast_GET_ITEM(b, i));
        return;
    }
    if (op == CONTAINS_OP && (PyAnySet_CheckExact(b) || PyDict_CheckExact(b))) {
        Py_ssize_t pos = 0, i = 0;
        PyObject *key;
        Py_hash_t h;
        if (PyDict_CheckExact(b)) {
            while (i++ < 16 && PyDict_Next(b, &pos, &key, NULL))
                trace__cmp(a, key);
        } else {
            while (i++ < 16 && _PySet_NextEntry(b, &pos, &key, &h))
                trace__cmp(a, key);
        }
        return;
    }
    trace__cmp(a, b);
}

static int trace__func(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
    (void)obj;
    (void)arg;
    if (!trace__map)
        return 0;
    _PyInterpreterFrame *f = frame->f_frame;
    if (!f || !trace__is_snippet(f->f_code)) {
        /* not the candidate's code (its frame flags are left as they are: a changed
         * f_trace_lines on the runner's frames would tell the candidate it is traced) */
        if (what == PyTrace_CALL && f) {
            PyObject *fn = f->f_code->co_filename;
            if (fn == trace__call || (fn && PyUnicode_Check(fn) && PyUnicode_Compare(fn, trace__call) == 0))
                trace__prev = 0; /* a call text starts: its edges start over (two str: no error) */
        }
        return 0;
    }
    switch (what) {
    case PyTrace_CALL:
        frame->f_trace_lines = 1;
        frame->f_trace_opcodes = 1;
        break;
    case PyTrace_LINE:
        trace__edge((unsigned)PyFrame_GetLineNumber(frame));
        break;
    case PyTrace_EXCEPTION:
        trace__edge((unsigned)PyFrame_GetLineNumber(frame) | 0x8000u);
        break;
    case PyTrace_OPCODE: {
        _Py_CODEUNIT *ip = f->prev_instr;
        _Py_CODEUNIT *base = _PyCode_CODE(f->f_code);
        if (ip < base || ip >= base + Py_SIZE(f->f_code))
            break;
        int op = _PyOpcode_Deopt[_Py_OPCODE(*ip)];
        if (op == COMPARE_OP || op == CONTAINS_OP)
            trace__compare(f, op);
        break;
    }
    default:
        break;
    }
    return 0;
}

/* attach(fd): map the shared coverage memfd (the runner passes it in; it may then close fd) and
 * trace the current thread from now on (the map is reset by the harness per input). */
static PyObject *trace_attach(PyObject *self, PyObject *args)
{
    (void)self;
    int fd;
    if (!PyArg_ParseTuple(args, "i", &fd))
        return NULL;
    if (trace__map)
        return PyErr_Format(PyExc_RuntimeError, "attached already");
    void *p = mmap(NULL, sizeof(struct sg_cov_map), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return PyErr_SetFromErrno(PyExc_OSError);
    trace__map = p;
    trace__prev = 0;
    PyEval_SetTrace(trace__func, NULL);
    Py_RETURN_NONE;
}

/*
 * count(code, globals, is_expr, budget, cost, exc[, cpu_base_ns, cpu_per_ns]) (from counter()):
 * evaluate a compiled call text the way the runner's Python counter does (runner.py, _counted)
 * and count the same events: each function call (PyTrace_CALL, generator resumptions included)
 * and each line run (PyTrace_LINE), in any Python code the call reaches. Past `budget` events it raises `exc` at that event and stops
 * counting (as sys.settrace's trampoline drops a failing trace function: handlers run
 * untraced), so the count is then budget + 1. The count goes to cost[0] however the call ends.
 * A C trace function makes no Python call per event: a counted call costs about what the same
 * call costs under the coverage tracer, not the several times a Python trace function costs.
 * The tracer that was installed before (coverage, in a fuzzed worker) is put back after.
 * Optional cpu_base_ns, cpu_per_ns (limits.cost_cpu_ms): every 1024 events, once the thread's
 * CPU time since the call began passes cpu_base_ns + cpu_per_ns * events, the call stops as past
 * its budget (work inside builtins, which no event counts), as runner.py's counter does.
 */
static unsigned long long count__n, count__budget;
static PyObject *count__exc;
/* the CPU bound (0: none): past count__cpu_base + count__cpu_per * events of the thread's CPU
 * since count__cpu_start, checked every 1024 events */
static unsigned long long count__cpu_base, count__cpu_per, count__cpu_start;

static unsigned long long count__thread_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static int count__func(PyObject *obj, PyFrameObject *frame, int what, PyObject *arg)
{
    (void)obj;
    (void)frame;
    (void)arg;
    if (what != PyTrace_CALL && what != PyTrace_LINE)
        return 0;
    if (++count__n <= count__budget) {
        if (!count__cpu_base || (count__n & 1023) ||
            count__thread_ns() - count__cpu_start <= count__cpu_base + count__cpu_per * count__n)
            return 0;
        count__n = count__budget + 1; /* (stopped as past its budget) */
    }
    PyErr_SetNone(count__exc);
    PyEval_SetTrace(NULL, NULL);
    return -1;
}

static PyObject *trace_count(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *code, *globals, *cost, *exc;
    int is_expr;
    unsigned long long budget, cpu_base = 0, cpu_per = 0;
    if (!PyArg_ParseTuple(args, "O!O!pKO!O|KK", &PyCode_Type, &code, &PyDict_Type, &globals, &is_expr, &budget,
                          &PyList_Type, &cost, &exc, &cpu_base, &cpu_per))
        return NULL;
    if (PyList_GET_SIZE(cost) < 1 || !PyExceptionClass_Check(exc))
        return PyErr_Format(PyExc_TypeError, "count: cost must be a non-empty list, exc an exception class");
    if (count__exc)
        return PyErr_Format(PyExc_RuntimeError, "count: a counted call is running");
    PyThreadState *ts = PyThreadState_Get();
    Py_tracefunc prev = ts->c_tracefunc;
    PyObject *prev_obj = ts->c_traceobj;
    Py_XINCREF(prev_obj);
    count__n = 0;
    count__budget = budget;
    count__exc = exc;
    count__cpu_base = cpu_base;
    count__cpu_per = cpu_per;
    count__cpu_start = cpu_base ? count__thread_ns() : 0;
    PyEval_SetTrace(count__func, NULL);
    PyObject *r = PyEval_EvalCode(code, globals, globals);
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyEval_SetTrace(prev, prev_obj);
    Py_XDECREF(prev_obj);
    count__exc = NULL;
    PyObject *n = PyLong_FromUnsignedLongLong(count__n);
    if (!n || PyList_SetItem(cost, 0, n) < 0) {
        Py_XDECREF(r);
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(tb);
        return NULL;
    }
    PyErr_Restore(et, ev, tb);
    if (!r || is_expr)
        return r;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

/* counter(): count() as a function that holds no reference to this module (its __self__ and
 * __module__ are None), so the runner can keep it while the module itself is freed: nothing in
 * the heap is named _sgtrace (docs/fuzz.md, "A fuzzed call looks like any other call"). */
static PyMethodDef trace__count_def = {"count", trace_count, METH_VARARGS, "evaluate a call, counting its Python events"};

static PyObject *trace_counter(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    return PyCFunction_NewEx(&trace__count_def, NULL, NULL);
}

static PyMethodDef trace__methods[] = {
    {"attach", trace_attach, METH_VARARGS, "map the coverage memfd and trace from now on"},
    {"counter", trace_counter, METH_NOARGS, "the event counter, detached from this module"},
    {NULL, NULL, 0, NULL},
};

/* Multi-phase initialisation: the interpreter keeps no copy of this module (single-phase modules
 * stay reachable through its extension cache, hence gc.get_objects()): once the runner drops it,
 * nothing in Python names the tracer. */
static PyModuleDef_Slot trace__slots[] = {{0, NULL}};

static struct PyModuleDef trace__module = {PyModuleDef_HEAD_INIT, "_sgtrace", NULL, 0, trace__methods,
                                           trace__slots, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__sgtrace(void);
PyMODINIT_FUNC PyInit__sgtrace(void)
{
    trace__snippet = PyUnicode_InternFromString("<snippet>");
    trace__call = PyUnicode_InternFromString("<call>");
    if (!trace__snippet || !trace__call)
        return NULL;
    return PyModuleDef_Init(&trace__module);
}
