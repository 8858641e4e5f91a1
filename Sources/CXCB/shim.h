#include <xcb/xcb.h>
#include <xcb/shm.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>
/* xcb_extension_t is opaque, so Swift cannot take the address of xcb_shm_id itself. */
static inline xcb_extension_t *strata_xcb_shm_id(void) { return &xcb_shm_id; }
/* pidfd_open(2) (Linux 5.3; glibc 2.36 has no wrapper Swift can call: syscall is variadic). The
 * Xwayland launcher watches its process through it on the event loop. -1 with errno set. */
static inline int strata_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }
