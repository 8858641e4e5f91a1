#include <xcb/xcb.h>
#include <xcb/shm.h>
#include <sys/ipc.h>
#include <sys/shm.h>
/* xcb_extension_t is opaque, so Swift cannot take the address of xcb_shm_id itself. */
static inline xcb_extension_t *strata_xcb_shm_id(void) { return &xcb_shm_id; }
