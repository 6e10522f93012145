#include "tool.h"
int cmd_disk(int argc, char **argv)
{
	(void)argc; (void)argv;
	return tool_fail("not implemented yet");
}
