/* The random seed for Linux, as systemd-boot passes it (systemd's "Random
 * Seeds" document): just before a Linux entry boots, \loader\random-seed, the
 * LoaderSystemToken variable, EFI_RNG_PROTOCOL (UEFI 2.10 §37.5), an earlier
 * loader's seed table and the monotonic counter and time are mixed
 * (src/core/random_seed.c); a new seed is written back to the file first, so
 * no seed is used twice, then the kernel's is installed as the
 * LINUX_EFI_RANDOM_SEED_TABLE configuration table, which Linux reads on every
 * boot scheme. A read-only medium (a network boot) is neither read nor written. */
#include "loader.h"
#include "loader_vars.h"
#include "core/pbkdf2.h"
#include "core/random_seed.h"
#include <efi/linux.h>
#include <efi/proto/rng.h>

#define SEED_FILE u"\\loader\\random-seed"

static EFI_GUID seed_table_guid = LINUX_EFI_RANDOM_SEED_TABLE_GUID;
static EFI_GUID rng_guid = EFI_RNG_PROTOCOL_GUID;

struct seed_job {
	struct rs_sources src;
	struct rs_input in[RS__N];
	LINUX_EFI_RANDOM_SEED *prev;
	EFI_FILE_PROTOCOL *f;
	uint64_t file_size;
	bool read_only;   /* a read-only medium: said once, in the last line */
	uint64_t counter;
	EFI_TIME now;
	uint8_t rng[RS_SEED_SIZE], token[RS_INPUT_MAX], file[RS_FILE_MAX];
};

/* What the firmware holds: an earlier loader's table, the RNG protocol, LoaderSystemToken,
 * the monotonic counter and the time. */
static void gather_firmware(struct seed_job *j)
{
	EFI_RNG_PROTOCOL *rng = NULL;
	size_t n = RS_INPUT_MAX;

	j->prev = (LINUX_EFI_RANDOM_SEED *)efi_config_table(&seed_table_guid);
	if (j->prev) /* Linux credits at most 1 KiB of it */
		j->in[RS_PREV_TABLE] = (struct rs_input){ j->prev->bits, j->src.prev_size = MIN(j->prev->size, n) };
	if (BS->LocateProtocol(&rng_guid, NULL, (void **)&rng) == EFI_SUCCESS && rng &&
	    rng->GetRNG(rng, NULL, sizeof(j->rng), j->rng) == EFI_SUCCESS)
		j->in[RS_RNG] = (struct rs_input){ j->rng, sizeof(j->rng) }, j->src.rng = true;
	if (loader_var_get_raw(u"LoaderSystemToken", j->token, &n) == EFI_SUCCESS)
		j->in[RS_TOKEN] = (struct rs_input){ j->token, j->src.token_size = n };
	BS->GetNextMonotonicCount(&j->counter);
	j->in[RS_COUNTER] = (struct rs_input){ &j->counter, sizeof(j->counter) };
	if (RT->GetTime(&j->now, NULL) == EFI_SUCCESS)
		j->in[RS_TIME] = (struct rs_input){ &j->now, sizeof(j->now) };
}

/* \loader\random-seed on the boot volume, open for writing; RS_FILE_READ_ONLY
 * also when it cannot be used (said here). */
static enum rs_file_state seed_file_open(const struct volume *vol, struct seed_job *j)
{
	EFI_STATUS err = EFI_WRITE_PROTECTED;

	if (!vol->network)
		err = vol->root->Open(vol->root, &j->f, SEED_FILE, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0);
	if (err == EFI_NOT_FOUND)
		return RS_FILE_ABSENT;
	if ((j->read_only = err == EFI_WRITE_PROTECTED || err == EFI_ACCESS_DENIED))
		return RS_FILE_READ_ONLY;
	if (!EFI_ERROR(err))
		err = file_size(j->f, &j->file_size);
	if (!EFI_ERROR(err) && j->file_size > RS_FILE_MAX)
		err = EFI_BAD_BUFFER_SIZE;
	if (EFI_ERROR(err))
		log_status(LOG_WARNING, err, "\\loader\\random-seed: %m (%llu bytes, at most 32768), not used",
			   (unsigned long long)j->file_size);
	else if (j->file_size < RS_SEED_SIZE)
		return RS_FILE_SHORT;
	else if (!EFI_ERROR(file_read_exact(j->f, j->file, j->file_size, "\\loader\\random-seed"))) {
		j->in[RS_FILE] = (struct rs_input){ j->file, (size_t)j->file_size };
		return RS_FILE_PRESENT;
	}
	return RS_FILE_READ_ONLY;
}

