// SPDX-License-Identifier: GPL-2.0
/*
 * bpfattach KIND FUNCTION - put a BPF trampoline on a kernel function, for
 * the VM tests (fs_hook_test.sh, review round 19).
 *
 * Loads a two-instruction BPF_PROG_TYPE_TRACING program ("return 0") of
 * KIND fentry, fexit or fmod_ret for the vmlinux function FUNCTION,
 * attaches it (BPF_RAW_TRACEPOINT_OPEN), prints "attached KIND FUNCTION"
 * and waits until killed: the program stays attached while this process
 * lives (the link is its file descriptor).  Raw bpf(2), no libbpf:
 * FUNCTION's BTF id is read from /sys/kernel/btf/vmlinux.
 *
 * A fmod_ret program that returns 0 lets the function run; with
 * utf8guard_fs.ko's ftrace_ops on the same function (ftrace lets an
 * IPMODIFY ops share it with a BPF trampoline since 6.0), the refusal
 * must still reach the caller.
 *
 * Exit status 1 (with the reason on stderr) if it cannot attach, 2 on a
 * usage error.
 * Build: gcc -static -O2 -Wall -Wextra -Werror -std=gnu11 bpfattach.c
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BTF_KIND_FUNC 12

/* The size of what follows a BTF type's 12-byte header, by kind. */
static size_t btf_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case 1:		/* INT */
	case 14:	/* VAR */
	case 17:	/* DECL_TAG */
		return 4;
	case 3:		/* ARRAY */
		return 12;
	case 4:		/* STRUCT */
	case 5:		/* UNION */
	case 15:	/* DATASEC */
	case 19:	/* ENUM64 */
		return 12 * (size_t)vlen;
	case 6:		/* ENUM */
	case 13:	/* FUNC_PROTO */
		return 8 * (size_t)vlen;
	default:	/* PTR, FWD, TYPEDEF, qualifiers, FUNC, FLOAT, TYPE_TAG */
		return 0;
	}
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* FUNCTION's BTF type id in vmlinux, or -1. */
static int btf_func_id(const char *want)
{
	const char *path = "/sys/kernel/btf/vmlinux";
	unsigned char *b, *t, *end;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	const char *str;
	struct stat st;
	size_t got = 0;
	int fd, id = 1;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "bpfattach: %s: %s\n", path, strerror(errno));
		return -1;
	}
	b = malloc(st.st_size);
	if (!b) {
		fprintf(stderr, "bpfattach: out of memory\n");
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, b + got, st.st_size - got);

		if (r <= 0) {
			fprintf(stderr, "bpfattach: read %s: %s\n", path,
				r ? strerror(errno) : "short file");
			return -1;
		}
		got += r;
	}
	close(fd);
	if (got < 24) {
		fprintf(stderr, "bpfattach: %s: no BTF header\n", path);
		return -1;
	}
	hdr_len = get32(b + 4);
	type_off = get32(b + 8);
	type_len = get32(b + 12);
	str_off = get32(b + 16);
	str_len = get32(b + 20);
	if ((size_t)hdr_len + type_off + type_len > got ||
	    (size_t)hdr_len + str_off + str_len > got) {
		fprintf(stderr, "bpfattach: %s: bad BTF header\n", path);
		return -1;
	}
	t = b + hdr_len + type_off;
	end = t + type_len;
	str = (const char *)(b + hdr_len + str_off);
	while (t + 12 <= end) {
		uint32_t name = get32(t), info = get32(t + 4);
		unsigned int kind = (info >> 24) & 0x1f, vlen = info & 0xffff;

		if (kind == BTF_KIND_FUNC && name < str_len &&
		    !strcmp(str + name, want))
			return id;
		t += 12 + btf_extra(kind, vlen);
		id++;
	}
	fprintf(stderr, "bpfattach: no BTF function %s\n", want);
	return -1;
}

static char verifier_log[65536];

int main(int argc, char **argv)
{
	struct bpf_insn insns[] = {
		/* r0 = 0; exit */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	enum bpf_attach_type type;
	union bpf_attr a;
	int id, pfd, lfd;

	if (argc != 3) {
		fprintf(stderr, "usage: bpfattach fentry|fexit|fmod_ret FUNCTION\n");
		return 2;
	}
	if (!strcmp(argv[1], "fentry")) {
		type = BPF_TRACE_FENTRY;
	} else if (!strcmp(argv[1], "fexit")) {
		type = BPF_TRACE_FEXIT;
	} else if (!strcmp(argv[1], "fmod_ret")) {
		type = BPF_MODIFY_RETURN;
	} else {
		fprintf(stderr, "bpfattach: unknown kind %s\n", argv[1]);
		return 2;
	}
	id = btf_func_id(argv[2]);
	if (id < 0)
		return 1;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	a.expected_attach_type = type;
	a.attach_btf_id = id;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)verifier_log;
	a.log_size = sizeof(verifier_log);
	a.log_level = 1;
	pfd = syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	if (pfd < 0) {
		fprintf(stderr, "bpfattach: BPF_PROG_LOAD: %s\n%s\n",
			strerror(errno), verifier_log);
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = pfd;
	lfd = syscall(SYS_bpf, BPF_RAW_TRACEPOINT_OPEN, &a, sizeof(a));
	if (lfd < 0) {
		fprintf(stderr, "bpfattach: attach %s to %s: %s\n", argv[1],
			argv[2], strerror(errno));
		return 1;
	}
	printf("attached %s %s\n", argv[1], argv[2]);
	fflush(stdout);
	for (;;)
		pause();
}
