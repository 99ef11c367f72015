/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_metric - libFuzzer target for the derived metrics' grammar
 * (cpustat -M, cputrack -M): the input is an -M argument such as
 * "ipc,hit=100*EC_hit/\"EC_ref\",rate:page-faults".
 *
 * Each input is parsed twice: as one expression (mx_parse) and evaluated
 * on counts made from the input, and as an -M list (met_add), whose
 * metrics' events are resolved (met_check) and placed into two -c sets
 * (met_plan), each grown text parsed again as the tool would.  Every
 * refusal must be one line naming a position inside the input (or just
 * after its end).  Nothing is bound.
 */
#include <math.h>

#include "fuzz.h"
#include "metric.h"
#include "strtoset.h"

/* A refusal: "position N: ..." with 1 <= N <= len + 1, one line. */
static void
check_msg(const char *err, size_t len)
{
	unsigned long pos;

	if (strchr(err, '\n') != NULL)
		abort();
	if (sscanf(err, "position %lu:", &pos) != 1 || pos < 1 ||
	    pos > len + 1)
		abort();
}

static void
one_expr(const char *text, size_t len, const uint8_t *data, size_t size)
{
	double vals[MX_MAXEVENTS], v;
	struct mx_expr x;
	char err[512];
	int i;

	if (mx_parse(text, 0, &x, err, sizeof(err)) != 0) {
		check_msg(err, len);
		return;
	}
	for (i = 0; i < MX_MAXEVENTS; i++)
		vals[i] = size > 0 ? data[i % size] : 0;
	v = mx_eval(&x, vals, size % 3);
	if (!isnan(v) && !isfinite(v))
		abort();
	mx_free(&x);
}

static void
one_list(const char *text, size_t len)
{
	static const char *const texts[] = { "page-faults",
	    "cpu-clock,context-switches" };
	const char *const *out;
	struct metrics *ms = met_create();
	struct spec sp;
	char err[1024];
	int n, i, usage;

	if (ms == NULL)
		abort();
	if (met_add(ms, text, err, sizeof(err)) != 0) {
		check_msg(err, len);
	} else if (met_check(ms, 0, cpc, err, sizeof(err), &usage) == 0 &&
	    met_plan(ms, cpc, texts, 2, &out, &n, err, sizeof(err)) == 0) {
		for (i = 0; i < n; i++)
			if (spec_parse_cpc(cpc, out[i], &sp, err,
			    sizeof(err)) == 0)
				spec_free(&sp);
	}
	met_destroy(ms);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	size_t len = strlen(text);

	one_expr(text, len, data, size);
	one_list(text, len);
	free(text);
	return 0;
}
