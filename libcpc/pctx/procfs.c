/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * procfs.c - what /proc says about a tracee: a field of its status, its
 * command line (read from its stack at its exec stop where the ABI is
 * known), whether it runs a set-id program.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "pctx_impl.h"

/* One "Key:\tvalue" number of /proc/<tid>/status; -1 when absent. */
long
pctx_status_field(pid_t tid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(fp);
	return v;
}

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#endif

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO	0x420e
#endif

/*
 * The start of the command line of tid, stopped at its exec, as
 * /proc/<pid>/cmdline gives it (the strings from argv[0] to the end of
 * the last argument, each with its NUL), read from its new stack: the
 * stack pointer points at argc, then argv[]; the argument strings lie
 * one after the other from argv[0] on.  Three system calls where /proc
 * costs a path lookup, an inode and a file.  The length read, or -1
 * when it cannot tell (another ABI, a kernel before 5.3, a read
 * refused): /proc then.
 */
static ssize_t
cmdline_at_exec(pid_t tid, char *buf, size_t len)
{
#ifdef NATIVE_ARCH
	struct {	/* the head of struct ptrace_syscall_info */
		uint8_t	 op, pad[3];
		uint32_t arch;
		uint64_t ip, sp;
	} si;
	uint64_t top[2];	/* argc, argv[0] */
	struct iovec lv, rv;
	ssize_t n, i;
	uint64_t nul = 0;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(si),
	    &si) < (long)sizeof(si) || si.arch != NATIVE_ARCH)
		return -1;
	lv.iov_base = top;
	lv.iov_len = rv.iov_len = sizeof(top);
	rv.iov_base = (void *)(uintptr_t)si.sp;
	if (process_vm_readv(tid, &lv, 1, &rv, 1, 0) != (ssize_t)sizeof(top))
		return -1;
	if (top[0] == 0)
		return 0;
	if (top[1] == 0 || top[0] > INT32_MAX)
		return -1;
	/* Short when the strings end near the stack's top. */
	lv.iov_base = buf;
	lv.iov_len = rv.iov_len = len;
	rv.iov_base = (void *)(uintptr_t)top[1];
	if ((n = process_vm_readv(tid, &lv, 1, &rv, 1, 0)) <= 0)
		return -1;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0' && ++nul == top[0])
			return i + 1;
	return n;
#else
	(void)tid;
	(void)buf;
	(void)len;
	return -1;
#endif
}

/*
 * "arg0 arg1 ..." of a process, at most len - 1 characters; atexec: it is
 * stopped at its exec (its pid is the thread stopped).
 */
void
pctx_read_cmdline(pid_t pid, int atexec, char *buf, size_t len)
{
	char path[64];
	ssize_t n = -1, i;
	int fd;

	buf[0] = '\0';
	if (atexec)
		n = cmdline_at_exec(pid, buf, len - 1);
	if (n < 0) {
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return;
		n = read(fd, buf, len - 1);
		close(fd);
	}
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
}

PCTX_EXPORT void
pctx_cmdline(pid_t pid, char *buf, size_t len)
{
	if (buf != NULL && len > 0)
		pctx_read_cmdline(pid, 0, buf, len);
}

/*
 * An unprivileged tracer makes the kernel run a set-id program without
 * its privileges.  Say so: the program may behave differently.
 */
void
pctx_setid_note(pctx_t *p, const char *fn, pid_t pid)
{
	char path[64], exe[4096];
	struct stat st;
	ssize_t n;

	if (p->p_euid == 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (stat(path, &st) != 0)
		return;
	if (((st.st_mode & S_ISUID) == 0 || st.st_uid == p->p_euid) &&
	    ((st.st_mode & S_ISGID) == 0 || st.st_gid == getegid()))
		return;
	if ((n = readlink(path, exe, sizeof(exe) - 1)) < 0)
		n = 0;
	exe[n] = '\0';
	pctx_err(p, fn, "note: '%s' is set-%s-ID: under tracing it runs "
	    "without its privileges, as under a debugger", exe,
	    (st.st_mode & S_ISUID) ? "user" : "group");
}
