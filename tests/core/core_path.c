// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Select the core's path from UTF8GUARD_CORE_PATH; see core_path.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_path.h"
#include "utf8guard_vector.h"

const char *core_path_from_env(const char *program)
{
	const char *name = getenv("UTF8GUARD_CORE_PATH");
	unsigned int isa;

	if (!name || !*name)
		return "default";
	/* The scalar path's plain build, where it defaults to BMI2. */
	if (!strcmp(name, "scalar-plain")) {
		if (!utf8guard_scalar_bmi2()) {
			fprintf(stderr, "%s: UTF8GUARD_CORE_PATH=scalar-plain: this CPU has no BMI2, the scalar path is plain already\n",
				program);
			exit(2);
		}
		utf8guard_vector_select(UTF8GUARD_VECTOR_SCALAR, 0);
		utf8guard_scalar_use_bmi2(false);
		return name;
	}
	for (isa = 0; isa < UTF8GUARD_VECTOR_ISA_COUNT; isa++)
		if (!strcmp(name, utf8guard_vector_isa_name(isa)))
			break;
	if (isa == UTF8GUARD_VECTOR_ISA_COUNT) {
		fprintf(stderr, "%s: UTF8GUARD_CORE_PATH=%s names no path (scalar, scalar-plain, sse4.1, avx2, avx512)\n",
			program, name);
		exit(2);
	}
	if (!utf8guard_vector_select(isa, 0)) {
		fprintf(stderr, "%s: UTF8GUARD_CORE_PATH=%s: this CPU cannot run it\n",
			program, name);
		exit(2);
	}
	return name;
}

__attribute__((constructor)) static void select_core_path(void)
{
	core_path_from_env("utf8guard core test");
}
