/* proc.h — run a step binary as a child process, with a time limit, and keep
 * its output: the GPU tests and the argument tests judge programs the way a
 * learner runs them (exit code + message). */
#ifndef TESTS_PROC_H
#define TESTS_PROC_H

typedef struct {
    int exit_code;      /* -1 if killed by a signal or the time limit */
    int timed_out;
    double seconds;
    char output[16384]; /* stdout and stderr, truncated */
} proc_result;

/* argv-style command line from one string split on spaces.  Returns 0 if the
 * program could be started. */
int proc_run(const char *cmdline, int timeout_s, proc_result *r);

/* Path of a step binary: $COURSE_BUILD (default "build") / name. */
const char *step_path(const char *name, char *buf, int len);
const char *debug_step_path(const char *name, char *buf, int len);

/* 1 if a CUDA device is present; sm90 receives 1 if it is compute 9.0. */
int gpu_present(int *sm90);

#endif
