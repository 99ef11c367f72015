/*
 * backend.h - the interface between libcpc's objects and a counter
 * facility.  A backend opens a set's requests as one group on a target,
 * enables and disables it as a whole, reads every request from one
 * consistent snapshot, and closes it.
 */
#ifndef CPC_BACKEND_H
#define CPC_BACKEND_H

#include "cpc_impl.h"

struct cpc_target {
	enum cpc_bindkind	t_kind;
	int			t_cpu;		/* CPC_BIND_CPU, else -1 */
	pid_t			t_tid;		/* thread, 0 = caller */
	int			t_inherit;	/* CPC_BIND_LWP_INHERIT */
	const char		*t_fn;		/* the API call, for errors */
};

struct cpc_backend {
	const char	*be_name;
	/* Open the group disabled; -1 with errno and a reported message. */
	int		(*be_open)(cpc_t *, cpc_set_t *,
			    const struct cpc_target *);
	/* Zero every counter and start counting. */
	int		(*be_start)(cpc_t *, cpc_set_t *);
	/* Stop counting; the counts stay readable. */
	int		(*be_stop)(cpc_t *, cpc_set_t *);
	/* Count again from where be_stop left the counts. */
	int		(*be_resume)(cpc_t *, cpc_set_t *);
	/* Read every request; *scaled set when time-shared. */
	int		(*be_read)(cpc_t *, cpc_set_t *, uint64_t *vals,
			    int *scaled);
	void		(*be_close)(cpc_t *, cpc_set_t *);
};

extern const struct cpc_backend cpc_be_perf;

#endif /* CPC_BACKEND_H */
