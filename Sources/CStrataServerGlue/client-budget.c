/* Per-client budgets: see strata-shim.h and Core/ClientBudget.swift. */
#define _GNU_SOURCE
#include "strata-shim.h"
#include <wayland-server-protocol.h>
#include <linux/sockios.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

struct strata_client_budgets {
	struct wl_listener client_created;
	struct wl_protocol_logger *logger;
	struct strata_budget_limits limits;
};

/* One wl_shm pool's mapping: alive while the pool resource or a buffer made from it is. */
struct strata_pool_mapping {
	struct strata_client_budget *budget;
	uint32_t refs;
	uint64_t size;
};

struct strata_client_budget {
	struct wl_listener client_destroy; /* its notify function finds the budget again */
	struct wl_listener resource_created;
	struct wl_client *client; /* NULL once the client is gone */
	struct strata_budget_limits limits;
	/* Xwayland's: marks below the limits, and what to call past them (NULL: nothing). */
	struct strata_budget_limits high_water;
	void (*notify)(void *data);
	void *notify_data;
	uint32_t resources;
	uint32_t surfaces;
	uint32_t pools;
	uint64_t pool_bytes;
	uint64_t charges[STRATA_CHARGE_COUNT];
	/* The client's life (1 while connected), each tracked resource and each retain. */
	uint64_t refs;
	/* Set by the protocol logger right before wl_shm.create_pool and wl_shm_pool.create_buffer
	   run, taken by the resource-created listener when their resource appears. */
	bool expects_pool;
	uint64_t expected_pool_size;
	struct strata_pool_mapping *buffer_pool;
	/* Entries of destroyed resources kept for the next ones (a client making a frame callback a
	   frame would otherwise cost an allocation and a free a frame): at most `spare_limit`. */
	struct strata_budget_entry *spare;
	uint32_t spare_count;
};

enum { spare_limit = 32 };

/* A destroy listener on each of the client's resources. */
struct strata_budget_entry {
	struct wl_listener destroy;
	struct strata_client_budget *budget;
	struct strata_pool_mapping *mapping; /* a pool's or a shm buffer's mapping */
	bool is_surface;
	struct strata_budget_entry *next_spare;
};

static void budget_unref(struct strata_client_budget *budget) {
	if (--budget->refs > 0)
		return;
	while (budget->spare) {
		struct strata_budget_entry *next = budget->spare->next_spare;
		free(budget->spare);
		budget->spare = next;
	}
	free(budget);
}

static void post_no_memory(struct strata_client_budget *budget, const char *what, uint64_t limit) {
	if (!budget->client)
		return;
	struct wl_resource *display = wl_client_get_object(budget->client, 1);
	if (display)
		wl_resource_post_error(display, WL_DISPLAY_ERROR_NO_MEMORY, "per-client limit: more than %llu %s",
				       (unsigned long long)limit, what);
	else
		wl_client_post_no_memory(budget->client);
}

static void check_high_water(struct strata_client_budget *budget) {
	if (!budget->notify || !budget->client)
		return;
	const struct strata_budget_limits *marks = &budget->high_water;
	if (budget->resources > marks->max_resources || budget->surfaces > marks->max_surfaces ||
	    budget->pools > marks->max_pools || budget->pool_bytes > marks->max_pool_bytes)
		budget->notify(budget->notify_data);
}

static void mapping_unref(struct strata_pool_mapping *mapping) {
	if (--mapping->refs > 0)
		return;
	struct strata_client_budget *budget = mapping->budget;
	budget->pools--;
	budget->pool_bytes -= mapping->size;
	if (budget->buffer_pool == mapping)
		budget->buffer_pool = NULL;
	free(mapping);
	budget_unref(budget);
}

static void budget_entry_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct strata_budget_entry *entry = wl_container_of(listener, entry, destroy);
	struct strata_client_budget *budget = entry->budget;
	/* libwayland unlinked the listener (final emission) before calling it. */
	if (entry->mapping)
		mapping_unref(entry->mapping);
	if (entry->is_surface)
		budget->surfaces--;
	budget->resources--;
	if (budget->client && budget->spare_count < spare_limit) {
		entry->next_spare = budget->spare;
		budget->spare = entry;
		budget->spare_count++;
	} else {
		free(entry);
	}
	budget_unref(budget);
}

static struct strata_pool_mapping *mapping_of_pool(struct wl_resource *pool) {
	struct wl_listener *listener = wl_resource_get_destroy_listener(pool, budget_entry_destroyed);
	if (!listener)
		return NULL;
	struct strata_budget_entry *entry = wl_container_of(listener, entry, destroy);
	return entry->mapping;
}

