#include <xcb/xcb.h>
#include <xcb/shm.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../CDeferredLibraries/include/strata-deferred.h"
/* xcb_extension_t is opaque, so Swift cannot take the address of xcb_shm_id itself; and
 * libxcb-shm is opened at its first use (CDeferredLibraries), so its data is looked up. */
static inline xcb_extension_t *strata_xcb_shm_id(void) {
	return (xcb_extension_t *)strata_deferred_data("xcb_shm_attach", "xcb_shm_id");
}
/* pidfd_open(2) (Linux 5.3; glibc 2.36 has no wrapper Swift can call: syscall is variadic). The
 * Xwayland launcher watches its process through it on the event loop. -1 with errno set. */
static inline int strata_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

#include <sys/uio.h>
#include <xcb/xcbext.h>
/* Composite's RedirectSubwindows (minor opcode 2), sent through xcb's extension API so that no
 * libxcb-composite is linked: rootless Xwayland makes a wl_surface only for toplevels the window
 * manager redirected (manually) this way. */
static xcb_extension_t strata_xcb_composite_id = { "Composite", 0 };
static inline xcb_void_cookie_t strata_xcb_composite_redirect_subwindows(xcb_connection_t *c, xcb_window_t window) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_composite_id, 2, 1 };
	struct { uint8_t major, minor; uint16_t length; xcb_window_t window; uint8_t update, pad[3]; } body = { 0 };
	body.window = window;
	body.update = 1; /* CompositeRedirectManual */
	struct iovec parts[4];
	parts[2].iov_base = &body;
	parts[2].iov_len = sizeof body;
	parts[3].iov_base = 0;
	parts[3].iov_len = 0;
	xcb_void_cookie_t cookie;
	cookie.sequence = xcb_send_request(c, 0, parts + 2, &request);
	return cookie;
}
