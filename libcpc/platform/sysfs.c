/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysfs.c - what the kernel offers: its PMUs (sysfs) and tracefs.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "platform.h"

#define TRACEFS_MAGIC_NR	0x74726163

/* The kernel has a core PMU for the CPU (not just software events). */
int
cpc_hw_pmu_present(void)
{
	static const char *const fixed[] = { "cpu", "cpu_core", "cpu_atom" };
	char path[256];
	struct dirent *d;
	DIR *dir;
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
		snprintf(path, sizeof(path), CPC_SYSFS_PMUS "/%s", fixed[i]);
		if (access(path, F_OK) == 0)
			return 1;
	}
	if ((dir = opendir(CPC_SYSFS_PMUS)) == NULL)
		return 0;
	while (!found && (d = readdir(dir)) != NULL)
		found = strncmp(d->d_name, "armv8_", 6) == 0 ||
		    strncmp(d->d_name, "armv7_", 6) == 0 ||
		    strncmp(d->d_name, "arm_cortex", 10) == 0;
	closedir(dir);
	return found;
}

/*
 * Every kernel with perf events registers the software PMU: without it
 * listed, sysfs is not there (a container without /sys) and cannot say.
 */
int
cpc_pmu_registered(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), CPC_SYSFS_PMUS "/%s", name);
	if (access(path, F_OK) == 0)
		return 1;
	return access(CPC_SYSFS_PMUS "/software", F_OK) == 0 ? 0 : -1;
}

/*
 * The tracefs mount point, or NULL (errno ENOENT) when tracefs is not
 * mounted and cannot be.  The usual places are checked first with
 * statfs (an empty directory is not taken for a mount), which costs no
 * library; elsewhere, or unmounted, libtracefs looks (in /proc/mounts)
 * and, as perf does, mounts tracefs when it may.
 */
const char *
cpc_tracefs_dir(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct statfs sf;
	const char *dir;
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		if (statfs(dirs[i], &sf) == 0 &&
		    (unsigned long)sf.f_type == TRACEFS_MAGIC_NR)
			return dirs[i];
	if ((dir = cpc_tracefs_lookup()) != NULL && statfs(dir, &sf) == 0 &&
	    (unsigned long)sf.f_type == TRACEFS_MAGIC_NR)
		return dir;
	errno = ENOENT;
	return NULL;
}

/* Directory sub of the directory open as fd has a file name. */
static int
has_file(int fd, const char *sub, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", sub, name);
	return faccessat(fd, path, F_OK, 0) == 0;
}

/*
 * The subdirectories of path that have a file needs (NULL: all), as a
 * NULL-ended list, NULL when there are none or path cannot be read.
 * The type comes from readdir (tracefs gives it); only an entry of
 * unknown type costs a stat.
 */
static char **
subdirs(const char *path, const char *needs)
{
	char **list = NULL, **nl;
	size_t n = 0, cap = 0;
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int fd;

	if ((dir = opendir(path)) == NULL)
		return NULL;
	fd = dirfd(dir);
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		if (d->d_type != DT_DIR && (d->d_type != DT_UNKNOWN ||
		    fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(st.st_mode)))
			continue;
		if (needs != NULL && !has_file(fd, d->d_name, needs))
			continue;
		if (n + 2 > cap) {
			cap = cap ? 2 * cap : 64;
			if ((nl = realloc(list, cap * sizeof(*list))) == NULL)
				break;
			list = nl;
		}
		if ((list[n] = strdup(d->d_name)) == NULL)
			break;
		list[++n] = NULL;
	}
	closedir(dir);
	if (n == 0) {
		free(list);
		return NULL;
	}
	return list;
}

char **
cpc_tracefs_systems(const char *dir)
{
	char path[512];

	/* As libtracefs: a system has an enable file (ftrace has none). */
	snprintf(path, sizeof(path), "%s/events", dir);
	return subdirs(path, "enable");
}

char **
cpc_tracefs_events(const char *dir, const char *sys)
{
	char path[768];

	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	return subdirs(path, NULL);
}

void
cpc_tracefs_list_free(char **list)
{
	char **p;

	for (p = list; p != NULL && *p != NULL; p++)
		free(*p);
	free(list);
}

int
cpc_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

int
cpc_cpu_state(int cpu)
{
	char path[96], buf[16];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	if (access(path, F_OK) != 0)
		return -1;
	/* cpu0 often has no online file: it cannot go offline. */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
	    cpu);
	if (cpc_read_small(path, buf, sizeof(buf)) != 0)
		return 1;
	return buf[0] != '0';
}
