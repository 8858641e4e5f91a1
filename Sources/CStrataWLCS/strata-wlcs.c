/* The entry point WLCS loads (`wlcs_server_integration`) and the C structs it calls through.
   Every callback forwards to a Swift function (Sources/StrataWLCS/EntryPoints.swift) with the
   Swift object's handle; the Swift side marshals the call onto the compositor's loop thread.
   Client-side lookups (a wl_display's fd, a proxy's id) happen here, on WLCS's thread, because
   the client objects belong to it. */
#include "strata-wlcs.h"

#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <wayland-client-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

/* Implemented in Swift. */
void *strata_wlcs_swift_create(strata_wlcs_server *server, int argc, char const **argv);
void strata_wlcs_swift_destroy(void *swift);
void strata_wlcs_swift_start(void *swift);
void strata_wlcs_swift_stop(void *swift);
int strata_wlcs_swift_create_client_socket(void *swift);
void strata_wlcs_swift_position_window(void *swift, int client_fd, uint32_t surface_id, int x, int y);
void *strata_wlcs_swift_create_pointer(void *swift);
void strata_wlcs_swift_pointer_move(void *pointer, int32_t x, int32_t y, int relative);
void strata_wlcs_swift_pointer_button(void *pointer, int button, int pressed);
void strata_wlcs_swift_pointer_destroy(void *pointer);
void *strata_wlcs_swift_create_touch(void *swift);
void strata_wlcs_swift_touch_down(void *touch, int32_t x, int32_t y);
void strata_wlcs_swift_touch_move(void *touch, int32_t x, int32_t y);
void strata_wlcs_swift_touch_up(void *touch);
void strata_wlcs_swift_touch_destroy(void *touch);

int strata_wlcs_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

struct strata_wlcs_server {
    WlcsDisplayServer base; /* first: WLCS's pointer is this struct's */
    void *swift;
    WlcsIntegrationDescriptor descriptor;
    WlcsExtensionDescriptor *extensions;
    size_t capacity;
};

typedef struct {
    WlcsPointer base;
    void *swift;
} strata_wlcs_pointer;

typedef struct {
    WlcsTouch base;
    void *swift;
} strata_wlcs_touch;

#define SERVER(s) ((strata_wlcs_server *)(s))

void strata_wlcs_server_add_extension(strata_wlcs_server *server, const char *name, uint32_t version)
{
    size_t n = server->descriptor.num_extensions;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(server->extensions[i].name, name) == 0) {
            if (server->extensions[i].version < version) server->extensions[i].version = version;
            return;
        }
    }
    if (n == server->capacity) {
        size_t capacity = server->capacity ? server->capacity * 2 : 16;
        WlcsExtensionDescriptor *grown = realloc(server->extensions, capacity * sizeof *grown);
        if (!grown) return;
        server->extensions = grown;
        server->capacity = capacity;
    }
    char *copy = strdup(name);
    if (!copy) return;
    server->extensions[n].name = copy;
    server->extensions[n].version = version;
    server->descriptor.num_extensions = n + 1;
    server->descriptor.supported_extensions = server->extensions;
}

static void server_start(WlcsDisplayServer *server) { strata_wlcs_swift_start(SERVER(server)->swift); }

static void server_stop(WlcsDisplayServer *server) { strata_wlcs_swift_stop(SERVER(server)->swift); }

static int server_create_client_socket(WlcsDisplayServer *server)
{
    return strata_wlcs_swift_create_client_socket(SERVER(server)->swift);
}

static void server_position_window_absolute(WlcsDisplayServer *server, struct wl_display *client,
                                            struct wl_surface *surface, int x, int y)
{
    /* The client's end of the socket pair names the server-side wl_client; the proxy's id names
       the wl_surface resource in it. */
    int fd = wl_display_get_fd(client);
    uint32_t id = wl_proxy_get_id((struct wl_proxy *)surface);
    strata_wlcs_swift_position_window(SERVER(server)->swift, fd, id, x, y);
}

#define POINTER(p) ((strata_wlcs_pointer *)(p))

