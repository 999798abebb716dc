/*
 * cat/exec.h: a candidate execution as a memory model sees it.
 *
 * Contract: the execution enumerator fills one `exec` per candidate; the cat
 * interpreter reads it.  Models refer to base sets and relations by name;
 * exec_find_set/exec_find_rel map a name to its index once, when a model is
 * loaded, so evaluation never compares strings.  Neither side knows how the
 * other works: the enumerator knows nothing of cat, the interpreter nothing
 * of litmus programs.
 */
#ifndef SCOPECHECK_CAT_EXEC_H
#define SCOPECHECK_CAT_EXEC_H

#include "cat/relation.h"

/* Base sets.  Keep in step with the name table in exec.c. */
enum exec_set {
    XS_R,       /* reads (including the read half of an RMW) */
    XS_W,       /* writes (including initial writes) */
    XS_M,       /* R | W */
    XS_F,       /* fences (fence.sc, fence.acq_rel, fence.proxy.*) */
    XS_B,       /* barrier events (bar.cta.sync, bar.cta.arrive) */
    XS_IW,      /* initial writes: one per location, in no thread */
    XS_RMW_EV,  /* events that belong to an atom/red or an atomic RMW (name "RMW") */
    XS_WEAK,    /* accesses without order (ld, ld.weak, st.weak) */
    XS_RLX,     /* relaxed */
    XS_ACQ,     /* acquire (reads of ld.acquire, atom.acquire/acq_rel) */
    XS_REL,     /* release (writes of st.release, atom.release/acq_rel) */
    XS_ACQ_REL, /* fence.acq_rel */
    XS_SC,      /* fence.sc */
    XS_CTA,     /* scope cta */
    XS_GPU,     /* scope gpu */
    XS_SYS,     /* scope sys */
    XS_GEN,     /* generic-proxy accesses */
    XS_SUR,     /* surface-proxy accesses (sust, suld) and fence.proxy.surface */
    XS_TEX,     /* texture-proxy accesses (tld) and fence.proxy.texture */
    XS_CON,     /* constant-proxy accesses (cold) and fence.proxy.constant */
    XS_PROXY,   /* proxy fences: fence.proxy.* */
    XS_ALIAS,   /* fence.proxy.alias */
    XS_BSYNC,   /* barrier events that wait (bar.cta.sync) */
    XS_ATOMIC,  /* atomic accesses: every access that is not WEAK (name "A") */
    XS_NA,      /* non-atomic accesses (OpenCL plain loads and stores; PTX weak) */
    XS_WI,      /* scope work_item (OpenCL memory_scope_work_item) */
    XS_GLOBAL,  /* accesses to global memory; fences/barriers with the global flag */
    XS_LOCAL,   /* accesses to local memory; fences/barriers with the local flag */
    XS_REMOTE,  /* remote-scope-promotion accesses (..._remote) */
    XS_NAL,     /* accesses and initial writes of a location declared with no
                 * atomic type (OpenCL `int`; every PTX location) */
    XS_SCF,     /* the implicit fence just po-before each seq_cst access (an
                 * OpenCL one): the fence.sc of CUDA's mapping of seq_cst
                 * onto PTX.  In no other set (not F), with the access's
                 * scope; models that do not name it never see it. */
    XS_COUNT
};

/* Base relations.  Keep in step with the name table in exec.c. */
enum exec_rel {
    XR_PO,      /* program order (strict, within a thread) */
    XR_RF,      /* reads-from: write -> read */
    XR_CO,      /* coherence order: closed transitively, initial write first */
    XR_FR,      /* from-read: rf^-1;co */
    XR_RMW,     /* read -> write of one atom/red */
    XR_LOC,     /* same (physical) location, on memory accesses */
    XR_VLOC,    /* same virtual address, on memory accesses */
    XR_INT,     /* same thread (initial writes are in no thread) */
    XR_EXT,     /* different threads */
    XR_SR,      /* both scoped, each thread inside the other's scope instance */
    XR_SCTA,    /* both in the same CTA */
    XR_SGPU,    /* both in the same GPU */
    XR_SYNCBAR, /* barrier synchronisation: arrival -> sync that departs after it */
    XR_ADDR,    /* address dependency: read -> access */
    XR_DATA,    /* data dependency: read -> write */
    XR_CTRL,    /* control dependency: read -> later event */
    XR_PO_LOC,  /* po & loc (herd's po-loc) */
    XR_COUNT
};

/* The execution's storage holds up to `cap` events (exec_init); n, the
 * events of the candidate now, may change from one candidate to the next
 * within it.  Each base set is rel_words(n) words (exec_set), each base
 * relation n rows of that many words (relation.h). */
typedef struct exec {
    int n;            /* number of events, <= cap */
    int cap;
    evword *sets;     /* XS_COUNT sets, one after the other */
    relation *rel[XR_COUNT];
} exec;

/* Storage for up to `cap` events (at most REL_MAX_EVENTS), from the
 * collector; n is set to 0 and everything cleared. */
void exec_init(exec *x, int cap);

static inline evword *exec_set(const exec *x, int set)
{
    return x->sets + (size_t)set * (size_t)rel_words(x->n);
}

/* Name lookup for models: index, or -1 when unknown. */
int exec_find_set(const char *name);
int exec_find_rel(const char *name);
const char *exec_set_name(int index);
const char *exec_rel_name(int index);

#endif
