/* family.c: a process family for the tree test: a thread, a child that
   execs "sh -c 'exit 3'", a child killed by SIGTERM, all waited for. */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static void *worker(void *arg) {
	(void)arg;
	usleep(1000);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pid_t a = fork();
	if (a == 0) {
		execlp("sh", "sh", "-c", "exit 3", (char *)NULL);
		_exit(127);
	}
	pid_t b = fork();
	if (b == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	pthread_join(t, NULL);
	return 0;
}
