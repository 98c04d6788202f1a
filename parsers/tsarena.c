/*
 * tree-sitter's allocator: a bump arena per thread inside a window (tsarena.h), the C library's
 * allocator outside one.
 *
 * Memory: one reservation for all threads (SLOTS slots of SLOT bytes, MAP_NORESERVE: address space,
 * not memory), so that "is this an arena block" is one comparison whichever thread frees it. A
 * thread takes a slot at its first window and gives it back when it exits. A window that needs
 * more than a slot continues on the heap (sg_tsarena_clean() turns false). After a window that
 * touched more than KEEP bytes, the pages past KEEP go back to the kernel. No reservation (a
 * strict overcommit policy, say) or no free slot: no arena, and the callers' usual path.
 *
 * A block is a 16-byte header (its size) and its bytes rounded up to 16, so every block is aligned
 * as malloc's are.
 */
#include "parsers/tsarena.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <tree_sitter/api.h>

#include "alloc.h" /* ts_current_malloc: the runtime's private header (-isystem, parsers/CMakeLists.txt) */

#if defined(__SANITIZE_ADDRESS__)
#define TSARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TSARENA_ASAN 1
#endif
#endif
#ifdef TSARENA_ASAN
#include <sanitizer/asan_interface.h>
#define TSARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define TSARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#define TSARENA_NO_ASAN __attribute__((no_sanitize_address))
#else
#define TSARENA_POISON(p, n) ((void)(p), (void)(n))
#define TSARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#define TSARENA_NO_ASAN
#endif

#define SLOT ((size_t)256 << 20)
#define SLOTS 128
#define KEEP ((size_t)8 << 20)
#define HDR 16

typedef struct tsarena {
    char *start, *cur, *end; /* the slot's blocks: [start, cur) handed out in this window */
    char *touched;           /* pages up to here may hold memory (given back past KEEP) */
    size_t high_water;
    unsigned depth; /* open windows */
    unsigned slot;
    bool overflow; /* an allocation of this window came from the heap */
} tsarena;

static char *tsarena__region;
static pthread_once_t tsarena__once = PTHREAD_ONCE_INIT;
static pthread_mutex_t tsarena__lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t tsarena__key;
static bool tsarena__slot_used[SLOTS];
static _Thread_local tsarena *tsarena__tl;

static bool tsarena__mine(const void *p)
{
    return tsarena__region && (uintptr_t)p - (uintptr_t)tsarena__region < (uintptr_t)SLOT * SLOTS;
}

/* As tree-sitter's default allocator: no memory is an abort (the runtime does not check for NULL;
 * the library prints nothing of its own, so no message). */
static void *tsarena__heap(void *p)
{
    if (!p)
        abort();
    return p;
}

static void *tsarena__take(tsarena *a, size_t n)
{
    size_t need = ((n + 15) & ~(size_t)15) + HDR;
    if (need < n || (size_t)(a->end - a->cur) < need) {
        a->overflow = true;
        return NULL;
    }
    char *b = a->cur;
    a->cur += need;
    TSARENA_UNPOISON(b, need);
    *(size_t *)b = n;
    TSARENA_POISON(b, HDR);
    return b + HDR;
}

TSARENA_NO_ASAN static size_t tsarena__size(const void *p)
{
    return *(const size_t *)((const char *)p - HDR);
}

static void *tsarena__malloc(size_t n)
{
    tsarena *a = tsarena__tl;
    void *p;
    if (a && a->depth && (p = tsarena__take(a, n)))
        return p;
    return tsarena__heap(malloc(n ? n : 1));
}

static void *tsarena__calloc(size_t k, size_t n)
{
    tsarena *a = tsarena__tl;
    if (a && a->depth && (!n || k <= SIZE_MAX / n)) {
        void *p = tsarena__take(a, k * n);
        if (p)
            return memset(p, 0, k * n);
    }
    return tsarena__heap(calloc(k ? k : 1, n ? n : 1));
}

static void *tsarena__realloc(void *p, size_t n)
{
    if (!p)
        return tsarena__malloc(n);
    if (!tsarena__mine(p))
        return tsarena__heap(realloc(p, n ? n : 1));
    size_t old = tsarena__size(p);
    if (n <= old)
        return p;
    tsarena *a = tsarena__tl;
    char *b = (char *)p - HDR;
    size_t need = ((n + 15) & ~(size_t)15) + HDR;
    if (a && a->depth && b + (((old + 15) & ~(size_t)15) + HDR) == a->cur && need >= n &&
        (size_t)(a->end - b) >= need) {
        /* the last block grows in place */
        a->cur = b + need;
        TSARENA_UNPOISON(b, need);
        *(size_t *)b = n;
        TSARENA_POISON(b, HDR);
        return p;
    }
    void *q = tsarena__malloc(n);
    memcpy(q, p, old);
    return q;
}

