#define WL_HIDE_DEPRECATED 1
#include <wayland-server.h>
