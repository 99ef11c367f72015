/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msgsafe.c - libpctx's messages made fit for a terminal, by libcpc's
 * code (libcpc/toolapi/msgsafe.h, libcpc/platform/msgsafe.c).  libpctx
 * calls nothing of libcpc, so the one source is compiled into it again, its
 * functions renamed to libpctx's pctx_msgsafe, pctx_vmsgsafe and
 * pctx_utf8_len
 * (pctx_impl.h; hidden, as all of libpctx but its API).  Nothing is
 * written twice, and the two libraries link side by side.
 */
#define cpc_msgsafe	pctx_msgsafe
#define cpc_vmsgsafe	pctx_vmsgsafe
#define cpc_utf8_len	pctx_utf8_len

#include "../platform/msgsafe.c"