static void pointer_move_absolute(WlcsPointer *pointer, wl_fixed_t x, wl_fixed_t y)
{
    strata_wlcs_swift_pointer_move(POINTER(pointer)->swift, x, y, 0);
}

static void pointer_move_relative(WlcsPointer *pointer, wl_fixed_t dx, wl_fixed_t dy)
{
    strata_wlcs_swift_pointer_move(POINTER(pointer)->swift, dx, dy, 1);
}

static void pointer_button_up(WlcsPointer *pointer, int button)
{
    strata_wlcs_swift_pointer_button(POINTER(pointer)->swift, button, 0);
}

static void pointer_button_down(WlcsPointer *pointer, int button)
{
    strata_wlcs_swift_pointer_button(POINTER(pointer)->swift, button, 1);
}

static void pointer_destroy(WlcsPointer *pointer)
{
    strata_wlcs_swift_pointer_destroy(POINTER(pointer)->swift);
    free(pointer);
}

static WlcsPointer *server_create_pointer(WlcsDisplayServer *server)
{
    strata_wlcs_pointer *pointer = calloc(1, sizeof *pointer);
    if (!pointer) return NULL;
    pointer->base.version = WLCS_POINTER_VERSION;
    pointer->base.move_absolute = pointer_move_absolute;
    pointer->base.move_relative = pointer_move_relative;
    pointer->base.button_up = pointer_button_up;
    pointer->base.button_down = pointer_button_down;
    pointer->base.destroy = pointer_destroy;
    pointer->swift = strata_wlcs_swift_create_pointer(SERVER(server)->swift);
    return &pointer->base;
}

#define TOUCH(t) ((strata_wlcs_touch *)(t))

static void touch_down(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y)
{
    strata_wlcs_swift_touch_down(TOUCH(touch)->swift, x, y);
}

static void touch_move(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y)
{
    strata_wlcs_swift_touch_move(TOUCH(touch)->swift, x, y);
}

static void touch_up(WlcsTouch *touch) { strata_wlcs_swift_touch_up(TOUCH(touch)->swift); }

static void touch_destroy(WlcsTouch *touch)
{
    strata_wlcs_swift_touch_destroy(TOUCH(touch)->swift);
    free(touch);
}

static WlcsTouch *server_create_touch(WlcsDisplayServer *server)
{
    strata_wlcs_touch *touch = calloc(1, sizeof *touch);
    if (!touch) return NULL;
    touch->base.version = WLCS_TOUCH_VERSION;
    touch->base.touch_down = touch_down;
    touch->base.touch_move = touch_move;
    touch->base.touch_up = touch_up;
    touch->base.destroy = touch_destroy;
    touch->swift = strata_wlcs_swift_create_touch(SERVER(server)->swift);
    return &touch->base;
}

static WlcsIntegrationDescriptor const *server_get_descriptor(WlcsDisplayServer const *server)
{
    return &((strata_wlcs_server const *)server)->descriptor;
}

static WlcsDisplayServer *create_server(int argc, char const **argv)
{
    strata_wlcs_server *server = calloc(1, sizeof *server);
    if (!server) return NULL;
    server->base.version = 3;
    server->base.start = server_start;
    server->base.stop = server_stop;
    server->base.create_client_socket = server_create_client_socket;
    server->base.position_window_absolute = server_position_window_absolute;
    server->base.create_pointer = server_create_pointer;
    server->base.create_touch = server_create_touch;
    server->base.get_descriptor = server_get_descriptor;
    server->base.start_on_this_thread = NULL;
    server->descriptor.version = 1;
    /* Builds the compositor on its loop thread and fills the descriptor from its globals. */
    server->swift = strata_wlcs_swift_create(server, argc, argv);
    return &server->base;
}

static void destroy_server(WlcsDisplayServer *server)
{
    strata_wlcs_server *s = SERVER(server);
    strata_wlcs_swift_destroy(s->swift);
    for (size_t i = 0; i < s->descriptor.num_extensions; i++) free((char *)s->extensions[i].name);
    free(s->extensions);
    free(s);
}

__attribute__((visibility("default"))) WlcsServerIntegration const wlcs_server_integration = {
    .version = 1,
    .create_server = create_server,
    .destroy_server = destroy_server,
};
