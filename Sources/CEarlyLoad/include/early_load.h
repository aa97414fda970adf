#ifndef LAUNCHAD_EARLY_LOAD_H
#define LAUNCHAD_EARLY_LOAD_H
// early_load.c's constructor runs before main: it starts loading FFmpeg for `play` and
// `launch`, and gives the process an empty Compose table (see there).

/// 1 when the constructor set XCOMPOSEFILE for launchad itself (it was unset): the programs
/// launchad starts must not inherit it.
int launchad_compose_table_emptied(void);

#endif
