/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * symtab.c - function names for sampled addresses (see symtab.h).
 *
 * Per process: a libdwfl session (Dwfl) whose modules are the process's
 * file mappings, reported from /proc/PID/maps.  A later report adds to
 * what is known (dwfl_report_begin_add), so an exited process keeps the
 * mappings it had.  Answers are cached per (pid, address): a profile
 * meets the same few addresses again and again, and libdwfl's symbol
 * search walks the whole table.  The kernel's text symbols come from
 * /proc/kallsyms, read once, sorted, searched by bisection.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>
#else
/*
 * Built without libdw (a cross build may be): user addresses stay
 * unnamed, kernel ones are still named from /proc/kallsyms.
 */
typedef struct Dwfl Dwfl;
typedef int Dwfl_Callbacks;
#define dwfl_end(d)	((void)(d))
#endif

#include "smplout.h"
#include "symtab.h"

#define NSTR		65536	/* interned strings' hash chains */
#define NPROC		256	/* processes' hash chains */
#define NCACHE		65536	/* (pid, address) answers' hash chains */
#define MAXCACHE	(1 << 20)	/* answers kept, at most */
#define REREPORTS	64	/* maps read again at will, then 1/s */
#define KALLSYMS_READ	(256 * 1024)	/* /proc/kallsyms per read(2) */
#define KMEM_RESERVE	(32UL << 20)	/* address space per kernel table */
#define HUGE_SZ		(2UL << 20)	/* a huge page */

struct sstr {
	struct sstr	*ss_next;
	char		 ss_text[];
};

struct sproc {
	struct sproc	*sp_next;
	pid_t		 sp_pid;
	Dwfl		*sp_dwfl;
	time_t		 sp_reported;	/* when the maps were last read */
	unsigned	 sp_nreports;	/* how often */
};

struct sans {
	struct sans	*sa_next;
	pid_t		 sa_pid;
	uint64_t	 sa_ip;
	const char	*sa_sym;
	const char	*sa_obj;
	uint64_t	 sa_off;
};

struct ksym {
	uint64_t	 ks_addr;
	uint32_t	 ks_name;	/* in st_knames */
	uint32_t	 ks_obj;	/* in st_kmods */
};

struct symtab {
	pthread_mutex_t	 st_lock;
	struct sstr	*st_str[NSTR];
	struct sproc	*st_proc[NPROC];
	struct sans	**st_cache;	/* NCACHE chains */
	size_t		 st_ncached;
	struct ksym	*st_ksyms;	/* sorted by address */
	char		*st_knames;	/* their names, one after another */
	size_t		 st_nksyms;
	const char	**st_kmods;	/* SYM_KERNEL, then each [module] */
	uint32_t	 st_nkmods;
	int		 st_kloaded;
	char		*st_debugpath;	/* libdwfl's debuginfo search path */
	Dwfl_Callbacks	 st_cb;
};

static uint64_t
hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v;
}

static const char *
intern(struct symtab *st, const char *s)
{
	uint64_t h = str_hash(s);
	struct sstr *e;
	size_t len = strlen(s);

	for (e = st->st_str[h % NSTR]; e != NULL; e = e->ss_next)
		if (strcmp(e->ss_text, s) == 0)
			return e->ss_text;
	if ((e = malloc(sizeof(*e) + len + 1)) == NULL)
		return SYM_UNKNOWN;
	memcpy(e->ss_text, s, len + 1);
	e->ss_next = st->st_str[h % NSTR];
	st->st_str[h % NSTR] = e;
	return e->ss_text;
}

/*
 * len bytes (a multiple of HUGE_SZ) of zeroed address space, aligned to
 * a huge page and asked to be backed by them: the tables below touched
 * 4 KiB at a time cost a thousand page faults, which in a VM were a
 * third of what loading the kernel's symbols cost.  Only what is
 * touched is memory.  NULL when it cannot be mapped.
 */
