/* Microsoft's certificates, kept for `handoff keys create --microsoft`
 * (keys.h): option ROMs (a GPU's firmware, a network card's) are signed by
 * Microsoft's UEFI CA and Windows by its Windows PCA, and the firmware runs
 * neither unless db holds them; Windows updates db and dbx with Microsoft's
 * KEK. handoff ships no certificates: they are the ones this machine's
 * firmware holds now, the entries of its KEK and db whose SignatureOwner is
 * Microsoft's GUID, so they are exactly what the machine trusted before. */
#include "keys.h"
#include "cert.h"
#include "efivarfs.h"
#include "core/gpt.h"
#include <stdio.h>
#include <stdlib.h>

void sb_kept_free(struct sb_kept *k)
{
	free(k->buf);
	free(k->e);
	*k = (struct sb_kept){ 0 };
}

/* Keep the entries of @k owned by Microsoft, in their order; name them. */
static void keep_microsoft(struct sb_kept *k, const char *var)
{
	static const EFI_GUID microsoft = MICROSOFT_SIGNATURE_OWNER_GUID;
	static const EFI_GUID x509 = EFI_CERT_X509_GUID;
	size_t n = 0;

	for (size_t i = 0; i < k->n; i++) {
		char *name;

		if (!guid_equal(&k->e[i].owner, &microsoft))
			continue;
		name = guid_equal(&k->e[i].type, &x509) ? cert_name(k->e[i].data, k->e[i].size) : NULL;
		printf("keeping Microsoft's %s in %s: %s\n", name ? "certificate" : "signature", var,
		       name ? name : "(not an X.509 certificate)");
		free(name);
		k->e[n++] = k->e[i];
	}
	k->n = n;
}

int keys_microsoft(enum sb_var_id v, struct sb_kept *ret)
{
	const struct sb_var *var = &sb_vars[v];
	char *what = xasprintf("%s/%s-%s", efivars_dir(), var->name, var->vendor_str);
	size_t len = 0;
	int r = 0;

	*ret = (struct sb_kept){ .buf = efivar_read(var->name, var->vendor_str, &len) };
	if (ret->buf && siglist_parse(ret->buf, len, what, &ret->e, &ret->n) != EFI_SUCCESS)
		r = -1; /* siglist_parse said why */
	if (r == 0)
		keep_microsoft(ret, var->name);
	else
		sb_kept_free(ret);
	free(what);
	return r;
}
