/* Umbrella header of the CStrataServerGlue module: hides libwayland's deprecated structs (so
   wl_resource stays opaque, as in every other module) before anything includes wayland-server.h.
   strata-interfaces.h and the server headers it includes are generated from the protocol XML files at
   build time by the WaylandScanner plugin (in its include folder under .build). */
#ifndef STRATA_SERVER_GLUE_H
#define STRATA_SERVER_GLUE_H
#ifndef WL_HIDE_DEPRECATED
#define WL_HIDE_DEPRECATED 1
#endif
#include <wayland-server.h>
#include "strata-shim.h"
#include "strata-interfaces.h"
#endif
