/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * openmetrics.c - the exposition files: --format=openmetrics (OpenMetrics
 * 1.0) and --format=prometheus (the Prometheus text format 0.0.4, what
 * node_exporter's textfile collector reads).  Both keep the series of
 * expo.c and, at each fmt_flush, write the whole file beside its name
 * and rename it over the name: a reader sees the old file or the new,
 * never part of one (outfile.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "errh.h"
#include "expo.h"
#include "outfile.h"
#include "writer.h"

struct om {
	char		*om_path;
	struct expo	*om_expo;
};

static int
om_open(struct fmt *f, const char *path, const char *comm)
{
	struct om *om;

	if ((om = calloc(1, sizeof(*om))) == NULL)
		return -1;
	f->f_state = om;
	if ((om->om_path = strdup(path)) == NULL ||
	    (om->om_expo = expo_create(f, comm)) == NULL)
		return -1;
	return 0;
}

static void
om_close(struct fmt *f)
{
	struct om *om = f->f_state;

	if (om == NULL)
		return;
	expo_destroy(om->om_expo);
	free(om->om_path);
	free(om);
}

const struct expo *
om_expo_of(const struct fmt *f)
{
	const struct om *om = f->f_state;

	return f->f_w == &fmt_openmetrics || f->f_w == &fmt_prometheus ?
	    om->om_expo : NULL;
}

static void
om_row(struct fmt *f, const struct fmt_row *r)
{
	struct om *om = f->f_state;

	expo_row(om->om_expo, r);
}

static int
write_file(struct fmt *f, enum expo_flavour fl)
{
	struct om *om = f->f_state;
	char msg[512];
	FILE *fp;

	expo_batch(om->om_expo);
	/* Out of memory, checked before: never a file with series lost. */
	if (expo_failed(om->om_expo)) {
		errh_set("out of memory");
		return -1;
	}
	if ((fp = outfile_begin(om->om_path, msg, sizeof(msg))) == NULL) {
		errh_set("%s", msg);
		return -1;
	}
	(void)expo_render(om->om_expo, fl, fp);
	if (outfile_commit(fp, om->om_path, msg, sizeof(msg)) != 0) {
		errh_set("%s", msg);
		return -1;
	}
	return 0;
}

static int
om_flush(struct fmt *f)
{
	return write_file(f, EXPO_OM);
}

static int
prom_flush(struct fmt *f)
{
	return write_file(f, EXPO_PROM);
}

const struct fmt_writer fmt_openmetrics = {
	.fw_name = "openmetrics",
	.fw_open = om_open,
	.fw_close = om_close,
	.fw_row = om_row,
	.fw_note = om_row,
	.fw_flush = om_flush,
};

const struct fmt_writer fmt_prometheus = {
	.fw_name = "prometheus",
	.fw_open = om_open,
	.fw_close = om_close,
	.fw_row = om_row,
	.fw_note = om_row,
	.fw_flush = prom_flush,
};
