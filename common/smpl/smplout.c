/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smplout.c - CSV fields and folded stacks (see smplout.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "smplout.h"

#define NCHAIN	4096

void
csv_field(FILE *fp, const char *s)
{
	size_t len = strlen(s);
	const char *p;

	if (strpbrk(s, ",\"\r\n") == NULL &&
	    (len == 0 || (s[0] != ' ' && s[len - 1] != ' '))) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
}

uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

struct fstack {
	struct fstack	*fs_next;
	uint64_t	 fs_n;
	char		 fs_text[];
};

struct folded {
	struct fstack	*fd_chain[NCHAIN];
	size_t		 fd_n;
};

struct folded *
folded_create(void)
{
	return calloc(1, sizeof(struct folded));
}

void
folded_destroy(struct folded *fd)
{
	struct fstack *s, *n;
	size_t i;

	if (fd == NULL)
		return;
	for (i = 0; i < NCHAIN; i++)
		for (s = fd->fd_chain[i]; s != NULL; s = n) {
			n = s->fs_next;
			free(s);
		}
	free(fd);
}

int
folded_add(struct folded *fd, const char *stack, uint64_t n)
{
	uint64_t h = str_hash(stack);
	struct fstack *s;
	size_t len = strlen(stack);

	for (s = fd->fd_chain[h % NCHAIN]; s != NULL; s = s->fs_next)
		if (strcmp(s->fs_text, stack) == 0) {
			s->fs_n += n;
			return 0;
		}
	if ((s = malloc(sizeof(*s) + len + 1)) == NULL)
		return -1;
	memcpy(s->fs_text, stack, len + 1);
	s->fs_n = n;
	s->fs_next = fd->fd_chain[h % NCHAIN];
	fd->fd_chain[h % NCHAIN] = s;
	fd->fd_n++;
	return 0;
}

/* s at d, each character that would break a folded line made '_'. */
static char *
fold_copy(char *d, const char *s)
{
	for (; *s != '\0'; s++)
		*d++ = (*s == ';' || *s == ' ' || *s == '`' ||
		    (unsigned char)*s < 0x20) ? '_' : *s;
	return d;
}

int
folded_frame(char **buf, size_t *len, size_t *used, const char *obj,
    const char *name)
{
	size_t need = *used + strlen(name) + 3;
	char *nb, *d;

	if (obj != NULL)
		need += strlen(obj);
	if (need > *len) {
		if ((nb = realloc(*buf, need * 2)) == NULL)
			return -1;
		*buf = nb;
		*len = need * 2;
	}
	d = *buf + *used;
	if (*used > 0)
		*d++ = ';';
	if (obj != NULL) {
		d = fold_copy(d, obj);
		*d++ = '`';
	}
	d = fold_copy(d, name);
	*d = '\0';
	*used = (size_t)(d - *buf);
	return 0;
}

static int
by_text(const void *a, const void *b)
{
	return strcmp((*(const struct fstack *const *)a)->fs_text,
	    (*(const struct fstack *const *)b)->fs_text);
}

int
folded_write(const struct folded *fd, FILE *fp)
{
	struct fstack **v, *s;
	size_t i, n = 0;

	if ((v = calloc(fd->fd_n + 1, sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < NCHAIN; i++)
		for (s = fd->fd_chain[i]; s != NULL; s = s->fs_next)
			v[n++] = s;
	qsort(v, n, sizeof(*v), by_text);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s %" PRIu64 "\n", v[i]->fs_text, v[i]->fs_n);
	free(v);
	return ferror(fp) ? -1 : 0;
}
