/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * caps.h - the capabilities listing printed by -h.
 */
#ifndef CAPS_H
#define CAPS_H

#include <stdio.h>
#include <libcpc.h>

void	caps_print(FILE *fp, cpc_t *cpc);

#endif
