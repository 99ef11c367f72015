/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_smplcsv - the --samples lines, formatted by hand, against what
 * printf and csv_field write for the same record: times before and
 * after the start and at the extremes, 0 and the largest numbers, hex
 * of every length, events and symbols that need quotes, and symbols
 * too long for the line's own buffer.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libcpc.h>

#include "smplcsv.h"
#include "smplout.h"
#include "tap.h"

static char *events[] = { "task-clock", "a,b \"q\"" };

/* The line as printf and csv_field make it (what smpl.c used to write). */
static void
printf_line(FILE *fp, const uint64_t *r, int req, int64_t t, const char *sym)
{
	fprintf(fp, "%s%" PRId64 ".%09" PRId64 ",%" PRIu64 ",%" PRIu64 ",%"
	    PRIu64 ",", t < 0 ? "-" : "", (t < 0 ? -t : t) / 1000000000,
	    (t < 0 ? -t : t) % 1000000000, r[CPC_SMPL_ITEM_CPU],
	    r[CPC_SMPL_ITEM_PID], r[CPC_SMPL_ITEM_TID]);
	csv_field(fp, events[req]);
	fprintf(fp, ",%#" PRIx64 ",%#" PRIx64 ",", r[CPC_SMPL_ITEM_PC],
	    r[CPC_SMPL_ITEM_ADDR]);
	csv_field(fp, sym);
	fputc('\n', fp);
}

static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *s = NULL;
	size_t cap = 0;
	ssize_t n;

	if (fp == NULL)
		return strdup("");
	n = getdelim(&s, &cap, '\0', fp);
	fclose(fp);
	if (n < 0) {
		free(s);
		return strdup("");
	}
	return s;
}

int
main(void)
{
	static const int64_t times[] = { 0, 1, 999999999, 1000000000,
	    1234567890123, -1, -1000000001, INT64_MAX, INT64_MIN + 1 };
	static const uint64_t nums[] = { 0, 1, 9, 10, 0xf, 0x10, 4096,
	    0xffffffff81000000ULL, UINT64_MAX, 1ULL << 63, 123456789 };
	const char *syms[] = { "split_hot", "", "[unknown]", "a,b", "q\"t",
	    " lead", "trail ", "line\nbreak", NULL, NULL };
	struct spec sp = { 0 };
	struct spec_req reqs[2] = { { 0 } };
	char path[] = "/tmp/t_smplcsv.XXXXXX", *want = NULL, *got;
	char longsym[2000], atlimit[513];
	uint64_t r[CPC_SMPL_ITEM_FRAMES] = { 0 };
	struct smplcsv *cv;
	size_t wlen, i, nt = sizeof(times) / sizeof(times[0]);
	size_t nn = sizeof(nums) / sizeof(nums[0]);
	FILE *wf;
	int fd;

	memset(longsym, 'x', sizeof(longsym) - 1);
	longsym[sizeof(longsym) - 1] = '\0';
	longsym[1500] = ',';
	memset(atlimit, 'y', sizeof(atlimit) - 1);
	atlimit[sizeof(atlimit) - 1] = '\0';
	syms[8] = longsym;
	syms[9] = atlimit;
	reqs[0].sr_event = events[0];
	reqs[1].sr_event = events[1];
	sp.sp_nreqs = 2;
	sp.sp_reqs = reqs;
	if ((fd = mkstemp(path)) < 0)
		return 1;
	close(fd);
	cv = smplcsv_open(path, &sp);
	tap_ok(cv != NULL, "opened");
	wf = open_memstream(&want, &wlen);
	fputs("time,cpu,pid,tid,event,ip,addr,symbol\n", wf);
	for (i = 0; i < 60; i++) {
		r[CPC_SMPL_ITEM_CPU] = nums[i % nn];
		r[CPC_SMPL_ITEM_PID] = nums[(i + 3) % nn];
		r[CPC_SMPL_ITEM_TID] = nums[(i + 5) % nn];
		r[CPC_SMPL_ITEM_PC] = nums[(i + 7) % nn];
		r[CPC_SMPL_ITEM_ADDR] = nums[(i / nn) % nn];
		smplcsv_line(cv, r, (int)(i & 1), times[i % nt], syms[i % 10]);
		printf_line(wf, r, (int)(i & 1), times[i % nt], syms[i % 10]);
	}
	fclose(wf);
	tap_ok(smplcsv_close(cv) == 0, "closed without an error");
	got = slurp(path);
	tap_ok(strcmp(got, want) == 0, "60 lines as printf and csv_field "
	    "write them (%zu bytes, %zu written)", wlen, strlen(got));
	if (strcmp(got, want) != 0)
		printf("# got:\n%s# want:\n%s", got, want);
	unlink(path);
	free(got);
	free(want);
	tap_ok(smplcsv_open("/nonexistent/dir/x.csv", &sp) == NULL,
	    "a file that cannot be opened is refused");
	return tap_done();
}
