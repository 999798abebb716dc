/*
 * protocol/msc.h: a protocol trace as a message-sequence chart, as data
 * (the drawing is cli/msc_draw.c's).
 *
 * Contract.  msc_build turns the descriptions of a trace's steps
 * (protocol/step.h, in order) into a chart: one lifeline per thread and
 * controller instance that takes part, ordered by place (each GPU's CUs
 * in turn, a CU's threads before its controllers, then per-GPU
 * controllers, then slices and system-wide ones); rows of time, one per
 * step, plus one after a step that hands a value back to a thread; and
 * arrows:
 *  - MSC_CALL: a thread issues its instruction to its processor
 *    controller (label: the instruction as written);
 *  - MSC_RETURN: a controller hands the thread its value or completes its
 *    instruction ("r2 = 0", "done");
 *  - MSC_MESSAGE: from the step that sent a message to the step that took
 *    it (label: the message), matched per channel instance in order of
 *    sending (the oldest message of equal content first, so an unordered
 *    channel's delivery is matched to a send of that message);
 *  - MSC_IN_FLIGHT: a message still in its channel at the end of the
 *    trace, drawn to its receiver's lifeline at the last row.
 * Notes are short texts on one lifeline at one row: a line's state change
 * ("[x] I -> V"), what invalidate_all dropped, an internal event
 * ("evict [x]"), a barrier arrival.  Every arrow and note keeps the full
 * text of its step and the row that fired, for tooltips.  Memory from
 * Boehm GC.
 */
#ifndef SCOPECHECK_PROTOCOL_MSC_H
#define SCOPECHECK_PROTOCOL_MSC_H

#include "protocol/step.h"

typedef enum msc_arrow_kind { MSC_CALL, MSC_RETURN, MSC_MESSAGE, MSC_IN_FLIGHT } msc_arrow_kind;

typedef struct msc_arrow {
    msc_arrow_kind kind;
    int from, to;             /* lifelines */
    int row_from, row_to;     /* rows: where it leaves and where it arrives */
    int step_from, step_to;   /* the steps (1-based; step_to -1: never taken) */
    const char *label;        /* "ld.acquire.gpu r1, y", "Load(x)", "r1 = 1" */
    const char *detail;       /* the step's full text and its row, for a tooltip */
} msc_arrow;

typedef struct msc_note {
    int lifeline, row, step;
    const char *text;
    const char *detail;
} msc_note;

typedef struct msc_chart {
    int nlifelines;
    proto_agent *lifelines;
    int nrows;                /* rows 1..nrows are used */
    int narrows;
    msc_arrow *arrows;
    int nnotes;
    msc_note *notes;
} msc_chart;

msc_chart *msc_build(const proto_instance *in, const proto_step_desc *steps, int nsteps);

#endif
