/*
 * bench/fanout.c: the least a client can do per quorum acquire + release, as
 * a ceiling for bench/quorum.php. No lock logic, no PHP: the same two
 * commands RedisLock sends to each server (SET key token NX PX ttl, then
 * EVALSHA of lua/release.lua with the same keys), written as pre-encoded
 * RESP and read with one poll() loop.
 *
 *   fanout parallel|sequential SHA KEY TTL PORT...
 *
 * parallel    one write to every server, then poll() until every server has
 *             answered, for the SET and again for the EVALSHA: two round
 *             trips per cycle whatever the number of servers
 * sequential  one server after another: 2 x N round trips per cycle
 *
 * It reads a count K per line on standard input, runs K cycles and answers
 * with the number of cycles whose acquire and release every server granted
 * (K unless something is wrong), so that bench/quorum.php can take turns
 * with it as with its other variants. Loopback only: it connects to
 * 127.0.0.1.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#define MAX_SERVERS 16

static int fds[MAX_SERVERS];
static int nservers;

static int connect_port(int port)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short) port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *) &sa, sizeof(sa)) != 0) {
		perror("fanout: connect");
		exit(1);
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static void send_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n <= 0) {
			perror("fanout: write");
			exit(1);
		}
		buf += n;
		len -= (size_t) n;
	}
}

/* Reads one single-line reply (+OK, $-1, :1) from fd, which is readable.
 * Returns 1 when complete and a grant, 0 when complete and not, -1 when more
 * is to come. */
static int read_reply(int fd, char *buf, size_t *used, size_t cap)
{
	ssize_t n = read(fd, buf + *used, cap - *used);
	if (n <= 0) {
		fprintf(stderr, "fanout: read: %s\n", n == 0 ? "connection closed" : strerror(errno));
		exit(1);
	}
	*used += (size_t) n;
	if (*used < 2 || buf[*used - 2] != '\r' || buf[*used - 1] != '\n') {
		return -1;
	}
	return buf[0] == '+' || (buf[0] == ':' && buf[1] == '1');
}

/* Sends cmd to the servers [first, first + count) at once and waits until
 * each has answered. Returns how many granted. */
static int round_trip(int first, int count, const char *cmd, size_t len)
{
	struct pollfd pfd[MAX_SERVERS];
	char buf[MAX_SERVERS][64];
	size_t used[MAX_SERVERS] = {0};
	int pending = count, granted = 0;

	for (int i = 0; i < count; i++) {
		send_all(fds[first + i], cmd, len);
		pfd[i].fd = fds[first + i];
		pfd[i].events = POLLIN;
	}
	while (pending > 0) {
		if (poll(pfd, (nfds_t) count, 5000) <= 0) {
			fprintf(stderr, "fanout: no reply within 5 s\n");
			exit(1);
		}
		for (int i = 0; i < count; i++) {
			if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLERR | POLLHUP))) {
				continue;
			}
			int r = read_reply(pfd[i].fd, buf[i], &used[i], sizeof(buf[i]));
			if (r >= 0) {
				granted += r;
				pfd[i].fd = -1;
				pending--;
			}
		}
	}
	return granted;
}

/* Appends the RESP array of argv to out; returns its new length. */
static size_t encode(char *out, size_t at, int argc, const char **argv)
{
	at += (size_t) sprintf(out + at, "*%d\r\n", argc);
	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]);
		at += (size_t) sprintf(out + at, "$%zu\r\n", len);
		memcpy(out + at, argv[i], len);
		at += len;
		memcpy(out + at, "\r\n", 2);
		at += 2;
	}
	return at;
}

int main(int argc, char **argv)
{
	char line[64], token[33], set[512], del[512], wait_key[256], wake_key[256];
	unsigned long long serial = 0;
	int parallel;

	if (argc < 6 || argc - 5 > MAX_SERVERS) {
		fprintf(stderr, "usage: fanout parallel|sequential SHA KEY TTL PORT...\n");
		return 2;
	}
	parallel = strcmp(argv[1], "parallel") == 0;
	nservers = argc - 5;
	for (int i = 0; i < nservers; i++) {
		fds[i] = connect_port(atoi(argv[5 + i]));
	}
	snprintf(wait_key, sizeof(wait_key), "%s:redislock-wait", argv[3]);
	snprintf(wake_key, sizeof(wake_key), "%s:redislock-wake", argv[3]);
	while (fgets(line, sizeof(line), stdin)) {
		long k = strtol(line, NULL, 10), ok = 0;
		int quorum = nservers / 2 + 1;

		for (long c = 0; c < k; c++) {
			snprintf(token, sizeof(token), "%032llx", ++serial);
			const char *set_argv[] = {"SET", argv[3], token, "NX", "PX", argv[4]};
			const char *del_argv[] = {"EVALSHA", argv[2], "3", argv[3], wait_key, wake_key, token};
			size_t set_len = encode(set, 0, 6, set_argv), del_len = encode(del, 0, 7, del_argv);
			int acquired = 0, released = 0;

			if (parallel) {
				acquired = round_trip(0, nservers, set, set_len);
				released = round_trip(0, nservers, del, del_len);
			} else {
				for (int i = 0; i < nservers; i++) {
					acquired += round_trip(i, 1, set, set_len);
				}
				for (int i = 0; i < nservers; i++) {
					released += round_trip(i, 1, del, del_len);
				}
			}
			ok += acquired >= quorum && released >= quorum;
		}
		printf("%ld\n", ok);
		fflush(stdout);
	}
	return 0;
}
