/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * strtoset.h - the -c event specification grammar:
 *
 *	[picN=]event[,attr[N][=val]][,[picN=]event[,attr[N][=val]]]...
 *
 * with the keywords sys[N] and nouser[N].  Parsing yields a typed
 * struct spec (pure, reentrant, never exits); spec_build turns it into a
 * libcpc set as often as needed (one per CPU or thread) without parsing
 * again.
 *
 * Part of libcpc, for the tools (which link the static archive) and the
 * library's own cpc_strtoset and cpc_strtoevent: not installed, and not
 * exported from libcpc.so.1.  Failures are reported through the handle's
 * error handler with fn "cpc_strtoset"; libcpc never prints or exits.
 */
#ifndef STRTOSET_H
#define STRTOSET_H

#include <stddef.h>
#include <libcpc.h>

#define SPEC_MAXPIC	64
#define SPEC_MAXATTR	16

struct spec_req {
	int		 sr_pic;
	char		*sr_event;
	uint_t		 sr_flags;		/* CPC_COUNT_* */
	uint_t		 sr_nattrs;
	cpc_attr_t	 sr_attrs[SPEC_MAXATTR];	/* names owned */
};

struct spec {
	char		*sp_text;	/* as the user wrote it */
	int		 sp_nreqs;
	struct spec_req	*sp_reqs;	/* ascending pic */
	int		 sp_sysonly;	/* no request counts user mode */
};

/*
 * Parse text for a machine with npic slots and the attribute names attrs
 * (NULL-terminated).  0 on success; -1 with a message in err.
 */
int	spec_parse(const char *text, uint_t npic, const char *const *attrs,
	    struct spec *sp, char *err, size_t errlen);
void	spec_free(struct spec *sp);
/* The canonical text of sp (malloc'd), which spec_parse takes back. */
char	*spec_format(const struct spec *sp);
/* A new set with sp's requests; NULL, the reason through the handler. */
cpc_set_t *spec_build(cpc_t *cpc, const struct spec *sp);
/*
 * As spec_build, with request i's preset and flags taken from presets[i]
 * and flags[i] (NULL: 0 and the spec's flags).  For cpc_bind_event.
 */
cpc_set_t *spec_build_with(cpc_t *cpc, const struct spec *sp,
	    const uint64_t *presets, const uint_t *flags);
/*
 * A new set with the requests of tmpl (which spec_build made): nothing
 * is resolved again, so one set per thread costs little.  NULL, the
 * reason through the handler.
 */
cpc_set_t *spec_build_like(cpc_t *cpc, const cpc_set_t *tmpl);
/* Parse against cpc's pics and attributes; -1 with err. */
int	spec_parse_cpc(cpc_t *cpc, const char *text, struct spec *sp,
	    char *err, size_t errlen);
/*
 * Parse against the attributes a SMPL request takes
 * (cpc_walk_attrs_common: period, smpl_nrecs, callchain and the counting
 * ones), for the tools' -S; -1 with err.
 */
int	spec_parse_common(cpc_t *cpc, const char *text, struct spec *sp,
	    char *err, size_t errlen);
/* The same with npic slots (cpc_strtoevent: 2). */
int	spec_parse_npic(cpc_t *cpc, const char *text, uint_t npic,
	    struct spec *sp, char *err, size_t errlen);
/* cpc_strtoset, which parses and builds, is public: see libcpc.h. */

#endif