static void budget_resource_created(struct wl_listener *listener, void *data) {
	struct wl_resource *resource = data;
	struct strata_client_budget *budget = wl_container_of(listener, budget, resource_created);
	struct strata_budget_entry *entry = budget->spare;
	if (entry) {
		budget->spare = entry->next_spare;
		budget->spare_count--;
		memset(entry, 0, sizeof *entry);
	} else {
		entry = calloc(1, sizeof *entry);
	}
	if (!entry) {
		wl_client_post_no_memory(budget->client);
		return;
	}
	entry->budget = budget;
	entry->destroy.notify = budget_entry_destroyed;
	wl_resource_add_destroy_listener(resource, &entry->destroy);
	budget->refs++;
	budget->resources++;
	if (budget->resources > budget->limits.max_resources)
		post_no_memory(budget, "objects", budget->limits.max_resources);

	const char *class = wl_resource_get_class(resource);
	if (strcmp(class, "wl_surface") == 0) {
		entry->is_surface = true;
		if (++budget->surfaces > budget->limits.max_surfaces)
			post_no_memory(budget, "wl_surfaces", budget->limits.max_surfaces);
	} else if (budget->expects_pool && strcmp(class, "wl_shm_pool") == 0) {
		budget->expects_pool = false;
		struct strata_pool_mapping *mapping = calloc(1, sizeof *mapping);
		if (!mapping) {
			wl_client_post_no_memory(budget->client);
			return;
		}
		mapping->budget = budget;
		mapping->refs = 1;
		mapping->size = budget->expected_pool_size;
		budget->refs++;
		budget->pools++;
		budget->pool_bytes += mapping->size;
		entry->mapping = mapping;
	} else if (budget->buffer_pool && strcmp(class, "wl_buffer") == 0) {
		entry->mapping = budget->buffer_pool;
		entry->mapping->refs++;
		budget->buffer_pool = NULL;
	}
	check_high_water(budget);
}

static void budget_client_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct strata_client_budget *budget = wl_container_of(listener, budget, client_destroy);
	budget->client = NULL;
	wl_list_remove(&budget->resource_created.link);
	wl_list_init(&budget->resource_created.link);
	budget_unref(budget); /* the resources, destroyed after this signal, hold their own refs */
}

static void budgets_client_created(struct wl_listener *listener, void *data) {
	struct wl_client *client = data;
	struct strata_client_budgets *budgets = wl_container_of(listener, budgets, client_created);
	struct strata_client_budget *budget = calloc(1, sizeof *budget);
	if (!budget) {
		wl_client_post_no_memory(client);
		return;
	}
	budget->client = client;
	budget->limits = budgets->limits;
	budget->refs = 1;
	budget->client_destroy.notify = budget_client_destroyed;
	wl_client_add_destroy_listener(client, &budget->client_destroy);
	budget->resource_created.notify = budget_resource_created;
	wl_client_add_resource_created_listener(client, &budget->resource_created);
}

struct strata_client_budget *strata_client_budget_of(struct wl_client *client) {
	struct wl_listener *listener = wl_client_get_destroy_listener(client, budget_client_destroyed);
	if (!listener)
		return NULL;
	struct strata_client_budget *budget = wl_container_of(listener, budget, client_destroy);
	return budget;
}

/* Runs right before each request: wl_shm.create_pool and wl_shm_pool.resize are checked against
   the pool budget; create_pool and create_buffer announce the resource about to appear. */
