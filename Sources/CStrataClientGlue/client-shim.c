#define _GNU_SOURCE
#include "strata-client-glue.h"
#include <sys/mman.h>

int strata_client_memfd(const char *name) {
	return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}
