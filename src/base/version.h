/*
 * base/version.h: the version of scopecheck and scopesim, one number for
 * both programs (exported tables record the version that verified them).
 */
#ifndef SCOPECHECK_BASE_VERSION_H
#define SCOPECHECK_BASE_VERSION_H

#define SCOPECHECK_VERSION "0.1.0"

#endif
