/* mode.c: built twice, as a 64-bit and as a 32-bit program (gcc -m32). The
 * 64-bit one forks a child that execs the program its argument names (the
 * 32-bit one), so that strace sees a process change personality and says
 * "[ Process PID=N runs in 32 bit mode. ]"; see ../README.md. */
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc < 2) {
		write(1, "32\n", 3);
		return 0;
	}
	if (fork() == 0) {
		char *args[] = {argv[1], NULL};
		execv(args[0], args);
		return 1;
	}
	wait(NULL);
	return 0;
}