static void tsarena__free(void *p)
{
    if (p && !tsarena__mine(p))
        free(p);
}

void sg_tsarena_install(void)
{
    ts_set_allocator(tsarena__malloc, tsarena__calloc, tsarena__realloc, tsarena__free);
}

/* Installed before main (or when the library is loaded): outside a window these are malloc's. */
__attribute__((constructor)) static void tsarena__install(void)
{
    sg_tsarena_install();
}

static void tsarena__release(void *arg)
{
    tsarena *a = arg;
    if (a->touched > a->start)
        madvise(a->start, (size_t)(a->touched - a->start), MADV_DONTNEED);
    pthread_mutex_lock(&tsarena__lock);
    tsarena__slot_used[a->slot] = false;
    pthread_mutex_unlock(&tsarena__lock);
    free(a);
}

static void tsarena__reserve(void)
{
    void *r = mmap(NULL, SLOT * SLOTS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
        return;
    if (pthread_key_create(&tsarena__key, tsarena__release)) {
        munmap(r, SLOT * SLOTS);
        return;
    }
    /* not poisoned here: that would write the shadow of the whole reservation (4 GiB); a window
     * poisons what it handed out when it ends */
    tsarena__region = r;
}

static tsarena *tsarena__acquire(void)
{
    pthread_once(&tsarena__once, tsarena__reserve);
    if (!tsarena__region)
        return NULL;
    tsarena *a = calloc(1, sizeof *a);
    if (!a || pthread_setspecific(tsarena__key, a)) { /* the key first: a slot taken is never given back */
        free(a);
        return NULL;
    }
    pthread_mutex_lock(&tsarena__lock);
    unsigned s = 0;
    while (s < SLOTS && tsarena__slot_used[s])
        s++;
    if (s < SLOTS)
        tsarena__slot_used[s] = true;
    pthread_mutex_unlock(&tsarena__lock);
    if (s == SLOTS) {
        pthread_setspecific(tsarena__key, NULL); /* no release at the thread's end */
        free(a);
        return NULL;
    }
    a->slot = s;
    a->start = a->cur = a->touched = tsarena__region + (size_t)s * SLOT;
    a->end = a->start + SLOT;
    return a;
}

bool sg_tsarena_begin(void)
{
    if (ts_current_malloc != tsarena__malloc || ts_current_free != tsarena__free)
        return false; /* another allocator was installed after ours */
    tsarena *a = tsarena__tl;
    if (!a && !(a = tsarena__tl = tsarena__acquire()))
        return false;
    if (a->depth++ == 0)
        a->overflow = false;
    return true;
}

bool sg_tsarena_clean(void)
{
    tsarena *a = tsarena__tl;
    return a && a->depth && !a->overflow;
}

void sg_tsarena_end(bool began)
{
    tsarena *a = tsarena__tl;
    if (!began || !a || !a->depth || --a->depth)
        return;
    size_t used = (size_t)(a->cur - a->start);
    if (used > a->high_water)
        a->high_water = used;
    if (a->cur > a->touched)
        a->touched = a->cur;
    TSARENA_POISON(a->start, used);
    a->cur = a->start;
    if ((size_t)(a->touched - a->start) > KEEP) {
        madvise(a->start + KEEP, (size_t)(a->touched - a->start) - KEEP, MADV_DONTNEED);
        a->touched = a->start + KEEP;
    }
}

unsigned sg_tsarena_suspend(void)
{
    tsarena *a = tsarena__tl;
    if (!a)
        return 0;
    unsigned saved = a->depth; /* at depth 0 every allocation goes to the heap */
    a->depth = 0;
    return saved;
}

void sg_tsarena_resume(unsigned saved)
{
    tsarena *a = tsarena__tl;
    if (a)
        a->depth = saved;
}

bool sg_tsarena_limit(size_t bytes)
{
    tsarena *a = tsarena__tl;
    if (!a || a->depth)
        return false;
    a->end = a->start + (bytes && bytes < SLOT ? bytes : SLOT);
    return true;
}

size_t sg_tsarena_high_water(void)
{
    tsarena *a = tsarena__tl;
    return a ? a->high_water : 0;
}
