/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * writer.h - what a format's writer is, inside common/out: a table of
 * operations that format.c calls, and the state they share.  Every
 * operation may be NULL (nothing to do in that format).
 */
#ifndef WRITER_H
#define WRITER_H

#include "columns.h"
#include "format.h"

struct expo;

struct fmt {
	const struct fmt_writer	*f_w;
	enum fmt_tool		 f_tool;
	FILE			*f_fp;
	unsigned		 f_flags;	/* FMT_* of fmt_create */
	struct cols		*f_cols;
	void			*f_state;	/* the writer's own */
	char			*f_comm;	/* fmt_create's comm, or NULL */
	struct fmt_runinfo	 f_run;		/* fmt_runinfo's, backend ours */
	struct expo		*f_expo;	/* fmt_expose's, or NULL */
	fmt_publish_fn		*f_pub;
	void			*f_pubarg;
	int			 f_cgwidth;	/* -G: the longest cgroup's
						   length; 0: no cgroups */
	fmt_derive_fn		*f_derive;	/* -M, or NULL */
	void			*f_darg;
	double			*f_dvals;	/* a row's metrics */
};

struct fmt_writer {
	const char	*fw_name;	/* --format's word */
	/* f_state made (path, comm as fmt_create's); 0 or -1 (memory). */
	int		(*fw_open)(struct fmt *f, const char *path,
			    const char *comm);
	void		(*fw_close)(struct fmt *f);
	void		(*fw_header)(struct fmt *f);
	void		(*fw_row)(struct fmt *f, const struct fmt_row *r);
	void		(*fw_note)(struct fmt *f, const struct fmt_row *r);
	int		(*fw_flush)(struct fmt *f);
};

/* The exposition of an openmetrics or prometheus writer, else NULL. */
const struct expo *om_expo_of(const struct fmt *f);

extern const struct fmt_writer fmt_text, fmt_csv, fmt_json,
		    fmt_openmetrics, fmt_prometheus;

#endif
