/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v1_impl.h - what the two files of the obsolete v1 interface share:
 * v1_event.c (the hidden handle, errors, registered specifications, the
 * machine's calls) under v1.c (the bindings, or contexts).
 */
#ifndef CPC_V1_IMPL_H
#define CPC_V1_IMPL_H

#include "cpc_impl.h"
#include "strtoset.h"

#define V1_NPIC		2	/* ce_pic[] */
#define V1_MAXCFG	4096	/* specifications a process registers */

#if defined(__i386) || defined(__i386__) || defined(__amd64) || \
    defined(__x86_64__)
#define CE_TICK(e)	((e)->ce_tsc)
#else
#define CE_TICK(e)	((e)->ce_tick)
#endif

/* A registered specification; never freed. */
struct v1cfg {
	char		*vc_text;	/* as given to cpc_strtoevent */
	int		 vc_cpuver;
	struct spec	 vc_spec;	/* at most V1_NPIC requests */
};

/* v1_event.c */
/* Report for the v1 call being made; errno is kept. */
void	v1_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The hidden handle for the v1 call fn; NULL with ENOSYS. */
cpc_t	*v1_handle(const char *fn);
/* The cpuver of this machine (CPC_LINUX_*), once v1_handle succeeded. */
int	v1_cpuver(void);
const struct v1cfg *v1_cfg_at(uint32_t id);
/* The specification ev names, with its id; NULL (EINVAL) for none. */
const struct v1cfg *v1_ctl_get(const cpc_event_t *ev, uint32_t *idp);
void	v1_ctl_set(cpc_event_t *ev, uint32_t id);

#endif /* CPC_V1_IMPL_H */
