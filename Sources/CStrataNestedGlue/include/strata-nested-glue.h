/* What the nested backends need from C on the parent-session side: the client-side interface
   descriptions by pointer (Swift cannot take the address of an extern const struct). */
#ifndef STRATA_NESTED_GLUE_H
#define STRATA_NESTED_GLUE_H
#ifndef WL_HIDE_DEPRECATED
#define WL_HIDE_DEPRECATED 1
#endif
#include <wayland-client.h>
#include "strata-client-glue.h"

static inline const struct wl_interface *strata_nested_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
static inline const struct wl_interface *strata_nested_decoration_manager_interface(void) {
	return &zxdg_decoration_manager_v1_interface;
}
#endif
