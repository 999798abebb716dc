/* sim/config.c: system files (see sim/config.h; format in docs/simulator.md). */
#include "sim/config.h"

#include <gc.h>
#include <stddef.h>
#include <string.h>

#include "base/diag.h"

const char *const sim_role_names[ROLE_COUNT] = {"l1", "l2", "mem"};
const char *const sim_link_names[LINK_COUNT] = {"local", "gpm", "gpu"};
const char *const sim_energy_names[EN_COUNT] = {"compute", "l1_read", "l1_write", "l2_read", "l2_write",
                                                "mem_read", "mem_write", "dram", "link_local", "link_gpm",
                                                "link_gpu"};

typedef struct cparse {
    sim_system *s;
    const char *file;
    FILE *errors;
} cparse;

static bool bad(cparse *p, const sim_word *w, const char *msg)
{
    diag_error(p->errors, p->file, w->line, w->col, "%s", msg);
    return false;
}

static bool int_arg(cparse *p, const sim_line *l, int i, long lo, long hi, long *out)
{
    if (i >= l->nwords)
        return bad(p, &l->words[l->nwords - 1], "a number is missing after this");
    return words_int(p->file, &l->words[i], lo, hi, out, p->errors);
}

static bool set_int(cparse *p, const sim_line *l, long lo, long hi, int *out)
{
    long v;
    if (l->nwords != 2)
        return bad(p, &l->words[0], l->nwords < 2 ? "a value is missing" : "one value expected");
    if (!words_int(p->file, &l->words[1], lo, hi, &v, p->errors))
        return false;
    *out = (int)v;
    return true;
}

/* cache [total] SIZE ASSOC lru|fifo|random, from word i. */
static bool cache_words(cparse *p, const sim_line *l, int i, sim_cache_conf *c)
{
    static const char *const repls[] = {"lru", "fifo", "random"};
    long v;
    c->present = true;
    c->total = i < l->nwords && !strcmp(l->words[i].text, "total");
    i += c->total;
    if (!int_arg(p, l, i, 64, 1L << 40, &v))
        return false;
    c->size = v;
    if (!int_arg(p, l, i + 1, 1, SIM_MAX_ASSOC, &v))
        return false;
    c->assoc = (int)v;
    if (i + 2 >= l->nwords)
        return bad(p, &l->words[l->nwords - 1], "a replacement policy (lru, fifo or random) is missing");
    for (int k = 0; k < 3; k++)
        if (!strcmp(l->words[i + 2].text, repls[k])) {
            c->repl = (enum sim_repl)k;
            return i + 3 == l->nwords || bad(p, &l->words[i + 3], "nothing may follow the replacement policy");
        }
    return bad(p, &l->words[i + 2], "the replacement policy is lru, fifo or random");
}

/* ROLE|controller NAME: latency N | rate N | cache ... | none */
static bool ctl_words(cparse *p, const sim_line *l, int i, sim_ctl_conf *c)
{
    long v;
    c->set = true;
    while (i < l->nwords) {
        const sim_word *w = &l->words[i];
        if (!strcmp(w->text, "latency") || !strcmp(w->text, "rate") || !strcmp(w->text, "fill")) {
            if (!int_arg(p, l, i + 1, w->text[0] == 'r' ? 1 : 0, 1 << 20, &v))
                return false;
            *(w->text[0] == 'l' ? &c->latency : w->text[0] == 'r' ? &c->rate : &c->fill) = (int)v;
            i += 2;
        } else if (!strcmp(w->text, "cache")) {
            return cache_words(p, l, i + 1, &c->cache);
        } else if (!strcmp(w->text, "nocache")) {
            c->cache.present = false;
            i++;
        } else {
            return bad(p, w, "expected latency N, fill N, rate N, cache [total] SIZE ASSOC POLICY or nocache");
        }
    }
    return true;
}

static bool named_ctl(cparse *p, const sim_line *l)
{
    sim_system *s = p->s;
    if (l->nwords < 2)
        return bad(p, &l->words[0], "a controller name is missing");
    int k = 0;
    while (k < s->nnamed && strcmp(s->named[k], l->words[1].text))
        k++;
    if (k == SIM_MAX_NAMED)
        return bad(p, &l->words[1], "too many named controllers");
    if (k == s->nnamed) {
        s->named[s->nnamed] = l->words[1].text;
        s->named_conf[s->nnamed++] = (sim_ctl_conf){.latency = 1, .fill = -1, .rate = 1};
    }
    return ctl_words(p, l, 2, &s->named_conf[k]);
}

static bool link_line(cparse *p, const sim_line *l)
{
    long lat;
    double bw;
    for (int k = 0; k < LINK_COUNT; k++)
        if (l->nwords > 1 && !strcmp(l->words[1].text, sim_link_names[k])) {
            if (l->nwords != 6 || strcmp(l->words[2].text, "latency") || strcmp(l->words[4].text, "bandwidth"))
                return bad(p, &l->words[0], "expected: link local|gpm|gpu latency CYCLES bandwidth BYTES_PER_CYCLE");
            if (!words_int(p->file, &l->words[3], 0, 1 << 24, &lat, p->errors) ||
                !words_real(p->file, &l->words[5], 0.001, 1e9, &bw, p->errors))
                return false;
            p->s->link[k] = (sim_link_conf){(int)lat, bw};
            return true;
        }
    return bad(p, &l->words[l->nwords > 1], "the link classes are local, gpm and gpu");
}

static bool dram_line(cparse *p, const sim_line *l)
{
    long lat;
    if (l->nwords != 5 || strcmp(l->words[1].text, "latency") || strcmp(l->words[3].text, "bandwidth"))
        return bad(p, &l->words[0], "expected: dram latency CYCLES bandwidth BYTES_PER_CYCLE");
    if (!words_int(p->file, &l->words[2], 0, 1 << 24, &lat, p->errors) ||
        !words_real(p->file, &l->words[4], 0.001, 1e9, &p->s->dram_bandwidth, p->errors))
        return false;
    p->s->dram_latency = (int)lat;
    return true;
}

static bool channel_line(cparse *p, const sim_line *l)
{
    long lat;
    double bw;
    sim_system *s = p->s;
    if (l->nwords != 6 || strcmp(l->words[2].text, "latency") || strcmp(l->words[4].text, "bandwidth"))
        return bad(p, &l->words[0], "expected: channel NAME latency CYCLES bandwidth BYTES_PER_CYCLE");
    if (!words_int(p->file, &l->words[3], 0, 1 << 24, &lat, p->errors) ||
        !words_real(p->file, &l->words[5], 0.001, 1e9, &bw, p->errors))
        return false;
    int k = 0;
    while (k < s->nchan_links && strcmp(s->chan_name[k], l->words[1].text))
        k++;
    if (k == SIM_MAX_NAMED)
        return bad(p, &l->words[1], "too many channel settings");
    s->chan_name[k] = l->words[1].text;
    s->chan_link[k] = (sim_link_conf){(int)lat, bw};
    s->nchan_links += k == s->nchan_links;
    return true;
}

static bool message_line(cparse *p, const sim_line *l)
{
    long v;
    sim_system *s = p->s;
    if (l->nwords != 4 || strcmp(l->words[2].text, "bytes"))
        return bad(p, &l->words[0], "expected: message NAME bytes N");
    if (!words_int(p->file, &l->words[3], 1, 1 << 20, &v, p->errors))
        return false;
    int k = 0;
    while (k < s->nmsg_bytes && strcmp(s->msg_name[k], l->words[1].text))
        k++;
    if (k == SIM_MAX_NAMED)
        return bad(p, &l->words[1], "too many message sizes");
    s->msg_name[k] = l->words[1].text;
    s->msg_bytes[k] = (int)v;
    s->nmsg_bytes += k == s->nmsg_bytes;
    return true;
}

/* const NAME VALUE: the value this system needs of a constant of the
 * tables (stc8.sys: NSLICE 4, its L2's banks); checked before a run. */
static bool const_line(cparse *p, const sim_line *l)
{
    long v;
    sim_system *s = p->s;
    if (l->nwords != 3)
        return bad(p, &l->words[0], "expected: const NAME VALUE");
    if (!words_int(p->file, &l->words[2], -(1L << 40), 1L << 40, &v, p->errors))
        return false;
    int k = 0;
    while (k < s->nconsts && strcmp(s->const_name[k], l->words[1].text))
        k++;
    if (k == SIM_MAX_NAMED)
        return bad(p, &l->words[1], "too many constants");
    s->const_name[k] = l->words[1].text;
    s->const_value[k] = v;
    s->nconsts += k == s->nconsts;
    return true;
}

static bool energy_line(cparse *p, const sim_line *l)
{
    if (l->nwords != 3)
        return bad(p, &l->words[0], "expected: energy EVENT PICOJOULES");
    for (int k = 0; k < EN_COUNT; k++)
        if (!strcmp(l->words[1].text, sim_energy_names[k]))
            return words_real(p->file, &l->words[2], 0, 1e9, &p->s->energy[k], p->errors);
    return bad(p, &l->words[1], "unknown energy event (compute, l1_read, l1_write, l2_read, l2_write, mem_read, "
                                "mem_write, dram, link_local, link_gpm, link_gpu)");
}

