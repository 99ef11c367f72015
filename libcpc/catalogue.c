/*
 * catalogue.c - walking the event catalogue: the Solaris walkers
 * (cpc_walk_events_all, cpc_walk_generic_events_all, their per-pic forms
 * and cpc_walk_attrs).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "cpc_impl.h"

/* ---- walkers ---- */

CPC_EXPORT void
cpc_walk_generic_events_all(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *event))
{
	struct cpc_event ev;
	char name[64];
	size_t i;

	for (i = 0; i < cpc_ngeneric_names; i++) {
		snprintf(name, sizeof(name), "PAPI_%s",
		    cpc_generic_names[i].gn_name);
		if (cpc_event_encode(cpc, NULL, name, &ev) != 0 ||
		    (ev.ev_hw && !cpc->c_hwpmu))
			continue;
		fn(arg, name);
	}
}

struct pic_walk {
	uint_t	  pw_pic;
	void	 *pw_arg;
	void	(*pw_fn)(void *, uint_t, const char *);
};

static void
pic_adapter(void *arg, const char *event)
{
	struct pic_walk *pw = arg;

	pw->pw_fn(pw->pw_arg, pw->pw_pic, event);
}

CPC_EXPORT void
cpc_walk_generic_events_pic(cpc_t *cpc, uint_t picno, void *arg,
    void (*fn)(void *arg, uint_t picno, const char *event))
{
	struct pic_walk pw = { picno, arg, fn };

	if (picno >= cpc_npic(cpc)) {
		errno = EINVAL;
		return;
	}
	cpc_walk_generic_events_all(cpc, &pw, pic_adapter);
}

/* Platform events: perf's generic names this machine can count. */
CPC_EXPORT void
cpc_walk_events_all(cpc_t *cpc, void *arg,
    void (*fn)(void *arg, const char *event))
{
	char name[64];
	size_t i, c, o;
	int r;

	for (i = 0; i < cpc_nperf_names; i++)
		if (cpc_perf_names[i].nm_type != PERF_TYPE_HARDWARE ||
		    cpc->c_hwpmu)
			fn(arg, cpc_perf_names[i].nm_name);
	if (!cpc->c_hwpmu)
		return;
	for (c = 0; c < cpc_ncache_names; c++)
		for (o = 0; o < cpc_ncache_ops; o++)
			for (r = 0; r < 2; r++) {
				snprintf(name, sizeof(name), "%s-%s",
				    cpc_cache_names[c], cpc_cache_ops[o][r]);
				fn(arg, name);
			}
}

CPC_EXPORT void
cpc_walk_events_pic(cpc_t *cpc, uint_t picno, void *arg,
    void (*fn)(void *arg, uint_t picno, const char *event))
{
	struct pic_walk pw = { picno, arg, fn };

	if (picno >= cpc_npic(cpc)) {
		errno = EINVAL;
		return;
	}
	cpc_walk_events_all(cpc, &pw, pic_adapter);
}

CPC_EXPORT void
cpc_walk_attrs(cpc_t *cpc, void *arg, void (*fn)(void *arg, const char *attr))
{
	cpc_event_walk_attrs(cpc, arg, fn);
	fn(arg, "picnum");
}
