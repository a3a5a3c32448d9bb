// SPDX-License-Identifier: GPL-2.0
/*
 * audit_listen - a minimal audit daemon for the VM suites, where there is
 * no auditd: enables auditing and registers itself as the daemon over
 * NETLINK_AUDIT, as auditd does (AUDIT_SET: enabled 1, pid, and the
 * backlog limit of Debian's audit rules, 8192), then writes
 * every record the kernel sends, one per line, "type=N TEXT", to stdout,
 * until SIGTERM or SIGINT; then disables auditing again.
 *
 * usage: audit_listen
 * Prints "audit_listen: ready" on stderr once registered.  Exit status 0,
 * or 1 with a message naming the failed call.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "audit_listen: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* AUDIT_SET with @enabled and the daemon's pid (0: none), acknowledged. */
static int audit_set(int fd, unsigned int enabled, unsigned int pid)
{
	struct {
		struct nlmsghdr nlh;
		struct audit_status status;
	} req;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char reply[8192];
	struct nlmsghdr *nlh = (struct nlmsghdr *)reply;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = AUDIT_SET;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nlh.nlmsg_seq = 1;
	req.status.mask = AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID |
			  AUDIT_STATUS_BACKLOG_LIMIT;
	req.status.enabled = enabled;
	req.status.pid = pid;
	req.status.backlog_limit = 8192;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	/* The ack; records that arrive before it are dropped. */
	for (;;) {
		n = recv(fd, reply, sizeof(reply), 0);
		if (n < 0)
			return -errno;
		if (!NLMSG_OK(nlh, (size_t)n) || nlh->nlmsg_type != NLMSG_ERROR)
			continue;
		return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
	}
}

int main(void)
{
	struct sockaddr_nl self = { .nl_family = AF_NETLINK };
	struct sigaction sa;
	char buf[16384];	/* a record is at most 8970 bytes (the kernel's limit) */
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int fd, err;
	ssize_t n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: recv returns EINTR */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	if (fd < 0)
		die("socket(NETLINK_AUDIT)");
	if (bind(fd, (struct sockaddr *)&self, sizeof(self)) < 0)
		die("bind");
	err = audit_set(fd, 1, getpid());
	if (err) {
		errno = -err;
		die("AUDIT_SET enabled=1 pid");
	}
	fputs("audit_listen: ready\n", stderr);
	while (!stop) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recv");
		}
		/*
		 * One record a datagram, its text up to the datagram's end:
		 * the kernel's nlmsg_len leaves out the header (the "length
		 * quirk" of kauditd_send_multicast_skb()).
		 */
		if (n < NLMSG_HDRLEN || nlh->nlmsg_type < AUDIT_FIRST_USER_MSG)
			continue;
		printf("type=%u %.*s\n", nlh->nlmsg_type,
		       (int)strnlen(NLMSG_DATA(nlh), n - NLMSG_HDRLEN),
		       (char *)NLMSG_DATA(nlh));
	}
	err = audit_set(fd, 0, 0);
	if (err) {
		errno = -err;
		die("AUDIT_SET enabled=0");
	}
	return 0;
}
