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
 */
#ifndef SCOPECHECK_DRAW_MSC_DRAW_H
#define SCOPECHECK_DRAW_MSC_DRAW_H

#include <stdio.h>

#include "protocol/msc.h"

int msc_draw(const msc_chart *c, const char *title, const char *format, const char *path, FILE *err);

#endif
