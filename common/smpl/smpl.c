/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smpl.c - what the tools do with sampling records (see smpl.h).
 *
 * Records are named as soon as they are read, while their process most
 * likely still lives (symtab reads its mappings then), and turned at
 * once into profile counts, CSV lines and folded stacks: nothing keeps
 * the records themselves.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "callg.h"
#include "errh.h"
#include "perfout.h"
#include "profile.h"
#include "smpl.h"
#include "smplcsv.h"
#include "smplout.h"
#include "smplreq.h"
#include "symtab.h"

struct smpl {
	cpc_t			*sm_cpc;
	const struct smpl_opts	*sm_o;
	const struct spec	*sm_spec;	/* -S */
	enum smpl_scope		 sm_scope;
	cpc_hrtime_t		 sm_t0;
	pthread_mutex_t		 sm_lock;
	struct symtab		*sm_syms;	/* NULL: no names needed */
	struct profile		*sm_prof;	/* --profile without -g */
	struct callg		*sm_callg;	/* --profile with -g */
	struct folded		*sm_fold;
	FILE			*sm_foldfp;	/* --folded, written at the end */
	struct smplcsv		*sm_csv;	/* --samples as CSV */
	FILE			*sm_perffp;	/* --samples-format=perf */
	struct perfout		*sm_perf;
	unsigned		*sm_nrecs;	/* per request: smpl_nrecs */
	uint64_t		*sm_lost;	/* per request */
	char			*sm_stack;	/* folded stack being built */
	size_t			 sm_stacklen;
	int			 sm_oom;	/* a count was lost to memory */
	int			 sm_defer;	/* records wait for smpl_flush */
	uint64_t		*sm_pend;	/* the waiting records (below) */
	size_t			 sm_npend, sm_pendcap;	/* in words */
};

/*
 * cpustat's CPU threads only copy the records (and have the mappings of
 * their processes read, while they live) and the main thread names them
 * at smpl_flush, between its lines: reading symbol tables in a CPU
 * thread would make it late for its next interval.  Each waiting record
 * is one word, its request and length (req | len << 16), then its first
 * len words.
 */
#define PEND_REQ(w)	((int)((w) & 0xffff))
#define PEND_LEN(w)	((size_t)((w) >> 16))

/*
 * Open --samples in its format (the CSV's header written): 0, or -1
 * with the reason through errh_set.
 */
static int
samples_open(struct smpl *sm)
{
	const struct smpl_opts *so = sm->sm_o;

	if (so->so_samplesfmt == SMPL_FMT_CSV)
		return (sm->sm_csv = smplcsv_open(so->so_samples,
		    sm->sm_spec)) == NULL ? -1 : 0;
	if ((sm->sm_perffp = fopen(so->so_samples, "we")) == NULL) {
		errh_set("cannot open '%s' for writing: %s", so->so_samples,
		    strerror(errno));
		return -1;
	}
	if ((sm->sm_perf = perfout_create(sm->sm_perffp, sm->sm_spec)) ==
	    NULL) {
		errh_set("out of memory");
		return -1;
	}
	return 0;
}

struct smpl *
smpl_create(cpc_t *cpc, const struct smpl_opts *so, enum smpl_scope scope)
{
	struct smpl *sm;
	int i, n = smpl_nreqs(so);

	if ((sm = calloc(1, sizeof(*sm))) == NULL)
		goto out_nomem;
	sm->sm_cpc = cpc;
	sm->sm_o = so;
	sm->sm_spec = &so->so_spec;
	sm->sm_scope = scope;
	sm->sm_defer = scope != SMPL_BY_PID;
	pthread_mutex_init(&sm->sm_lock, NULL);
	if ((sm->sm_nrecs = calloc(n + 1, sizeof(*sm->sm_nrecs))) == NULL ||
	    (sm->sm_lost = calloc(n + 1, sizeof(*sm->sm_lost))) == NULL)
		goto out_nomem;
	for (i = 0; i < n; i++)
		sm->sm_nrecs[i] = smplreq_nrecs(cpc, sm->sm_spec, i,
		    so->so_callchain);
	if ((so->so_profile || so->so_samples != NULL ||
	    so->so_folded != NULL) && (sm->sm_syms = symtab_create()) == NULL)
		goto out_nomem;
	if (so->so_profile && !so->so_callchain &&
	    (sm->sm_prof = profile_create()) == NULL)
		goto out_nomem;
	if (so->so_profile && so->so_callchain &&
	    (sm->sm_callg = callg_create()) == NULL)
		goto out_nomem;
	if (so->so_folded != NULL && (sm->sm_fold = folded_create()) == NULL)
		goto out_nomem;
	/* Opened now: a file that cannot be written is said at once. */
	if (so->so_folded != NULL &&
	    (sm->sm_foldfp = fopen(so->so_folded, "we")) == NULL) {
		errh_set("cannot open '%s' for writing: %s", so->so_folded,
		    strerror(errno));
		smpl_destroy(sm);
		return NULL;
	}
	if (so->so_samples != NULL && samples_open(sm) != 0) {
		smpl_destroy(sm);
		return NULL;
	}
	return sm;
out_nomem:
	errh_set("out of memory");
	smpl_destroy(sm);
	return NULL;
}

