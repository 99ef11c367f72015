/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * example2.c - Example 2 of cpc_bind_curlwp(3CPC), the seed page
 * (shared/seeds/000): "Write a signal handler to catch overflow signals".
 * The page gives a handler and the setup code "which can be positioned
 * after the code that opens the CPC library and creates a set"; here they
 * are put together with Example 1's opening code, as the page says.
 *
 * Supplied (supplied.h): error(), a printf that exits, and the
 * computation the page leaves to the reader, work() (WORK getpid calls a
 * turn).  The
 * event is EVENT0 from the environment, as in Example 1.
 *
 * The page's text needs three corrections to compile at all, each marked
 * "seed:" below:
 *  - the preset update in the handler lacks its "if";
 *  - it names ind1 and val1, which exist only in Example 1's main: the
 *    handler presets its request, index, to PRESET again, so that every
 *    1000 events overflow (what "update a request's preset" is for);
 *  - the page's global "index" collides with index(3), which glibc's
 *    <string.h> declares: it is req_index here.
 */
#include <inttypes.h>
#include <libcpc.h>
#include <errno.h>

#define WORK	250
#include "supplied.h"

#define PRESET (UINT64_MAX - 999ull)

/* ---- the seed page's handler ---- */
cpc_t *cpc;
cpc_set_t *set;
cpc_buf_t *buf;
int req_index;	/* seed: index */
void
emt_handler(int sig, siginfo_t *sip, void *arg)
{
ucontext_t *uap = arg;
uint64_t val;
if (sig != SIGEMT || sip->si_code != EMT_CPCOVF) {
psignal(sig, "example");
psiginfo(sip, "example");
return;
}
(void) printf("lwp%d - si_addr %p ucontext: %%pc %p %%sp %p\n",
_lwp_self(), (void *)sip->si_addr,
(void *)uap->uc_mcontext.gregs[PC],
(void *)uap->uc_mcontext.gregs[SP]);
if (cpc_set_sample(cpc, set, buf) != 0)
error("cannot sample: %s", strerror(errno));
cpc_buf_get(cpc, buf, req_index, &val);
(void) printf("0x%" PRIx64"\n", val);
(void) fflush(stdout);
/*
* Update a request's preset and restart the counters. Counters which
* have not been preset with cpc_request_preset() will resume counting
* from their current value.
*/
if (cpc_request_preset(cpc, req_index, PRESET) != 0)	/* seed: no if; ind1, val1 */
error("cannot set preset for request %d: %s", req_index,
strerror(errno));
if (cpc_set_restart(cpc, set) != 0)
error("cannot restart lwp%d: %s", _lwp_self(), strerror(errno));
}

int
main(int argc, char *argv[])
{
int iter;
char *event;
/* Example 1's opening code */
if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
error("perf counters unavailable: %s", strerror(errno));
if ((event = getenv("EVENT0")) == NULL)
event = "EC_ref";
if ((set = cpc_set_create(cpc)) == NULL)
error("could not create set: %s", strerror(errno));
/* ---- the seed page's setup code ---- */
struct sigaction act;
act.sa_sigaction = emt_handler;
bzero(&act.sa_mask, sizeof (act.sa_mask));
act.sa_flags = SA_RESTART|SA_SIGINFO;
if (sigaction(SIGEMT, &act, NULL) == -1)
error("sigaction: %s", strerror(errno));
if ((req_index = cpc_set_add_request(cpc, set, event, PRESET,
CPC_COUNT_USER | CPC_OVF_NOTIFY_EMT, 0, NULL)) != 0)
error("cannot add request to set: %s", strerror(errno));
if ((buf = cpc_buf_create(cpc, set)) == NULL)
error("cannot create buffer: %s", strerror(errno));
if (cpc_bind_curlwp(cpc, set, 0) == -1)
error("cannot bind lwp%d: %s", _lwp_self(), strerror(errno));
for (iter = 1; iter <= 20; iter++) {
/* ==> Computation to be measured goes here <== */
work();
}
cpc_unbind(cpc, set); /* done */
return (0);
}
