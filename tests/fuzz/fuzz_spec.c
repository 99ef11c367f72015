/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_spec - libFuzzer target for the event specification grammar
 * (cpustat -c, cpc_strtoset): the input is a specification such as
 * "pic0=cycles,pic1=0xc0,umask1=0x1,sys".
 *
 * Each input is parsed twice: as cpc_strtoset does it (this handle's
 * counters and attribute names) and a set built from it, then destroyed;
 * and, the parser alone, with a number of counters taken from the
 * input's length (1 to SPEC_MAXPIC + 1), which reaches the grammar's
 * edges (pic numbers past the last counter, a full set).  Nothing is
 * bound.
 *
 * The grammar is reached through the three calls below (spec_try): when
 * the parser moves (into libcpc, as cpc_strtoset), only they change.
 */
#define FUZZ_OWN_INIT	/* it also collects the attribute names */
#include "fuzz.h"
#include "strtoset.h"

static const char *attrs[SPEC_MAXATTR];	/* this handle's, NULL-ended */
static size_t nattrs;

/* ---- the grammar's calls ---- */

/*
 * Parse text for npic counters; on success, with build, make a set of it
 * and destroy it.
 */
static void
spec_try(const char *text, uint_t npic, int build)
{
	struct spec sp;
	cpc_set_t *set;
	char err[512];

	if (spec_parse(text, npic, attrs, &sp, err, sizeof(err)) != 0)
		return;
	if (build && (set = spec_build(cpc, &sp)) != NULL &&
	    cpc_set_destroy(cpc, set) != 0)
		abort();
	spec_free(&sp);
}

/* ---- the target ---- */

static void
collect_attr(void *arg, const char *name)
{
	(void)arg;
	if (strcmp(name, "picnum") != 0 && nattrs < SPEC_MAXATTR - 1)
		attrs[nattrs++] = name;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cpc = fuzz_open();
	cpc_walk_attrs(cpc, NULL, collect_attr);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);

	spec_try(text, cpc_npic(cpc), 1);
	spec_try(text, (uint_t)(size % (SPEC_MAXPIC + 1)) + 1, 0);
	free(text);
	return 0;
}
