#define _GNU_SOURCE
#include "strata-shim.h"
#include <wayland-server-protocol.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

void strata_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
	wl_resource_post_error(resource, code, "%s", message);
}

void strata_client_post_implementation_error(struct wl_client *client, const char *message) {
	wl_client_post_implementation_error(client, "%s", message);
}

static void strata_shm_stride_check(void *data, enum wl_protocol_logger_type type,
				    const struct wl_protocol_logger_message *message) {
	(void)data;
	/* wl_shm_pool.create_buffer(id, offset, width, height, stride, format) is opcode 0. */
	if (type != WL_PROTOCOL_LOGGER_REQUEST || message->message_opcode != 0 || message->arguments_count != 6)
		return;
	if (strcmp(wl_resource_get_class(message->resource), "wl_shm_pool") != 0)
		return;
	int32_t width = message->arguments[2].i, stride = message->arguments[4].i;
	uint32_t format = message->arguments[5].u;
	if (format != WL_SHM_FORMAT_ARGB8888 && format != WL_SHM_FORMAT_XRGB8888)
		return; /* any other format is libwayland's invalid_format */
	if (width <= 0 || (int64_t)stride >= (int64_t)width * 4)
		return; /* a bad width is libwayland's invalid_stride */
	wl_resource_post_error(message->resource, WL_SHM_ERROR_INVALID_STRIDE,
			       "stride %d is shorter than a row of %d pixels of 4 bytes", stride, width);
}

struct wl_protocol_logger *strata_add_shm_stride_check(struct wl_display *display) {
	return wl_display_add_protocol_logger(display, strata_shm_stride_check, NULL);
}

static void strata_listener_notify(struct wl_listener *listener, void *data) {
	struct strata_listener *l = (struct strata_listener *)listener; /* first member */
	if (l->notify)
		l->notify(l->owner, data);
}

struct strata_listener *strata_listener_create(void *owner, void (*notify)(void *, void *)) {
	struct strata_listener *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->listener.notify = strata_listener_notify;
	wl_list_init(&l->listener.link);
	l->owner = owner;
	l->notify = notify;
	return l;
}

int strata_timerfd_create(void) {
	return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

int strata_pipe_cloexec(int fds[2]) {
	return pipe2(fds, O_CLOEXEC);
}

int strata_accept_cloexec(int fd) {
	return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

int strata_timerfd_arm(int fd, uint64_t first_ns, uint64_t interval_ns) {
	struct itimerspec value = {
		.it_interval = { .tv_sec = (time_t)(interval_ns / 1000000000u), .tv_nsec = (long)(interval_ns % 1000000000u) },
		.it_value = { .tv_sec = (time_t)(first_ns / 1000000000u), .tv_nsec = (long)(first_ns % 1000000000u) },
	};
	return timerfd_settime(fd, 0, &value, NULL);
}

static void strata_buffer_listener_notify(struct wl_listener *listener, void *data) {
	strata_listener_notify(listener, data);
}

struct strata_listener *strata_buffer_listener_create(void *owner, void (*notify)(void *, void *)) {
	struct strata_listener *l = strata_listener_create(owner, notify);
	if (l)
		l->listener.notify = strata_buffer_listener_notify;
	return l;
}

void *strata_buffer_listener_owner(struct wl_resource *resource) {
	struct wl_listener *listener = wl_resource_get_destroy_listener(resource, strata_buffer_listener_notify);
	return listener ? ((struct strata_listener *)listener)->owner : NULL;
}

void strata_listener_remove(struct strata_listener *l) {
	wl_list_remove(&l->listener.link);
	wl_list_init(&l->listener.link);
}

void strata_listener_destroy(struct strata_listener *l) {
	if (!l)
		return;
	strata_listener_remove(l);
	free(l);
}

void strata_listener_add_to_signal(struct strata_listener *l, struct wl_signal *signal) {
	strata_listener_remove(l);
	wl_signal_add(signal, &l->listener);
}

void strata_listener_add_to_resource(struct strata_listener *l, struct wl_resource *resource) {
	strata_listener_remove(l);
	wl_resource_add_destroy_listener(resource, &l->listener);
}

void strata_listener_add_to_client(struct strata_listener *l, struct wl_client *client) {
	strata_listener_remove(l);
	wl_client_add_destroy_listener(client, &l->listener);
}

void strata_listener_add_to_display(struct strata_listener *l, struct wl_display *display) {
	strata_listener_remove(l);
	wl_display_add_destroy_listener(display, &l->listener);
}

void strata_listener_add_to_client_created(struct strata_listener *l, struct wl_display *display) {
	strata_listener_remove(l);
	wl_display_add_client_created_listener(display, &l->listener);
}

static void (*strata_log_handler)(const char *line);

static void strata_log_trampoline(const char *fmt, va_list args) {
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, args);
	if (strata_log_handler)
		strata_log_handler(buf);
}

void strata_set_log_handler(void (*handler)(const char *line)) {
	strata_log_handler = handler;
	wl_log_set_handler_server(strata_log_trampoline);
}

int strata_create_sealed_memfd(const char *name, const void *data, size_t size) {
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(fd, (const char *)data + done, size - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		done += (size_t)n;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* A surface gets four requests a frame (attach, damage_buffer, frame, commit). libwayland
   invokes a request through libffi unless the resource has a dispatcher; this one calls the
   implementation's function for the opcode with the demarshalled arguments (object arguments
   arrive as the resource's wl_object, its first member). libffi's preparation and call were
   about 7 % of a frame's instructions. The opcodes are wl_surface's request order. */
int strata_wl_surface_dispatch(const void *implementation, void *target, uint32_t opcode,
                               const struct wl_message *message, union wl_argument *args) {
	const struct wl_surface_interface *impl = implementation;
	struct wl_resource *resource = target;
	struct wl_client *client = wl_resource_get_client(resource);
	(void)message;
	switch (opcode) {
	case 0: if (impl->destroy) impl->destroy(client, resource); break;
	case 1: if (impl->attach) impl->attach(client, resource, (struct wl_resource *)args[0].o, args[1].i, args[2].i); break;
	case 2: if (impl->damage) impl->damage(client, resource, args[0].i, args[1].i, args[2].i, args[3].i); break;
	case 3: if (impl->frame) impl->frame(client, resource, args[0].n); break;
	case 4: if (impl->set_opaque_region) impl->set_opaque_region(client, resource, (struct wl_resource *)args[0].o); break;
	case 5: if (impl->set_input_region) impl->set_input_region(client, resource, (struct wl_resource *)args[0].o); break;
	case 6: if (impl->commit) impl->commit(client, resource); break;
	case 7: if (impl->set_buffer_transform) impl->set_buffer_transform(client, resource, args[0].i); break;
	case 8: if (impl->set_buffer_scale) impl->set_buffer_scale(client, resource, args[0].i); break;
	case 9: if (impl->damage_buffer) impl->damage_buffer(client, resource, args[0].i, args[1].i, args[2].i, args[3].i); break;
	case 10: if (impl->offset) impl->offset(client, resource, args[0].i, args[1].i); break;
	default: break;
	}
	return 0;
}
