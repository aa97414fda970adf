#ifndef LAUNCHAD_EARLY_LOAD_H
#define LAUNCHAD_EARLY_LOAD_H
// early_load.c's constructor runs before main: it starts loading FFmpeg for `play` and
// `launch`, gives the process an empty Compose table, and notes their quit signals (see there).

/// 1 when the constructor set XCOMPOSEFILE for launchad itself (it was unset): the programs
/// launchad starts must not inherit it.
int launchad_compose_table_emptied(void);

/// The first SIGTERM or SIGINT `play` or `launch` received since the last call (0: none),
/// noted by the handler the constructor set before SDL could set its own.
int launchad_take_quit_signal(void);

/// The first SIGTERM or SIGINT the process received, taken or not (0: none).
int launchad_first_quit_signal_noted(void);

/// A descriptor that gets one byte (the signal's number) for every quit signal noted, for a
/// thread that waits on it; -1 when the constructor caught no signals (not `play` or `launch`).
int launchad_quit_signal_fd(void);

/// How many arguments the process was started with (argv[0] included), as the constructor
/// saw them; 0 when it saw none.
int launchad_argument_count(void);

/// Argument `index` (0 is the program), or NULL past the end.
const char *launchad_argument(int index);

#endif
