/* work.c: a small workload for the stats tests (fork, exec, a thread,
   failing calls). Built and traced by mklogs.sh. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void *worker(void *arg) {
	(void)arg;
	for (int i = 0; i < 3; i++) {
		int fd = open("/nonexistent/thread", O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	for (int i = 0; i < 5; i++) {
		int fd = open("/nonexistent/main", O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	int fd = open("/dev/null", O_WRONLY);
	write(fd, "hello\n", 6);
	close(fd);
	pid_t pid = fork();
	if (pid == 0) {
		execlp("true", "true", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
	pthread_join(t, NULL);
	return 0;
}
