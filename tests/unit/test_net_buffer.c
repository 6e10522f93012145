/* The buffer a file of unknown size (a chunked HTTP body) is fetched into
 * (src/efi/net_buffer.c): doubled from NET_BUFFER_FIRST keeping its bytes,
 * never to NET_FILE_MAX (so up to 1 GiB); a buffer that cannot grow is kept, the failure
 * logged naming the file. */
#include "test.h"
#include "efi/net.h"

TEST(net_buffer_grow_doubles_and_keeps_bytes)
{
	uint8_t *buf = NULL;
	size_t size = 0;

	CHECK(net_buffer_grow("u", &buf, &size, 0));
	CHECK(buf != NULL);
	CHECK_EQ(size, NET_BUFFER_FIRST);
	memcpy(buf, "abc", 3);
	CHECK(net_buffer_grow("u", &buf, &size, 3));
	CHECK_EQ(size, 2 * NET_BUFFER_FIRST);
	CHECK_MEM(buf, "abc", 3);
	buf[size - 1] = 'z';
	CHECK(net_buffer_grow("u", &buf, &size, size));
	CHECK_EQ(size, 4 * NET_BUFFER_FIRST);
	CHECK_MEM(buf, "abc", 3);
	CHECK_EQ(buf[2 * NET_BUFFER_FIRST - 1], 'z');
	CHECK_EQ(test_log_count(), 0);
	mem_free(buf);
}

TEST(net_buffer_grow_stops_below_net_file_max)
{
	uint8_t *buf = mem_alloc(4), *kept = buf;
	size_t size = NET_FILE_MAX / 2; /* as if it had grown that far: 1 GiB */

	memcpy(buf, "abcd", 4);
	CHECK(!net_buffer_grow("http://srv/big", &buf, &size, 4));
	CHECK(buf == kept);
	CHECK_EQ(size, NET_FILE_MAX / 2);
	CHECK_MEM(buf, "abcd", 4);
	CHECK_LOG("http://srv/big: 2147483648 bytes: too large");
	mem_free(buf);
}
