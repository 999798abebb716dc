/*
 * draw/report_assets.h: the fixed text of the report page
 * (draw/report_page.h): its style sheet, the markup of its step panel and
 * its script.  Plain data, written here, so that the page needs no other
 * file and no network.
 *
 * Contract.  report_page_body is the markup between the page's header
 * (left open: it begins by closing it) and the charts' section (it leaves
 * <main> open).  report_page_js expects the blob
 * (#report-data) and one div #mscV per trace, and renders into the
 * elements of report_page_body.
 */
#ifndef SCOPECHECK_DRAW_REPORT_ASSETS_H
#define SCOPECHECK_DRAW_REPORT_ASSETS_H

extern const char report_page_css[];
extern const char report_page_body[];
extern const char report_page_js[];
/* The executions' page (`litmus --report`): one .exec div and one
 * #executions button per picture. */
extern const char report_litmus_js[];

#endif
