// Wide-character curses: these must be defined before <curses.h> for the *_wch calls.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
