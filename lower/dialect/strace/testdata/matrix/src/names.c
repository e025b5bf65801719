/* names.c: file names that strace's -y decorations must escape or keep
 * (a quote, a backslash, < and >, brackets alone, "->", a newline, a
 * tab, a space), a TCP connection over IPv6 loopback, whose -yy
 * decoration nests brackets: TCPv6:[[::1]:PORT->[::1]:PORT], a file
 * written after it was removed and a memfd (decorated "...>(deleted)"),
 * an eventfd and an abstract unix socket whose name holds a quote. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(void)
{
	static const char *names[] = {
		"names-q\"x", "names-b\\s", "names-a<b>c", "names-u[nb", "names-u]nb",
		"names-a->b", "names-nl\nx", "names-t\ttab", "names-sp ace", "names-x-",
	};
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		int fd = open(names[i], O_CREAT | O_WRONLY | O_TRUNC, 0600);
		if (fd < 0)
			continue;
		(void)write(fd, "z", 1);
		close(fd);
		unlink(names[i]);
	}
	int s = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 a;
	memset(&a, 0, sizeof a);
	a.sin6_family = AF_INET6;
	a.sin6_addr = in6addr_loopback;
	socklen_t n = sizeof a;
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 1) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &n) < 0)
		return 1;
	int c = socket(AF_INET6, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a) < 0)
		return 1;
	int d = accept(s, NULL, NULL);
	char b;
	(void)write(c, "x", 1);
	(void)read(d, &b, 1);
	close(d);
	close(c);
	close(s);
	int del = open("names-removed", O_CREAT | O_RDWR | O_TRUNC, 0600);
	unlink("names-removed");
	int mem = memfd_create("names mem\"fd", 0);
	int ev = eventfd(0, 0);
	int u = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un un;
	memset(&un, 0, sizeof un);
	un.sun_family = AF_UNIX;
	memcpy(un.sun_path + 1, "names\"abs", 10);
	(void)bind(u, (struct sockaddr *)&un, sizeof(sa_family_t) + 11);
	(void)listen(u, 1);
	int more[] = {del, mem, ev, u};
	for (unsigned i = 0; i < 4; i++) {
		(void)write(more[i], "", 0);
		close(more[i]);
	}
	return 0;
}
