/* exotic.c: calls whose arguments strace decodes in forms the other
 * programs do not show (see ../README.md): an RTM_GETLINK netlink dump
 * (hardware addresses written bare, 00:00:00:00:00:00, and with -v the
 * indexed arrays [[IPV4_DEVCONF_FORWARDING-1]=0, ...]), signals through
 * sigtimedwait and signalfd, an interval timer, eventfd, epoll, timerfd,
 * poll, select and inotify, the stat family, sendmsg with SCM_RIGHTS,
 * an abstract AF_UNIX address, a child that fails PTRACE_TRACEME (strace
 * traces it already) and dies of SIGSEGV, failing execve calls, a child
 * killed by seccomp's SIGSYS, abort, vfork, memfd, pidfd and a syscall
 * number the kernel does not know. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <time.h>
#include <unistd.h>

static void h(int s, siginfo_t *si, void *u) { (void)s; (void)si; (void)u; }

int main(void) {
	struct sigaction sa = {0};
	sa.sa_sigaction = h; sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	/* timers, alarms */
	struct itimerval it = {{0, 0}, {0, 1000}};
	setitimer(ITIMER_REAL, &it, NULL);
	{ struct timespec z = {0, 50000000}; nanosleep(&z, NULL); }
	/* sigtimedwait */
	sigset_t ss; sigemptyset(&ss); sigaddset(&ss, SIGUSR1);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	struct timespec to = {0, 1000000};
	sigtimedwait(&ss, NULL, &to);
	kill(getpid(), SIGUSR1);
	siginfo_t si; sigtimedwait(&ss, &si, &to);
	/* signalfd */
	int sfd = signalfd(-1, &ss, SFD_CLOEXEC);
	kill(getpid(), SIGUSR1);
	struct signalfd_siginfo fdsi; read(sfd, &fdsi, sizeof fdsi);
	close(sfd);
	/* eventfd, timerfd, epoll, inotify */
	int efd = eventfd(3, EFD_NONBLOCK);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u64 = 7};
	epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
	struct epoll_event out[4]; epoll_wait(ep, out, 4, 10);
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	struct itimerspec its = {{0, 0}, {0, 500000}};
	timerfd_settime(tfd, 0, &its, NULL);
	struct pollfd pf[2] = {{tfd, POLLIN, 0}, {efd, POLLIN | POLLOUT, 0}};
	poll(pf, 2, 5);
	fd_set rf; FD_ZERO(&rf); FD_SET(tfd, &rf);
	struct timeval tv = {0, 2000};
	select(tfd + 1, &rf, NULL, NULL, &tv);
	int in = inotify_init1(IN_NONBLOCK);
	inotify_add_watch(in, "/tmp", IN_CREATE | IN_DELETE);
	close(in); close(tfd); close(ep); close(efd);
	/* stat family, xattr, readlink, getdents */
	struct stat st; stat("/etc/passwd", &st); lstat("/proc/self/exe", &st);
	char lb[256]; readlink("/proc/self/exe", lb, sizeof lb);
	getxattr("/tmp", "user.none", lb, sizeof lb);
	statx(AT_FDCWD, "/etc", AT_SYMLINK_NOFOLLOW, STATX_ALL, (void *)lb);
	int d = open("/etc/ssl", O_RDONLY | O_DIRECTORY);
	char db[4096]; syscall(SYS_getdents64, d, db, sizeof db); close(d);
	/* rlimits, uname, prctl, sched */
	struct rlimit rl; getrlimit(RLIMIT_NOFILE, &rl); prlimit(0, RLIMIT_STACK, NULL, &rl);
	struct utsname un; uname(&un);
	prctl(PR_SET_NAME, "exotic\n\"x", 0, 0, 0);
	cpu_set_t cs; sched_getaffinity(0, sizeof cs, &cs);
	struct timespec ts; clock_gettime(CLOCK_BOOTTIME, &ts); clock_nanosleep(CLOCK_MONOTONIC, 0, &to, NULL);
	/* writev / readv / sendmsg with SCM_RIGHTS */
	int sv[2]; socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	struct iovec iov[2] = {{"ab", 2}, {"cdef\0\x01", 6}};
	char cbuf[CMSG_SPACE(sizeof(int))]; memset(cbuf, 0, sizeof cbuf);
	struct msghdr mh = {.msg_iov = iov, .msg_iovlen = 2, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm->cmsg_level = SOL_SOCKET; cm->cmsg_type = SCM_RIGHTS; cm->cmsg_len = CMSG_LEN(sizeof(int));
	int one = 0; memcpy(CMSG_DATA(cm), &one, sizeof one);
	sendmsg(sv[0], &mh, 0);
	char rb[16]; struct iovec riov = {rb, sizeof rb}; char rc[64];
	struct msghdr rm = {.msg_iov = &riov, .msg_iovlen = 1, .msg_control = rc, .msg_controllen = sizeof rc};
	recvmsg(sv[1], &rm, 0);
	writev(1, iov, 2);
	close(sv[0]); close(sv[1]);
	/* netlink */
	int nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	struct sockaddr_nl snl = {.nl_family = AF_NETLINK};
	bind(nl, (struct sockaddr *)&snl, sizeof snl);
	struct { struct nlmsghdr n; struct rtgenmsg g; } req = {{sizeof req, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, 1, 0}, {AF_UNSPEC}};
	send(nl, &req, sizeof req, 0);
	char nb[8192]; recv(nl, nb, sizeof nb, 0);
	close(nl);
	/* abstract unix socket */
	int us = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sun = {.sun_family = AF_UNIX}; memcpy(sun.sun_path, "\0abstract-x", 11);
	bind(us, (struct sockaddr *)&sun, sizeof(sa_family_t) + 11);
	close(us);
	/* ptrace a child; child gets SIGSEGV */
	pid_t c = fork();
	if (c == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) { *(volatile int *)0 = 1; _exit(9); }
		raise(SIGSTOP);
		*(volatile int *)0 = 1;
		_exit(0);
	}
	int status; waitpid(c, &status, 0);
	ptrace(PTRACE_CONT, c, NULL, NULL);
	waitpid(c, &status, 0);
	ptrace(PTRACE_KILL, c, NULL, NULL);
	kill(c, SIGKILL);
	waitpid(c, &status, 0);
	/* execve failures */
	c = fork();
	if (c == 0) {
		char *av[] = {"nope", "a b", NULL}; char *ev[] = {"X=1", NULL};
		execve("/nonexistent", av, ev);
		execve("/etc/passwd", av, ev);
		_exit(3);
	}
	waitpid(c, &status, 0);
	/* seccomp SIGSYS: child installs filter trapping getppid */
	c = fork();
	if (c == 0) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog pr = {4, f};
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &pr);
		syscall(SYS_getppid);
		_exit(0);
	}
	waitpid(c, &status, 0);
	/* exit via signal of self with core */
	c = fork();
	if (c == 0) { abort(); }
	waitpid(c, &status, 0);
	/* vfork + exec true */
	c = vfork();
	if (c == 0) { execl("/bin/true", "true", NULL); _exit(1); }
	waitpid(c, &status, 0);
	/* memfd, pidfd */
	int mfd = memfd_create("mf", MFD_CLOEXEC); ftruncate(mfd, 4096);
	void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, mfd, 0); munmap(m, 4096); close(mfd);
	int pfd = syscall(SYS_pidfd_open, getpid(), 0); close(pfd);
	/* unknown syscall number */
	syscall(1000, 1, 2, 3);
	/* sleep interrupted by a signal: restart */
	return 0;
}
