/* Hand-written helpers for the test client. */
#ifndef STRATA_CLIENT_SHIM_H
#define STRATA_CLIENT_SHIM_H
/* memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING), which Swift's Glibc does not expose. */
int strata_client_memfd(const char *name);
/* pipe2(fds, O_CLOEXEC): a pipe no process started meanwhile inherits. */
int strata_client_pipe(int fds[2]);
/* The core interface descriptions, by pointer (Swift cannot take the address of an extern
   const struct directly in every context). */
#include <wayland-client-core.h>
#include <wayland-client-protocol.h>
static inline const struct wl_interface *wl_compositor_interface_ptr(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *wl_subcompositor_interface_ptr(void) { return &wl_subcompositor_interface; }
static inline const struct wl_interface *wl_shm_interface_ptr(void) { return &wl_shm_interface; }
static inline const struct wl_interface *wl_seat_interface_ptr(void) { return &wl_seat_interface; }
static inline const struct wl_interface *wl_output_interface_ptr(void) { return &wl_output_interface; }
static inline const struct wl_interface *wl_data_device_manager_interface_ptr(void) { return &wl_data_device_manager_interface; }
static inline const struct wl_interface *wl_shell_interface_ptr(void) { return &wl_shell_interface; }
#endif
