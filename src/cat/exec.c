/* cat/exec.c: names of the base sets and relations that models may use. */
#include "cat/exec.h"

#include <gc.h>
#include <string.h>

static const char *const set_names[XS_COUNT] = {
    [XS_R] = "R",         [XS_W] = "W",       [XS_M] = "M",
    [XS_F] = "F",         [XS_B] = "B",       [XS_IW] = "IW",
    [XS_RMW_EV] = "RMW",  [XS_WEAK] = "WEAK", [XS_RLX] = "RLX",
    [XS_ACQ] = "ACQ",     [XS_REL] = "REL",   [XS_ACQ_REL] = "ACQ_REL",
    [XS_SC] = "SC",       [XS_CTA] = "CTA",   [XS_GPU] = "GPU",
    [XS_SYS] = "SYS",     [XS_GEN] = "GEN",   [XS_SUR] = "SUR",
    [XS_TEX] = "TEX",     [XS_CON] = "CON",   [XS_PROXY] = "PROXY",
    [XS_ALIAS] = "ALIAS", [XS_BSYNC] = "BSYNC", [XS_ATOMIC] = "A",
    [XS_NA] = "NA",       [XS_WI] = "WI",     [XS_GLOBAL] = "GLOBAL",
    [XS_LOCAL] = "LOCAL", [XS_REMOTE] = "REMOTE", [XS_NAL] = "NAL", [XS_SCF] = "SCF",
};

static const char *const rel_names[XR_COUNT] = {
    [XR_PO] = "po",           [XR_RF] = "rf",     [XR_CO] = "co",
    [XR_FR] = "fr",           [XR_RMW] = "rmw",   [XR_LOC] = "loc",
    [XR_VLOC] = "vloc",       [XR_INT] = "int",   [XR_EXT] = "ext",
    [XR_SR] = "sr",           [XR_SCTA] = "scta", [XR_SGPU] = "sgpu",
    [XR_SYNCBAR] = "syncbar", [XR_ADDR] = "addr", [XR_DATA] = "data",
    [XR_CTRL] = "ctrl",       [XR_PO_LOC] = "po-loc",
};

static int find(const char *const *names, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

int exec_find_set(const char *name) { return find(set_names, XS_COUNT, name); }
int exec_find_rel(const char *name) { return find(rel_names, XR_COUNT, name); }

const char *exec_set_name(int index)
{
    return index >= 0 && index < XS_COUNT ? set_names[index] : "?";
}

const char *exec_rel_name(int index)
{
    return index >= 0 && index < XR_COUNT ? rel_names[index] : "?";
}

void exec_init(exec *x, int cap)
{
    memset(x, 0, sizeof *x);
    x->cap = cap;
    size_t set_bytes = sizeof(evword) * (size_t)XS_COUNT * (size_t)(rel_words(cap) ? rel_words(cap) : 1);
    size_t rel = (rel_bytes(cap) + 15) & ~(size_t)15;
    char *block = GC_MALLOC_ATOMIC(set_bytes + rel * XR_COUNT);
    memset(block, 0, set_bytes + rel * XR_COUNT);
    x->sets = (evword *)block;
    for (int i = 0; i < XR_COUNT; i++)
        x->rel[i] = (relation *)(block + set_bytes + rel * (size_t)i);
}
