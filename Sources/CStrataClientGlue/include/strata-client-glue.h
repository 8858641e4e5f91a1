/* Umbrella header of the CStrataClientGlue module (the test client's side of the protocols): the
   hand-written helpers, and the client headers that the WaylandScanner plugin generates from
   the protocol XML files at build time (strata-client-protocols.h, in the plugin's include folder). */
#ifndef STRATA_CLIENT_GLUE_H
#define STRATA_CLIENT_GLUE_H
#ifndef WL_HIDE_DEPRECATED
#define WL_HIDE_DEPRECATED 1
#endif
#include <wayland-client.h>
#include "strata-client-shim.h"
#include "strata-client-protocols.h"
#endif
