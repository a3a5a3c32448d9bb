// SPDX-License-Identifier: GPL-2.0
/*
 * uring.c - one io_uring request at a time, with the raw system calls
 * (io_uring_setup(2), io_uring_enter(2)): the ring has one entry, the
 * request is submitted and waited for in one io_uring_enter().
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uring.h"

static int setup(unsigned int entries, struct io_uring_params *p)
{
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int enter(int fd, unsigned int submit, unsigned int wait)
{
	return (int)syscall(__NR_io_uring_enter, fd, submit, wait,
			    IORING_ENTER_GETEVENTS, NULL, 0);
}

int uring_personality;

/* The personality's id, or -errno. */
static int personality(int fd)
{
	int id = (int)syscall(__NR_io_uring_register, fd,
			      IORING_REGISTER_PERSONALITY, NULL, 0);
	int keep = prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0);

	if (id < 0 || keep < 0 || prctl(PR_SET_KEEPCAPS, keep, 0, 0, 0))
		return -errno;
	return id;
}

int uring_run(const struct io_uring_sqe *sqe)
{
	struct io_uring_params p;
	size_t sq_size, cq_size, sqes_size;
	void *sq = MAP_FAILED, *cq = MAP_FAILED, *sqes = MAP_FAILED;
	struct io_uring_cqe *cqe;
	uint32_t *tail, *mask, *array, *cq_head, *cq_tail;
	int fd, res, id = 0;

	memset(&p, 0, sizeof(p));
	fd = setup(1, &p);
	if (fd < 0)
		return -errno;
	if (uring_personality) {
		id = personality(fd);
		if (id < 0) {
			close(fd);
			return id;
		}
	}
	sq_size = p.sq_off.array + p.sq_entries * sizeof(uint32_t);
	cq_size = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sqes_size = p.sq_entries * sizeof(struct io_uring_sqe);
	sq = mmap(NULL, sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, sqes_size, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		res = -errno;
		goto out;
	}
	tail = (uint32_t *)((char *)sq + p.sq_off.tail);
	mask = (uint32_t *)((char *)sq + p.sq_off.ring_mask);
	array = (uint32_t *)((char *)sq + p.sq_off.array);
	memcpy(sqes, sqe, sizeof(*sqe));
	((struct io_uring_sqe *)sqes)->user_data = 1;
	((struct io_uring_sqe *)sqes)->personality = (uint16_t)id;
	array[*tail & *mask] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (enter(fd, 1, 1) < 0) {
		res = -errno;
		goto out;
	}
	cq_head = (uint32_t *)((char *)cq + p.cq_off.head);
	cq_tail = (uint32_t *)((char *)cq + p.cq_off.tail);
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head) {
		res = -EAGAIN;
		goto out;
	}
	cqe = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes) +
	      (*cq_head & *(uint32_t *)((char *)cq + p.cq_off.ring_mask));
	res = cqe->res;
	__atomic_store_n(cq_head, *cq_head + 1, __ATOMIC_RELEASE);
out:
	if (sqes != MAP_FAILED)
		munmap(sqes, sqes_size);
	if (cq != MAP_FAILED)
		munmap(cq, cq_size);
	if (sq != MAP_FAILED)
		munmap(sq, sq_size);
	close(fd);
	return res;
}
