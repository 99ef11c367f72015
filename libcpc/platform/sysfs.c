/*
 * sysfs.c - what the kernel offers: its PMUs (sysfs) and tracefs.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
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
