/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * symtab.h - addresses to function names for the sampling reports, with
 * elfutils' libdwfl for processes and /proc/kallsyms for the kernel.
 *
 * A process's mappings are read while it lives (symtab_note, at the
 * first record seen of it, and again when an address falls outside every
 * mapping known), and kept after it exits, so that the records of a
 * process that is gone are still named.  The ELF files themselves are
 * opened on first use, through the paths the mappings name.
 *
 * Every string returned is interned: it lives until symtab_destroy.  All
 * calls take the table's lock (cpustat's CPU threads share one table).
 */
#ifndef SYMTAB_H
#define SYMTAB_H

#include <stdint.h>
#include <sys/types.h>

/* The names given to what cannot be named. */
#define SYM_UNKNOWN	"[unknown]"
#define SYM_KERNEL	"[kernel.kallsyms]"

struct symtab;

/* An empty table; NULL when out of memory. */
struct symtab	*symtab_create(void);
/* Free everything; NULL is a no-op. */
void		 symtab_destroy(struct symtab *st);
/* Read pid's mappings now, if not read yet (cheap when they are). */
void		 symtab_note(struct symtab *st, pid_t pid);
/* pid exec'd: its old mappings no longer apply. */
void		 symtab_forget(struct symtab *st, pid_t pid);
/*
 * The function that ip lies in for pid and the object that holds it
 * (a file's base name, SYM_KERNEL or a [module]): SYM_UNKNOWN for what
 * cannot be found.  Kernel addresses are looked up in /proc/kallsyms
 * whatever pid is.
 */
void		 symtab_resolve(struct symtab *st, pid_t pid, uint64_t ip,
		    const char **sym, const char **obj);
/*
 * The same, and in *symoff how far ip lies from the start of its
 * function: SYM_NOOFF when the function is not named.
 */
#define SYM_NOOFF	UINT64_MAX
void		 symtab_resolve_off(struct symtab *st, pid_t pid, uint64_t ip,
		    const char **sym, const char **obj, uint64_t *symoff);
/* Is ip a kernel address (the upper half of a 64-bit address space)? */
int		 symtab_is_kernel(uint64_t ip);

#endif
