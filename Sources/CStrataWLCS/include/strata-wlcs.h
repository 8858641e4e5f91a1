/* The C side of Strata's WLCS integration: the structs WLCS reads (wlcs/display_server.h,
   wlcs/pointer.h, wlcs/touch.h) live in strata-wlcs.c; their function pointers forward to Swift
   functions (@_cdecl in Sources/StrataWLCS) that take the Swift object as an opaque handle.
   This header only holds what Swift calls back. */
#ifndef STRATA_WLCS_H
#define STRATA_WLCS_H

#include <stdint.h>

/** One WlcsDisplayServer made by wlcs_server_integration.create_server. */
typedef struct strata_wlcs_server strata_wlcs_server;

/** Adds an extension (a global's interface name and version) to the server's descriptor.
    Called while the server is created, before WLCS reads the descriptor. */
void strata_wlcs_server_add_extension(strata_wlcs_server *server, const char *name, uint32_t version);

/** A non-blocking, close-on-exec eventfd (Swift's Glibc module lacks sys/eventfd.h); -1 on error. */
int strata_wlcs_eventfd(void);

#endif
