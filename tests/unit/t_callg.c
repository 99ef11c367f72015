/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_callg - the call graph of --profile with -g (total and self per
 * function, a recursion counted once per sample, the callers and callees
 * of the top, scopes kept apart), the frame addresses of a chain, a
 * function's offset from symtab, and a sample as perf script text.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callg.h"
#include "perfout.h"
#include "symtab.h"
#include "tap.h"

/* Functions to be named: not inlined, not merged, exported. */
__attribute__((noinline, used)) int t_callg_leaf(int x);
__attribute__((noinline, used)) int t_callg_outer(int x);

int
t_callg_leaf(int x)
{
	return x * 7 + 3;
}

int
t_callg_outer(int x)
{
	return t_callg_leaf(x) * 2;
}

/* cg's report of scope and ev, as text (malloc'd). */
static char *
report(struct callg *cg, long scope, int ev, int top)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	(void)callg_print(cg, fp, scope, ev, "pid 1", "ev", top);
	fclose(fp);
	return text;
}

static void
test_recursion(void)
{
	/* main -> f -> g -> f (innermost first), then main -> g. */
	const char *s1[] = { "f", "g", "f", "main" };
	const char *s2[] = { "g", "main" };
	const char *o[] = { "x", "x", "x", "x" };
	struct callg *cg = callg_create();
	char *text;

	callg_add(cg, 1, 0, s1, o, 4);
	callg_add(cg, 1, 0, s2, o, 2);
	callg_add(cg, 2, 0, s2, o, 2);		/* another scope */
	callg_add(cg, 1, 1, s2, o, 2);		/* another event */
	text = report(cg, 1, 0, 10);
	tap_str(text,
	    "# profile: pid 1, ev, 2 samples\n"
	    "# total%    self%     total      self symbol object\n"
	    "  100.00     0.00         2         0 main x\n"
	    "  100.00    50.00         2         1 g x\n"
	    "   50.00    50.00         1         1 f x\n"
	    "# calls: pid 1, ev: the callers and callees of the 3 above\n"
	    "#    pct   samples role     symbol object\n"
	    "  100.00         2 function main x\n"
	    "   50.00         1 callee     f x\n"
	    "   50.00         1 callee     g x\n"
	    "   50.00         1 caller     f x\n"
	    "   50.00         1 caller     main x\n"
	    "  100.00         2 function g x\n"
	    "   50.00         1 callee     f x\n"
	    "   50.00         1 caller     g x\n"
	    "   50.00         1 caller     main x\n"
	    "   50.00         1 function f x\n"
	    "   50.00         1 callee     g x\n",
	    "a recursion counts once per sample; each pair once");
	free(text);
	text = report(cg, 1, 0, 1);
	tap_str(text,
	    "# profile: pid 1, ev, 2 samples\n"
	    "# total%    self%     total      self symbol object\n"
	    "  100.00     0.00         2         0 main x\n"
	    "# calls: pid 1, ev: the callers and callees of the 1 above\n"
	    "#    pct   samples role     symbol object\n"
	    "  100.00         2 function main x\n"
	    "   50.00         1 callee     f x\n"
	    "   50.00         1 callee     g x\n",
	    "top 1: one function and its calls");
	free(text);
	callg_drop(cg, 1);
	text = report(cg, 1, 0, 10);
	tap_ok(text == NULL || *text == '\0', "a dropped scope prints nothing");
	free(text);
	text = report(cg, 2, 0, 10);
	tap_ok(text != NULL && strstr(text, "2 samples") == NULL &&
	    strstr(text, "1 samples") != NULL, "the other scope is kept");
	free(text);
	callg_destroy(cg);
}