static void budgets_logger(void *data, enum wl_protocol_logger_type type,
			   const struct wl_protocol_logger_message *message) {
	(void)data;
	if (type != WL_PROTOCOL_LOGGER_REQUEST)
		return;
	/* The interface first: only wl_shm and wl_shm_pool requests matter, and finding the budget
	   walks the client's destroy listeners (every request of every frame comes through here).
	   The expectations set below are taken by the resource the request creates; when it creates
	   none, libwayland (or the stride check, or this logger's no_memory) has ended the client,
	   so one left set cannot be taken by another client's or another request's resource. */
	const char *class = wl_resource_get_class(message->resource);
	if (class[0] != 'w' || class[1] != 'l' || class[2] != '_' || class[3] != 's')
		return;
	struct strata_client_budget *budget = strata_client_budget_of(wl_resource_get_client(message->resource));
	if (!budget)
		return;
	budget->expects_pool = false;
	budget->buffer_pool = NULL;
	if (strcmp(class, "wl_shm") == 0 && message->message_opcode == 0 && message->arguments_count == 3) {
		/* create_pool(id, fd, size) */
		int32_t size = message->arguments[2].i;
		if (size <= 0)
			return; /* libwayland's invalid_stride */
		if (budget->pools >= budget->limits.max_pools) {
			post_no_memory(budget, "wl_shm pools", budget->limits.max_pools);
			return;
		}
		if (budget->pool_bytes + (uint64_t)size > budget->limits.max_pool_bytes) {
			post_no_memory(budget, "bytes of wl_shm pools", budget->limits.max_pool_bytes);
			return;
		}
		budget->expects_pool = true;
		budget->expected_pool_size = (uint64_t)size;
	} else if (strcmp(class, "wl_shm_pool") == 0) {
		struct strata_pool_mapping *mapping = mapping_of_pool(message->resource);
		if (!mapping)
			return;
		if (message->message_opcode == 0) {
			budget->buffer_pool = mapping; /* create_buffer */
		} else if (message->message_opcode == 2 && message->arguments_count == 1) {
			/* resize(size): growing only (shrinking is libwayland's error) */
			int32_t size = message->arguments[0].i;
			if (size <= 0 || (uint64_t)size <= mapping->size)
				return;
			if (budget->pool_bytes - mapping->size + (uint64_t)size > budget->limits.max_pool_bytes) {
				post_no_memory(budget, "bytes of wl_shm pools", budget->limits.max_pool_bytes);
				return;
			}
			budget->pool_bytes += (uint64_t)size - mapping->size;
			mapping->size = (uint64_t)size;
			check_high_water(budget);
		}
	}
}

struct strata_client_budgets *strata_client_budgets_install(struct wl_display *display, struct strata_budget_limits limits) {
	struct strata_client_budgets *budgets = calloc(1, sizeof *budgets);
	if (!budgets)
		return NULL;
	budgets->limits = limits;
	budgets->client_created.notify = budgets_client_created;
	wl_display_add_client_created_listener(display, &budgets->client_created);
	budgets->logger = wl_display_add_protocol_logger(display, budgets_logger, budgets);
	return budgets;
}

void strata_client_budgets_uninstall(struct strata_client_budgets *budgets) {
	if (!budgets)
		return;
	wl_list_remove(&budgets->client_created.link);
	if (budgets->logger)
		wl_protocol_logger_destroy(budgets->logger);
	free(budgets);
}

void strata_client_budget_set_limits(struct strata_client_budget *budget, struct strata_budget_limits limits,
				     struct strata_budget_limits high_water, void (*notify)(void *data), void *data) {
	budget->limits = limits;
	budget->high_water = high_water;
	budget->notify = notify;
	budget->notify_data = data;
}

void strata_client_budget_retain(struct strata_client_budget *budget) { budget->refs++; }
void strata_client_budget_release(struct strata_client_budget *budget) { budget_unref(budget); }
uint32_t strata_client_budget_resources(const struct strata_client_budget *budget) { return budget->resources; }
uint32_t strata_client_budget_surfaces(const struct strata_client_budget *budget) { return budget->surfaces; }
uint32_t strata_client_budget_pools(const struct strata_client_budget *budget) { return budget->pools; }
uint64_t strata_client_budget_pool_bytes(const struct strata_client_budget *budget) { return budget->pool_bytes; }

uint64_t strata_client_budget_charged(const struct strata_client_budget *budget, enum strata_budget_charge kind) {
	return kind < STRATA_CHARGE_COUNT ? budget->charges[kind] : 0;
}

int strata_client_budget_charge(struct strata_client_budget *budget, enum strata_budget_charge kind, uint64_t bytes, uint64_t limit) {
	if (kind >= STRATA_CHARGE_COUNT || bytes > limit || budget->charges[kind] > limit - bytes)
		return 0;
	budget->charges[kind] += bytes;
	return 1;
}

void strata_client_budget_refund(struct strata_client_budget *budget, enum strata_budget_charge kind, uint64_t bytes) {
	if (kind >= STRATA_CHARGE_COUNT)
		return;
	budget->charges[kind] -= bytes < budget->charges[kind] ? bytes : budget->charges[kind];
}

int64_t strata_client_queued_bytes(struct wl_client *client) {
	int queued = 0;
	if (ioctl(wl_client_get_fd(client), SIOCOUTQ, &queued) < 0)
		return -1;
	return queued;
}

int64_t strata_client_send_buffer_size(struct wl_client *client) {
	int size = 0;
	socklen_t length = sizeof size;
	if (getsockopt(wl_client_get_fd(client), SOL_SOCKET, SO_SNDBUF, &size, &length) < 0)
		return -1;
	return size;
}
