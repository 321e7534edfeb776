import CNcurses
import Foundation
import Screen

/// The terminal through ncursesw: the only code that talks to curses. Draws screen buffers,
/// reads keys (wide characters included), reports resizes, and puts the terminal back as it
/// was on every way out.
public final class CursesTerminal: Terminal {
    public enum Failure: Error, CustomStringConvertible {
        case notATerminal
        case cannotStart(String)
        /// terminfo knows the type but it cannot move the cursor (`dumb`).
        case cannotAddress(String)

        public var description: String {
            switch self {
            case .notATerminal: "the full-screen game needs a terminal; use 'play --plain' for scripts and pipes"
            case .cannotStart(let term): "cannot start the full-screen game on terminal type '\(term)'; try 'play --plain'"
            case .cannotAddress(let term): "terminal type '\(term)' cannot move the cursor, which the full-screen game needs; try 'play --plain'"
            }
        }
    }

    public let capabilities: TerminalCapabilities
    public private(set) var size: Size
    private let screen: OpaquePointer
    private var restored = false
    /// Attributes for each colour, built once.
    private let colorPairs: [Color: Int16]

    /// Sets the locale first (wide characters need it), then takes over the terminal.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Failure) {
        setlocale(LC_ALL, "")
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else { throw .notATerminal }
        let type = environment["TERM"] ?? ""
        // Without a type curses would fall back on a guess; a type terminfo lacks, or one with
        // no cursor addressing, would draw a screen of spaces.
        let addressing = type.isEmpty ? -1 : qk_terminal_can_address(type)
        guard addressing == 1 else { throw addressing == 0 ? .cannotAddress(type) : .cannotStart(type) }
        qk_save_terminal_settings()
        guard let screen = qk_newterm() else { throw .cannotStart(type) }
        self.screen = screen
        qk_register_exit_restore()
        qk_install_signal_handlers()
        qk_install_crash_restore()
        raw()
        noecho()
        nonl()
        keypad(qk_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        // NO_COLOR: any value turns colours off (no-color.org).
        let wantsColor = environment["NO_COLOR"] == nil && has_colors()
        var pairs: [Color: Int16] = [:]
        if wantsColor {
            start_color()
            use_default_colors()
            let codes: [(Color, Int16)] = [(.red, Int16(COLOR_RED)), (.green, Int16(COLOR_GREEN)), (.yellow, Int16(COLOR_YELLOW)),
                                           (.blue, Int16(COLOR_BLUE)), (.magenta, Int16(COLOR_MAGENTA)), (.cyan, Int16(COLOR_CYAN))]
            for (index, (color, code)) in codes.enumerated() where Int32(index + 1) < qk_color_pairs() {
                init_pair(Int16(index + 1), code, -1)
                pairs[color] = Int16(index + 1)
            }
        }
        colorPairs = pairs
        capabilities = TerminalCapabilities(unicode: qk_locale_is_utf8() != 0, colors: !pairs.isEmpty)
        size = Size(width: Int(getmaxx(qk_stdscr())), height: Int(getmaxy(qk_stdscr())))
    }

    deinit { restore() }

    public func draw(_ buffer: ScreenBuffer) {
        erase()
        let width = min(buffer.size.width, size.width), height = min(buffer.size.height, size.height)
        for y in 0..<height {
            var x = 0
            // One call per run of cells with the same style.
            while x < width {
                let style = buffer[x, y].style
                var text: [wchar_t] = []
                let start = x
                while x < width && buffer[x, y].style == style {
                    let cell = buffer[x, y]
                    if !cell.isContinuation {
                        text += cell.character.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                    }
                    x += 1
                }
                attrset(Int32(bitPattern: attributes(style)))
                text.append(0)
                _ = mvaddwstr(Int32(y), Int32(start), text)
            }
        }
        attrset(0)
        refresh()
    }

    private func attributes(_ style: Style) -> UInt32 {
        var attributes: attr_t = 0
        if style.bold { attributes |= qk_attr_bold() }
        if style.dim { attributes |= qk_attr_dim() }
        if style.reverse { attributes |= qk_attr_reverse() }
        if style.underline { attributes |= qk_attr_underline() }
        if let color = style.color, let pair = colorPairs[color] {
            attributes |= attr_t(UInt32(pair) << 8)
        }
        return UInt32(attributes)
    }

    public func nextEvent(timeoutMilliseconds: Int) -> KeyEvent? {
        if qk_take_signal() != 0 { return .interrupted }
        timeout(Int32(timeoutMilliseconds))
        var character: wint_t = 0
        let result = get_wch(&character)
        if qk_take_signal() != 0 { return .interrupted }
        // A closed window sends SIGHUP only to the session's leader; a game started from a
        // shell that does not pass it on would otherwise read nothing forever.
        if result == ERR, qk_terminal_gone() != 0 { return .interrupted }
        switch result {
        case KEY_CODE_YES:
            return functionKey(Int32(character))
        case OK:
            return Self.key(forCharacter: UInt32(character)).map(KeyEvent.key)
        default:
            return nil
        }
    }

    private func functionKey(_ code: Int32) -> KeyEvent? {
        switch code {
        case KEY_RESIZE:
            size = Size(width: Int(getmaxx(qk_stdscr())), height: Int(getmaxy(qk_stdscr())))
            return .resize(size)
        case qk_key_f(1)...qk_key_f(12): return .key(.function(Int(code - qk_key_f(0))))
        default: return Self.functionKeys[code].map(KeyEvent.key)
        }
    }

    /// Curses' codes of the other keys that are not characters (F1 to F12 and a resize are above).
    private static let functionKeys: [Int32: Key] = [
        KEY_UP: .up, KEY_DOWN: .down, KEY_LEFT: .left, KEY_RIGHT: .right, KEY_HOME: .home, KEY_END: .end,
        KEY_PPAGE: .pageUp, KEY_NPAGE: .pageDown, KEY_BACKSPACE: .backspace, KEY_DC: .delete, KEY_ENTER: .enter,
        KEY_BTAB: .backTab,
    ]

    /// A character from the keyboard as a key: control codes become their chord.
    static func key(forCharacter code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        // The terminal's own Backspace arrives as KEY_BACKSPACE, DEL or, in many terminals, ^H:
        // all three delete a letter.
        case 127, 8: return .backspace
        case 1...26: return .control(Character(UnicodeScalar(code + 96)!))
        case 0..<32: return nil
        default: return UnicodeScalar(code).map { .character(Character($0)) }
        }
    }

    /// Whether the locale's codeset is UTF-8 (`LANG`, `LC_ALL`, `LC_CTYPE`): the test the full
    /// screen makes for its glyphs, for the commands' printed text too.
    public static let localeIsUTF8: Bool = {
        setlocale(LC_CTYPE, "")
        return qk_locale_is_utf8() != 0
    }()

    public func restore() {
        guard !restored else { return }
        restored = true
        curs_set(1)
        endwin()
        delscreen(screen)
    }
}