void
smpl_destroy(struct smpl *sm)
{
	if (sm == NULL)
		return;
	(void)smplcsv_close(sm->sm_csv);
	if (sm->sm_foldfp != NULL)
		fclose(sm->sm_foldfp);
	symtab_destroy(sm->sm_syms);
	profile_destroy(sm->sm_prof);
	callg_destroy(sm->sm_callg);
	perfout_destroy(sm->sm_perf);
	if (sm->sm_perffp != NULL)
		fclose(sm->sm_perffp);
	folded_destroy(sm->sm_fold);
	free(sm->sm_nrecs);
	free(sm->sm_lost);
	free(sm->sm_stack);
	free(sm->sm_pend);
	pthread_mutex_destroy(&sm->sm_lock);
	free(sm);
}

void
smpl_start(struct smpl *sm, cpc_hrtime_t t0)
{
	if (sm != NULL)
		sm->sm_t0 = t0;
}

int
smpl_count(const struct smpl *sm)
{
	return sm->sm_spec->sp_nreqs;
}

int
smpl_add_requests(struct smpl *sm, cpc_set_t *set)
{
	return smplreq_add(sm->sm_cpc, sm->sm_spec, sm->sm_o->so_callchain,
	    set);
}

void
smpl_note_pid(struct smpl *sm, pid_t pid)
{
	if (sm != NULL && sm->sm_syms != NULL)
		symtab_note(sm->sm_syms, pid);
}

void
smpl_exec_pid(struct smpl *sm, pid_t pid)
{
	if (sm != NULL && sm->sm_syms != NULL)
		symtab_forget(sm->sm_syms, pid);
	if (sm != NULL && sm->sm_perf != NULL) {
		pthread_mutex_lock(&sm->sm_lock);
		perfout_forget(sm->sm_perf, pid);
		pthread_mutex_unlock(&sm->sm_lock);
	}
}

/*
 * The record's call chain as one folded line, root first.  The chain is
 * innermost first: kernel frames, then user frames; each frame after the
 * first of its part is a return address, looked up one byte back so
 * that a call that ends its function is named for that function.
 */
static void
fold(struct smpl *sm, const uint64_t *r, pid_t pid)
{
	uint64_t nf = r[CPC_SMPL_ITEM_NFRAMES];
	const char *sym, *obj;
	size_t used = 0;
	uint64_t i;

	if (nf == 0)
		return;
	for (i = nf; i-- > 0;) {
		symtab_resolve(sm->sm_syms, pid, callg_frame_pc(r, i), &sym,
		    &obj);
		if (strcmp(obj, SYM_UNKNOWN) == 0)
			obj = NULL;
		if (folded_frame(&sm->sm_stack, &sm->sm_stacklen, &used, obj,
		    sym) != 0) {
			sm->sm_oom = 1;
			return;
		}
	}
	if (folded_add(sm->sm_fold, sm->sm_stack, 1) != 0)
		sm->sm_oom = 1;
}

static long
scope_of(const struct smpl *sm, const uint64_t *r)
{
	switch (sm->sm_scope) {
	case SMPL_BY_PID:
		return (long)r[CPC_SMPL_ITEM_PID];
	case SMPL_BY_CPU:
		return sm->sm_o->so_percpu ? (long)r[CPC_SMPL_ITEM_CPU] : -1;
	case SMPL_SYSTEM:
		break;
	}
	return -1;
}

static void
take_record(struct smpl *sm, const uint64_t *r, int req)
{
	pid_t pid = (pid_t)r[CPC_SMPL_ITEM_PID];
	const char *sym, *obj;

	symtab_resolve(sm->sm_syms, pid, r[CPC_SMPL_ITEM_PC], &sym, &obj);
	if (sm->sm_prof != NULL && profile_add(sm->sm_prof, scope_of(sm, r),
	    req, sym, obj, 1) != 0)
		sm->sm_oom = 1;
	if (sm->sm_callg != NULL && callg_record(sm->sm_callg, sm->sm_syms,
	    scope_of(sm, r), req, r) != 0)
		sm->sm_oom = 1;
	if (sm->sm_perf != NULL) {
		if (perfout_record(sm->sm_perf, sm->sm_syms, r, req) != 0)
			sm->sm_oom = 1;
	} else if (sm->sm_csv != NULL)
		smplcsv_line(sm->sm_csv, r, req, (int64_t)
		    (r[CPC_SMPL_ITEM_TIME] - (uint64_t)sm->sm_t0), sym);
	if (sm->sm_fold != NULL)
		fold(sm, r, pid);
}

