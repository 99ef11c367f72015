/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.c - the writer interface (format.h): the writers by name, and
 * every call handed to the chosen one, and to fmt_expose's exposition.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errh.h"
#include "expo.h"
#include "writer.h"

/* Indexed by enum fmt_kind. */
static const struct fmt_writer *const writers[] = {
	[FMT_TEXT] = &fmt_text,
	[FMT_CSV] = &fmt_csv,
	[FMT_JSON] = &fmt_json,
	[FMT_OPENMETRICS] = &fmt_openmetrics,
	[FMT_PROMETHEUS] = &fmt_prometheus,
};

int
fmt_parse(const char *arg, enum fmt_kind *kind)
{
	size_t i;

	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (strcmp(arg, writers[i]->fw_name) == 0) {
			*kind = (enum fmt_kind)i;
			return 1;
		}
	return 0;
}

struct fmt *
fmt_create(enum fmt_kind kind, enum fmt_tool tool, FILE *fp,
    const char *path, const struct spec *specs, int nspecs, unsigned flags,
    const char *comm)
{
	struct fmt *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return NULL;
	f->f_w = writers[kind];
	f->f_tool = tool;
	f->f_fp = fp;
	f->f_flags = flags;
	if ((comm != NULL && (f->f_comm = strdup(comm)) == NULL) ||
	    (f->f_cols = cols_create(specs, nspecs)) == NULL ||
	    (f->f_w->fw_open != NULL && f->f_w->fw_open(f, path, comm) != 0)) {
		fmt_destroy(f);
		errno = ENOMEM;
		return NULL;
	}
	return f;
}

void
fmt_destroy(struct fmt *f)
{
	if (f == NULL)
		return;
	if (f->f_w->fw_close != NULL)
		f->f_w->fw_close(f);
	expo_destroy(f->f_expo);
	free((char *)f->f_run.ri_backend);
	cols_destroy(f->f_cols);
	free(f->f_comm);
	free(f->f_dvals);
	free(f);
}

int
fmt_add_samples(struct fmt *f, const struct spec *smpl)
{
	return cols_add_samples(f->f_cols, smpl);
}

int
fmt_add_cgroups(struct fmt *f, const char *const *names, int n)
{
	int i, len;

	for (i = 0; i < n; i++) {
		len = (int)strlen(names[i]);
		/* "cgroup": the title's word */
		if (len < 6)
			len = 6;
		if (len > f->f_cgwidth)
			f->f_cgwidth = len;
	}
	return 0;
}

void
fmt_runinfo(struct fmt *f, const struct fmt_runinfo *ri)
{
	free((char *)f->f_run.ri_backend);
	f->f_run = *ri;
	/* Without memory the info metric says no backend. */
	f->f_run.ri_backend = ri->ri_backend != NULL ?
	    strdup(ri->ri_backend) : NULL;
}

int
fmt_expose(struct fmt *f, fmt_publish_fn *pub, void *arg)
{
	if (f->f_expo == NULL && (f->f_expo = expo_create(f, f->f_comm)) ==
	    NULL) {
		errno = ENOMEM;
		return -1;
	}
	f->f_pub = pub;
	f->f_pubarg = arg;
	return 0;
}

int
fmt_wants_comm(const struct fmt *f, long pid)
{
	const struct expo *own = om_expo_of(f);

	return (f->f_expo != NULL && expo_needs_comm(f->f_expo, pid)) ||
	    (own != NULL && expo_needs_comm(own, pid));
}

/*
 * fmt_expose's exposition, both flavours, to its publisher; out of
 * memory, nothing (the server keeps serving the last, serve.h).
 */
static void
publish(struct fmt *f)
{
	char *om, *prom;
	size_t omlen, promlen;

	if (expo_render_both(f->f_expo, &om, &omlen, &prom, &promlen) != 0)
		return;
	f->f_pub(f->f_pubarg, om, omlen, prom, promlen);
	free(om);
	free(prom);
}

int
fmt_derive(struct fmt *f, const char *const *names, int n,
    fmt_derive_fn *fn, void *arg)
{
	if ((f->f_dvals = calloc(n, sizeof(double))) == NULL)
		return -1;
	cols_add_metrics(f->f_cols, names, n);
	/* The expositions carry no metrics (PromQL makes them). */
	f->f_derive = om_expo_of(f) == NULL ? fn : NULL;
	f->f_darg = arg;
	return 0;
}

void
fmt_header(struct fmt *f)
{
	if (f->f_w->fw_header != NULL)
		f->f_w->fw_header(f);
	if (f->f_expo != NULL)
		publish(f);
}

void
fmt_row(struct fmt *f, const struct fmt_row *r)
{
	if (f->f_expo != NULL)
		expo_row(f->f_expo, r);
	if (r->fr_set < 0) {
		if (f->f_w->fw_note != NULL)
			f->f_w->fw_note(f, r);
	} else if (f->f_w->fw_row != NULL && f->f_derive != NULL) {
		struct fmt_row d = *r;

		f->f_derive(f->f_darg, r, f->f_dvals);
		d.fr_mets = f->f_dvals;
		f->f_w->fw_row(f, &d);
	} else if (f->f_w->fw_row != NULL) {
		f->f_w->fw_row(f, r);
	}
}

/*
 * The buffer holds the set's requests, then the -S requests (added after
 * them to every set): fr_smpl points at those, when they all fit.
 */
void
fmt_buf(struct fmt *f, struct fmt_row *r, cpc_t *cpc, cpc_buf_t *buf)
{
	uint64_t vals[SPEC_MAXPIC];
	int i, nreqs = cols_spec(f->f_cols, r->fr_set)->sp_nreqs;
	int nsmpl = cols_nsmpl(f->f_cols);

	for (i = 0; i < nreqs + nsmpl && i < SPEC_MAXPIC; i++) {
		vals[i] = 0;
		(void)cpc_buf_get(cpc, buf, i, &vals[i]);
	}
	r->fr_vals = vals;
	r->fr_nvals = i;
	r->fr_smpl = nsmpl > 0 && i == nreqs + nsmpl ? vals + nreqs : NULL;
	r->fr_tick = cpc_buf_tick(cpc, buf);
	r->fr_scaled = cpc_buf_scaled(cpc, buf);
	(void)cpc_buf_times(cpc, buf, &r->fr_ena, &r->fr_run);
	fmt_row(f, r);
	r->fr_vals = NULL;
	r->fr_smpl = NULL;
}

int
fmt_flush(struct fmt *f)
{
	int rc = f->f_w->fw_flush != NULL ? f->f_w->fw_flush(f) : 0;

	if (f->f_expo == NULL)
		return rc;
	expo_batch(f->f_expo);
	publish(f);
	return rc;
}
