/* Paths of an entry on an ESP as the firmware's FAT driver finds them: each
 * component matched case-insensitively (FAT keeps case, compares without
 * it), '\\' or '/' between them. Shared by `entry list` and the automatic
 * entries (entry_os.c). */
#define _GNU_SOURCE
#include "entry.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *resolve_kind(const char *esp, const char *path, bool want_dir)
{
	char *cur = xstrdup(esp), *copy = xstrdup(path), *save = NULL;

	for (char *c = copy; *c; c++)
		if (*c == '\\')
			*c = '/';
	for (char *comp = strtok_r(copy, "/", &save); comp && cur; comp = strtok_r(NULL, "/", &save)) {
		DIR *d = strcmp(comp, "..") == 0 ? NULL : opendir(cur);
		struct dirent *e;
		char *next = NULL;

		while (d && !next && (e = readdir(d)))
			if (strcasecmp(e->d_name, comp) == 0)
				next = path_join(cur, e->d_name);
		if (d)
			closedir(d);
		free(cur);
		cur = next;
	}
	free(copy);
	if (cur && !(want_dir ? is_dir(cur) : is_file(cur))) {
		free(cur);
		cur = NULL;
	}
	return cur;
}
