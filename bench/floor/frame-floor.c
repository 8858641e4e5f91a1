/*
 * The floor of a composited frame on this machine: what any compositor pays per frame for one
 * 250x250 XRGB client drawing on every frame callback, with none of a compositor's work.
 *
 *   cc -O2 -o /tmp/frame-floor bench/floor/frame-floor.c && /tmp/frame-floor 10
 *
 * A "server" on CPU 0 wakes on a 60 Hz timerfd, copies the client's 250x250 buffer row by row
 * into a 1920x1080 canvas (memcpy: what pixman's blit does), and wakes the "client" on CPU 1 with
 * one byte on a Unix socket; the client rewrites its whole buffer (shared memory) and answers
 * with one byte, which wakes the server again. That is a compositor's two wakeups a frame (the
 * tick, the commit), its system calls (2 epoll_wait, read of the timerfd, recv, send) and its
 * copy of client-written pixels, and nothing else: no protocol, no scene, no damage. It prints
 * the server's CPU time (user + system) per frame; compare with bench/weston-compare.sh's
 * µs/frame for one weston-simple-shm.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { W = 250, H = 250, CW = 1920, CH = 1080 };

static void pin(int cpu) {
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof set, &set);
}

static double seconds(const struct rusage *r) {
	return r->ru_utime.tv_sec + r->ru_stime.tv_sec + (r->ru_utime.tv_usec + r->ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
	int duration = argc > 1 ? atoi(argv[1]) : 10;
	uint32_t *buffer = mmap(NULL, W * H * 4, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int sv[2];
	if (buffer == MAP_FAILED || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		perror("frame-floor");
		return 1;
	}
	pid_t client = fork();
	if (client < 0) {
		perror("frame-floor");
		return 1;
	}
	if (client == 0) {
		close(sv[0]);   /* so that the server's end closing ends the client */
		pin(1);
		char byte;
		for (uint32_t frame = 0; read(sv[1], &byte, 1) == 1; frame++) {
			for (int i = 0; i < W * H; i++)
				buffer[i] = frame + (uint32_t)i;
			if (write(sv[1], &byte, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(sv[1]);
	pin(0);
	uint32_t *canvas = calloc((size_t)CW * CH, 4);
	int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	struct itimerspec period = { { 0, 16666667 }, { 0, 16666667 } };
	timerfd_settime(timer, 0, &period, NULL);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = timer };
	epoll_ctl(ep, EPOLL_CTL_ADD, timer, &ev);
	ev.data.fd = sv[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, sv[0], &ev);

	const int warmup = 60;
	int frames = 0;
	struct rusage start = { 0 }, end;
	time_t stop = time(NULL) + duration + 2;
	while (time(NULL) < stop) {
		struct epoll_event events[4];
		int n = epoll_wait(ep, events, 4, -1);
		for (int i = 0; i < n; i++) {
			char byte = 1;
			if (events[i].data.fd == timer) {
				uint64_t ticks;
				if (read(timer, &ticks, sizeof ticks) < 0)
					continue;
				for (int y = 0; y < H; y++)
					memcpy(canvas + (size_t)(100 + y) * CW + 37, buffer + (size_t)y * W, W * 4);
				if (write(sv[0], &byte, 1) != 1)
					return 1;
				if (++frames == warmup)
					getrusage(RUSAGE_SELF, &start);
			} else if (read(sv[0], &byte, 1) != 1) {
				return 1;
			}
		}
	}
	getrusage(RUSAGE_SELF, &end);
	int measured = frames - warmup;
	printf("%d frames, %.0f us of CPU a frame (the floor)\n", measured, (seconds(&end) - seconds(&start)) * 1e6 / measured);
	close(sv[0]);
	waitpid(client, NULL, 0);
	return 0;
}
