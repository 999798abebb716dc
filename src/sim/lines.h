/*
 * sim/lines.h: the lines one kind of controller holds, across its
 * instances: a hash table from (instance, line address) to a record of
 * slots (the line's state and fields).
 *
 * Contract.  Only lines that differ from their initial contents are
 * stored; the simulator removes a line that returns to them, so the table
 * grows with the footprint of a workload, never with simulated time.  Each
 * record also links the instance's lines in a list (for invalidate_all)
 * and keeps the frame it occupies in a cache (-1: none).  The arrays grow
 * by doubling (lines_add returns -1 when memory runs out); removal frees a
 * record for reuse.  Record indices stay valid until the record is
 * removed; slot pointers until the next lines_add.
 */
#ifndef SCOPECHECK_SIM_LINES_H
#define SCOPECHECK_SIM_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_MAX_LINE_ADDR ((uint64_t)1 << 44)

typedef struct sim_lines {
    int slots_per_line, ninst;
    /* hash: open addressing, linear probing; index[i] < 0 is free */
    uint64_t *keys;
    int32_t *index;
    size_t cap, count;
    /* records */
    int64_t *slots;
    uint64_t *rec_key;
    int32_t *prev, *next, *frame;
    int32_t free_head;
    size_t nrec, rec_cap;
    int32_t *inst_head;
} sim_lines;

bool lines_init(sim_lines *l, int slots_per_line, int ninst);
void lines_free(sim_lines *l);
int32_t lines_find(const sim_lines *l, int inst, uint64_t addr);
int32_t lines_add(sim_lines *l, int inst, uint64_t addr, const int64_t *slots);
void lines_remove(sim_lines *l, int32_t rec);
static inline int64_t *lines_slots(const sim_lines *l, int32_t rec)
{
    return &l->slots[(size_t)rec * (size_t)l->slots_per_line];
}
static inline uint64_t lines_addr(const sim_lines *l, int32_t rec) { return l->rec_key[rec] & (SIM_MAX_LINE_ADDR - 1); }
static inline int lines_inst(const sim_lines *l, int32_t rec) { return (int)(l->rec_key[rec] >> 44); }

#endif
