/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fs/fstypes as scan sees it: the filesystem types whose new names the fs
 * hook checks where no fs/mounts entry applies, and the type of the
 * filesystem a directory is on (/proc/self/mountinfo, by device).
 */
#ifndef UTF8GUARDCTL_FS_TYPES_H
#define UTF8GUARDCTL_FS_TYPES_H

#include <stdbool.h>
#include <sys/types.h>

#define FS_TYPES_TEXT_MAX 512
#define FS_TYPE_NAME_MAX 64

/**
 * struct fs_types - fs/fstypes, and the last device looked up
 * @all: "*": every type
 * @text: the types, as fs/fstypes lists them (blank-separated)
 * @last_dev: the device of the last fs_types_watched() call
 * @have_last: @last_dev is valid
 * @last_watched: its answer
 * @last_type: its type ("" when mountinfo does not list the device)
 */
struct fs_types {
	bool all;
	char text[FS_TYPES_TEXT_MAX];
	dev_t last_dev;
	bool have_last;
	bool last_watched;
	char last_type[FS_TYPE_NAME_MAX];
};

/*
 * Read fs/fstypes into @types.  Returns 0, -ENOENT when the fs hook is
 * not loaded, or another negative errno.
 */
int fs_types_read(struct fs_types *types);

/*
 * Whether the list @list, words separated by single spaces (fs/fstypes as
 * read), has the word @word: "ext4" is not in "ext4dev".
 */
bool fs_types_listed(const char *list, const char *word);

/*
 * Whether names in a directory on device @dev are checked: its type is
 * listed, the list is "*", or its type is unknown here (judged, rather
 * than passed over on a guess).  *@type: the type found, or "".
 */
bool fs_types_watched(struct fs_types *types, dev_t dev, const char **type);

#endif /* UTF8GUARDCTL_FS_TYPES_H */