static bool gpu_level_line(cparse *p, const sim_line *l)
{
    if (l->nwords != 2 || (strcmp(l->words[1].text, "gpu") && strcmp(l->words[1].text, "gpm")))
        return bad(p, &l->words[l->nwords > 1], "expected: table_gpu gpu|gpm");
    p->s->table_gpu_is_gpm = !strcmp(l->words[1].text, "gpm");
    return true;
}

typedef struct int_key { const char *key; size_t off; long lo, hi; } int_key;

#define OFF(f) offsetof(sim_system, f)
static const int_key int_keys[] = {
    {"gpus", OFF(gpus), 1, 64},
    {"gpms_per_gpu", OFF(gpms_per_gpu), 1, 64},
    {"cus_per_gpm", OFF(cus_per_gpm), 1, 4096},
    {"warps_per_cu", OFF(warps_per_cu), 1, 256},
    {"slots_per_warp", OFF(slots_per_warp), 1, 64},
    {"maxops", OFF(maxops), 1, 1 << 20},
    {"channel_capacity", OFF(channel_capacity), 1, 1 << 16},
    {"line_bytes", OFF(line_bytes), 4, 1 << 16},
    {"header_bytes", OFF(header_bytes), 1, 1 << 10},
    {"kernel_launch", OFF(kernel_launch), 0, 1 << 24},
    {"issue_interval", OFF(issue_interval), 1, 1 << 16},
};

static bool one_line(cparse *p, const sim_line *l)
{
    const char *key = l->words[0].text;
    for (size_t k = 0; k < sizeof int_keys / sizeof *int_keys; k++)
        if (!strcmp(key, int_keys[k].key))
            return set_int(p, l, int_keys[k].lo, int_keys[k].hi, (int *)((char *)p->s + int_keys[k].off));
    for (int r = 0; r < ROLE_COUNT; r++)
        if (!strcmp(key, sim_role_names[r]))
            return ctl_words(p, l, 1, &p->s->role[r]);
    if (!strcmp(key, "system")) {
        if (l->nwords != 2)
            return bad(p, &l->words[0], "expected: system NAME");
        p->s->name = l->words[1].text;
        return true;
    }
    if (!strcmp(key, "clock_ghz"))
        return l->nwords == 2 ? words_real(p->file, &l->words[1], 0.001, 100, &p->s->clock_ghz, p->errors)
                              : bad(p, &l->words[0], "expected: clock_ghz GHZ");
    if (!strcmp(key, "table_gpu"))
        return gpu_level_line(p, l);
    if (!strcmp(key, "controller"))
        return named_ctl(p, l);
    if (!strcmp(key, "link"))
        return link_line(p, l);
    if (!strcmp(key, "dram"))
        return dram_line(p, l);
    if (!strcmp(key, "message"))
        return message_line(p, l);
    if (!strcmp(key, "channel"))
        return channel_line(p, l);
    if (!strcmp(key, "energy"))
        return energy_line(p, l);
    if (!strcmp(key, "const"))
        return const_line(p, l);
    return bad(p, &l->words[0], "unknown setting (docs/simulator.md lists them)");
}

static void defaults(sim_system *s)
{
    *s = (sim_system){.name = "unnamed", .clock_ghz = 1.0, .gpus = 1, .gpms_per_gpu = 1, .cus_per_gpm = 4,
                      .warps_per_cu = 4, .slots_per_warp = 4, .maxops = 64, .channel_capacity = 64,
                      .line_bytes = 128, .header_bytes = 8, .kernel_launch = 0, .issue_interval = 1,
                      .dram_latency = 100, .dram_bandwidth = 32};
    for (int r = 0; r < ROLE_COUNT; r++)
        s->role[r] = (sim_ctl_conf){.latency = 1, .fill = -1, .rate = 1};
    for (int k = 0; k < LINK_COUNT; k++)
        s->link[k] = (sim_link_conf){1, 64};
}

static bool parse_text(cparse *p, const sim_text *t)
{
    p->file = t->file;
    for (int i = 0; i < t->nlines; i++)
        if (!one_line(p, &t->lines[i]))
            return false;
    return true;
}

sim_system *sys_config_read(const char *path, const char *const *extra, int nextra, FILE *errors)
{
    sim_system *s = GC_MALLOC(sizeof *s);
    defaults(s);
    s->path = path;
    cparse p = {s, path, errors};
    sim_text *t = words_read(path, errors);
    if (!t || !parse_text(&p, t))
        return NULL;
    for (int i = 0; i < nextra; i++) {
        sim_text *x = words_text("--sys", extra[i]);
        if (x->overflow) {
            p.file = x->file;
            bad(&p, x->overflow, "too many words on a line");
            return NULL;
        }
        if (!parse_text(&p, x))
            return NULL;
    }
    return s;
}
