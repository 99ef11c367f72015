/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lazy.c - the libraries libcpc loads only when a name needs them
 * (lazy.h says why): libpfm4 for native event names, libtracefs for the
 * tracefs mount point (which it mounts when missing, as perf does).  The
 * lists of tracepoint systems and events are read in sysfs.c, with the
 * entries' types from readdir: libtracefs's lists stat every entry,
 * which cost a seventh of --list-events.  Each library is loaded once, by
 * its soname, with dlopen; when it is missing, what needs it is missing
 * too (no native names; tracepoints only where tracefs is mounted
 * already, and listed without it).
 *
 * libtraceevent is not used: the only format-file facts libcpc wants
 * are the field names of --list-events, read by a scan in
 * events/tracepoint.c, while libtraceevent would parse every event's
 * whole format (see bench/list-events).  It is still mapped with
 * libtracefs, which needs it.
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <tracefs.h>

#include "platform.h"
#include "lazy.h"

/* libpfm4 before it is loaded: nothing is initialised. */
static pfm_err_t
no_initialize(void)
{
	return PFM_ERR_NOINIT;
}

static pfm_err_t
no_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	(void)pmu;
	(void)info;
	return PFM_ERR_NOINIT;
}

static pfm_err_t
no_event_info(int idx, pfm_os_t os, pfm_event_info_t *info)
{
	(void)idx;
	(void)os;
	(void)info;
	return PFM_ERR_NOINIT;
}

static pfm_err_t
no_attr_info(int idx, int attr, pfm_os_t os, pfm_event_attr_info_t *info)
{
	(void)idx;
	(void)attr;
	(void)os;
	(void)info;
	return PFM_ERR_NOINIT;
}

static int
no_event_next(int idx)
{
	(void)idx;
	return -1;
}

static pfm_err_t
no_encoding(const char *str, int dfl_plm, pfm_os_t os, void *args)
{
	(void)str;
	(void)dfl_plm;
	(void)os;
	(void)args;
	return PFM_ERR_NOINIT;
}

static int
no_find_event(const char *str)
{
	(void)str;
	return PFM_ERR_NOINIT;
}

static const char *
no_strerror(int code)
{
	(void)code;
	return "libpfm4 (libpfm.so.4) is not installed";
}

struct cpc_pfm_fns cpc_pfm_fns = {
	.pf_initialize = no_initialize,
	.pf_get_pmu_info = no_pmu_info,
	.pf_get_event_info = no_event_info,
	.pf_get_event_attr_info = no_attr_info,
	.pf_get_event_next = no_event_next,
	.pf_get_os_event_encoding = no_encoding,
	.pf_find_event = no_find_event,
	.pf_strerror = no_strerror,
};

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_loaded;

/*
 * Each symbol of the library into its slot of the table (slots of
 * pointer size, in the order of names); 0 when all were there, and the
 * table untouched otherwise.
 */
static int
bind_syms(void *h, void *table, const char *const *names, int n)
{
	void *sym[16];
	int i;

	for (i = 0; i < n; i++)
		if ((sym[i] = dlsym(h, names[i])) == NULL)
			return -1;
	for (i = 0; i < n; i++)
		memcpy((char *)table + (size_t)i * sizeof(void *), &sym[i],
		    sizeof(void *));
	return 0;
}

static void
pfm_load(void)
{
	static const char *const names[] = {
		"pfm_initialize", "pfm_get_pmu_info", "pfm_get_event_info",
		"pfm_get_event_attr_info", "pfm_get_event_next",
		"pfm_get_os_event_encoding", "pfm_find_event", "pfm_strerror",
	};
	struct cpc_pfm_fns f;
	void *h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);

	_Static_assert(sizeof(f) == sizeof(names) / sizeof(*names) *
	    sizeof(void *), "one name per slot");
	if (h == NULL)
		return;
	memcpy(&f, &cpc_pfm_fns, sizeof(f));
	if (bind_syms(h, &f, names, sizeof(names) /
	    sizeof(*names)) != 0) {
		dlclose(h);
		return;
	}
	cpc_pfm_fns = f;
	pfm_loaded = 1;
}

int
cpc_pfm_load(void)
{
	pthread_once(&pfm_once, pfm_load);
	return pfm_loaded ? 0 : -1;
}

/* libtracefs. */
static struct {
	__typeof__(tracefs_tracing_dir)		*tf_tracing_dir;
} tf;
static pthread_once_t tf_once = PTHREAD_ONCE_INIT;
static int tf_loaded;

static void
tf_load(void)
{
	static const char *const names[] = {
		"tracefs_tracing_dir",
	};
	void *h = dlopen("libtracefs.so.1", RTLD_NOW | RTLD_LOCAL);

	_Static_assert(sizeof(tf) == sizeof(names) / sizeof(*names) *
	    sizeof(void *), "one name per slot");
	if (h == NULL)
		return;
	if (bind_syms(h, &tf, names, sizeof(names) /
	    sizeof(*names)) != 0) {
		dlclose(h);
		return;
	}
	tf_loaded = 1;
}

static int
tf_ready(void)
{
	pthread_once(&tf_once, tf_load);
	return tf_loaded;
}

/* libtracefs's tracing directory (mounted by it if need be), or NULL. */
const char *
cpc_tracefs_lookup(void)
{
	return tf_ready() ? tf.tf_tracing_dir() : NULL;
}
