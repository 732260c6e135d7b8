/* args_line.h — feed args_parse one command line written as a string, the
 * way the CPU suites test the command-line contract ("--group 0" ...). */
#ifndef TESTS_ARGS_LINE_H
#define TESTS_ARGS_LINE_H

#include <stdio.h>
#include <string.h>

#include "args.h"

/* msg must hold 512 bytes.  Parsed options may point into the static
 * buffer, so it lives until the next call. */
static inline int parse(const args_limits *lim, const char *line, args_options *o, char *msg)
{
    static char buf[512];
    static char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "prog %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " ")) argv[argc++] = t;
    argv[argc] = NULL;
    return args_parse(argc, argv, lim, o, msg, 512);
}

#endif
