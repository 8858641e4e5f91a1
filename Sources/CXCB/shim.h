#include <string.h>
#include <xcb/xcb.h>
#include <xcb/shm.h>
#include <xcb/xfixes.h>
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
/* The same for XFixes (selection owner notifications: the XWM's and the X11 backend's). */
static inline xcb_extension_t *strata_xcb_xfixes_id(void) {
	return (xcb_extension_t *)strata_deferred_data("xcb_xfixes_query_version", "xcb_xfixes_id");
}
/* pidfd_open(2) (Linux 5.3; glibc 2.36 has no wrapper Swift can call: syscall is variadic). The
 * Xwayland launcher watches its process through it on the event loop. -1 with errno set. */
static inline int strata_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

#include <sys/uio.h>
#include <xcb/xcbext.h>
/* Sends one request of an extension (`request`: its extension and minor opcode) whose body is
 * the `size` bytes at `body` (xcb fills the first four: the major opcode and the length); its
 * sequence number. */
static inline unsigned int strata_xcb_send_body(xcb_connection_t *c, int flags, const xcb_protocol_request_t *request, void *body, size_t size) {
	struct iovec parts[4];
	parts[2].iov_base = body;
	parts[2].iov_len = size;
	parts[3].iov_base = 0;
	parts[3].iov_len = 0;
	return xcb_send_request(c, flags, parts + 2, request);
}
/* Composite's RedirectSubwindows (minor opcode 2), sent through xcb's extension API so that no
 * libxcb-composite is linked: rootless Xwayland makes a wl_surface only for toplevels the window
 * manager redirected (manually) this way. */
static xcb_extension_t strata_xcb_composite_id = { "Composite", 0 };
static inline xcb_void_cookie_t strata_xcb_composite_redirect_subwindows(xcb_connection_t *c, xcb_window_t window) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_composite_id, 2, 1 };
	struct { uint8_t major, minor; uint16_t length; xcb_window_t window; uint8_t update, pad[3]; } body = { 0 };
	body.window = window;
	body.update = 1; /* CompositeRedirectManual */
	xcb_void_cookie_t cookie;
	cookie.sequence = strata_xcb_send_body(c, 0, &request, &body, sizeof body);
	return cookie;
}

/* X-Resource's QueryClientIds (minor opcode 4) for one client, named by any of its resources,
 * with the LocalClientPID mask (2), sent through xcb's extension API so that no libxcb-res is
 * linked: the XWM's pid fallback for windows without _NET_WM_PID. The reply is read with
 * xcb_poll_for_reply and parsed by strata_xcb_res_pid. */
static xcb_extension_t strata_xcb_res_id = { "X-Resource", 0 };
static inline unsigned int strata_xcb_res_query_pid(xcb_connection_t *c, uint32_t resource) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_res_id, 4, 0 };
	struct { uint8_t major, minor; uint16_t length; uint32_t count; uint32_t client, mask; } body = { 0 };
	body.count = 1;
	body.client = resource;
	body.mask = 2; /* XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID */
	return strata_xcb_send_body(c, XCB_REQUEST_CHECKED, &request, &body, sizeof body);
}

/* The pid in a QueryClientIds reply (its first value with the LocalClientPID mask), or 0. The
 * reply is `length` 4-byte units after its 32-byte header; every field is checked against it. */
static inline int32_t strata_xcb_res_pid(const void *reply) {
	const uint8_t *bytes = reply;
	uint32_t length, count;
	memcpy(&length, bytes + 4, 4);
	memcpy(&count, bytes + 8, 4);
	if (length > 1u << 20) return 0;
	size_t end = 32 + (size_t)length * 4, offset = 32;
	for (uint32_t i = 0; i < count && offset + 12 <= end; i++) {
		uint32_t mask, value_length;
		memcpy(&mask, bytes + offset + 4, 4);
		memcpy(&value_length, bytes + offset + 8, 4);
		offset += 12;
		if (value_length > end - offset) return 0;
		if (mask == 2 && value_length >= 4) {
			int32_t pid;
			memcpy(&pid, bytes + offset, 4);
			return pid;
		}
		offset += value_length;
	}
	return 0;
}

