/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - what cpustat prints: the title, sample and total lines,
 * handed as rows to the writer of the chosen format (format.h).
 */
#include "config.h"

#include <err.h>
#include <stdio.h>

#include "cpustat.h"
#include "errh.h"

static const struct opts *r_o;
static struct fmt	*r_fmt;
static hrtime_t		 r_base;	/* CLOCK_MONOTONIC at start */
static hrtime_t		 r_walloff;	/* CLOCK_REALTIME - MONOTONIC */

int
rep_init(cpc_t *cpc, const struct opts *o, hrtime_t base, hrtime_t walloff)
{
	struct fmt_runinfo ri = { o->o_interval, cpc_cciname(cpc), 0, 0 };
	unsigned flags = 0;

	r_o = o;
	r_base = base;
	r_walloff = walloff;
	if (o->o_tick)
		flags |= FMT_TICK;
	if (o->o_tstamp == 'u')
		flags |= FMT_EPOCH;
	else if (o->o_tstamp == 'd')
		flags |= FMT_DATE;
	/* The default set is named on its lines: it was not typed. */
	if (o->o_default)
		flags |= FMT_NAMESET;
	r_fmt = fmt_create(o->o_format, FMT_CPUSTAT, o->o_out, o->o_outname,
	    o->o_specs, o->o_nspecs, flags, NULL);
	if (r_fmt == NULL ||
	    fmt_add_samples(r_fmt, smpl_spec(&o->o_smpl)) != 0 ||
	    fmt_add_cgroups(r_fmt, (const char *const *)o->o_cgroups,
	    o->o_ncgroups) != 0 ||
	    (o->o_srv != NULL && fmt_expose(r_fmt, srv_publish,
	    o->o_srv) != 0) ||
	    met_attach(o->o_cli.cc_met, r_fmt, o->o_specs,
	    o->o_nspecs) != 0) {
		warnx("out of memory");
		return -1;
	}
	fmt_runinfo(r_fmt, &ri);
	/*
	 * Nothing is written yet: an OpenMetrics file written now, before
	 * the CPUs' counters are bound, would tell a reader that counting
	 * had begun (print_title writes it).
	 */
	return 0;
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
	fmt_header(r_fmt);
}

void
rep_sample(const struct sample *s)
{
	struct fmt_row r = { .fr_kind = "tick", .fr_cpu = s->s_cpu,
	    .fr_set = s->s_elem, .fr_tick = s->s_tick, .fr_vals = s->s_vals,
	    .fr_nvals = s->s_nvals, .fr_ena = s->s_ena, .fr_run = s->s_run,
	    .fr_scaled = s->s_scaled };
	int nreqs = r_o->o_specs[s->s_elem].sp_nreqs;

	if (r_o->o_ncgroups > 0)
		r.fr_cgroup = r_o->o_cgroups[s->s_cg];

	/* The samples of -S follow the set's counts (setgrp.h). */
	if (smpl_nreqs(&r_o->o_smpl) > 0 &&
	    s->s_nvals == nreqs + smpl_nreqs(&r_o->o_smpl))
		r.fr_smpl = s->s_vals + nreqs;
	r.fr_ns = s->s_hr - r_base;
	r.fr_wallns = s->s_hr + r_walloff;
	fmt_row(r_fmt, &r);
}

void
rep_total(cpc_t *cpc, int set, int cg, int ncpu, hrtime_t t, cpc_buf_t *acc)
{
	struct fmt_row r = { .fr_kind = "total", .fr_cpu = ncpu,
	    .fr_ncpu = ncpu, .fr_set = set };

	if (r_o->o_ncgroups > 0)
		r.fr_cgroup = r_o->o_cgroups[cg];

	r.fr_ns = t - r_base;
	r.fr_wallns = t + r_walloff;
	fmt_buf(r_fmt, &r, cpc, acc);
}

int
rep_flush(void)
{
	if (fmt_flush(r_fmt) == 0)
		return 0;
	warnx("-o '%s': %s", r_o->o_outname, errh_last());
	return -1;
}
