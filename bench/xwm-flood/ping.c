// A bystander Wayland client: wl_display_roundtrip for 5 s; prints the slowest and each
// round trip over 50 ms with its time.
#include <wayland-client.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "ping: cannot connect to Wayland\n");
        return 1;
    }
    double start = now(), slowest = 0;
    int count = 0;
    while (now() < start + 5) {
        double t = now();
        if (wl_display_roundtrip(display) < 0) {
            printf("ping: the connection failed\n");
            return 1;
        }
        double took = now() - t;
        if (took > slowest) slowest = took;
        if (took > 0.05) printf("  slow round trip: %.0f ms at %.2f s\n", took * 1000, t - start);
        count++;
    }
    printf("ping: %d round trips, slowest %.0f ms\n", count, slowest * 1000);
    wl_display_disconnect(display);
    return 0;
}
