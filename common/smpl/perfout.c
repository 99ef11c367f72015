/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perfout.c - the samples as `perf script` text (see perfout.h).
 *
 * The grammar is the one the importers read: Firefox Profiler takes a
 * first line "name [pid/]tid [[cpu]] time:" (the name may hold spaces;
 * whatever follows the time is the event), then frame lines
 * "address symbol[+0xoffset] (object)" up to an empty line; speedscope
 * reads the same blocks, cut at empty lines, with the event the last
 * word of the first line before its final ':', and wants the name to
 * begin with a non-space and be followed by more than one character
 * before the pid (hence the padding).  The object may hold no space.
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <libcpc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callg.h"
#include "perfout.h"
#include "smplreq.h"
#include "symtab.h"

#define NCHAIN		1024
#define COMMLEN		32	/* the kernel's TASK_COMM_LEN is 16 */

struct pcomm {
	struct pcomm	*pc_next;
	pid_t		 pc_pid;
	pid_t		 pc_tid;
	char		 pc_comm[COMMLEN];
};

struct perfout {
	FILE			*po_fp;
	const struct spec	*po_sp;
	uint64_t		*po_period;	/* per request; 0 unknown */
	struct pcomm		*po_comm[NCHAIN];
};

struct perfout *
perfout_create(FILE *fp, const struct spec *sp)
{
	struct perfout *po;
	int i;

	if ((po = calloc(1, sizeof(*po))) == NULL)
		return NULL;
	if ((po->po_period = calloc((size_t)sp->sp_nreqs + 1,
	    sizeof(*po->po_period))) == NULL) {
		free(po);
		return NULL;
	}
	po->po_fp = fp;
	po->po_sp = sp;
	for (i = 0; i < sp->sp_nreqs; i++)
		po->po_period[i] = smplreq_period(sp, i);
	return po;
}

/* Forget the names of pid's threads, or all of them when pid < 0. */
static void
comm_drop(struct perfout *po, pid_t pid)
{
	struct pcomm **pp, *c;
	size_t i;

	for (i = 0; i < NCHAIN; i++)
		for (pp = &po->po_comm[i]; (c = *pp) != NULL;) {
			if (pid >= 0 && c->pc_pid != pid) {
				pp = &c->pc_next;
				continue;
			}
			*pp = c->pc_next;
			free(c);
		}
}

void
perfout_destroy(struct perfout *po)
{
	if (po == NULL)
		return;
	comm_drop(po, -1);
	free(po->po_period);
	free(po);
}

void
perfout_forget(struct perfout *po, pid_t pid)
{
	if (po != NULL && pid >= 0)
		comm_drop(po, pid);
}

/*
 * tid's name into buf (COMMLEN): what /proc says, each control
 * character and a leading space made '_'; "swapper" for the idle
 * task (tid 0), ":TID" when it cannot be read, as perf writes.
 */
static void
comm_read(pid_t pid, pid_t tid, char *buf)
{
	char path[64];
	ssize_t n = -1;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid,
	    (int)tid);
	if (tid > 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, COMMLEN - 1);
		close(fd);
	}
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	if (n <= 0) {
		snprintf(buf, COMMLEN, tid == 0 ? "swapper" : ":%d", (int)tid);
		return;
	}
	buf[n] = '\0';
	for (i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f ||
		    (i == 0 && buf[i] == ' '))
			buf[i] = '_';
}

/* tid's name, read at its first sample; NULL when out of memory. */
static const char *
comm_of(struct perfout *po, pid_t pid, pid_t tid)
{
	size_t h = (unsigned)tid % NCHAIN;
	struct pcomm *c;

	for (c = po->po_comm[h]; c != NULL; c = c->pc_next)
		if (c->pc_tid == tid && c->pc_pid == pid)
			return c->pc_comm;
	if ((c = malloc(sizeof(*c))) == NULL)
		return NULL;
	c->pc_pid = pid;
	c->pc_tid = tid;
	comm_read(pid, tid, c->pc_comm);
	c->pc_next = po->po_comm[h];
	po->po_comm[h] = c;
	return c->pc_comm;
}

void
perfout_note(struct perfout *po, pid_t pid, pid_t tid)
{
	if (po != NULL)
		(void)comm_of(po, pid, tid);
}

/* s, each control character (and with nospace each space) made '_'. */
static void
put_clean(FILE *fp, const char *s, int nospace)
{
	for (; *s != '\0'; s++)
		putc((unsigned char)*s < 0x20 || *s == 0x7f ||
		    (nospace && *s == ' ') ? '_' : *s, fp);
}

/*
 * A frame line: address ip, named by the function that holds look (ip,
 * or a return address less one), the offset from that function's start
 * to ip.
 */
static void
frame_line(FILE *fp, struct symtab *st, pid_t pid, uint64_t ip,
    uint64_t look)
{
	const char *sym, *obj;
	uint64_t off;

	symtab_resolve_off(st, pid, look, &sym, &obj, &off);
	fprintf(fp, "\t%16" PRIx64 " ", ip);
	put_clean(fp, sym, 0);
	if (off != SYM_NOOFF)
		fprintf(fp, "+0x%" PRIx64, off + (ip - look));
	fputs(" (", fp);
	put_clean(fp, obj, 1);
	fputs(")\n", fp);
}

int
perfout_record(struct perfout *po, struct symtab *st, const uint64_t *r,
    int req)
{
	pid_t pid = (pid_t)r[CPC_SMPL_ITEM_PID];
	pid_t tid = (pid_t)r[CPC_SMPL_ITEM_TID];
	uint64_t i, nf = r[CPC_SMPL_ITEM_NFRAMES], t = r[CPC_SMPL_ITEM_TIME];
	const char *comm;
	FILE *fp = po->po_fp;

	if ((comm = comm_of(po, pid, tid)) == NULL)
		return -1;
	fprintf(fp, "%-15s %d/%d [%03" PRIu64 "] %" PRIu64 ".%09" PRIu64 ": ",
	    comm, (int)pid, (int)tid, r[CPC_SMPL_ITEM_CPU], t / 1000000000,
	    t % 1000000000);
	if (po->po_period[req] != 0)
		fprintf(fp, "%" PRIu64 " ", po->po_period[req]);
	put_clean(fp, po->po_sp->sp_reqs[req].sr_event, 1);
	fputs(":\n", fp);
	if (nf == 0)
		frame_line(fp, st, pid, r[CPC_SMPL_ITEM_PC],
		    r[CPC_SMPL_ITEM_PC]);
	for (i = 0; i < nf; i++)
		frame_line(fp, st, pid, r[CPC_SMPL_ITEM_FRAME(i)],
		    callg_frame_pc(r, i));
	putc('\n', fp);
	return 0;
}
