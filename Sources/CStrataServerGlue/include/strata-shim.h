/* The few things Swift cannot express on libwayland-server: variadic error posting, listeners
   that find their owner without wl_container_of, the log handler, and sealed memfds. */
#ifndef STRATA_SHIM_H
#define STRATA_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

/* wl_resource_post_error with a plain, already formatted message. */
void strata_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message);
/* wl_client_post_implementation_error with a plain message. */
void strata_client_post_implementation_error(struct wl_client *client, const char *message);

/* A wl_listener with an owner pointer. notify(owner, data) is called on emission. */
struct strata_listener {
	struct wl_listener listener;
	void *owner;
	void (*notify)(void *owner, void *data);
};
struct strata_listener *strata_listener_create(void *owner, void (*notify)(void *owner, void *data));
/* Removes the listener from its signal if it is linked; safe to call twice. */
void strata_listener_remove(struct strata_listener *l);
/* Removes and frees. */
void strata_listener_destroy(struct strata_listener *l);
void strata_listener_add_to_signal(struct strata_listener *l, struct wl_signal *signal);
void strata_listener_add_to_resource(struct strata_listener *l, struct wl_resource *resource);
void strata_listener_add_to_client(struct strata_listener *l, struct wl_client *client);
void strata_listener_add_to_display(struct strata_listener *l, struct wl_display *display);
void strata_listener_add_to_client_created(struct strata_listener *l, struct wl_display *display);

/* A monotonic, non-blocking, close-on-exec timerfd (-1 on failure), and arming it: first expiry
   after first_ns nanoseconds (0: disarm), then every interval_ns (0: once). Returns
   timerfd_settime's result. */
int strata_timerfd_create(void);
int strata_timerfd_arm(int fd, uint64_t first_ns, uint64_t interval_ns);

/* pipe2(fds, O_CLOEXEC) and accept4(fd, NULL, NULL, SOCK_CLOEXEC), which Swift's Glibc does not
   expose: close-on-exec from their creation, so a process started by another thread at that
   moment (the in-process test suite has many) cannot inherit them, as it could between pipe()
   or accept() and fcntl(FD_CLOEXEC). */
int strata_pipe_cloexec(int fds[2]);
int strata_accept_cloexec(int fd);

/* A destroy listener that marks a wl_buffer as known to the compositor (its own notify function, so
   it can be found again on the resource, as weston finds its weston_buffer). */
struct strata_listener *strata_buffer_listener_create(void *owner, void (*notify)(void *owner, void *data));
/* The owner of the buffer listener on `resource`, or NULL when it has none. */
void *strata_buffer_listener_owner(struct wl_resource *resource);

/* Calls wl_surface requests' implementation (a struct wl_surface_interface) directly, for
   wl_resource_set_dispatcher: no libffi call per request. */
int strata_wl_surface_dispatch(const void *implementation, void *target, uint32_t opcode,
                               const struct wl_message *message, union wl_argument *args);

/* Checks each wl_shm_pool.create_buffer before libwayland's wl_shm runs it: a stride shorter than
   a row of the format's pixels (ARGB8888 and XRGB8888, 4 bytes each) is wl_shm.invalid_stride
   on the pool, as the spec says; libwayland itself only checks stride >= width. The hook is
   libwayland's protocol logger, the one place a compositor sees a request to an object libwayland
   made; it runs right before the request. Remove with wl_protocol_logger_destroy. */
struct wl_protocol_logger *strata_add_shm_stride_check(struct wl_display *display);

/* Per-client budgets (Core/ClientBudget.swift holds the caps and their reasons). Installed on a
   display, every new client gets a budget, found again through its destroy listener. It counts
   the client's live resources, all of them (libwayland's own wl_shm_pool, wl_buffer, wl_callback
   and wl_registry included: a resource-created listener and a destroy listener per resource), its
   wl_surfaces (the costliest objects), and
   its wl_shm pool mappings and their bytes (a pool's mapping lives while the pool or a buffer
   made from it does). The counts are checked as they grow: past a limit the client gets
   wl_display.error no_memory (naming the limit) and is disconnected after the request; the
   request itself still runs (libwayland's) and is undone by the disconnection.
   `charges` are counters the Swift side keeps per client (MIME bytes, copied pixels). */
struct strata_budget_limits {
	uint32_t max_resources;
	uint32_t max_surfaces;
	uint32_t max_pools;
	uint64_t max_pool_bytes;
};
enum strata_budget_charge {
	STRATA_CHARGE_MIME_BYTES = 0, STRATA_CHARGE_COPIED_BYTES = 1,
	STRATA_CHARGE_SELECTION_WATCHERS = 2, STRATA_CHARGE_IDLE_NOTIFICATIONS = 3, STRATA_CHARGE_IDLE_INHIBITORS = 4,
	STRATA_CHARGE_COUNT = 5
};
struct strata_client_budgets; /* one per display */
struct strata_client_budget;  /* one per client */
struct strata_client_budgets *strata_client_budgets_install(struct wl_display *display, struct strata_budget_limits limits);
/* Before wl_display_destroy (clients already destroyed). Budgets still retained stay valid. */
void strata_client_budgets_uninstall(struct strata_client_budgets *budgets);
/* The client's budget, or NULL for a client made before the install. */
struct strata_client_budget *strata_client_budget_of(struct wl_client *client);
void strata_client_budget_retain(struct strata_client_budget *budget);
void strata_client_budget_release(struct strata_client_budget *budget);
uint32_t strata_client_budget_resources(const struct strata_client_budget *budget);
uint32_t strata_client_budget_surfaces(const struct strata_client_budget *budget);
uint32_t strata_client_budget_pools(const struct strata_client_budget *budget);
uint64_t strata_client_budget_pool_bytes(const struct strata_client_budget *budget);
uint64_t strata_client_budget_charged(const struct strata_client_budget *budget, enum strata_budget_charge kind);
/* Adds bytes to the charge when the total stays within limit (true), else changes nothing (false). */
int strata_client_budget_charge(struct strata_client_budget *budget, enum strata_budget_charge kind, uint64_t bytes, uint64_t limit);
void strata_client_budget_refund(struct strata_client_budget *budget, enum strata_budget_charge kind, uint64_t bytes);
/* Gives one client (Xwayland) limits of its own, and high-water marks: whenever a count grows
   past its mark, `notify(data)` runs (right after the resource or request that grew it; it must
   not destroy resources). */
void strata_client_budget_set_limits(struct strata_client_budget *budget, struct strata_budget_limits limits,
				     struct strata_budget_limits high_water, void (*notify)(void *data), void *data);

/* The bytes queued in the kernel on the way to the client (SIOCOUTQ on its socket) and the
   socket's send buffer size; -1 when unknown. */
int64_t strata_client_queued_bytes(struct wl_client *client);
int64_t strata_client_send_buffer_size(struct wl_client *client);

/* Forwards libwayland's server log lines, formatted, to handler. */
void strata_set_log_handler(void (*handler)(const char *line));

/* A memfd holding size bytes of data, sealed against shrinking, growing and writing.
   Returns -1 with errno set on failure. */
int strata_create_sealed_memfd(const char *name, const void *data, size_t size);
#endif
