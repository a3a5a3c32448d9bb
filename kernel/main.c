// SPDX-License-Identifier: GPL-2.0
/*
 * utf8guard.ko: strict UTF-8 at the kernel boundary.
 *
 * This module holds the validator core, the policy and its sysfs control
 * interface, and exports the helpers (utf8guard.h) that the filesystem and
 * netfilter hook modules use.  It hooks nothing itself.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "audit_record.h"
#include "compat.h"
#include "hook_kit.h"
#include "policy_state.h"
#include "stats.h"
#include "sysfs.h"
#include "utf8guard.h"
#include "utf8guard_vector.h"
#include "utf8guard_version.h"
#include "validator_state.h"

static char *mode_param;
UTF8GUARD_KIT_PARAM(mode, charp,
		    "Mode at load: off, audit or enforce (default enforce)");

static char *policy_param;
UTF8GUARD_KIT_PARAM(policy, charp,
		    "Check classes at load, as written to the policy file; separate words with commas or quoted spaces (default \"strict path-tricks\")");

static char *validator_param;
UTF8GUARD_KIT_PARAM(validator, charp,
		    "Validator path: auto (the best this CPU offers, default), scalar, sse4.1, avx2 or avx512");

static int __init utf8guard_init(void)
{
	char mode[UTF8GUARD_POLICY_TEXT_MAX], classes[UTF8GUARD_POLICY_TEXT_MAX];
	struct utf8guard_policy policy;
	int ret;

	ret = policy_state_init(mode_param, policy_param);
	if (ret)
		return ret;
	ret = validator_state_init(validator_param);
	if (ret)
		return ret;
	ret = utf8guard_kit_stats_init(&core_stats);
	if (ret)
		return ret;
	ret = sysfs_interface_init();
	if (ret) {
		pr_err("cannot create /sys/kernel/utf8guard: %d\n", ret);
		utf8guard_kit_stats_destroy(&core_stats);
		return ret;
	}
	policy = utf8guard_policy_get();
	utf8guard_format_mode(policy.mode, mode, sizeof(mode));
	utf8guard_format_policy(policy.classes, classes, sizeof(classes));
	pr_info("%s loaded: mode %s, policy %s, validator %s from %u bytes\n",
		UTF8GUARD_VERSION, mode, classes,
		utf8guard_vector_isa_name(utf8guard_vector_selected()),
		UTF8GUARD_VECTOR_MIN_LENGTH);
	return 0;
}

static void __exit utf8guard_exit(void)
{
	sysfs_interface_exit();
	audit_record_exit();
	utf8guard_kit_stats_destroy(&core_stats);
	pr_info("unloaded\n");
}

module_init(utf8guard_init);
module_exit(utf8guard_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(UTF8GUARD_VERSION);
MODULE_DESCRIPTION("Strict UTF-8 (RFC 3629) validation and policy for names and payloads");
MODULE_AUTHOR("utf8guard developers");