static void *
kmem_reserve(size_t len)
{
	size_t head;
	char *p, *a;

	p = mmap(NULL, len + HUGE_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
	head = (size_t)(a - p);
	if (head > 0)
		munmap(p, head);
	munmap(a + len, HUGE_SZ - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(a, len, MADV_HUGEPAGE);
#endif
	return a;
}

/*
 * The table and its answers' chains in one huge page: cache_drop reads
 * every chain, and on 4 KiB pages that was 256 faults at the end.
 */
#define ST_CACHE_OFF	((sizeof(struct symtab) + 63) & ~(size_t)63)
_Static_assert(ST_CACHE_OFF + NCACHE * sizeof(struct sans *) <= HUGE_SZ,
    "struct symtab and its cache fit a huge page");

struct symtab *
symtab_create(void)
{
	struct symtab *st;

	if ((st = kmem_reserve(HUGE_SZ)) == NULL)
		return NULL;
	st->st_cache = (struct sans **)((char *)st + ST_CACHE_OFF);
	if ((st->st_debugpath = strdup("-.debug:/usr/lib/debug")) == NULL) {
		munmap(st, HUGE_SZ);
		return NULL;
	}
	pthread_mutex_init(&st->st_lock, NULL);
#ifdef HAVE_LIBDW
	st->st_cb.find_elf = dwfl_linux_proc_find_elf;
	st->st_cb.find_debuginfo = dwfl_standard_find_debuginfo;
	st->st_cb.debuginfo_path = &st->st_debugpath;
#endif
	return st;
}

static void
cache_drop(struct symtab *st, pid_t pid)
{
	struct sans **pp, *a;
	size_t i;

	for (i = 0; i < NCACHE; i++)
		for (pp = &st->st_cache[i]; (a = *pp) != NULL;) {
			if (pid >= 0 && a->sa_pid != pid) {
				pp = &a->sa_next;
				continue;
			}
			*pp = a->sa_next;
			free(a);
			st->st_ncached--;
		}
}

void
symtab_destroy(struct symtab *st)
{
	struct sproc *p, *pn;
	struct sstr *s, *sn;
	size_t i;

	if (st == NULL)
		return;
	cache_drop(st, -1);
	for (i = 0; i < NPROC; i++)
		for (p = st->st_proc[i]; p != NULL; p = pn) {
			pn = p->sp_next;
			dwfl_end(p->sp_dwfl);
			free(p);
		}
	for (i = 0; i < NSTR; i++)
		for (s = st->st_str[i]; s != NULL; s = sn) {
			sn = s->ss_next;
			free(s);
		}
	if (st->st_ksyms != NULL)
		munmap(st->st_ksyms, KMEM_RESERVE);
	if (st->st_knames != NULL)
		munmap(st->st_knames, KMEM_RESERVE);
	free(st->st_kmods);
	free(st->st_debugpath);
	pthread_mutex_destroy(&st->st_lock);
	munmap(st, HUGE_SZ);
}

int
symtab_is_kernel(uint64_t ip)
{
	return sizeof(void *) == 8 && (ip >> 63) != 0;
}

/* Process mappings. */

#ifdef HAVE_LIBDW

static struct sproc *
proc_lookup(struct symtab *st, pid_t pid)
{
	struct sproc *p;

	for (p = st->st_proc[(unsigned)pid % NPROC]; p != NULL; p = p->sp_next)
		if (p->sp_pid == pid)
			return p;
	return NULL;
}

/*
 * Read pid's maps into its session, adding to what it knew.  A process
 * that is gone leaves the session as it was.
 */
static void
proc_report(struct sproc *p)
{
	p->sp_reported = time(NULL);
	p->sp_nreports++;
	dwfl_report_begin_add(p->sp_dwfl);
	(void)dwfl_linux_proc_report(p->sp_dwfl, p->sp_pid);
	(void)dwfl_report_end(p->sp_dwfl, NULL, NULL);
}

static struct sproc *
proc_get(struct symtab *st, pid_t pid)
{
	struct sproc *p;

	if ((p = proc_lookup(st, pid)) != NULL)
		return p;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	if ((p->sp_dwfl = dwfl_begin(&st->st_cb)) == NULL) {
		free(p);
		return NULL;
	}
	p->sp_pid = pid;
	p->sp_next = st->st_proc[(unsigned)pid % NPROC];
	st->st_proc[(unsigned)pid % NPROC] = p;
	proc_report(p);
	return p;
}

#else
static struct sproc *
proc_get(struct symtab *st, pid_t pid)
{
	(void)st;
	(void)pid;
	return NULL;
}
#endif

void
symtab_note(struct symtab *st, pid_t pid)
{
	if (pid <= 0)
		return;
	pthread_mutex_lock(&st->st_lock);
	(void)proc_get(st, pid);
	pthread_mutex_unlock(&st->st_lock);
}

void
symtab_forget(struct symtab *st, pid_t pid)
{
	struct sproc **pp, *p;

	pthread_mutex_lock(&st->st_lock);
	for (pp = &st->st_proc[(unsigned)pid % NPROC]; (p = *pp) != NULL;
	    pp = &p->sp_next)
		if (p->sp_pid == pid) {
			*pp = p->sp_next;
			dwfl_end(p->sp_dwfl);
			free(p);
			break;
		}
	cache_drop(st, pid);
	pthread_mutex_unlock(&st->st_lock);
}

#ifdef HAVE_LIBDW
static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

static int
user_resolve(struct symtab *st, pid_t pid, uint64_t ip, const char **sym,
    const char **obj, uint64_t *symoff)
{
	struct sproc *p;
	Dwfl_Module *m;
	const char *name, *mod;
	GElf_Off off;
	GElf_Sym es;

	*sym = *obj = SYM_UNKNOWN;
	if (pid <= 0 || (p = proc_get(st, pid)) == NULL)
		return 0;
	m = dwfl_addrmodule(p->sp_dwfl, ip);
	/*
	 * Mapped since the maps were read (the libraries after the exec,
	 * dlopen)?  Read them again: freely at first, then once a second
	 * at most (a process that runs code it generates keeps missing).
	 */
	if (m == NULL && (p->sp_nreports < REREPORTS ||
	    p->sp_reported != time(NULL))) {
		proc_report(p);
		m = dwfl_addrmodule(p->sp_dwfl, ip);
	}
	if (m == NULL)
		return 0;
	mod = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	if (mod != NULL)
		*obj = intern(st, base_name(mod));
	name = dwfl_module_addrinfo(m, ip, &off, &es, NULL, NULL, NULL);
	if (name != NULL && *name != '\0') {
		*sym = intern(st, name);
		*symoff = off;
	}
	return 1;
}
#else
static int
user_resolve(struct symtab *st, pid_t pid, uint64_t ip, const char **sym,
    const char **obj, uint64_t *symoff)
{
	(void)st;
	(void)pid;
	(void)ip;
	(void)symoff;
	*sym = *obj = SYM_UNKNOWN;
	return 0;
}
#endif

/* The kernel. */

static int
ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->ks_addr < y->ks_addr ? -1 : x->ks_addr > y->ks_addr;
}

/*
 * One line of /proc/kallsyms, "addr type name[\tmodule]", ending at
 * end (its newline, or where the text ends): the text symbol's address
 * (parsed by hand: strtoull was a tenth of the load), its name cut out
 * in place, and *mod its module (in brackets) or NULL; 0 for any other
 * line.
 */
static uint64_t
kallsyms_line(char *line, char *end, char **name, char **mod)
{
	uint64_t addr = 0;
	char *p, *tab;
	int d;

	for (p = line; p < end; p++) {
		d = *p >= '0' && *p <= '9' ? *p - '0' :
		    *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (d < 0)
			break;
		addr = addr << 4 | (uint64_t)d;
	}
	if (p == line || end - p < 4 || p[0] != ' ' ||
	    (p[1] != 't' && p[1] != 'T') || p[2] != ' ')
		return 0;
	*name = p + 3;
	*mod = NULL;
	*end = '\0';
	if ((tab = memchr(*name, '\t', (size_t)(end - *name))) != NULL) {
		*tab = '\0';
		*mod = tab + 1;
	}
	return addr;
}

/*
 * The index of module mod (its symbols come one after another: the last
 * one is looked at first) in st_kmods; UINT32_MAX when out of memory.
 */
static uint32_t
kmod_index(struct symtab *st, const char *mod)
{
	const char *m = intern(st, mod), **nm;
	uint32_t i;

	for (i = st->st_nkmods; i-- > 1;)
		if (st->st_kmods[i] == m)
			return i;
	if ((nm = realloc(st->st_kmods, (st->st_nkmods + 1) *
	    sizeof(*nm))) == NULL)
		return UINT32_MAX;
	st->st_kmods = nm;
	nm[st->st_nkmods] = m;
	return st->st_nkmods++;
}

/* Room for one more symbol and a name of len bytes; 0, or -1. */
static int
ksym_room(const struct symtab *st, size_t used, size_t len)
{
	return st->st_nksyms < KMEM_RESERVE / sizeof(struct ksym) &&
	    used + len <= KMEM_RESERVE ? 0 : -1;
}

/*
 * The text symbols of the whole lines in buf (n bytes) into the table;
 * the bytes used.  -1 when out of memory.
 */
static ssize_t
kallsyms_chunk(struct symtab *st, char *buf, size_t n, size_t *used)
{
	char *line = buf, *nl, *name, *mod;
	struct ksym *k;
	uint64_t addr;
	uint32_t obj;
	size_t len;

	while ((nl = memchr(line, '\n', n - (size_t)(line - buf))) != NULL) {
		addr = kallsyms_line(line, nl, &name, &mod);
		line = nl + 1;
		if (addr == 0)
			continue;
		len = (size_t)(nl - name) + 1;
		if (mod != NULL)
			len = (size_t)(mod - name);
		/* The module first: a symbol is counted only when whole. */
		if (ksym_room(st, *used, len) != 0 || (obj = mod != NULL ?
		    kmod_index(st, mod) : 0) == UINT32_MAX)
			return -1;
		k = &st->st_ksyms[st->st_nksyms++];
		k->ks_addr = addr;
		memcpy(st->st_knames + *used, name, len);
		k->ks_name = (uint32_t)*used;
		k->ks_obj = obj;
		*used += len;
	}
	return line - buf;
}

/* Is the table sorted by address?  /proc/kallsyms nearly always is. */
static int
ksyms_sorted(const struct symtab *st)
{
	size_t i;

	for (i = 1; i < st->st_nksyms; i++)
		if (st->st_ksyms[i].ks_addr < st->st_ksyms[i - 1].ks_addr)
			return 0;
	return 1;
}

/*
 * Text symbols of /proc/kallsyms (none where its addresses are hidden),
 * their names in one arena: the kernel has some 100000, read once, on
 * the first kernel address, in large reads of whole lines parsed in
 * place.  The table and the arena are address space reserved once
 * (kmem_reserve); a symbol keeps its name's offset in the arena.
 */
static void
kernel_load(struct symtab *st)
{
	size_t used = 0, have = 0;
	ssize_t n, took;
	char *buf;
	int fd;

	st->st_kloaded = 1;
	/* Index 0, every symbol outside a module. */
	if ((st->st_kmods = malloc(sizeof(*st->st_kmods))) == NULL)
		return;
	st->st_kmods[st->st_nkmods++] = SYM_KERNEL;
	if ((st->st_ksyms = kmem_reserve(KMEM_RESERVE)) == NULL ||
	    (st->st_knames = kmem_reserve(KMEM_RESERVE)) == NULL ||
	    (buf = malloc(KALLSYMS_READ)) == NULL)
		return;
	if ((fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC)) < 0) {
		free(buf);
		return;
	}
	while ((n = read(fd, buf + have, KALLSYMS_READ - have)) > 0 ||
	    (n < 0 && errno == EINTR)) {
		if (n < 0)
			continue;
		have += (size_t)n;
		if ((took = kallsyms_chunk(st, buf, have, &used)) < 0)
			break;
		memmove(buf, buf + took, have - (size_t)took);
		have -= (size_t)took;
		if (have == KALLSYMS_READ)	/* a line longer than that */
			have = 0;
	}
	close(fd);
	free(buf);
	if (!ksyms_sorted(st))
		qsort(st->st_ksyms, st->st_nksyms, sizeof(*st->st_ksyms),
		    ksym_cmp);
}

