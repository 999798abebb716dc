/* litmus/opencl/parser.c: the helpers every module of the OpenCL front end uses on the
 * shared parser state (contract in internal.h). */
#include <gc.h>
#include <string.h>

#include "litmus/lex.h"
#include "litmus/opencl/internal.h"

void ocl_expected(oparser *p, const char *what)
{
    lex_expected(LX, what);
}

bool ocl_expect_punct(oparser *p, const char *punct, const char *what)
{
    if (!lex_is_punct(&TOK, punct)) {
        ocl_expected(p, what);
        return false;
    }
    lex_advance(LX);
    return true;
}

/* The depth bounds the recursion of the parser and of the compiler, which a
 * hostile input could otherwise drive into a stack overflow. */
bool ocl_enter(oparser *p, int line, int col, const char *what)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, line, col, "%s nested too deeply", what);
        return false;
    }
    return true;
}

bool ocl_grow(void **v, int n, int *cap, size_t elem)
{
    if (n < *cap)
        return true;
    int nc = *cap ? 2 * *cap : 16;
    void *nv = GC_MALLOC(elem * (size_t)nc);
    if (!nv)
        return false;
    if (n)
        memcpy(nv, *v, elem * (size_t)n);
    *v = nv;
    *cap = nc;
    return true;
}

/* The arrays this serves (init items, placements, parameters, variables)
 * stay small, so they keep no spare room: each append copies. */
void *ocl_append(void *arr, int n, size_t elem)
{
    int cap = n;
    return ocl_grow(&arr, n, &cap, elem) ? arr : NULL;
}
