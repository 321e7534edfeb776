// Wide-character curses: these must be defined before <curses.h> for the *_wch calls.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ncursesw/curses.h>

// Attribute and key macros Swift cannot import.
static inline attr_t qk_attr_bold(void) { return A_BOLD; }
static inline attr_t qk_attr_dim(void) { return A_DIM; }
static inline attr_t qk_attr_reverse(void) { return A_REVERSE; }
static inline attr_t qk_attr_underline(void) { return A_UNDERLINE; }
static inline int qk_key_f(int n) { return KEY_F(n); }

// Signals: the handler only records the signal; the event loop restores the terminal and leaves.
static volatile sig_atomic_t qk_signal = 0;
static inline void qk_on_signal(int number) { qk_signal = number; }
static inline void qk_install_signal_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = qk_on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    // A parent may have started us with these blocked; they must reach the handler.
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGHUP);
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
}
static inline int qk_take_signal(void) { int n = qk_signal; qk_signal = 0; return n; }

// Restores the terminal whatever way the process exits (exit() on an error path included).
static inline void qk_endwin_if_needed(void) { if (!isendwin()) endwin(); }
static inline void qk_register_exit_restore(void) { atexit(qk_endwin_if_needed); }

// True when the locale's codeset is UTF-8, so box drawing and symbols can be Unicode.
static inline int qk_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// Globals Swift 6 refuses to touch (shared mutable state), read through functions.
static inline SCREEN *qk_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline WINDOW *qk_stdscr(void) { return stdscr; }
static inline int qk_color_pairs(void) { return COLOR_PAIRS; }
