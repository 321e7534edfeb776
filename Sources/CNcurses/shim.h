// Wide-character curses: these must be defined before <curses.h> for the *_wch calls.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

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

// A crash (a fault, a trap, an abort) cannot run curses' own restore, which is not safe in a
// signal handler. What is: putting back the terminal settings saved before curses started, and
// writing the terminal's own strings to leave the alternate screen and show the cursor. Then
// the signal goes on to whatever handled it before (Swift's backtrace, or the default).
// State kept in function statics: Swift's importer emits those with the functions that use them.
struct qk_crash_state {
    struct termios settings;
    int have_settings;
    char leave_screen[128];
    size_t leave_screen_length;
    struct sigaction previous[32];
};
static inline struct qk_crash_state *qk_crash(void) { static struct qk_crash_state state; return &state; }

static inline void qk_save_terminal_settings(void) {
    if (tcgetattr(STDIN_FILENO, &qk_crash()->settings) == 0) qk_crash()->have_settings = 1;
}

static inline void qk_on_crash(int number) {
    struct qk_crash_state *state = qk_crash();
    if (state->have_settings) tcsetattr(STDIN_FILENO, TCSANOW, &state->settings);
    if (state->leave_screen_length > 0) { ssize_t written = write(STDOUT_FILENO, state->leave_screen, state->leave_screen_length); (void)written; }
    sigaction(number, &state->previous[number], NULL);
    raise(number);
}

static inline void qk_append_capability(const char *name) {
    struct qk_crash_state *state = qk_crash();
    const char *value = tigetstr(name);
    if (value == NULL || value == (const char *)-1) return;
    size_t length = strlen(value);
    if (state->leave_screen_length + length >= sizeof state->leave_screen) return;
    memcpy(state->leave_screen + state->leave_screen_length, value, length);
    state->leave_screen_length += length;
}

// After curses started: the strings come from its terminal description.
static inline void qk_install_crash_restore(void) {
    static const int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    qk_crash()->leave_screen_length = 0;
    qk_append_capability("sgr0");
    qk_append_capability("cnorm");
    qk_append_capability("rmcup");
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = qk_on_crash;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (signals[i] < 32) sigaction(signals[i], &action, &qk_crash()->previous[signals[i]]);
    }
}

// Restores the terminal whatever way the process exits (exit() on an error path included).
static inline void qk_endwin_if_needed(void) { if (!isendwin()) endwin(); }
static inline void qk_register_exit_restore(void) { atexit(qk_endwin_if_needed); }

// True when the locale's codeset is UTF-8, so box drawing and symbols can be Unicode.
static inline int qk_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// Whether the terminal type can draw the game: terminfo knows it and it can move the cursor
// (`cup`): 1; terminfo knows it but it cannot (`dumb`): 0; terminfo lacks it: -1. Asked before
// curses starts, so such a terminal gets one line and no half-drawn screen.
static inline int qk_terminal_can_address(const char *type) {
    int error = 0;
    if (setupterm((char *)type, STDOUT_FILENO, &error) != OK) return -1;
    const char *cup = tigetstr("cup");
    int can = cup != NULL && cup != (const char *)-1;
    del_curterm(cur_term);
    return can;
}

// Whether the terminal went away (its window closed, the pty's other end gone): a hung-up
// terminal reports POLLHUP, or refuses its settings once the kernel has hung it up.
static inline int qk_terminal_gone(void) {
    struct pollfd input = { .fd = STDIN_FILENO, .events = POLLIN, .revents = 0 };
    if (poll(&input, 1, 0) > 0 && (input.revents & (POLLHUP | POLLERR | POLLNVAL))) return 1;
    struct termios settings;
    return tcgetattr(STDIN_FILENO, &settings) != 0;
}

// Globals Swift 6 refuses to touch (shared mutable state), read through functions.
static inline SCREEN *qk_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline WINDOW *qk_stdscr(void) { return stdscr; }
static inline int qk_color_pairs(void) { return COLOR_PAIRS; }