/* X-Resource's QueryClients (minor 1), QueryClientResources (minor 2, for the client of
 * `resource`) and QueryClientPixmapBytes (minor 3), sent as strata_xcb_res_query_pid is: the
 * XWM's per-X-client budget. */
static inline unsigned int strata_xcb_res_query(xcb_connection_t *c, uint8_t minor, uint32_t resource) {
	static const xcb_protocol_request_t requests[4] = {
		{ 1, &strata_xcb_res_id, 0, 0 }, { 1, &strata_xcb_res_id, 1, 0 },
		{ 2, &strata_xcb_res_id, 2, 0 }, { 2, &strata_xcb_res_id, 3, 0 },
	};
	struct { uint8_t major, minor; uint16_t length; uint32_t xid; } body = { 0 };
	body.xid = resource;
	if (minor < 1 || minor > 3) return 0;
	return strata_xcb_send_body(c, XCB_REQUEST_CHECKED, &requests[minor], &body, minor == 1 ? 4 : sizeof body);
}

/* X-Resource's QueryResourceBytes (minor 5) for the resources of type `type` (an atom; 0 for
 * any) of the client `client` (its resource id base): the XWM needs one resource id of a client
 * to disconnect it (KillClient names a resource, not a client). */
static inline unsigned int strata_xcb_res_query_resources_of_type(xcb_connection_t *c, uint32_t client, uint32_t type) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_res_id, 5, 0 };
	struct { uint8_t major, minor; uint16_t length; uint32_t client, count, resource, type; } body = { 0 };
	body.client = client;
	body.count = 1;
	body.type = type;
	return strata_xcb_send_body(c, XCB_REQUEST_CHECKED, &request, &body, sizeof body);
}
/* The first resource id in a QueryResourceBytes reply (its count at byte 8, its first value's
 * resource at byte 32), or 0. */
static inline uint32_t strata_xcb_res_first_resource(const void *reply) {
	uint32_t length, count, resource;
	memcpy(&length, (const uint8_t *)reply + 4, 4);
	memcpy(&count, (const uint8_t *)reply + 8, 4);
	if (count == 0 || length < 6) return 0;
	memcpy(&resource, (const uint8_t *)reply + 32, 4);
	return resource;
}

/* The `index`th pair of 32-bit words of a QueryClients (base, mask) or QueryClientResources
 * (type atom, count) reply: its count at byte 8, its pairs after the 32-byte header, each
 * checked against the reply's length. 0 past the end. */
static inline uint32_t strata_xcb_res_count(const void *reply) {
	uint32_t length, count;
	memcpy(&length, (const uint8_t *)reply + 4, 4);
	memcpy(&count, (const uint8_t *)reply + 8, 4);
	if (length > 1u << 20) return 0;
	return count < length / 2 ? count : length / 2;
}
static inline uint32_t strata_xcb_res_pair(const void *reply, uint32_t index, int second) {
	if (index >= strata_xcb_res_count(reply)) return 0;
	uint32_t value;
	memcpy(&value, (const uint8_t *)reply + 32 + index * 8 + (second ? 4 : 0), 4);
	return value;
}
/* QueryClientPixmapBytes' reply: bytes at byte 8, their overflow (high word) at 12. */
static inline uint64_t strata_xcb_res_pixmap_bytes(const void *reply) {
	uint32_t low, high;
	memcpy(&low, (const uint8_t *)reply + 8, 4);
	memcpy(&high, (const uint8_t *)reply + 12, 4);
	return (uint64_t)high << 32 | low;
}

/* Whether Xwayland has X-Resource (xcb shuts a connection down when a request names a missing
 * extension): asked at the XWM's start without waiting, looked at when first needed. */
static inline void strata_xcb_res_prefetch(xcb_connection_t *c) { xcb_prefetch_extension_data(c, &strata_xcb_res_id); }
static inline int strata_xcb_res_present(xcb_connection_t *c) {
	const xcb_query_extension_reply_t *reply = xcb_get_extension_data(c, &strata_xcb_res_id);
	return reply && reply->present;
}