static void
test_frame_pc(void)
{
	uint64_t r[CPC_SMPL_ITEM_FRAME(4)] = { 0 };

	r[CPC_SMPL_ITEM_NFRAMES] = 4;
	r[CPC_SMPL_ITEM_NKFRAMES] = 2;
	r[CPC_SMPL_ITEM_FRAME(0)] = 100;
	r[CPC_SMPL_ITEM_FRAME(1)] = 200;
	r[CPC_SMPL_ITEM_FRAME(2)] = 300;
	r[CPC_SMPL_ITEM_FRAME(3)] = 400;
	tap_u64(callg_frame_pc(r, 0), 100, "the kernel's first frame as it is");
	tap_u64(callg_frame_pc(r, 1), 199, "a kernel return address less one");
	tap_u64(callg_frame_pc(r, 2), 300, "the user's first frame as it is");
	tap_u64(callg_frame_pc(r, 3), 399, "a user return address less one");
}

/* A record of this process: its pc, and with chain a chain of two. */
static void
fake_record(uint64_t *r, int chain)
{
	uint64_t leaf = (uint64_t)(uintptr_t)t_callg_leaf + 1;
	uint64_t outer = (uint64_t)(uintptr_t)t_callg_outer + 5;

	memset(r, 0, CPC_SMPL_ITEM_FRAME(2) * sizeof(*r));
	r[CPC_SMPL_ITEM_PC] = leaf;
	r[CPC_SMPL_ITEM_PID] = r[CPC_SMPL_ITEM_TID] = (uint64_t)getpid();
	r[CPC_SMPL_ITEM_CPU] = 3;
	r[CPC_SMPL_ITEM_TIME] = 12345000000042ULL;
	if (chain) {
		r[CPC_SMPL_ITEM_NFRAMES] = 2;
		r[CPC_SMPL_ITEM_FRAME(0)] = leaf;
		r[CPC_SMPL_ITEM_FRAME(1)] = outer;
	}
}

static void
test_perfout(void)
{
	struct symtab *st = symtab_create();
	struct spec_req req = { .sr_event = "my event", .sr_nattrs = 1 };
	struct spec sp = { .sp_nreqs = 1, .sp_reqs = &req };
	uint64_t r[CPC_SMPL_ITEM_FRAME(2)], off;
	const char *sym, *obj;
	char *text = NULL, want[512];
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct perfout *po;
	int pid = (int)getpid();

	symtab_resolve_off(st, pid, (uint64_t)(uintptr_t)t_callg_outer + 5,
	    &sym, &obj, &off);
	tap_str(sym, "t_callg_outer", "symtab_resolve_off: the function");
	tap_u64(off, 5, "and how far into it");
	symtab_resolve_off(st, pid, 16, &sym, &obj, &off);
	tap_u64(off, SYM_NOOFF, "no offset where there is no name");
	req.sr_attrs[0].ca_name = "period";
	req.sr_attrs[0].ca_val = 7;
	po = perfout_create(fp, &sp);
	fake_record(r, 1);
	perfout_record(po, st, r, 0);
	req.sr_attrs[0].ca_name = "other";	/* read at create: still 7 */
	fake_record(r, 0);
	perfout_record(po, st, r, 0);
	perfout_destroy(po);
	fclose(fp);
	snprintf(want, sizeof(want),
	    "t_callg         %d/%d [003] 12345.000000042: 7 my_event:\n"
	    "\t%16lx t_callg_leaf+0x1 (t_callg)\n"
	    "\t%16lx t_callg_outer+0x5 (t_callg)\n\n"
	    "t_callg         %d/%d [003] 12345.000000042: 7 my_event:\n"
	    "\t%16lx t_callg_leaf+0x1 (t_callg)\n\n",
	    pid, pid, (unsigned long)r[CPC_SMPL_ITEM_PC],
	    (unsigned long)(uintptr_t)t_callg_outer + 5, pid, pid,
	    (unsigned long)r[CPC_SMPL_ITEM_PC]);
	tap_str(text, want, "two samples as perf script text");
	free(text);
	symtab_destroy(st);
}

int
main(void)
{
	test_recursion();
	test_frame_pc();
	test_perfout();
	return tap_done();
}
