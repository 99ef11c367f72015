/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * t_symtab - the sampling reports' pure parts: names of addresses
 * (symtab: this program's functions, a process that has exited, the
 * kernel's), the profile's order and percentages, CSV fields and folded
 * frames.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "profile.h"
#include "smplout.h"
#include "symtab.h"
#include "tap.h"

/* Functions to be named: not inlined, not merged, exported. */
__attribute__((noinline, used)) int t_symtab_alpha(int x);
__attribute__((noinline, used)) int t_symtab_beta(int x);

int
t_symtab_alpha(int x)
{
	return x * 3 + 1;
}

int
t_symtab_beta(int x)
{
	return x * 5 + 2;
}

static void
test_self(void)
{
	struct symtab *st = symtab_create();
	const char *sym, *obj;
	uint64_t ip = (uint64_t)(uintptr_t)t_symtab_beta + 2;

	symtab_resolve(st, getpid(), (uint64_t)(uintptr_t)t_symtab_alpha,
	    &sym, &obj);
	tap_str(sym, "t_symtab_alpha", "this program's function by address");
	tap_str(obj, "t_symtab", "its object is the program's base name");
	symtab_resolve(st, getpid(), ip, &sym, &obj);
	tap_str(sym, "t_symtab_beta", "an address inside a function");
	/* The cached answer is the same string. */
	symtab_resolve(st, getpid(), ip, &sym, &obj);
	tap_str(sym, "t_symtab_beta", "the same address again (cached)");
	symtab_resolve(st, getpid(), (uint64_t)(uintptr_t)getpid, &sym, &obj);
	tap_ok(strncmp(obj, "libc", 4) == 0, "getpid's object is libc (%s)",
	    obj);
	symtab_resolve(st, getpid(), 16, &sym, &obj);
	tap_str(sym, SYM_UNKNOWN, "an unmapped address has no name");
	tap_str(obj, SYM_UNKNOWN, "and no object");
	symtab_destroy(st);
	symtab_destroy(NULL);
}

/* A child noted while it lives is still named once it has exited. */
static void
test_exited(void)
{
	struct symtab *st = symtab_create();
	const char *sym, *obj;
	int fds[2], st_;
	pid_t pid;
	char c;

	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		tap_ok(0, "fork");
		return;
	}
	if (pid == 0) {
		close(fds[1]);
		(void)read(fds[0], &c, 1);
		_exit(0);
	}
	close(fds[0]);
	symtab_note(st, pid);
	close(fds[1]);
	waitpid(pid, &st_, 0);
	tap_ok(kill(pid, 0) != 0, "the child is gone");
	symtab_resolve(st, pid, (uint64_t)(uintptr_t)t_symtab_alpha, &sym,
	    &obj);
	tap_str(sym, "t_symtab_alpha", "an exited process's function");
	symtab_forget(st, pid);
	symtab_resolve(st, pid, (uint64_t)(uintptr_t)t_symtab_alpha, &sym,
	    &obj);
	tap_str(sym, SYM_UNKNOWN, "after exec (forget), the old maps are gone");
	symtab_destroy(st);
}

/* The address of a kernel text symbol from /proc/kallsyms, or 0. */
static uint64_t
kernel_addr(const char *want)
{
	char line[512], name[256], type;
	unsigned long long a;
	FILE *fp = fopen("/proc/kallsyms", "r");
	uint64_t r = 0;

	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    strcmp(name, want) == 0 && (type == 'T' || type == 't')) {
			r = a;
			break;
		}
	fclose(fp);
	return r;
}

static void
test_kernel(void)
{
	struct symtab *st = symtab_create();
	uint64_t a = kernel_addr("schedule");
	const char *sym, *obj;

	tap_ok(symtab_is_kernel(0xffffffff81000000ULL), "a kernel address");
	tap_ok(!symtab_is_kernel(0x400000), "a user address");
	if (a == 0) {
		tap_skip("no readable /proc/kallsyms", "kernel symbols");
		symtab_destroy(st);
		return;
	}
	symtab_resolve(st, 1, a + 1, &sym, &obj);
	tap_str(sym, "schedule", "a kernel address inside schedule()");
	tap_str(obj, SYM_KERNEL, "in " SYM_KERNEL);
	symtab_destroy(st);
}

static void
test_profile(void)
{
	struct profile *pf = profile_create();
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	static const char a[] = "hot", b[] = "cold", c[] = "tepid";
	static const char o[] = "prog";

	profile_add(pf, 7, 0, a, o, 3);
	profile_add(pf, 7, 0, b, o, 1);
	profile_add(pf, 7, 0, a, o, 3);
	profile_add(pf, 7, 0, c, o, 2);
	profile_add(pf, 8, 0, b, o, 5);	/* another scope */
	profile_add(pf, 7, 1, b, o, 9);	/* another event */
	tap_u64(profile_total(pf, 7, 0), 9, "scope 7 event 0: 9 samples");
	tap_ok(profile_print(pf, fp, 7, 0, "pid 7", "task-clock", 2) == 2,
	    "the top 2 lines");
	fclose(fp);
	tap_str(text, "# profile: pid 7, task-clock, 9 samples\n"
	    "#    pct   samples symbol object\n"
	    "   66.67         6 hot prog\n"
	    "   22.22         2 tepid prog\n", "hottest first, percentages");
	free(text);
	profile_drop(pf, 7);
	tap_u64(profile_total(pf, 7, 0), 0, "dropped scope 7");
	tap_u64(profile_total(pf, 8, 0), 5, "scope 8 kept");
	profile_destroy(pf);
}

static void
test_csv_folded(void)
{
	char *text = NULL, *stack = NULL;
	size_t len = 0, slen = 0, used = 0;
	FILE *fp = open_memstream(&text, &len);
	struct folded *fd = folded_create();

	csv_field(fp, "plain");
	fputc('|', fp);
	csv_field(fp, "a,b");
	fputc('|', fp);
	csv_field(fp, "say \"hi\"");
	fputc('|', fp);
	csv_field(fp, "two\nlines");
	fputc('|', fp);
	csv_field(fp, "");
	fclose(fp);
	tap_str(text, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|",
	    "CSV fields quoted and escaped (RFC 4180)");
	free(text);

	folded_frame(&stack, &slen, &used, NULL, "main");
	folded_frame(&stack, &slen, &used, NULL, "a;b c");
	folded_frame(&stack, &slen, &used, "lib`x.so", "leaf");
	tap_str(stack, "main;a_b_c;lib_x.so`leaf",
	    "frames joined, object`name, ';' ' ' '`' made _");
	folded_add(fd, stack, 2);
	folded_add(fd, "main;other", 1);
	folded_add(fd, stack, 1);
	text = NULL;
	fp = open_memstream(&text, &len);
	folded_write(fd, fp);
	fclose(fp);
	tap_str(text, "main;a_b_c;lib_x.so`leaf 3\nmain;other 1\n",
	    "folded lines: stack and count, sorted");
	free(text);
	free(stack);
	folded_destroy(fd);
}

int
main(void)
{
	test_self();
	test_exited();
	test_kernel();
	test_profile();
	test_csv_folded();
	return tap_done();
}
