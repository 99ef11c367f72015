/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - what cpustat prints: the title, sample and total lines, in
 * the text format (output.c) or through format.c, and the -T stamps:
 * one line per interval in text, a column of every row in the others.
 */
#include "config.h"

#include <err.h>
#include <stdio.h>
#include <time.h>

#include "cpustat.h"
#include "errh.h"
#include "output.h"
#include "timefmt.h"

static const struct opts *r_o;
static struct fmt	*r_fmt;		/* NULL: the text format */
static hrtime_t		 r_base;	/* CLOCK_MONOTONIC at start */
static hrtime_t		 r_walloff;	/* CLOCK_REALTIME - MONOTONIC */
static int		 r_stamped;	/* this interval's -T line is out */

int
rep_init(const struct opts *o, hrtime_t base, hrtime_t walloff)
{
	unsigned flags = 0;

	r_o = o;
	r_base = base;
	r_walloff = walloff;
	if (o->o_format == FMT_TEXT)
		return 0;
	if (o->o_tick)
		flags |= FMT_TICK;
	if (o->o_tstamp == 'u')
		flags |= FMT_EPOCH;
	else if (o->o_tstamp == 'd')
		flags |= FMT_DATE;
	r_fmt = fmt_create(o->o_format, FMT_CPUSTAT, o->o_out, o->o_outname,
	    o->o_specs, o->o_nspecs, flags, NULL);
	if (r_fmt == NULL ||
	    fmt_add_samples(r_fmt, smpl_spec(&o->o_smpl)) != 0) {
		warnx("out of memory");
		return -1;
	}
	return rep_flush();
}

void
rep_fini(void)
{
	fmt_destroy(r_fmt);
	r_fmt = NULL;
}

void
rep_title(void)
{
	if (r_fmt != NULL) {
		fmt_header(r_fmt);
		return;
	}
	fprintf(r_o->o_out, "%7s %3s %5s ", "time", "cpu", "event");
	if (r_o->o_tick)
		fprintf(r_o->o_out, "%9s ", out_tickname());
	out_pic_cells(r_o->o_out, &r_o->o_specs[0]);
	smpl_title_cells(r_o->o_out, &r_o->o_smpl);
	fputc('\n', r_o->o_out);
}

void
rep_interval(void)
{
	r_stamped = 0;
}

/* The " # spec" note: several sets, or the default set named. */
static const char *
note_for(int elem)
{
	return r_o->o_nspecs > 1 || r_o->o_default ?
	    r_o->o_specs[elem].sp_text : NULL;
}

void
rep_sample(const struct sample *s)
{
	struct fmt_row r = { .fr_kind = "tick", .fr_cpu = s->s_cpu,
	    .fr_set = s->s_elem, .fr_tick = s->s_tick, .fr_vals = s->s_vals,
	    .fr_ena = s->s_ena, .fr_run = s->s_run,
	    .fr_scaled = s->s_scaled };
	int nreqs = r_o->o_specs[s->s_elem].sp_nreqs;

	/* The samples of -S follow the set's counts (setgrp.h). */
	if (smpl_nreqs(&r_o->o_smpl) > 0 &&
	    s->s_nvals == nreqs + smpl_nreqs(&r_o->o_smpl))
		r.fr_smpl = s->s_vals + nreqs;
	if (r_fmt != NULL) {
		r.fr_time = out_reltime(s->s_hr, r_base);
		r.fr_wall = (double)(s->s_hr + r_walloff) / 1e9;
		fmt_row(r_fmt, &r);
		return;
	}
	if (r_o->o_tstamp && !r_stamped)
		tf_print(r_o->o_out, r_o->o_tstamp,
		    (time_t)((s->s_hr + r_walloff) / 1000000000));
	r_stamped = 1;
	/* "%7.3f %3d %5s " without printf: see out_time */
	out_time(r_o->o_out, s->s_hr, r_base);
	fputc(' ', r_o->o_out);
	out_u64(r_o->o_out, (uint64_t)s->s_cpu, 3);
	fputs("  tick ", r_o->o_out);
	out_row(r_o->o_out, r_o->o_tick, s->s_tick, s->s_vals, s->s_nvals,
	    s->s_scaled, note_for(s->s_elem));
}

void
rep_total(cpc_t *cpc, int set, int ncpu, hrtime_t t, cpc_buf_t *acc)
{
	struct fmt_row r = { .fr_kind = "total", .fr_cpu = ncpu,
	    .fr_ncpu = ncpu, .fr_set = set };

	if (r_fmt != NULL) {
		r.fr_time = out_reltime(t, r_base);
		r.fr_wall = (double)(t + r_walloff) / 1e9;
		fmt_buf(r_fmt, &r, cpc, acc);
		return;
	}
	fprintf(r_o->o_out, "%7.3f %3d %5s ", out_reltime(t, r_base), ncpu,
	    "total");
	out_values(r_o->o_out, cpc, acc, r_o->o_specs[set].sp_nreqs +
	    smpl_nreqs(&r_o->o_smpl), r_o->o_tick, note_for(set));
}

int
rep_flush(void)
{
	if (r_fmt == NULL || fmt_flush(r_fmt) == 0)
		return 0;
	warnx("-o '%s': %s", r_o->o_outname, errh_last());
	return -1;
}