/* The new seed at the start of the file, the rest of a longer file zeroed
 * (systemd-boot does not truncate either: FAT drivers differ in SetInfo). */
static EFI_STATUS seed_file_write(const struct volume *vol, struct seed_job *j, const uint8_t seed[RS_SEED_SIZE])
{
	UINTN n = RS_SEED_SIZE;
	EFI_STATUS err = EFI_SUCCESS;

	if (!j->f)
		err = vol->root->Open(vol->root, &j->f, SEED_FILE,
				      EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);
	memset(j->file, 0, sizeof(j->file));
	memcpy(j->file, seed, RS_SEED_SIZE);
	n = MAX(n, (UINTN)j->file_size);
	if (!EFI_ERROR(err))
		err = j->f->SetPosition(j->f, 0);
	if (!EFI_ERROR(err))
		err = j->f->Write(j->f, &n, j->file);
	if (!EFI_ERROR(err))
		err = j->f->Flush(j->f);
	mem_wipe(j->file, sizeof(j->file));
	return err;
}

/* The kernel's table (EfiACPIReclaimMemory, as Linux's stub allocates it); the line saying so. */
static EFI_STATUS seed_table_install(const uint8_t seed[RS_SEED_SIZE], const char *note)
{
	LINUX_EFI_RANDOM_SEED *t;
	EFI_STATUS err = BS->AllocatePool(EfiACPIReclaimMemory, sizeof(*t) + RS_SEED_SIZE, (void **)&t);

	if (!EFI_ERROR(err)) {
		t->size = RS_SEED_SIZE;
		memcpy(t->bits, seed, RS_SEED_SIZE);
		err = BS->InstallConfigurationTable(&seed_table_guid, t);
		if (EFI_ERROR(err)) {
			mem_wipe(t, sizeof(*t) + RS_SEED_SIZE);
			BS->FreePool(t);
		}
	}
	if (EFI_ERROR(err))
		log_status(LOG_WARNING, err, "random seed: cannot install the table: %m");
	else
		log_info("random seed: passed%s", note);
	return err;
}

/* Mix, write back, install; say in one line what the kernel got. */
static void seed_pass(const struct volume *vol, struct seed_job *j)
{
	uint8_t file_seed[RS_SEED_SIZE], kernel_seed[RS_SEED_SIZE];
	const char *why = rs_check(&j->src);
	const char *ro = j->read_only ? "; read-only medium, \\loader\\random-seed not used" : "";
	bool used = j->src.file == RS_FILE_PRESENT;
	EFI_STATUS err = EFI_SUCCESS;

	if (why)
		return (void)log_info("random seed: none passed (%s)%s", why, ro);
	rs_derive(j->in, file_seed, kernel_seed);
	if (j->src.file != RS_FILE_READ_ONLY && EFI_ERROR(err = seed_file_write(vol, j, file_seed)))
		log_status(LOG_WARNING, err, "\\loader\\random-seed: cannot write: %m%s",
			   used ? "; no seed passed" : "");
	if (!EFI_ERROR(err) || !used) /* else its bytes, mixed in, stay: a seed now would credit them twice */
		err = seed_table_install(kernel_seed, ro);
	/* the earlier table was mixed in: wiped, as Linux's stub does (not freed: whose pool it is, is unknown) */
	if (!EFI_ERROR(err) && j->prev)
		mem_wipe(j->prev->bits, j->src.prev_size);
	mem_wipe(file_seed, sizeof(file_seed));
	mem_wipe(kernel_seed, sizeof(kernel_seed));
}

void random_seed_pass(const struct loader *l)
{
	struct seed_job *j = mem_zalloc(sizeof(*j));

	if (!j)
		return;
	gather_firmware(j);
	j->src.secure_boot = l->secure_boot;
	j->src.file = seed_file_open(&l->volumes[0], j);
	seed_pass(&l->volumes[0], j);
	file_close(j->f);
	mem_wipe(j, sizeof(*j));
	mem_free(j);
}
