/*
 * enumerate/event_name.h: the name herd gives event i of an execution in
 * its pictures and scopecheck in its drawings and witnesses: a, b, ..., z,
 * aa, ab, ..., zz, aaa, ... (letters counting in bijective base 26).
 *
 * Contract.  enum_event_name() writes the name of event i (0 <= i <
 * REL_MAX_EVENTS) into `out`, which has room for ENUM_EVENT_NAME_SIZE
 * bytes, and returns out; a negative i gives "?".
 */
#ifndef SCOPECHECK_ENUMERATE_EVENT_NAME_H
#define SCOPECHECK_ENUMERATE_EVENT_NAME_H

/* Three letters name 18278 events, more than REL_MAX_EVENTS; one more
 * letter and the NUL leave room for any int. */
#define ENUM_EVENT_NAME_SIZE 8

char *enum_event_name(int i, char out[ENUM_EVENT_NAME_SIZE]);

#endif
