/*
 * draw/msc_draw.h: a message-sequence chart (protocol/msc.h) drawn through
 * graphviz.
 *
 * Contract.  msc_draw lays the chart out with every position fixed
 * (neato with pinned nodes): lifelines are columns, headed by a box with
 * the thread's or controller instance's name (threads shaded green,
 * controllers blue) and drawn as dashed vertical lines; time runs down,
 * one row per step.  Calls are blue arrows, values handed back green
 * dashed arrows, messages black arrows from the sending row to the taking
 * row, messages still in flight at the end red dotted arrows; each label
 * sits just above its arrow, notes in grey beside their lifeline.  Every
 * arrow, label and note carries its step's full text and table row as a
 * tooltip (SVG).  The title is the first line.  Writes `format` ("svg",
 * "png", "dot") to `path` whole or not at all (base/output_file.h): 0, or 2
 * with a message.
 *
 * msc_svgs_marked renders n charts, chart i of a trace of nsteps[i] steps
 * with title titles[i], as SVG text for a report page
 * (draw/report_page.h), all through one graphviz context: every arrow and
 * note is an SVG element of class "sK" for each step K it belongs to (an
 * arrow: the step that sent it and the one that took it), each step's first
 * row has its number at the left, an element of id "msc-stepK", and nothing
 * carries a tooltip (the page shows the step's text beside the chart).
 * Returns n GC strings (graphviz's whole SVG document, prologue included),
 * each NULL, with a message on `err`, where a chart (or charts[i] NULL)
 * could not be drawn.
 */
#ifndef SCOPECHECK_DRAW_MSC_DRAW_H
#define SCOPECHECK_DRAW_MSC_DRAW_H

#include <stdio.h>

#include "protocol/msc.h"

int msc_draw(const msc_chart *c, const char *title, const char *format, const char *path, FILE *err);
char **msc_svgs_marked(const msc_chart *const *charts, const char *const *titles, const int *nsteps, int n,
                       FILE *err);

#endif