/* Render, sent through xcb's extension API as the requests above (no libxcb-render linked): the
 * XWM makes the root window's cursor from the theme's ARGB arrow (XWM+Cursor.swift). */
static xcb_extension_t strata_xcb_render_id = { "RENDER", 0 };
static inline int strata_xcb_render_present(xcb_connection_t *c) {
	const xcb_query_extension_reply_t *reply = xcb_get_extension_data(c, &strata_xcb_render_id);
	return reply && reply->present;
}
/* QueryVersion (minor 0; 0.11): the reply is not needed. */
static inline unsigned int strata_xcb_render_query_version(xcb_connection_t *c) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_render_id, 0, 0 };
	struct { uint8_t major, minor; uint16_t length; uint32_t major_version, minor_version; } body = { 0 };
	body.minor_version = 11;
	return strata_xcb_send_body(c, 0, &request, &body, sizeof body);
}
/* QueryPictFormats (minor 1). */
static inline unsigned int strata_xcb_render_query_pict_formats(xcb_connection_t *c) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_render_id, 1, 0 };
	struct { uint8_t major, minor; uint16_t length; } body = { 0 };
	return strata_xcb_send_body(c, 0, &request, &body, sizeof body);
}
/* The a8r8g8b8 format in a QueryPictFormats reply (direct, depth 32, alpha at 24, red 16,
 * green 8, blue 0, 8 bits each), or 0. The formats (28 bytes each) follow the 32-byte header;
 * their count (byte 8) is checked against the reply's length (byte 4, in 4-byte units). */
static inline uint32_t strata_xcb_render_argb32_format(const void *reply) {
	const uint8_t *bytes = reply;
	uint32_t length, count;
	memcpy(&length, bytes + 4, 4);
	memcpy(&count, bytes + 8, 4);
	if (length > 1u << 20 || count > (size_t)length * 4 / 28) return 0;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *format = bytes + 32 + (size_t)i * 28;
		uint16_t d[8];
		memcpy(d, format + 8, 16);
		/* red shift, mask; green shift, mask; blue shift, mask; alpha shift, mask */
		if (format[4] == 1 && format[5] == 32 && d[0] == 16 && d[1] == 0xff && d[2] == 8 && d[3] == 0xff
		    && d[4] == 0 && d[5] == 0xff && d[6] == 24 && d[7] == 0xff) {
			uint32_t id;
			memcpy(&id, format, 4);
			return id;
		}
	}
	return 0;
}
/* CreatePicture (minor 4) of `drawable` in `format`, no attributes. */
static inline void strata_xcb_render_create_picture(xcb_connection_t *c, uint32_t picture, uint32_t drawable, uint32_t format) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_render_id, 4, 1 };
	struct { uint8_t major, minor; uint16_t length; uint32_t picture, drawable, format, mask; } body = { 0 };
	body.picture = picture;
	body.drawable = drawable;
	body.format = format;
	strata_xcb_send_body(c, 0, &request, &body, sizeof body);
}
/* FreePicture (minor 7). */
static inline void strata_xcb_render_free_picture(xcb_connection_t *c, uint32_t picture) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_render_id, 7, 1 };
	struct { uint8_t major, minor; uint16_t length; uint32_t picture; } body = { 0 };
	body.picture = picture;
	strata_xcb_send_body(c, 0, &request, &body, sizeof body);
}
/* CreateCursor (minor 27): the cursor `cursor` from the picture `source`, hotspot (x, y). */
static inline void strata_xcb_render_create_cursor(xcb_connection_t *c, uint32_t cursor, uint32_t source, uint16_t x, uint16_t y) {
	static const xcb_protocol_request_t request = { 2, &strata_xcb_render_id, 27, 1 };
	struct { uint8_t major, minor; uint16_t length; uint32_t cursor, source; uint16_t x, y; } body = { 0 };
	body.cursor = cursor;
	body.source = source;
	body.x = x;
	body.y = y;
	strata_xcb_send_body(c, 0, &request, &body, sizeof body);
}
