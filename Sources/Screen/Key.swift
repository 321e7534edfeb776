/// A key the player pressed, independent of how the terminal encodes it.
public enum Key: Sendable, Hashable {
    /// A printable character.
    case character(Character)
    /// A control chord: `.control("c")` is Ctrl-C.
    case control(Character)
    /// F1…F12.
    case function(Int)
    case enter, backspace, delete, tab, backTab, escape
    case up, down, left, right, home, end, pageUp, pageDown
}

/// What a terminal reports.
public enum KeyEvent: Sendable, Hashable {
    case key(Key)
    /// The terminal changed size; redraw at this size at once.
    case resize(Size)
    /// SIGINT, SIGTERM or SIGHUP arrived: restore the terminal and leave.
    case interrupted
}
