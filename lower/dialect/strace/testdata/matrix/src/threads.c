/* threads.c: one process with four threads (pthread_create, so clone3
 * with CLONE_THREAD), each writing a line to a pipe; see ../README.md. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int pfd[2];

static void *worker(void *arg) {
	char b[32];
	int n = snprintf(b, sizeof b, "thread %ld\n", (long)arg);
	write(pfd[1], b, n);
	usleep(1000);
	return NULL;
}

int main(void) {
	pthread_t th[4];
	pipe(pfd);
	for (long i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	char b[64];
	for (int i = 0; i < 4; i++)
		read(pfd[0], b, 10);
	return 0;
}