static void
kernel_resolve(struct symtab *st, uint64_t ip, const char **sym,
    const char **obj, uint64_t *symoff)
{
	size_t lo = 0, hi, mid;

	if (!st->st_kloaded)
		kernel_load(st);
	*sym = SYM_UNKNOWN;
	*obj = SYM_KERNEL;
	hi = st->st_nksyms;
	if (hi == 0 || ip < st->st_ksyms[0].ks_addr)
		return;
	/* The last symbol at or below ip. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (st->st_ksyms[mid].ks_addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	*sym = st->st_knames + st->st_ksyms[lo].ks_name;
	*obj = st->st_kmods[st->st_ksyms[lo].ks_obj];
	*symoff = ip - st->st_ksyms[lo].ks_addr;
}

void
symtab_resolve(struct symtab *st, pid_t pid, uint64_t ip, const char **sym,
    const char **obj)
{
	uint64_t off;

	symtab_resolve_off(st, pid, ip, sym, obj, &off);
}

void
symtab_resolve_off(struct symtab *st, pid_t pid, uint64_t ip,
    const char **sym, const char **obj, uint64_t *symoff)
{
	uint64_t h;
	struct sans *a;

	*symoff = SYM_NOOFF;
	pthread_mutex_lock(&st->st_lock);
	if (symtab_is_kernel(ip)) {
		kernel_resolve(st, ip, sym, obj, symoff);
		goto out_unlock;
	}
	h = hash64(ip ^ ((uint64_t)(unsigned)pid << 40)) % NCACHE;
	for (a = st->st_cache[h]; a != NULL; a = a->sa_next)
		if (a->sa_ip == ip && a->sa_pid == pid) {
			*sym = a->sa_sym;
			*obj = a->sa_obj;
			*symoff = a->sa_off;
			goto out_unlock;
		}
	/* An unknown address may be mapped later: not kept. */
	if (!user_resolve(st, pid, ip, sym, obj, symoff) ||
	    st->st_ncached >= MAXCACHE || (a = malloc(sizeof(*a))) == NULL)
		goto out_unlock;
	a->sa_pid = pid;
	a->sa_ip = ip;
	a->sa_sym = *sym;
	a->sa_obj = *obj;
	a->sa_off = *symoff;
	a->sa_next = st->st_cache[h];
	st->st_cache[h] = a;
	st->st_ncached++;
out_unlock:
	pthread_mutex_unlock(&st->st_lock);
}