/* Keep record r of request req for smpl_flush. */
static void
defer_record(struct smpl *sm, const uint64_t *r, int req)
{
	size_t len = CPC_SMPL_ITEM_FRAMES + r[CPC_SMPL_ITEM_NFRAMES], cap;
	uint64_t *np;

	if (sm->sm_npend + len + 1 > sm->sm_pendcap) {
		cap = (sm->sm_npend + len + 1) * 2;
		if ((np = realloc(sm->sm_pend, cap * sizeof(*np))) == NULL) {
			sm->sm_oom = 1;
			return;
		}
		sm->sm_pend = np;
		sm->sm_pendcap = cap;
	}
	symtab_note(sm->sm_syms, (pid_t)r[CPC_SMPL_ITEM_PID]);
	perfout_note(sm->sm_perf, (pid_t)r[CPC_SMPL_ITEM_PID],
	    (pid_t)r[CPC_SMPL_ITEM_TID]);
	sm->sm_pend[sm->sm_npend++] = (uint64_t)req | (uint64_t)len << 16;
	memcpy(sm->sm_pend + sm->sm_npend, r, len * sizeof(*r));
	sm->sm_npend += len;
}

/* Name the waiting records; the caller holds the lock. */
static void
flush_locked(struct smpl *sm)
{
	size_t i, len;

	for (i = 0; i < sm->sm_npend; i += len) {
		len = PEND_LEN(sm->sm_pend[i]);
		take_record(sm, sm->sm_pend + i + 1, PEND_REQ(sm->sm_pend[i]));
		len++;
	}
	sm->sm_npend = 0;
}

void
smpl_flush(struct smpl *sm)
{
	if (sm == NULL)
		return;
	pthread_mutex_lock(&sm->sm_lock);
	flush_locked(sm);
	pthread_mutex_unlock(&sm->sm_lock);
}

int
smpl_take(struct smpl *sm, int first, cpc_buf_t *buf)
{
	cpc_uint_t n, k;
	uint64_t lost;
	const uint64_t *r;
	int i, more = 0;

	pthread_mutex_lock(&sm->sm_lock);
	for (i = 0; i < sm->sm_spec->sp_nreqs; i++) {
		if (cpc_buf_smpl_rec_count(sm->sm_cpc, buf, first + i, &n) != 0)
			continue;
		if (cpc_buf_smpl_lost(sm->sm_cpc, buf, first + i, &lost) == 0)
			sm->sm_lost[i] += lost;
		if (n >= sm->sm_nrecs[i])
			more = 1;
		if (sm->sm_syms == NULL)
			continue;
		for (k = 0; k < n; k++)
			if ((r = cpc_buf_smpl_get_record(sm->sm_cpc, buf,
			    first + i, (int)k)) == NULL)
				continue;
			else if (sm->sm_defer)
				defer_record(sm, r, i);
			else
				take_record(sm, r, i);
	}
	pthread_mutex_unlock(&sm->sm_lock);
	return more;
}

void
smpl_print_profile(struct smpl *sm, FILE *fp, long scope, const char *what)
{
	int i;

	if (sm == NULL || (sm->sm_prof == NULL && sm->sm_callg == NULL))
		return;
	pthread_mutex_lock(&sm->sm_lock);
	flush_locked(sm);
	for (i = 0; i < sm->sm_spec->sp_nreqs; i++)
		if (sm->sm_callg != NULL)
			(void)callg_print(sm->sm_callg, fp, scope, i, what,
			    sm->sm_spec->sp_reqs[i].sr_event,
			    sm->sm_o->so_profile);
		else if (profile_total(sm->sm_prof, scope, i) > 0)
			(void)profile_print(sm->sm_prof, fp, scope, i, what,
			    sm->sm_spec->sp_reqs[i].sr_event,
			    sm->sm_o->so_profile);
	if (sm->sm_callg != NULL)
		callg_drop(sm->sm_callg, scope);
	else
		profile_drop(sm->sm_prof, scope);
	pthread_mutex_unlock(&sm->sm_lock);
}

int
smpl_finish(struct smpl *sm)
{
	struct smplcsv *cv;
	FILE *fp;
	int i, rc = 0;

	smpl_flush(sm);
	for (i = 0; i < sm->sm_spec->sp_nreqs; i++)
		if (sm->sm_lost[i] > 0)
			warnx("-S '%s': %" PRIu64 " records lost: the kernel's "
			    "ring was full (sample more often, or with a "
			    "longer period)", sm->sm_spec->sp_reqs[i].sr_event,
			    sm->sm_lost[i]);
	if (sm->sm_oom)
		warnx("out of memory: some samples are missing from the "
		    "reports");
	if (sm->sm_foldfp != NULL) {
		fp = sm->sm_foldfp;
		sm->sm_foldfp = NULL;
		if ((folded_write(sm->sm_fold, fp) | fclose(fp)) != 0) {
			warn("cannot write '%s'", sm->sm_o->so_folded);
			rc = -1;
		}
	}
	if (sm->sm_csv != NULL) {
		cv = sm->sm_csv;
		sm->sm_csv = NULL;
		if (smplcsv_close(cv) != 0) {
			warn("cannot write '%s'", sm->sm_o->so_samples);
			rc = -1;
		}
	}
	if (sm->sm_perffp != NULL) {
		fp = sm->sm_perffp;
		sm->sm_perffp = NULL;
		if ((ferror(fp) | fclose(fp)) != 0) {
			warn("cannot write '%s'", sm->sm_o->so_samples);
			rc = -1;
		}
	}
	return rc;
}
