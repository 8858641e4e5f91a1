/* Hand-written helpers for the test client. */
#ifndef STRATA_CLIENT_SHIM_H
#define STRATA_CLIENT_SHIM_H
/* memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING), which Swift's Glibc does not expose. */
int strata_client_memfd(const char *name);
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
/* The xdg-shell interface descriptions, by pointer. */
#include "xdg-shell-client-protocol.h"
static inline const struct wl_interface *xdg_wm_base_interface_ptr(void) { return &xdg_wm_base_interface; }
static inline const struct wl_interface *xdg_positioner_interface_ptr(void) { return &xdg_positioner_interface; }
static inline const struct wl_interface *xdg_surface_interface_ptr(void) { return &xdg_surface_interface; }
static inline const struct wl_interface *xdg_toplevel_interface_ptr(void) { return &xdg_toplevel_interface; }
static inline const struct wl_interface *xdg_popup_interface_ptr(void) { return &xdg_popup_interface; }
/* Strata's window extension and wlr-layer-shell, by pointer. */
#include "strata-window-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
static inline const struct wl_interface *strata_window_manager_v1_interface_ptr(void) { return &strata_window_manager_v1_interface; }
static inline const struct wl_interface *zwlr_layer_shell_v1_interface_ptr(void) { return &zwlr_layer_shell_v1_interface; }
#endif
