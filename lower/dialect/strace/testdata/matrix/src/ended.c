/* ended.c: threads that are inside a call when the process ends: one in
 * nanosleep, one in read on a pipe nobody writes, while the main thread
 * calls exit_group; strace then ends their calls with "<unfinished ...>)
 * = ?". See ../README.md. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int pfd[2];

static void *sleeper(void *arg) {
	struct timespec ts = {10, 0};
	(void)arg;
	nanosleep(&ts, NULL);
	return NULL;
}

static void *reader(void *arg) {
	char b[16];
	(void)arg;
	read(pfd[0], b, sizeof b);
	return NULL;
}

int main(void) {
	pthread_t a, b;
	struct timespec ts = {0, 50 * 1000 * 1000};
	pipe(pfd);
	pthread_create(&a, NULL, sleeper, NULL);
	pthread_create(&b, NULL, reader, NULL);
	nanosleep(&ts, NULL);
	exit(0);
}
