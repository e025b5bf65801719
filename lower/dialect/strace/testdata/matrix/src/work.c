/* work.c: the matrix workload (see ../README.md). It runs, in one process
 * tree: threads (pthread_create, so clone3 with CLONE_THREAD), a fork with
 * exec and wait, signals handled, ignored and fatal (a child killed by
 * SIGKILL and one dying of SIGSEGV... via SIGTERM default action), failing
 * calls, a pipe, an AF_UNIX socketpair, a TCP connection over 127.0.0.1,
 * binary reads and writes, a pty with ioctls, and mmap. Deterministic in
 * what it calls, not in pids or times. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static void on_usr1(int sig) { (void)sig; }

static void *worker(void *arg) {
	long n = (long)arg;
	char buf[16];
	int fd = open("/dev/zero", O_RDONLY);
	if (fd >= 0) {
		read(fd, buf, sizeof buf);
		close(fd);
	}
	usleep(2000 * (n + 1));
	return NULL;
}

int main(int argc, char **argv) {
	(void)argc;
	(void)argv;
	/* failing calls */
	open("/nonexistent/file", O_RDONLY);
	close(-1);
	/* mmap */
	void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED)
		munmap(p, 8192);
	/* binary write and read through a pipe */
	int pfd[2];
	if (pipe(pfd) == 0) {
		unsigned char bin[8] = {0x7f, 'E', 'L', 'F', 0, 1, 0xff, '\n'};
		write(pfd[1], bin, sizeof bin);
		read(pfd[0], bin, sizeof bin);
		close(pfd[0]);
		close(pfd[1]);
	}
	/* AF_UNIX */
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
		send(sv[0], "ping", 4, 0);
		char b[8];
		recv(sv[1], b, sizeof b, 0);
		close(sv[0]);
		close(sv[1]);
	}
	/* TCP over 127.0.0.1 */
	int ls = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof a;
	if (ls >= 0 && bind(ls, (struct sockaddr *)&a, sizeof a) == 0 && listen(ls, 1) == 0 &&
	    getsockname(ls, (struct sockaddr *)&a, &al) == 0) {
		int c = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&a, sizeof a) == 0) {
			int s = accept(ls, NULL, NULL);
			write(c, "hello", 5);
			char b[8];
			read(s, b, sizeof b);
			close(s);
		}
		close(c);
	}
	if (ls >= 0)
		close(ls);
	/* pty and ioctls */
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m >= 0) {
		struct termios t;
		grantpt(m);
		unlockpt(m);
		int s = open(ptsname(m), O_RDWR | O_NOCTTY);
		if (s >= 0) {
			tcgetattr(s, &t);
			cfmakeraw(&t);
			tcsetattr(s, TCSANOW, &t);
			struct winsize ws;
			ioctl(s, TIOCGWINSZ, &ws);
			close(s);
		}
		close(m);
	}
	/* threads */
	pthread_t th[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	/* signals: handled, ignored */
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	signal(SIGUSR2, SIG_IGN);
	raise(SIGUSR2);
	/* fork + exec + wait */
	pid_t c = fork();
	if (c == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(c, &st, 0);
	/* a child killed by SIGKILL */
	c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	usleep(5000);
	kill(c, SIGKILL);
	waitpid(c, &st, 0);
	/* a child dying of a fatal signal (default action of SIGTERM) */
	c = fork();
	if (c == 0) {
		raise(SIGTERM);
		_exit(0);
	}
	waitpid(c, &st, 0);
	return 3;
}
