/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_unknown - names no kind of the catalogue knows: the message with its
 * close names is the same whoever receives it (the default handler, a
 * program's own, the second time as the first, when the lists it is drawn
 * from are kept), a quiet probe fails the same way without one, and the
 * errno is EINVAL whatever the files read for the close names did (as a
 * user who cannot read tracefs it was EACCES).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cpc_impl.h"
#include "errmsg.h"
#include "tap.h"

static const char *const names[] = {
	"xyzzy", "instrutcions", "PAPI_tot_cyx", "Ec_REF", "sched_switch",
	"sched:sched_swtch", "SCHED:sched_switch", "nosuch:foo",
	"INST_RETIRD:ANY_P", "skl::INST_RETIRD", "msr/tsx/",
};
#define NNAMES	(sizeof(names) / sizeof(*names))

/* Add name to a new set, which is destroyed; errmsg has the message. */
static int
add(cpc_t *cpc, const char *name)
{
	cpc_set_t *set = cpc_set_create(cpc);
	int rc;

	errmsg[0] = '\0';
	errno = 0;
	rc = cpc_set_add_request(cpc, set, name, 0, CPC_COUNT_USER, 0, NULL);
	cpc_set_destroy(cpc, set);
	return rc;
}

/* What the default handler prints for name, without its "libcpc: fn: ". */
static void
default_text(cpc_t *cpc, const char *name, char *buf, size_t len)
{
	static const char prefix[] = "libcpc: cpc_set_add_request: ";
	int pfd[2], saved = dup(2);
	ssize_t n;

	buf[0] = '\0';
	if (saved < 0 || pipe(pfd) != 0)
		return;
	dup2(pfd[1], 2);
	close(pfd[1]);
	cpc_seterrhndlr(cpc, NULL);
	(void)add(cpc, name);
	cpc_seterrhndlr(cpc, keep_errmsg);
	dup2(saved, 2);
	close(saved);
	n = read(pfd[0], buf, len - 1);
	close(pfd[0]);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (strncmp(buf, prefix, sizeof(prefix) - 1) == 0)
		memmove(buf, buf + sizeof(prefix) - 1,
		    strlen(buf + sizeof(prefix) - 1) + 1);
}

/* As nobody: an unknown name is EINVAL, in a child (uid is for good). */
static void
as_nobody(void)
{
	const char *dir = cpc_tracefs_dir();
	char path[512];
	int status, rc, e;
	cpc_t *cpc;
	pid_t pid;

	if (geteuid() != 0 || dir == NULL) {
		tap_skip("needs root and tracefs", "unknown name as nobody");
		return;
	}
	fflush(stdout);
	if ((pid = fork()) == 0) {
		snprintf(path, sizeof(path), "%s/available_events", dir);
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(3);
		if (access(path, R_OK) == 0)
			_exit(4);	/* readable: the test cannot fail */
		if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
			_exit(5);
		cpc_seterrhndlr(cpc, keep_errmsg);
		rc = add(cpc, "xyzzy");
		e = errno;
		_exit(rc == -1 && e == EINVAL ? 0 : e == EACCES ? 1 : 2);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
		tap_skip("nobody can read available_events here",
		    "unknown name as nobody");
	else
		tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "as a user who cannot read tracefs, an unknown name is "
		    "EINVAL (child status %#x; exit 1: EACCES)", status);
}

int
main(void)
{
	char first[2048], dflt[2048];
	struct cpc_event ev;
	int rc, e, qrc, qe;
	cpc_t *cpc;
	size_t i;

	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL) {
		tap_ok(0, "cpc_open: %s", strerror(errno));
		return tap_done();
	}
	cpc_seterrhndlr(cpc, keep_errmsg);
	for (i = 0; i < NNAMES; i++) {
		rc = add(cpc, names[i]);
		e = errno;
		snprintf(first, sizeof(first), "%s", errmsg);
		tap_ok(rc == -1 && e == EINVAL && first[0] != '\0', "'%s' is "
		    "refused, EINVAL, with a message (%s)", names[i], first);
		(void)add(cpc, names[i]);
		tap_str(errmsg, first, "the same message the second time");
		default_text(cpc, names[i], dflt, sizeof(dflt));
		tap_str(dflt, first, "the default handler prints the same");
		errno = 0;
		qrc = cpc_event_encode(cpc, NULL, names[i], &ev);
		qe = errno;
		rc = cpc_event_encode(cpc, "t", names[i], &ev);
		e = errno;
		tap_ok(qrc == rc && qe == e, "a quiet probe of '%s' fails "
		    "alike (%d/%d, errno %d/%d)", names[i], qrc, rc, qe, e);
	}
	cpc_close(cpc);
	as_nobody();
	return tap_done();
}
