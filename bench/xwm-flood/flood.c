// An X client that maps a window, then floods the window manager about it: 3,000
// _NET_WM_STATE fullscreen toggles ("state") or 20,000 ConfigureWindow requests ("configure");
// an optional count replaces the number. Says whether X still answers after the flood.
#include <xcb/xcb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static xcb_atom_t atom(xcb_connection_t *c, const char *name) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, strlen(name), name), NULL);
    xcb_atom_t value = reply ? reply->atom : 0;
    free(reply);
    return value;
}

int main(int argc, char **argv) {
    int configure = argc > 1 && strcmp(argv[1], "configure") == 0;
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "flood: cannot connect to X\n");
        return 1;
    }
    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    xcb_window_t window = xcb_generate_id(c);
    uint32_t values[] = {screen->white_pixel};
    xcb_create_window(c, 0, window, screen->root, 10, 10, 120, 90, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      screen->root_visual, XCB_CW_BACK_PIXEL, values);
    xcb_map_window(c, window);
    xcb_flush(c);
    usleep(1500000);
    xcb_atom_t state = atom(c, "_NET_WM_STATE"), fullscreen = atom(c, "_NET_WM_STATE_FULLSCREEN");
    int count = argc > 2 ? atoi(argv[2]) : configure ? 20000 : 3000;
    for (int i = 0; i < count; i++) {
        if (configure) {
            uint32_t size[] = {100 + i % 200, 80 + i % 150};
            xcb_configure_window(c, window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
        } else {
            xcb_client_message_event_t event = {0};
            event.response_type = XCB_CLIENT_MESSAGE;
            event.format = 32;
            event.window = window;
            event.type = state;
            event.data.data32[0] = 2;
            event.data.data32[1] = fullscreen;
            event.data.data32[3] = 1;
            xcb_send_event(c, 0, screen->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                           (const char *)&event);
        }
    }
    xcb_flush(c);
    xcb_get_input_focus_reply_t *reply = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    printf("flood %s: %d sent; X answers after it: %s\n", configure ? "configure" : "state", count,
           reply ? "yes" : "no (connection lost)");
    free(reply);
    usleep(2000000);
    xcb_disconnect(c);
    return 0;
}
