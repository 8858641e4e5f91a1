#define _GNU_SOURCE
#include "strata-client-shim.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int strata_client_memfd(const char *name) {
	return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int strata_client_pipe(int fds[2]) {
	return pipe2(fds, O_CLOEXEC);
}
