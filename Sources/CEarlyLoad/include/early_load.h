// No interface: early_load.c only has a constructor, which runs before main.
