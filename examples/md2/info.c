/* placeholder: replaced by the subcommand's real code */
#include "tool.h"
int tool_info(int argc, char **argv)
{
    (void)argc;
    tool_error(argv[0], "not written yet");
    return TOOL_FAILED;
}
